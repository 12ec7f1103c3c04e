/* Random type trees (MPI type + reference model) and the checks that
 * compare them.  Shared by the Check unit test and the libFuzzer target. */
#include "datatype_ref.h"
#include "datatype/datatype.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MPI_Datatype const leaf_types[] = {
    MPI_CHAR, MPI_SHORT, MPI_INT, MPI_DOUBLE, MPI_LONG_DOUBLE,
    MPI_C_DOUBLE_COMPLEX, MPI_2INT, MPI_SHORT_INT, MPI_DOUBLE_INT,
    MPI_LONG_DOUBLE_INT};
#define NLEAVES (sizeof(leaf_types) / sizeof(leaf_types[0]))

static int64_t rr(ref_rng_t *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)ref_rand(r, (uint64_t)(hi - lo + 1));
}

enum { K_CONTIG, K_VECTOR, K_HVECTOR, K_INDEXED, K_HINDEXED, K_IBLOCK,
       K_HIBLOCK, K_STRUCT, K_RESIZED, K_DUP, K_SUBARRAY, K_DARRAY, K_N };

#define MAXE 64

/* Subarray model: every element of the sub-block, in array order. */
static int gen_subarray(ref_rng_t *g, ref_t *c, MPI_Aint *disp, int *bl,
                        MPI_Datatype *t)
{
    int nd = (int)rr(g, 1, 3), sz[3], sub[3], st[3], n = 0;
    int order = ref_rand(g, 2) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
    for (int d = 0; d < nd; d++) {
        sz[d] = (int)rr(g, 1, 4);
        sub[d] = (int)rr(g, 1, sz[d]);
        st[d] = (int)rr(g, 0, sz[d] - sub[d]);
    }
    /* iterate sub-block indices with the fastest dimension last (C) or
     * first (Fortran) */
    int idx[3] = {0, 0, 0};
    for (;;) {
        MPI_Aint lin = 0;
        for (int k = 0; k < nd; k++) {
            int d = order == MPI_ORDER_C ? k : nd - 1 - k;
            lin = lin * sz[d] + st[d] + idx[d];
        }
        disp[n] = lin * c->extent;
        bl[n++] = 1;
        int k = nd - 1;
        for (; k >= 0; k--) {
            int d = order == MPI_ORDER_C ? k : nd - 1 - k;
            if (++idx[d] < sub[d])
                break;
            idx[d] = 0;
        }
        if (k < 0)
            break;
    }
    if (MPI_Type_create_subarray(nd, sz, sub, st, order, c->dt, t))
        return -1;
    return n;
}

/* Darray model: the global elements this rank owns, in array order. */
static int gen_darray(ref_rng_t *g, ref_t *c, MPI_Aint *disp, int *bl,
                      MPI_Datatype *t)
{
    int nd = (int)rr(g, 1, 2), gs[2], dist[2], darg[2], ps[2], coord[2];
    int order = ref_rand(g, 2) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
    int size = 1, n = 0;
    for (int d = 0; d < nd; d++) {
        gs[d] = (int)rr(g, 1, 6);
        ps[d] = (int)rr(g, 1, 3);
        dist[d] = MPI_DISTRIBUTE_BLOCK + (int)ref_rand(g, 3);
        if (dist[d] == MPI_DISTRIBUTE_NONE)
            ps[d] = 1;
        darg[d] = MPI_DISTRIBUTE_DFLT_DARG;
        if (dist[d] == MPI_DISTRIBUTE_CYCLIC && ref_rand(g, 2))
            darg[d] = (int)rr(g, 1, 3);
        if (dist[d] == MPI_DISTRIBUTE_BLOCK && ref_rand(g, 2))
            darg[d] = (gs[d] + ps[d] - 1) / ps[d] + (int)rr(g, 0, 2);
        size *= ps[d];
    }
    int rank = (int)rr(g, 0, size - 1);
    /* process grid is row-major whatever the array order */
    for (int d = nd - 1, r = rank; d >= 0; d--) {
        coord[d] = r % ps[d];
        r /= ps[d];
    }
    int idx[2] = {0, 0};
    for (;;) {
        int mine = 1;
        MPI_Aint lin = 0;
        for (int d = 0; d < nd; d++) {
            int b = darg[d];
            if (dist[d] == MPI_DISTRIBUTE_BLOCK) {
                if (b == MPI_DISTRIBUTE_DFLT_DARG)
                    b = (gs[d] + ps[d] - 1) / ps[d];
                mine &= idx[d] / b == coord[d];
            } else if (dist[d] == MPI_DISTRIBUTE_CYCLIC) {
                if (b == MPI_DISTRIBUTE_DFLT_DARG)
                    b = 1;
                mine &= (idx[d] / b) % ps[d] == coord[d];
            }
        }
        for (int k = 0; k < nd; k++) {
            int d = order == MPI_ORDER_C ? k : nd - 1 - k;
            lin = lin * gs[d] + idx[d];
        }
        if (mine) {
            disp[n] = lin * c->extent;
            bl[n++] = 1;
        }
        int k = nd - 1;
        for (; k >= 0; k--) {
            int d = order == MPI_ORDER_C ? k : nd - 1 - k;
            if (++idx[d] < gs[d])
                break;
            idx[d] = 0;
        }
        if (k < 0)
            break;
    }
    if (MPI_Type_create_darray(size, rank, nd, gs, dist, darg, ps, order,
                               c->dt, t))
        return -1;
    return n;
}

