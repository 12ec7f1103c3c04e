/* The node-aware collectives on communicators whose nodes are uneven or not
 * blocks of consecutive ranks (run with UCMPI_COLL_FAKE_NODES and each
 * algorithm forced, or across real nodes): barrier, bcast from every root,
 * reduce and allreduce with a non-commutative op and MPI_IN_PLACE,
 * allgather(v) and alltoall with a strided type and MPI_IN_PLACE, blocking
 * and nonblocking, small and past the large-message switches.
 * XTEST_HIER=1 forces every hierarchical row. */
#include "coll_common.h"
#include <stdlib.h>

static int rank_w;

/* A vector type of `count` ints spread over 2*count ints. */
static MPI_Datatype strided(int count)
{
    MPI_Datatype t;

    MPI_Type_vector(count, 1, 2, MPI_INT, &t);
    MPI_Type_commit(&t);
    return t;
}

static void wait_or(int nb, MPI_Request *req)
{
    if (nb)
        MT_CHECK_RC(MPI_Wait(req, MPI_STATUS_IGNORE));
}

static void t_bcast(MPI_Comm c, int me, int n, int count, int nb)
{
    int *b = malloc(sizeof(int) * 2 * (size_t)count);
    MPI_Datatype t = strided(count);
    MPI_Request req;

    for (int root = 0; root < n; root++) {
        for (int i = 0; i < 2 * count; i++)
            b[i] = me == root ? (i % 2 ? -7 : root * 31 + i) : -1;
        if (nb)
            MT_CHECK_RC(MPI_Ibcast(b, 1, t, root, c, &req));
        else
            MT_CHECK_RC(MPI_Bcast(b, 1, t, root, c));
        wait_or(nb, &req);
        for (int i = 0; i < 2 * count; i++) {
            int want = i % 2 ? (me == root ? -7 : -1) : root * 31 + i;
            if (b[i] != want) {
                MT_CHECK(0, "bcast count %d root %d: [%d]=%d, want %d",
                         count, root, i, b[i], want);
                break;
            }
        }
    }
    MPI_Type_free(&t);
    free(b);
}

static void t_reduce(MPI_Comm c, int me, int n, int count, MPI_Op aff,
                     int nb)
{
    int *in = malloc(sizeof(int) * 2 * (size_t)count);
    int *out = malloc(sizeof(int) * 2 * (size_t)count);
    int *want = malloc(sizeof(int) * 2 * (size_t)count);
    int *tmp = malloc(sizeof(int) * 2 * (size_t)count);
    long *s = malloc(sizeof(long) * (size_t)count);
    MPI_Request req;

    affine_expect(want, 0, n, count, tmp);
    for (int root = 0; root < n; root += (n > 4 ? 3 : 1)) {
        /* non-commutative, in place at the root */
        affine_fill(me == root ? out : in, me, count);
        if (nb)
            MT_CHECK_RC(MPI_Ireduce(me == root ? MPI_IN_PLACE : in, out,
                                    count, MPI_2INT, aff, root, c, &req));
        else
            MT_CHECK_RC(MPI_Reduce(me == root ? MPI_IN_PLACE : in, out,
                                   count, MPI_2INT, aff, root, c));
        wait_or(nb, &req);
        if (me == root && memcmp(out, want, sizeof(int) * 2 * count))
            MT_CHECK(0, "reduce affine count %d root %d: wrong", count,
                     root);
        /* commutative sum */
        for (int i = 0; i < count; i++)
            s[i] = (long)me * 1000 + i;
        MT_CHECK_RC(MPI_Reduce(me == root ? MPI_IN_PLACE : s,
                               me == root ? s : NULL, count, MPI_LONG,
                               MPI_SUM, root, c));
        for (int i = 0; me == root && i < count; i++)
            if (s[i] != 1000L * n * (n - 1) / 2 + (long)n * i) {
                MT_CHECK(0, "reduce sum count %d root %d: [%d]=%ld", count,
                         root, i, s[i]);
                break;
            }
    }
    /* allreduce: the same two */
    affine_fill(out, me, count);
    if (nb)
        MT_CHECK_RC(MPI_Iallreduce(MPI_IN_PLACE, out, count, MPI_2INT, aff,
                                   c, &req));
    else
        MT_CHECK_RC(MPI_Allreduce(MPI_IN_PLACE, out, count, MPI_2INT, aff, c));
    wait_or(nb, &req);
    MT_CHECK(memcmp(out, want, sizeof(int) * 2 * count) == 0,
             "allreduce affine count %d: wrong", count);
    for (int i = 0; i < count; i++)
        s[i] = (long)me * 1000 + i;
    MT_CHECK_RC(MPI_Allreduce(MPI_IN_PLACE, s, count, MPI_LONG, MPI_SUM, c));
    for (int i = 0; i < count; i++)
        if (s[i] != 1000L * n * (n - 1) / 2 + (long)n * i) {
            MT_CHECK(0, "allreduce sum count %d: [%d]=%ld", count, i, s[i]);
            break;
        }
    free(in), free(out), free(want), free(tmp), free(s);
}

