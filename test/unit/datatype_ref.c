/* Reference model of datatypes: see datatype_ref.h. */
#include "datatype_ref.h"
#include "datatype/datatype.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- random numbers: a seed, or bytes from the fuzzer then a seed ---- */
void ref_rng_seed(ref_rng_t *r, uint64_t seed)
{
    memset(r, 0, sizeof(*r));
    r->s = seed * 0x9E3779B97F4A7C15ull + 1;
}

void ref_rng_bytes(ref_rng_t *r, const uint8_t *data, size_t len)
{
    ref_rng_seed(r, len);
    r->data = data;
    r->len = len;
}

uint64_t ref_rand(ref_rng_t *r, uint64_t n)
{
    uint64_t v;
    if (n <= 1)
        return 0;
    if (r->pos < r->len) {
        v = r->data[r->pos++];
        if (n > 256 && r->pos < r->len)
            v = v << 8 | r->data[r->pos++];
        return v % n;
    }
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return r->s % n;
}

/* ---- model construction ---- */
typedef struct { MPI_Datatype dt; int nparts, o0, l0, o1, l1, align; } basic_t;

#define PAIR_OF(T1, T2) 2, 0, sizeof(T1), offsetof(struct {T1 a; T2 b;}, b), \
        sizeof(T2), _Alignof(struct {T1 a; T2 b;})

static basic_t basics[] = {
    {MPI_CHAR, 1, 0, 1, 0, 0, 1},
    {MPI_SHORT, 1, 0, 2, 0, 0, 2},
    {MPI_INT, 1, 0, 4, 0, 0, 4},
    {MPI_DOUBLE, 1, 0, 8, 0, 0, 8},
    {MPI_LONG_DOUBLE, 1, 0, sizeof(long double), 0, 0, _Alignof(long double)},
    {MPI_C_DOUBLE_COMPLEX, 1, 0, 16, 0, 0, 8},
    {MPI_2INT, PAIR_OF(int, int)},
    {MPI_SHORT_INT, PAIR_OF(short, int)},
    {MPI_DOUBLE_INT, PAIR_OF(double, int)},
    {MPI_LONG_DOUBLE_INT, PAIR_OF(long double, int)},
};
#define NBASICS (sizeof(basics) / sizeof(basics[0]))

ref_t *ref_basic(MPI_Datatype dt)
{
    ref_t *r = calloc(1, sizeof(*r));
    size_t i;
    for (i = 0; i < NBASICS && basics[i].dt != dt; i++)
        ;
    r->dt = dt;
    r->size = dt->size;
    r->extent = dt->extent;
    r->basic_size = (int)dt->size;
    if (i < NBASICS) {
        r->nparts = basics[i].nparts;
        r->part_off[0] = basics[i].o0;
        r->part_len[0] = basics[i].l0;
        r->part_off[1] = basics[i].o1;
        r->part_len[1] = basics[i].l1;
        r->align = basics[i].align;
    } else {
        r->nparts = 1;
        r->part_len[0] = (int)dt->size;
        r->align = 1;
    }
    return r;
}

ref_t *ref_entries(int n, const MPI_Aint *disp, const int *bl,
                   ref_t **child, int is_struct)
{
    ref_t *r = calloc(1, sizeof(*r));
    int any = 0, sticky = 0;
    MPI_Aint lb = 0, ub = 0;

    r->n = n;
    r->disp = malloc(sizeof(MPI_Aint) * (size_t)(n + 1));
    r->bl = malloc(sizeof(int) * (size_t)(n + 1));
    r->child = malloc(sizeof(ref_t *) * (size_t)(n + 1));
    memcpy(r->disp, disp, sizeof(MPI_Aint) * (size_t)n);
    memcpy(r->bl, bl, sizeof(int) * (size_t)n);
    memcpy(r->child, child, sizeof(ref_t *) * (size_t)n);
    r->is_struct = is_struct;
    r->align = 1;
    for (int i = 0; i < n; i++) {
        ref_t *c = child[i];
        if (bl[i] == 0)
            continue;
        MPI_Aint span = (MPI_Aint)(bl[i] - 1) * c->extent;
        MPI_Aint lo = disp[i] + c->lb + (span < 0 ? span : 0);
        MPI_Aint hi = disp[i] + c->lb + c->extent + (span > 0 ? span : 0);
        lb = any && lb < lo ? lb : lo;
        ub = any && ub > hi ? ub : hi;
        any = 1;
        r->size += (MPI_Count)bl[i] * c->size;
        sticky |= c->resized;
        if (c->align > r->align)
            r->align = c->align;
    }
    r->resized = sticky;
    if (is_struct && !sticky && (ub - lb) % r->align)
        ub += r->align - (ub - lb) % r->align;
    r->lb = lb;
    r->extent = ub - lb;
    return r;
}

void ref_free(ref_t *r)
{
    if (r == NULL)
        return;
    for (int i = 0; i < r->nowned; i++)
        if (r->owned[i])
            ref_free(r->owned[i]);
    if (r->dt && !r->dt->predefined)
        MPI_Type_free(&r->dt);
    free(r->disp);
    free(r->bl);
    free(r->child);
    free(r);
}

/* ---- typemaps ---- */
static void map_add(ref_map_t *m, MPI_Aint off, MPI_Aint len)
{
    if (m->n && m->p[m->n - 1].off + m->p[m->n - 1].len == off) {
        m->p[m->n - 1].len += len;
        return;
    }
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 64;
        m->p = realloc(m->p, m->cap * sizeof(*m->p));
    }
    m->p[m->n++] = (ref_piece_t){off, len};
}

static void walk(const ref_t *r, MPI_Aint base, ref_map_t *m)
{
    if (r->basic_size) {
        for (int i = 0; i < r->nparts; i++)
            map_add(m, base + r->part_off[i], r->part_len[i]);
        return;
    }
    for (int i = 0; i < r->n; i++)
        for (int j = 0; j < r->bl[i]; j++)
            walk(r->child[i], base + r->disp[i] + j * r->child[i]->extent, m);
}

void ref_map(const ref_t *r, MPI_Count count, ref_map_t *m)
{
    memset(m, 0, sizeof(*m));
    for (MPI_Count c = 0; c < count; c++)
        walk(r, (MPI_Aint)c * r->extent, m);
}

void ref_map_free(ref_map_t *m)
{
    free(m->p);
    memset(m, 0, sizeof(*m));
}

size_t ref_pack(const ref_map_t *m, const char *buf, char *out)
{
    size_t n = 0;
    for (size_t i = 0; i < m->n; i++) {
        memcpy(out + n, buf + m->p[i].off, (size_t)m->p[i].len);
        n += (size_t)m->p[i].len;
    }
    return n;
}

size_t ref_unpack(const ref_map_t *m, char *buf, const char *in)
{
    size_t n = 0;
    for (size_t i = 0; i < m->n; i++) {
        memcpy(buf + m->p[i].off, in + n, (size_t)m->p[i].len);
        n += (size_t)m->p[i].len;
    }
    return n;
}