ref_t *ref_random(ref_rng_t *g, int depth)
{
    if (depth <= 0 || (!g->full && ref_rand(g, 6) == 0))
        return ref_basic(leaf_types[ref_rand(g, NLEAVES)]);

    int kind = (int)ref_rand(g, K_N), n = 1, nown = 1, rc = 0;
    ref_t *own[4] = {NULL};
    ref_t *ch[MAXE];
    MPI_Aint disp[MAXE];
    int bl[MAXE], idisp[MAXE];
    MPI_Datatype t = MPI_DATATYPE_NULL, types[4];
    MPI_Aint lb = 0, ext = 0;

    if (kind == K_STRUCT)
        nown = (int)rr(g, 1, 3);
    for (int i = 0; i < nown; i++) {
        own[i] = ref_random(g, depth - 1);
        if (own[i] == NULL)
            goto fail;
    }
    ref_t *c = own[0];
    MPI_Aint e = c->extent;
    int cnt = (int)rr(g, 0, 3), b = (int)rr(g, 0, 3);
    switch (kind) {
    case K_CONTIG:
        disp[0] = 0, bl[0] = cnt;
        rc = MPI_Type_contiguous(cnt, c->dt, &t);
        break;
    case K_VECTOR: {
        int s = (int)rr(g, -4, 4);
        n = cnt;
        for (int i = 0; i < n; i++)
            disp[i] = (MPI_Aint)i * s * e, bl[i] = b;
        rc = MPI_Type_vector(cnt, b, s, c->dt, &t);
        break;
    }
    case K_HVECTOR: {
        MPI_Aint s = rr(g, -2 * e - 16, 2 * e + 16);
        n = cnt;
        for (int i = 0; i < n; i++)
            disp[i] = i * s, bl[i] = b;
        rc = MPI_Type_create_hvector(cnt, b, s, c->dt, &t);
        break;
    }
    case K_INDEXED:
    case K_IBLOCK:
        n = (int)rr(g, 0, 5);
        for (int i = 0; i < n; i++) {
            idisp[i] = (int)rr(g, -6, 6);
            disp[i] = idisp[i] * e;
            bl[i] = kind == K_IBLOCK ? b : (int)rr(g, 0, 3);
        }
        rc = kind == K_IBLOCK
                 ? MPI_Type_create_indexed_block(n, b, idisp, c->dt, &t)
                 : MPI_Type_indexed(n, bl, idisp, c->dt, &t);
        break;
    case K_HINDEXED:
    case K_HIBLOCK:
        n = (int)rr(g, 0, 5);
        for (int i = 0; i < n; i++) {
            disp[i] = rr(g, -64, 64);
            bl[i] = kind == K_HIBLOCK ? b : (int)rr(g, 0, 3);
        }
        rc = kind == K_HIBLOCK
                 ? MPI_Type_create_hindexed_block(n, b, disp, c->dt, &t)
                 : MPI_Type_create_hindexed(n, bl, disp, c->dt, &t);
        break;
    case K_STRUCT:
        n = nown;
        for (int i = 0; i < n; i++) {
            disp[i] = rr(g, -64, 64);
            bl[i] = (int)rr(g, 0, 3);
            types[i] = own[i]->dt;
            ch[i] = own[i];
        }
        rc = MPI_Type_create_struct(n, bl, disp, types, &t);
        break;
    case K_RESIZED:
        lb = rr(g, -16, 16);
        ext = rr(g, 1, 64);
        disp[0] = 0, bl[0] = 1;
        rc = MPI_Type_create_resized(c->dt, lb, ext, &t);
        break;
    case K_DUP:
        disp[0] = 0, bl[0] = 1;
        rc = MPI_Type_dup(c->dt, &t);
        break;
    case K_SUBARRAY:
        n = gen_subarray(g, c, disp, bl, &t);
        rc = n < 0;
        break;
    case K_DARRAY:
        n = gen_darray(g, c, disp, bl, &t);
        rc = n < 0;
        break;
    }
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "ref_random: constructor %d failed\n", kind);
        goto fail;
    }
    if (kind != K_STRUCT)
        for (int i = 0; i < n; i++)
            ch[i] = c;
    ref_t *r = ref_entries(n, disp, bl, ch, kind == K_STRUCT);
    r->dt = t;
    r->nowned = nown;
    memcpy(r->owned, own, sizeof(own));
    if (kind == K_RESIZED || kind == K_SUBARRAY || kind == K_DARRAY)
        r->resized = 1;
    if (kind == K_RESIZED) {
        r->lb = lb;
        r->extent = ext;
    } else if (kind == K_SUBARRAY || kind == K_DARRAY) {
        int nd, ni, na, nt, comb;
        int ints[64];
        MPI_Aint ai[1];
        MPI_Datatype dts[1];
        MPI_Type_get_envelope(t, &ni, &na, &nt, &comb);
        MPI_Type_get_contents(t, ni, na, nt, ints, ai, dts);
        if (!dts[0]->predefined)
            MPI_Type_free(&dts[0]);
        MPI_Aint prod = 1;
        int off = kind == K_SUBARRAY ? 1 : 3;
        nd = ints[off - 1];
        for (int d = 0; d < nd; d++)
            prod *= ints[off + d];
        r->lb = 0;
        r->extent = prod * c->extent;
    } else if (kind == K_DUP) {
        r->lb = c->lb;
        r->extent = c->extent;
        r->resized = c->resized;
    }
    /* keep buffers small: fall back to the child when the type grew big */
    if (r->size > 65536 || r->extent > (1 << 20) || r->lb > (1 << 20) ||
        r->lb < -(1 << 20)) {
        r->owned[0] = NULL;
        ref_free(r);
        return c;
    }
    /* children handles go now: the parent must keep them alive */
    for (int i = 0; i < nown; i++)
        if (!own[i]->dt->predefined)
            MPI_Type_free(&own[i]->dt);
    if (ref_rand(g, 3) == 0)
        MPI_Type_commit(&r->dt);
    return r;