/* allgather (strided receive type, in place or not) and allgatherv with
 * uneven counts (rank r sends r % 3 + count ints) */
static void t_allgather(MPI_Comm c, int me, int n, int count, int nb)
{
    int *r = malloc(sizeof(int) * 2 * (size_t)count * n);
    int *cnt = malloc(sizeof(int) * n), *dsp = malloc(sizeof(int) * n);
    int *snd = malloc(sizeof(int) * ((size_t)count + 3));
    MPI_Datatype t = strided(count);
    MPI_Request req;

    for (int inplace = 0; inplace < 2; inplace++) {
        for (int i = 0; i < 2 * count * n; i++)
            r[i] = -1;
        for (int i = 0; i < count; i++) {
            snd[i] = me * 100000 + i;
            if (inplace)
                r[2 * ((size_t)me * count + i)] = snd[i];
        }
        /* the strided type's extent ends at its last int: block k starts
         * at int 2*count*k only with a resized type, so receive count
         * blocks of MPI_INT pairs instead via a resized vector */
        MPI_Datatype rt;
        MPI_Type_create_resized(t, 0, (MPI_Aint)sizeof(int) * 2 * count, &rt);
        MPI_Type_commit(&rt);
        if (nb)
            MT_CHECK_RC(MPI_Iallgather(inplace ? MPI_IN_PLACE : snd, count,
                                       MPI_INT, r, 1, rt, c, &req));
        else
            MT_CHECK_RC(MPI_Allgather(inplace ? MPI_IN_PLACE : snd, count,
                                      MPI_INT, r, 1, rt, c));
        wait_or(nb, &req);
        MPI_Type_free(&rt);
        for (int k = 0; k < n; k++)
            for (int i = 0; i < 2 * count; i++) {
                int got = r[2 * (size_t)count * k + i];
                int want = i % 2 ? -1 : k * 100000 + i / 2;
                if (got != want) {
                    MT_CHECK(0, "allgather count %d inplace %d: block %d "
                             "[%d]=%d want %d", count, inplace, k, i, got,
                             want);
                    k = n;
                    break;
                }
            }
    }
    /* allgatherv, uneven */
    int tot = 0;
    for (int k = 0; k < n; k++) {
        cnt[k] = count + k % 3;
        dsp[k] = tot;             /* one int of gap after each block */
        tot += cnt[k] + 1;
    }
    int *rv = malloc(sizeof(int) * (size_t)tot);
    for (int i = 0; i < tot; i++)
        rv[i] = -1;
    for (int i = 0; i < cnt[me]; i++)
        snd[i] = me * 100000 + i;
    MT_CHECK_RC(MPI_Allgatherv(snd, cnt[me], MPI_INT, rv, cnt, dsp, MPI_INT,
                               c));
    for (int k = 0; k < n; k++)
        for (int i = 0; i < cnt[k]; i++)
            if (rv[dsp[k] + i] != k * 100000 + i) {
                MT_CHECK(0, "allgatherv count %d: block %d [%d]=%d", count,
                         k, i, rv[dsp[k] + i]);
                k = n;
                break;
            }
    MPI_Type_free(&t);
    free(rv), free(r), free(cnt), free(dsp), free(snd);
}

