/*
 * Many back-to-back small collectives of mixed kinds, roots, sizes and
 * communicators (world and a split half), the same pseudo-random sequence
 * on every rank: catches reuse of the shm path's flags and buffers too
 * early (a fast root overwriting data a slow reader still copies), sizes
 * on both sides of the shm limit, ranks that pick different datatypes
 * (contiguous and strided) for one bcast, a non-commutative user op, and
 * nonblocking collectives in flight around blocking ones.
 */
#include "../mpitest.h"

#include <string.h>

#define ITERS 1500
#define MAXC 16400            /* ints: just over the 64 KiB shm slot */
#define P 1000003

static unsigned rng = 12345;
static unsigned next(void)
{
    rng = rng * 1103515245u + 12345u;
    return (rng >> 8) & 0xffffff;
}

static const int counts[] = {1, 2, 7, 64, 255, 1024, 2049, 16384, 16385};
#define NCOUNTS ((int)(sizeof(counts) / sizeof(counts[0])))

static int val(int r, int it, int j)
{
    return (r * 7 + it * 13 + j * 3) % 1000;
}

/* Affine maps x -> a*x + b (mod P) composed: associative, not
 * commutative.  inout = in o inout, the order MPI passes them. */
static void compose(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int *f = in, *g = inout;
    (void)dt;
    for (int i = 0; i < *len; i++) {
        long a = (long)f[2 * i] * g[2 * i] % P;
        long b = ((long)f[2 * i] * g[2 * i + 1] + f[2 * i + 1]) % P;
        g[2 * i] = (int)a;
        g[2 * i + 1] = (int)b;
    }
}

static void affine_of(int r, int it, int j, int *m)
{
    m[0] = 2 + (r * 5 + it + j) % 97;
    m[1] = (r * 11 + it * 3 + j) % 89;
}

static int sbuf[MAXC * 8 * 2], rbuf[MAXC * 8 * 2], ebuf[MAXC * 2];

static void do_bcast(MPI_Comm c, int it, int n, int me, int count, int root,
                     int strided)
{
    int ok = 1;
    memset(rbuf, 0xff, sizeof(int) * (size_t)count * 2);
    if (strided) {           /* this rank's type: every other int */
        MPI_Datatype v;
        MPI_Type_vector(count, 1, 2, MPI_INT, &v);
        MPI_Type_commit(&v);
        if (me == root)
            for (int j = 0; j < count; j++)
                rbuf[2 * j] = val(root, it, j);
        MT_CHECK_RC(MPI_Bcast(rbuf, 1, v, root, c));
        for (int j = 0; j < count && ok; j++)
            ok = rbuf[2 * j] == val(root, it, j) &&
                 (j == count - 1 || rbuf[2 * j + 1] == -1);
        MPI_Type_free(&v);
    } else {
        if (me == root)
            for (int j = 0; j < count; j++)
                rbuf[j] = val(root, it, j);
        MT_CHECK_RC(MPI_Bcast(rbuf, count, MPI_INT, root, c));
        for (int j = 0; j < count && ok; j++)
            ok = rbuf[j] == val(root, it, j);
    }
    MT_CHECK(ok, "bcast it %d n %d count %d root %d strided %d", it, n,
             count, root, strided);
}

static void expect_affine(int it, int n, int count)
{
    for (int j = 0; j < count; j++) {
        int acc[2], x[2], len = 1;
        affine_of(n - 1, it, j, acc);
        for (int r = n - 2; r >= 0; r--) {
            affine_of(r, it, j, x);
            compose(x, acc, &len, NULL);
        }
        ebuf[2 * j] = acc[0];
        ebuf[2 * j + 1] = acc[1];
    }
}

static void do_reduce(MPI_Comm c, int it, int n, int me, int count, int root,
                      int all, int inplace, MPI_Op op, MPI_Datatype pair)
{
    int ok = 1, amroot = all || me == root;
    count = count / 2 > 0 ? count / 2 : 1;  /* pairs */
    for (int j = 0; j < count; j++)
        affine_of(me, it, j, &sbuf[2 * j]);
    memset(rbuf, 0, sizeof(int) * (size_t)count * 2);
    if (inplace && amroot)
        memcpy(rbuf, sbuf, sizeof(int) * (size_t)count * 2);
    const void *s = inplace && amroot ? MPI_IN_PLACE : (const void *)sbuf;
    if (all)
        MT_CHECK_RC(MPI_Allreduce(s, rbuf, count, pair, op, c));
    else
        MT_CHECK_RC(MPI_Reduce(s, rbuf, count, pair, op, root, c));
    if (!amroot)
        return;
    expect_affine(it, n, count);
    ok = memcmp(rbuf, ebuf, sizeof(int) * (size_t)count * 2) == 0;
    MT_CHECK(ok, "%s it %d n %d pairs %d root %d inplace %d",
             all ? "allreduce" : "reduce", it, n, count, root, inplace);
}