fail:
    for (int i = 0; i < nown; i++)
        ref_free(own[i]);
    return NULL;
}

/* ---- comparing the library with the model ---- */
#define FAIL(...)                                                       \
    do {                                                                \
        fprintf(stderr, "ref_check: " __VA_ARGS__);                     \
        fprintf(stderr, "\n");                                          \
        goto out;                                                       \
    } while (0)

static void fill(char *p, size_t n, ref_rng_t *g)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (char)ref_rand(g, 256);
}

int ref_check(ref_t *r, MPI_Count count, ref_rng_t *g)
{
    MPI_Datatype dt = r->dt;
    ref_map_t m, m1;
    int ret = -1;
    char *src = NULL, *d1 = NULL, *d2 = NULL, *p1 = NULL, *p2 = NULL;
    ucmpi_dt_cursor_t *cur = NULL;

    ref_map(r, count, &m);
    ref_map(r, 1, &m1);
    if (dt->size != r->size || dt->lb != r->lb || dt->extent != r->extent)
        FAIL("size/lb/extent %lld/%ld/%ld, model %lld/%ld/%ld",
             dt->size, (long)dt->lb, (long)dt->extent, r->size, (long)r->lb,
             (long)r->extent);
    if (m1.n) {
        MPI_Aint lo = m1.p[0].off, hi = lo;
        for (size_t i = 0; i < m1.n; i++) {
            if (m1.p[i].off < lo)
                lo = m1.p[i].off;
            if (m1.p[i].off + m1.p[i].len > hi)
                hi = m1.p[i].off + m1.p[i].len;
        }
        if (dt->true_lb != lo || dt->true_extent != hi - lo)
            FAIL("true lb/extent %ld/%ld, model %ld/%ld", (long)dt->true_lb,
                 (long)dt->true_extent, (long)lo, (long)(hi - lo));
    }
    /* a buffer that covers every byte the typemap touches, plus guards */
    MPI_Aint lo = 0, hi = 0;
    for (size_t i = 0; i < m.n; i++) {
        if (m.p[i].off < lo)
            lo = m.p[i].off;
        if (m.p[i].off + m.p[i].len > hi)
            hi = m.p[i].off + m.p[i].len;
    }
    size_t blen = (size_t)(hi - lo) + 64, total = (size_t)(count * r->size);
    src = malloc(blen);
    d1 = malloc(blen);
    d2 = malloc(blen);
    p1 = malloc(total + 1);
    p2 = malloc(total + 1);
    char *o_src = src + 32 - lo, *o_d1 = d1 + 32 - lo, *o_d2 = d2 + 32 - lo;
    fill(src, blen, g);
    if (ref_pack(&m, o_src, p2) != total)
        FAIL("model packs a different size");
    memset(p1, 0x5a, total + 1);
    if (ucmpi_dt_pack(dt, o_src, count, p1) != total ||
        memcmp(p1, p2, total))
        FAIL("pack differs from the model");
    memset(d1, 0xee, blen);
    memset(d2, 0xee, blen);
    ref_unpack(&m, o_d2, p2);
    if (ucmpi_dt_unpack(dt, o_d1, count, p2, total) != total ||
        memcmp(d1, d2, blen))
        FAIL("unpack differs from the model");

    /* cursor: sequential random chunks, then random seeks */
    cur = ucmpi_dt_cursor_create(dt, o_src, count);
    memset(p1, 0x5a, total + 1);
    for (size_t pos = 0; pos < total;) {
        size_t n = ref_rand(g, 4) ? 1 + ref_rand(g, 40) : 1 + ref_rand(g, 5000);
        size_t got = ucmpi_dt_cursor_pack(cur, pos, p1 + pos, n);
        size_t want = n < total - pos ? n : total - pos;
        if (got != want)
            FAIL("cursor pack at %zu returned %zu, want %zu", pos, got, want);
        pos += got;
    }
    if (memcmp(p1, p2, total))
        FAIL("chunked cursor pack differs from the model");
    for (int k = 0; k < 20 && total; k++) {
        size_t off = ref_rand(g, total), n = 1 + ref_rand(g, total - off);
        memset(p1, 0, n);
        if (ucmpi_dt_cursor_pack(cur, off, p1, n) != n ||
            memcmp(p1, p2 + off, n))
            FAIL("cursor pack of [%zu, +%zu) differs", off, n);
    }
    ucmpi_dt_cursor_destroy(cur);
    cur = ucmpi_dt_cursor_create(dt, o_d1, count);
    memset(d1, 0xee, blen);
    for (size_t pos = 0; pos < total;) {
        size_t n = 1 + ref_rand(g, ref_rand(g, 2) ? 16 : 3000);
        pos += ucmpi_dt_cursor_unpack(cur, pos, p2 + pos, n);
    }
    if (memcmp(d1, d2, blen))
        FAIL("chunked cursor unpack differs from the model");
    ucmpi_dt_cursor_destroy(cur);
    cur = NULL;

    /* iov: the model's merged pieces, whole and in small batches */
    ucmpi_dt_iov_t *iov = NULL, small[4];
    size_t niov = 0;
    if (ucmpi_dt_iov(dt, o_src, count, &iov, &niov) != MPI_SUCCESS)
        FAIL("iov: out of memory");
    int same = niov == m.n;
    for (size_t i = 0; same && i < niov; i++)
        same = iov[i].off == m.p[i].off && (MPI_Aint)iov[i].len == m.p[i].len;
    free(iov);
    if (!same)
        FAIL("iov has %zu runs, model %zu (or runs differ)", niov, m.n);
    cur = ucmpi_dt_cursor_create(dt, o_src, count);
    size_t k = 0, pos = 0;
    MPI_Aint end = 0;
    while (pos < total) {
        size_t nout, want = 1 + ref_rand(g, 64);
        size_t got = ucmpi_dt_cursor_iov(cur, pos, want, small,
                                         1 + ref_rand(g, 4), &nout);
        if (got == 0 || nout == 0)
            FAIL("cursor iov made no progress at %zu", pos);
        for (size_t i = 0; i < nout; i++) {
            /* runs may be split across calls: rebuild the model's pieces */
            if (i == 0 && pos > 0 && small[0].off == end)
                k--;
            else if (k < m.n && small[i].off != m.p[k].off)
                FAIL("cursor iov run at %ld, model %ld", (long)small[i].off,
                     (long)m.p[k].off);
            end = small[i].off + (MPI_Aint)small[i].len;
            k++;
        }
        pos += got;
    }
    if (k != m.n)
        FAIL("cursor iov: %zu runs, model %zu", k, m.n);
    ret = 0;
out:
    ucmpi_dt_cursor_destroy(cur);
    ref_map_free(&m);
    ref_map_free(&m1);
    free(src);
    free(d1);
    free(d2);
    free(p1);
    free(p2);
    return ret;
}
