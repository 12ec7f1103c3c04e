/* Overlap of a collective's send and receive buffers (see coll/alias.h). */
#include <stdlib.h>
#include "coll/alias.h"

/* Past this many runs a side the check is skipped (a missed error, never a
 * false one), bounding its memory (16 bytes a run) and time. */
#define ALIAS_MAX_RUNS (1 << 16)
/* Candidate block pairs compared exactly before giving up (same reason). */
#define ALIAS_MAX_EXACT 64

static int cmp_iov(const void *x, const void *y)
{
    const ucmpi_dt_iov_t *a = x, *b = y;
    return a->off < b->off ? -1 : a->off > b->off;
}

/* The runs of (buf, count, dt) sorted by address (malloc'd), or NULL when
 * out of memory or more than ALIAS_MAX_RUNS. */
static ucmpi_dt_iov_t *sorted_runs(const void *buf, MPI_Count count,
                                   MPI_Datatype dt, size_t *n)
{
    size_t total = (size_t)(count * dt->size), pos = 0, got = 0, cap = 64;
    ucmpi_dt_iov_t *iov = malloc(cap * sizeof(*iov));
    ucmpi_dt_cursor_t *c = ucmpi_dt_cursor_create(dt, buf, count);

    while (iov != NULL && c != NULL && pos < total) {
        size_t k = 0;

        if (got == cap) {
            ucmpi_dt_iov_t *w = cap < ALIAS_MAX_RUNS
                                    ? realloc(iov, 2 * cap * sizeof(*iov))
                                    : NULL;
            if (w == NULL)
                break;
            iov = w;
            cap *= 2;
        }
        size_t b = ucmpi_dt_cursor_iov(c, pos, total - pos, iov + got,
                                       cap - got, &k);
        if (b == 0)
            break;
        pos += b;
        got += k;
    }
    if (c != NULL)
        ucmpi_dt_cursor_destroy(c);
    if (iov == NULL || pos < total) {
        free(iov);
        return NULL;
    }
    qsort(iov, got, sizeof(*iov), cmp_iov);
    *n = got;
    return iov;
}

int ucmpi_coll_alias_exact(const void *a, MPI_Count acount, MPI_Datatype adt,
                           const void *b, MPI_Count bcount, MPI_Datatype bdt)
{
    size_t na = 0, nb = 0, i = 0, j = 0;
    ucmpi_dt_iov_t *x = sorted_runs(a, acount, adt, &na);
    ucmpi_dt_iov_t *y = x ? sorted_runs(b, bcount, bdt, &nb) : NULL;
    int hit = 0;

    /* runs are offsets from their buffer: compare absolute addresses */
    while (y && !hit && i < na && j < nb) {
        intptr_t xl = (intptr_t)a + x[i].off, xh = xl + (intptr_t)x[i].len;
        intptr_t yl = (intptr_t)b + y[j].off, yh = yl + (intptr_t)y[j].len;

        if (x[i].len == 0 || xh <= yl)
            i++;
        else if (y[j].len == 0 || yh <= xl)
            j++;
        else
            hit = 1;
    }
    free(x);
    free(y);
    return hit;
}

/* Block i of side s: its start address, count and type. */
static void side_block(const ucmpi_coll_side_t *s, int i, intptr_t *base,
                       MPI_Count *count, MPI_Datatype *dt)
{
    MPI_Aint d;

    *count = s->counts ? s->counts[i] : s->ccounts ? s->ccounts[i] : s->count;
    *dt = s->dts ? s->dts[i] : s->dt;
    d = s->displs ? s->displs[i] : s->adispls ? s->adispls[i] : 0;
    *base = (intptr_t)s->buf;
    if (*count > 0)
        *base += s->dts ? (intptr_t)d : (intptr_t)(d * (*dt)->extent);
}

static int nblocks(const ucmpi_coll_side_t *s)
{
    return s->counts || s->ccounts ? s->n : 1;
}

