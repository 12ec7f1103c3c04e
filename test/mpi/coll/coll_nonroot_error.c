/*
 * A non-root rank whose own arguments fail a check (under
 * MPI_ERRORS_RETURN) must still take part, so that the root gets an
 * error instead of waiting for ever (or, on the shm path, reducing stale
 * data), and the communicator stays usable.  Rank (root + 1) % size
 * passes MPI_DATATYPE_NULL or a negative count to reduce, and a null
 * send type, a negative count or MPI_IN_PLACE (a valid block size) to
 * gather; gather with an unknown block size only where the algorithm
 * does not depend on it (below 5 ranks or forced: XTEST_GATHER_ANY=1);
 * reduce with an unknown count or type only where it takes the shm path
 * (XTEST_REDUCE_UNKNOWN=0 skips it).  MPI_IN_PLACE at a non-root also in
 * the nonblocking forms (p2p schedules: exact receives pass the loss up).
 * Before the fix the root hung in all of them (the shm reduce: returned
 * success with the stale buffer).
 */
#include "../mpitest.h"

#include <string.h>

enum { N = 3 };

static int rank, size;

static int is_err(int rc)
{
    return rc != MPI_SUCCESS;
}

static int err_class(int rc)
{
    int cls = MPI_SUCCESS;

    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls;
}

/* Correct collectives: results checked. */
static void check_usable(const char *after, int root)
{
    int s[N], r[N], *g = malloc(sizeof(int) * (size_t)size * N);

    for (int i = 0; i < N; i++)
        s[i] = rank * 10 + i;
    MT_CHECK_RC(MPI_Allreduce(s, r, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    for (int i = 0; i < N; i++)
        MT_CHECK(r[i] == 10 * size * (size - 1) / 2 + size * i,
                 "after %s root %d: allreduce [%d] = %d", after, root, i,
                 r[i]);
    memset(r, 0, sizeof(r));
    MT_CHECK_RC(MPI_Reduce(s, r, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD));
    for (int i = 0; i < N && rank == root; i++)
        MT_CHECK(r[i] == 10 * size * (size - 1) / 2 + size * i,
                 "after %s root %d: reduce [%d] = %d", after, root, i, r[i]);
    MT_CHECK_RC(MPI_Gather(s, N, MPI_INT, g, N, MPI_INT, root,
                           MPI_COMM_WORLD));
    for (int i = 0; i < size * N && rank == root; i++)
        MT_CHECK(g[i] == (i / N) * 10 + i % N, "after %s root %d: gather "
                 "[%d] = %d", after, root, i, g[i]);
    MT_CHECK_RC(MPI_Barrier(MPI_COMM_WORLD));
    free(g);
}

int main(int argc, char **argv)
{
    int s[N] = {1, 2, 3}, r[N], *g, rc, bad, any;
    const char *e = getenv("XTEST_GATHER_ANY");
    const char *u = getenv("XTEST_REDUCE_UNKNOWN");
    MPI_Request rq;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    g = malloc(sizeof(int) * (size_t)size * N);
    any = size < 5 || (e != NULL && atoi(e) != 0);
    int unknown = u == NULL || atoi(u) != 0;
    check_usable("start", 0);
    for (int root = 0; root < size && size > 1; root++) {
        bad = (root + 1) % size;
        /* reduce and ireduce, MPI_IN_PLACE at a non-root */
        for (int nb = 0; nb < 2; nb++) {
            const void *sb = rank == bad ? MPI_IN_PLACE : (void *)s;
            if (nb) {
                rc = MPI_Ireduce(sb, r, N, MPI_INT, MPI_SUM, root,
                                 MPI_COMM_WORLD, &rq);
                if (rc == MPI_SUCCESS)
                    rc = MPI_Wait(&rq, MPI_STATUS_IGNORE);
            } else {
                rc = MPI_Reduce(sb, r, N, MPI_INT, MPI_SUM, root,
                                MPI_COMM_WORLD);
            }
            if (rank == bad)
                MT_CHECK(err_class(rc) == MPI_ERR_BUFFER, "reduce nb %d bad "
                         "rc %d", nb, rc);
            if (rank == root)
                MT_CHECK(is_err(rc), "reduce nb %d root %d: no error", nb,
                         root);
            check_usable("reduce in place", root);
            rc = MPI_Igather(sb, N, MPI_INT, g, N, MPI_INT, root,
                             MPI_COMM_WORLD, &rq);
            if (rc == MPI_SUCCESS)
                rc = MPI_Wait(&rq, MPI_STATUS_IGNORE);
            if (rank == bad)
                MT_CHECK(err_class(rc) == MPI_ERR_BUFFER, "igather bad rc %d",
                         rc);
            if (rank == root)
                MT_CHECK(is_err(rc), "igather root %d: no error", root);
            check_usable("igather in place", root);
        }
        if (!unknown)
            goto gather;
        /* reduce, a null type at one non-root */
        rc = MPI_Reduce(s, r, N, rank == bad ? MPI_DATATYPE_NULL : MPI_INT,
                        MPI_SUM, root, MPI_COMM_WORLD);
        if (rank == bad)
            MT_CHECK(err_class(rc) == MPI_ERR_TYPE, "reduce bad rc %d", rc);
        if (rank == root)
            MT_CHECK(is_err(rc), "reduce root %d: no error", root);
        check_usable("reduce null type", root);
        /* reduce, a negative count at one non-root */
        rc = MPI_Reduce(s, r, rank == bad ? -1 : N, MPI_INT, MPI_SUM, root,
                        MPI_COMM_WORLD);
        if (rank == bad)
            MT_CHECK(err_class(rc) == MPI_ERR_COUNT, "reduce bad rc %d", rc);
        if (rank == root)
            MT_CHECK(is_err(rc), "reduce root %d: no error", root);
        check_usable("reduce negative count", root);
gather:
        /* gather, MPI_IN_PLACE at a non-root (its block size is known) */
        rc = MPI_Gather(rank == bad ? MPI_IN_PLACE : (void *)s, N, MPI_INT,
                        g, N, MPI_INT, root, MPI_COMM_WORLD);
        if (rank == bad)
            MT_CHECK(err_class(rc) == MPI_ERR_BUFFER, "gather bad rc %d",
                     rc);
        if (rank == root)
            MT_CHECK(is_err(rc), "gather root %d: no error", root);
        check_usable("gather in place", root);
        if (!any)
            continue;
        /* gather, a null send type / a negative count at a non-root */
        rc = MPI_Gather(s, N, rank == bad ? MPI_DATATYPE_NULL : MPI_INT, g,
                        N, MPI_INT, root, MPI_COMM_WORLD);
        if (rank == bad)
            MT_CHECK(err_class(rc) == MPI_ERR_TYPE, "gather bad rc %d", rc);
        if (rank == root)
            MT_CHECK(is_err(rc), "gather root %d: no error", root);
        check_usable("gather null type", root);
        rc = MPI_Gather(s, rank == bad ? -2 : N, MPI_INT, g, N, MPI_INT,
                        root, MPI_COMM_WORLD);
        if (rank == bad)
            MT_CHECK(err_class(rc) == MPI_ERR_COUNT, "gather bad rc %d", rc);
        if (rank == root)
            MT_CHECK(is_err(rc), "gather root %d: no error", root);
        check_usable("gather negative count", root);
    }
    free(g);
    return mt_finish();
}