static void do_sum(MPI_Comm c, int it, int n, int me, int count)
{
    int ok = 1;
    for (int j = 0; j < count; j++)
        sbuf[j] = val(me, it, j);
    MT_CHECK_RC(MPI_Allreduce(sbuf, rbuf, count, MPI_INT, MPI_SUM, c));
    for (int j = 0; j < count && ok; j++) {
        int e = 0;
        for (int r = 0; r < n; r++)
            e += val(r, it, j);
        ok = rbuf[j] == e;
    }
    MT_CHECK(ok, "allreduce sum it %d n %d count %d", it, n, count);
}

static void do_allgather(MPI_Comm c, int it, int n, int me, int count,
                         int inplace)
{
    int ok = 1;
    count = count / n > 0 ? count / n : 1;
    for (int j = 0; j < count; j++)
        sbuf[j] = val(me, it, j);
    memset(rbuf, 0xff, sizeof(int) * (size_t)count * n);
    if (inplace)
        memcpy(rbuf + me * count, sbuf, sizeof(int) * (size_t)count);
    MT_CHECK_RC(MPI_Allgather(inplace ? MPI_IN_PLACE : sbuf, count, MPI_INT,
                              rbuf, count, MPI_INT, c));
    for (int r = 0; r < n && ok; r++)
        for (int j = 0; j < count && ok; j++)
            ok = rbuf[r * count + j] == val(r, it, j);
    MT_CHECK(ok, "allgather it %d n %d count %d", it, n, count);
}

static void do_alltoall(MPI_Comm c, int it, int n, int me, int count)
{
    int ok = 1;
    count = count / n > 0 ? count / n : 1;
    for (int r = 0; r < n; r++)
        for (int j = 0; j < count; j++)
            sbuf[r * count + j] = val(me * 16 + r, it, j);
    MT_CHECK_RC(MPI_Alltoall(sbuf, count, MPI_INT, rbuf, count, MPI_INT, c));
    for (int r = 0; r < n && ok; r++)
        for (int j = 0; j < count && ok; j++)
            ok = rbuf[r * count + j] == val(r * 16 + me, it, j);
    MT_CHECK(ok, "alltoall it %d n %d count %d", it, n, count);
}

/* Reduce_scatter_block with the non-commutative op: block r of the
 * rank-order composition goes to rank r. */
static void do_rsb(MPI_Comm c, int it, int n, int me, int count, MPI_Op op,
                   MPI_Datatype pair)
{
    int ok;
    count = count / (2 * n) > 0 ? count / (2 * n) : 1;   /* pairs/rank */
    for (int j = 0; j < count * n; j++)
        affine_of(me, it, j, &sbuf[2 * j]);
    memset(rbuf, 0, sizeof(int) * (size_t)count * 2);
    MT_CHECK_RC(MPI_Reduce_scatter_block(sbuf, rbuf, count, pair, op, c));
    expect_affine(it, n, count * n);
    ok = memcmp(rbuf, ebuf + 2 * count * me,
                sizeof(int) * (size_t)count * 2) == 0;
    MT_CHECK(ok, "reduce_scatter_block it %d n %d pairs %d", it, n, count);
}

/* A nonblocking allreduce (schedule) stays in flight across a blocking
 * one on the same comm. */
static void do_overlap(MPI_Comm c, int it, int n, int me)
{
    int a = me + it, b = 2 * me, ra = -1, rb = -1, ea = 0, eb = 0;
    MPI_Request req;
    MT_CHECK_RC(MPI_Iallreduce(&a, &ra, 1, MPI_INT, MPI_SUM, c, &req));
    MT_CHECK_RC(MPI_Allreduce(&b, &rb, 1, MPI_INT, MPI_SUM, c));
    MT_CHECK_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (int r = 0; r < n; r++) {
        ea += r + it;
        eb += 2 * r;
    }
    MT_CHECK(ra == ea && rb == eb, "overlap it %d: %d/%d %d/%d", it, ra, ea,
             rb, eb);
}

int main(int argc, char **argv)
{
    int wrank, wsize;
    MPI_Comm half;
    MPI_Op op;
    MPI_Datatype pair;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wsize - wrank, &half);
    MPI_Op_create(compose, 0, &op);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    for (int it = 0; it < ITERS; it++) {
        int usehalf = next() % 3 == 0;
        MPI_Comm c = usehalf ? half : MPI_COMM_WORLD;
        int n, me;
        MPI_Comm_size(c, &n);
        MPI_Comm_rank(c, &me);
        int kind = next() % 9, count = counts[next() % NCOUNTS];
        int root = next() % n, flag = next() % 2;
        int strided = (me + it) % 3 == 0;   /* differs between ranks */
        switch (kind) {
        case 0: MT_CHECK_RC(MPI_Barrier(c)); break;
        case 1: do_bcast(c, it, n, me, count, root, strided); break;
        case 2: do_reduce(c, it, n, me, count, root, 0, flag, op, pair); break;
        case 3: do_reduce(c, it, n, me, count, root, 1, flag, op, pair); break;
        case 4: do_sum(c, it, n, me, count); break;
        case 5: do_allgather(c, it, n, me, count, flag); break;
        case 6: do_alltoall(c, it, n, me, count); break;
        case 7: do_rsb(c, it, n, me, count, op, pair); break;
        default: do_overlap(c, it, n, me); break;
        }
    }
    MPI_Type_free(&pair);
    MPI_Op_free(&op);
    MPI_Comm_free(&half);
    return mt_finish();
}
