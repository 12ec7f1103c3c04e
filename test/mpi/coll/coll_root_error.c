/*
 * A rooted collective whose root alone finds an argument error
 * (under MPI_ERRORS_RETURN) must leave the communicator usable.  The root
 * passes bad arguments to gather, gatherv, scatter, scatterv and reduce
 * (blocking and nonblocking), must get the right error class, while the
 * other ranks' calls succeed (they only send, or receive nothing); then
 * every rank runs correct collectives on the same communicator and checks
 * their results.  Before the fix the root's collective numbers fell one
 * behind and the next collective hung or mixed up data.
 * Big (rendezvous) blocks and scatter(v) roots that cannot send their
 * data: coll_root_error_big.
 */
#include "../mpitest.h"

enum { N = 4, NCASES = 16 };

static int rank, size;

/* Case c (coll = c / 2, nonblocking when c odd) with this root: the
 * error class the root must get. */
static int run_case(int c, int root, int *rc)
{
    int nb = c & 1, me_root = rank == root, sbuf[N + 1], rbuf[N + 1];
    int *big = calloc((size_t)size * N, sizeof(int));
    int *counts = calloc((size_t)size, sizeof(int));
    int *displs = calloc((size_t)size, sizeof(int));
    MPI_Request req = MPI_REQUEST_NULL;
    int expect = MPI_SUCCESS;

    for (int i = 0; i <= N; i++)
        sbuf[i] = rank * 100 + i;
    for (int i = 0; i < size; i++) {
        counts[i] = N;
        displs[i] = i * N;
    }
    for (int i = 0; i < size * N; i++)
        big[i] = me_root ? 1000 + i : -1;
    switch (c / 2 == 4 ? 8 : c / 2) {
    case 0:   /* gather: the root's recvbuf is MPI_IN_PLACE */
        expect = MPI_ERR_BUFFER;
        *rc = nb ? MPI_Igather(sbuf, N, MPI_INT, me_root ? MPI_IN_PLACE : NULL,
                               N, MPI_INT, root, MPI_COMM_WORLD, &req)
                 : MPI_Gather(sbuf, N, MPI_INT, me_root ? MPI_IN_PLACE : NULL,
                              N, MPI_INT, root, MPI_COMM_WORLD);
        break;
    case 1:   /* gatherv: a negative receive count at the root */
        expect = MPI_ERR_COUNT;
        counts[(root + 1) % size] = -1;
        *rc = nb ? MPI_Igatherv(sbuf, N, MPI_INT, big, counts, displs,
                                MPI_INT, root, MPI_COMM_WORLD, &req)
                 : MPI_Gatherv(sbuf, N, MPI_INT, big, counts, displs,
                               MPI_INT, root, MPI_COMM_WORLD);
        break;
    case 2:   /* scatter: the root's sendtype is null (others get 0 ints) */
        expect = MPI_ERR_TYPE;
        *rc = nb ? MPI_Iscatter(big, N, MPI_DATATYPE_NULL, rbuf,
                                me_root ? N : 0, MPI_INT, root,
                                MPI_COMM_WORLD, &req)
                 : MPI_Scatter(big, N, MPI_DATATYPE_NULL, rbuf,
                               me_root ? N : 0, MPI_INT, root,
                               MPI_COMM_WORLD);
        break;
    case 3:   /* scatterv: a negative send count at the root (the others
               * get their blocks, that rank an error) */
        expect = MPI_ERR_COUNT;
        counts[(root + 1) % size] = -1;
        *rc = nb ? MPI_Iscatterv(big, counts, displs, MPI_INT, rbuf, N,
                                 MPI_INT, root, MPI_COMM_WORLD, &req)
                 : MPI_Scatterv(big, counts, displs, MPI_INT, rbuf, N,
                                MPI_INT, root, MPI_COMM_WORLD);
        break;
    case 5:   /* gather: the root's own block is too long (the others'
               * blocks match and must still arrive) */
        expect = MPI_ERR_TRUNCATE;
        *rc = nb ? MPI_Igather(sbuf, me_root ? N + 1 : N, MPI_INT, big, N,
                               MPI_INT, root, MPI_COMM_WORLD, &req)
                 : MPI_Gather(sbuf, me_root ? N + 1 : N, MPI_INT, big, N,
                              MPI_INT, root, MPI_COMM_WORLD);
        break;
    case 6:   /* scatter: the root's own receive count is too long (the
               * others must still get their blocks) */
        expect = MPI_ERR_COUNT;
        *rc = nb ? MPI_Iscatter(big, N, MPI_INT, rbuf, me_root ? N + 1 : N,
                                MPI_INT, root, MPI_COMM_WORLD, &req)
                 : MPI_Scatter(big, N, MPI_INT, rbuf, me_root ? N + 1 : N,
                               MPI_INT, root, MPI_COMM_WORLD);
        break;
    case 7:   /* scatterv: the root's own receive count is too short */
        expect = MPI_ERR_TRUNCATE;
        *rc = nb ? MPI_Iscatterv(big, counts, displs, MPI_INT, rbuf,
                                 me_root ? N - 1 : N, MPI_INT, root,
                                 MPI_COMM_WORLD, &req)
                 : MPI_Scatterv(big, counts, displs, MPI_INT, rbuf,
                                me_root ? N - 1 : N, MPI_INT, root,
                                MPI_COMM_WORLD);
        break;
    default:  /* reduce: the root's recvbuf is MPI_IN_PLACE */
        expect = MPI_ERR_BUFFER;
        *rc = nb ? MPI_Ireduce(sbuf, me_root ? MPI_IN_PLACE : rbuf, N,
                               MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, &req)
                 : MPI_Reduce(sbuf, me_root ? MPI_IN_PLACE : rbuf, N,
                              MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
        break;
    }
    /* everyone else went ahead: finish their (send-only) part */
    if (!me_root && *rc == MPI_SUCCESS && nb)
        *rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (*rc == MPI_SUCCESS && !me_root &&
        (c / 2 == 3 || c / 2 == 6 || c / 2 == 7))
        for (int i = 0; i < N; i++)
            MT_CHECK(rbuf[i] == 1000 + rank * N + i, "case %d: got[%d]=%d",
                     c, i, rbuf[i]);
    if (me_root && c / 2 == 5)   /* completed even when nonblocking */
        for (int i = 0; i < size * N; i++)
            MT_CHECK(i / N == root || big[i] == (i / N) * 100 + i % N,
                     "case %d: gathered[%d]=%d", c, i, big[i]);
    free(big);
    free(counts);
    free(displs);
    return expect;
}

/* Correct collectives on the same communicator, results checked. */
static void run_good(int c, int root)
{
    int v[N], r[N], all[N * 64], i;
    MPI_Request req;

    for (i = 0; i < N; i++)
        v[i] = rank + i + c;
    MT_CHECK_RC(MPI_Allreduce(v, r, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    for (i = 0; i < N; i++)
        MT_CHECK(r[i] == size * (size - 1) / 2 + size * (i + c),
                 "case %d allreduce[%d]=%d", c, i, r[i]);
    for (i = 0; i < N; i++)
        r[i] = rank == root ? 7 * i + c : -1;
    MT_CHECK_RC(MPI_Bcast(r, N, MPI_INT, root, MPI_COMM_WORLD));
    for (i = 0; i < N; i++)
        MT_CHECK(r[i] == 7 * i + c, "case %d bcast[%d]=%d", c, i, r[i]);
    MT_CHECK_RC(MPI_Reduce(v, r, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD));
    for (i = 0; rank == root && i < N; i++)
        MT_CHECK(r[i] == size * (size - 1) / 2 + size * (i + c),
                 "case %d reduce[%d]=%d", c, i, r[i]);
    MT_CHECK_RC(MPI_Igather(v, N, MPI_INT, all, N, MPI_INT, root,
                            MPI_COMM_WORLD, &req));
    MT_CHECK_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (i = 0; rank == root && i < N * size; i++)
        MT_CHECK(all[i] == i / N + i % N + c, "case %d gather[%d]=%d", c, i,
                 all[i]);
    for (i = 0; i < N * size; i++)
        all[i] = 1000 * c + i;
    MT_CHECK_RC(MPI_Scatter(all, N, MPI_INT, r, N, MPI_INT, root,
                            MPI_COMM_WORLD));
    for (i = 0; i < N; i++)
        MT_CHECK(r[i] == 1000 * c + rank * N + i, "case %d scatter[%d]=%d", c,
                 i, r[i]);
    MT_CHECK_RC(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 64) {
        fprintf(stderr, "at most 64 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int c = 0; c < NCASES; c++) {
        int root = c % size, rc = MPI_SUCCESS, cls = MPI_SUCCESS;
        int expect = run_case(c, root, &rc);

        MPI_Error_class(rc, &cls);
        if (rank == root)
            MT_CHECK(cls == expect, "case %d: root got class %d, want %d", c,
                     cls, expect);
        else if (c / 2 == 3 && rank == (root + 1) % size)
            MT_CHECK(cls != MPI_SUCCESS, "case %d: no error without data",
                     c);
        else
            MT_CHECK(rc == MPI_SUCCESS, "case %d: rc=%d", c, rc);
        run_good(c, root);
    }
    return mt_finish();
}