/* Union of the spans of all blocks of s (lo == hi: empty). */
static ucmpi_coll_span_t side_span(const ucmpi_coll_side_t *s)
{
    ucmpi_coll_span_t all = {0, 0};

    for (int i = 0, n = nblocks(s); i < n; i++) {
        intptr_t base;
        MPI_Count count;
        MPI_Datatype dt;
        ucmpi_coll_span_t sp;

        side_block(s, i, &base, &count, &dt);
        sp = ucmpi_coll_span(base, count, dt);
        if (sp.lo == sp.hi)
            continue;
        if (all.lo == all.hi)
            all = sp;
        if (sp.lo < all.lo)
            all.lo = sp.lo;
        if (sp.hi > all.hi)
            all.hi = sp.hi;
    }
    return all;
}

typedef struct {
    ucmpi_coll_span_t sp;
    int side, blk;
} tagged_span_t;

static int cmp_tagged(const void *x, const void *y)
{
    const tagged_span_t *a = x, *b = y;
    return a->sp.lo < b->sp.lo ? -1 : a->sp.lo > b->sp.lo;
}

/* Do blocks p (of side sides[p->side]) and q share a byte? */
static int pair_alias(const ucmpi_coll_side_t *const *sides,
                      const tagged_span_t *p, const tagged_span_t *q,
                      int *exact_left)
{
    intptr_t pb, qb;
    MPI_Count pc, qc;
    MPI_Datatype pt, qt;

    side_block(sides[p->side], p->blk, &pb, &pc, &pt);
    side_block(sides[q->side], q->blk, &qb, &qc, &qt);
    if (pt->contig && qt->contig)
        return 1;     /* spans overlap and both are dense */
    if (*exact_left <= 0)
        return 0;
    (*exact_left)--;
    return ucmpi_coll_alias_exact((void *)pb, pc, pt, (void *)qb, qc, qt);
}

/* Sweep over both sides' blocks in address order: each block is compared
 * with the other side's open block that reaches furthest. */
static int sweep(const ucmpi_coll_side_t *s, const ucmpi_coll_side_t *r)
{
    const ucmpi_coll_side_t *sides[2] = {s, r};
    int ns = nblocks(s), nr = nblocks(r), m = 0, hit = 0;
    int exact_left = ALIAS_MAX_EXACT, open[2] = {-1, -1};
    tagged_span_t *t = malloc(((size_t)ns + (size_t)nr) * sizeof(*t));

    if (t == NULL)
        return 0;     /* no memory: skip the check rather than fail */
    for (int k = 0; k < 2; k++)
        for (int i = 0, n = k ? nr : ns; i < n; i++) {
            intptr_t base;
            MPI_Count count;
            MPI_Datatype dt;

            side_block(sides[k], i, &base, &count, &dt);
            t[m].sp = ucmpi_coll_span(base, count, dt);
            t[m].side = k;
            t[m].blk = i;
            if (t[m].sp.lo != t[m].sp.hi)
                m++;
        }
    qsort(t, (size_t)m, sizeof(*t), cmp_tagged);
    for (int i = 0; i < m && !hit; i++) {
        int k = t[i].side, o = open[!k];

        if (o >= 0 && t[o].sp.hi > t[i].sp.lo)
            hit = pair_alias(sides, &t[i], &t[o], &exact_left);
        if (open[k] < 0 || t[i].sp.hi > t[open[k]].sp.hi)
            open[k] = i;
    }
    free(t);
    return hit;
}

int ucmpi_coll_alias(const ucmpi_coll_side_t *s, const ucmpi_coll_side_t *r)
{
    ucmpi_coll_span_t x, y;

    if (s->buf == MPI_IN_PLACE || r->buf == MPI_IN_PLACE)
        return 0;
    if (nblocks(s) == 1 && nblocks(r) == 1) {
        intptr_t sb, rb;
        MPI_Count sc, rc;
        MPI_Datatype st, rt;

        side_block(s, 0, &sb, &sc, &st);
        side_block(r, 0, &rb, &rc, &rt);
        return ucmpi_coll_alias1((void *)sb, sc, st, (void *)rb, rc, rt);
    }
    x = side_span(s);
    y = side_span(r);
    if (x.lo == x.hi || y.lo == y.hi || x.hi <= y.lo || y.hi <= x.lo)
        return 0;
    return sweep(s, r);
}

int ucmpi_coll_alias_err(ucmpi_comm_t *comm, const char *fn)
{
    return ucmpi_err_comm(comm, MPI_ERR_BUFFER, fn, "the send and receive "
                          "buffers overlap (MPI forbids aliasing; use "
                          "MPI_IN_PLACE)");
}