static void t_alltoall(MPI_Comm c, int me, int n, int count, int nb)
{
    size_t m = (size_t)count * n;
    int *s = malloc(sizeof(int) * m), *r = malloc(sizeof(int) * m);
    MPI_Request req;

    for (int inplace = 0; inplace < 2; inplace++) {
        int *src = inplace ? r : s;
        for (int d = 0; d < n; d++)
            for (int i = 0; i < count; i++)
                src[(size_t)d * count + i] = me * 1000000 + d * 1000 + i;
        if (!inplace)
            for (size_t i = 0; i < m; i++)
                r[i] = -1;
        if (nb)
            MT_CHECK_RC(MPI_Ialltoall(inplace ? MPI_IN_PLACE : s, count,
                                      MPI_INT, r, count, MPI_INT, c, &req));
        else
            MT_CHECK_RC(MPI_Alltoall(inplace ? MPI_IN_PLACE : s, count,
                                     MPI_INT, r, count, MPI_INT, c));
        wait_or(nb, &req);
        for (int k = 0; k < n; k++)
            for (int i = 0; i < count; i++)
                if (r[(size_t)k * count + i] != k * 1000000 + me * 1000 + i) {
                    MT_CHECK(0, "alltoall count %d inplace %d: from %d "
                             "[%d]=%d", count, inplace, k, i,
                             r[(size_t)k * count + i]);
                    k = n;
                    break;
                }
    }
    free(s), free(r);
}

static void run_all(MPI_Comm c, MPI_Op aff)
{
    /* the last: past reduce's and allreduce's large-vector switches; its
     * bcast (x5) past bcast's */
    static const int counts[] = {1, 37, 140000};
    int me, n;

    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    for (int nb = 0; nb < 2; nb++) {
        MPI_Request req;
        if (nb)
            MT_CHECK_RC(MPI_Ibarrier(c, &req));
        else
            MT_CHECK_RC(MPI_Barrier(c));
        wait_or(nb, &req);
        for (int k = 0; k < 3; k++) {
            t_bcast(c, me, n, counts[k] * (k == 2 ? 5 : 1), nb);
            t_reduce(c, me, n, counts[k], aff, nb);
            t_allgather(c, me, n, k == 2 ? 3000 : counts[k], nb);
            t_alltoall(c, me, n, k == 2 ? 2000 : counts[k], nb);
        }
    }
}

/* XTEST_HIER=1: every hierarchical row forced (one word in the list
 * instead of seven knobs) */
static void force_hier(void)
{
    static const char *const knobs[] = {
        "UCMPI_BARRIER_ALGORITHM", "UCMPI_BCAST_ALGORITHM",
        "UCMPI_REDUCE_ALGORITHM", "UCMPI_ALLREDUCE_ALGORITHM",
        "UCMPI_ALLGATHER_ALGORITHM", "UCMPI_ALLGATHERV_ALGORITHM",
        "UCMPI_ALLTOALL_ALGORITHM"};
    const char *v = getenv("XTEST_HIER");

    if (v == NULL || strcmp(v, "1") != 0)
        return;
    for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++)
        setenv(knobs[i], "hierarchical", 1);
}

int main(int argc, char **argv)
{
    int size;
    MPI_Comm c;
    MPI_Op aff;

    force_hier();
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_w);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Op_create(affine_fn, 0, &aff);
    run_all(MPI_COMM_WORLD, aff);
    /* reversed ranks: every node's ranks reversed, nodes reordered */
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank_w, &c);
    run_all(c, aff);
    MPI_Comm_free(&c);
    /* odd and even world ranks apart */
    MPI_Comm_split(MPI_COMM_WORLD, rank_w % 2, rank_w, &c);
    run_all(c, aff);
    MPI_Comm_free(&c);
    /* rotated by one: a node's ranks wrap around the end */
    MPI_Comm_split(MPI_COMM_WORLD, 0, (rank_w + 1) % size, &c);
    run_all(c, aff);
    MPI_Comm_free(&c);
    MPI_Op_free(&aff);
    return mt_finish();
}
