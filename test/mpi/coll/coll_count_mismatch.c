/*
 * An allreduce or reduce whose ranks pass different counts
 * (under MPI_ERRORS_RETURN) must report an error, never return success
 * with garbage or hang: in allreduce every rank whose count differs from
 * another's (here: all ranks), in reduce at least the root (it sees
 * every contribution).  Afterwards correct collectives on the same comm
 * must still work and give the right results (the ranks' collective
 * numbers stayed in step).  Before the fix the shared-memory allreduce
 * returned success with garbage (MPICH errors/basic/debabort: rank 0
 * reads past rank 1's one element).
 * Pairs cross the shm path's thresholds (one buffer, split reduction,
 * chunks) so that the ranks take different numbers of steps.
 */
#include "coll_common.h"

#include <string.h>

static int rank, size;

/* Counts (ints): rank `odd` passes a, the others b. */
static const int pairs[][2] = {
    {2, 1},       {1, 2},        {1, 10},      {10, 1},     {3, 4},
    {1, 2048},    {2048, 1},     {1500, 5000}, {1, 40000},  {40000, 3000},
};
#define NPAIRS ((int)(sizeof(pairs) / sizeof(pairs[0])))

/* A correct allreduce, reduce and barrier on comm: results checked. */
static void check_usable(const char *after, int p)
{
    enum { M = 5000 };
    static int s[M], r[M];

    for (int len = 1; len <= M; len *= 70) {
        for (int i = 0; i < len; i++) {
            s[i] = rank + i;
            r[i] = -1;
        }
        MT_CHECK_RC(MPI_Allreduce(s, r, len, MPI_INT, MPI_SUM,
                                  MPI_COMM_WORLD));
        for (int i = 0; i < len; i++)
            MT_CHECK(r[i] == size * (size - 1) / 2 + size * i,
                     "after %s pair %d: allreduce len %d [%d] = %d", after,
                     p, len, i, r[i]);
        memset(r, 0xff, sizeof(int) * (size_t)len);
        MT_CHECK_RC(MPI_Reduce(s, r, len, MPI_INT, MPI_SUM, size - 1,
                               MPI_COMM_WORLD));
        for (int i = 0; i < len && rank == size - 1; i++)
            MT_CHECK(r[i] == size * (size - 1) / 2 + size * i,
                     "after %s pair %d: reduce len %d [%d] = %d", after, p,
                     len, i, r[i]);
    }
    MT_CHECK_RC(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    enum { MAXC = 40000 };
    int *s, *r;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    s = malloc(sizeof(int) * MAXC);
    r = malloc(sizeof(int) * MAXC);
    for (int i = 0; i < MAXC; i++)
        s[i] = i;
    check_usable("start", -1);
    for (int p = 0; p < NPAIRS && size > 1; p++) {
        int odd = p % 2 == 0 ? 0 : size - 1, mine;
        int count = rank == odd ? pairs[p][0] : pairs[p][1];

        /* allreduce: every rank has a peer with another count */
        mine = MPI_Allreduce(s, r, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MT_CHECK(coll_mismatch_err(mine), "allreduce pair %d (count %d): rc %d", p,
                 count, mine);
        check_usable("allreduce", p);
        /* reduce at every root: the root must see it */
        for (int root = 0; root < size; root++) {
            mine = MPI_Reduce(s, r, count, MPI_INT, MPI_SUM, root,
                              MPI_COMM_WORLD);
            if (rank == root)
                MT_CHECK(coll_mismatch_err(mine), "reduce pair %d root %d (count %d):"
                         " rc %d", p, root, count, mine);
            else
                MT_CHECK(mine == MPI_SUCCESS || coll_mismatch_err(mine), "reduce rc %d",
                         mine);
            check_usable("reduce", p);
        }
    }
    free(s);
    free(r);
    return mt_finish();
}
