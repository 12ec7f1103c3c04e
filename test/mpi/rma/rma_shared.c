/*
 * Shared-memory windows: MPI_Win_allocate_shared over the node-local
 * communicator, MPI_Win_shared_query, direct loads and stores between
 * ranks with MPI_Win_sync + barrier, and RMA calls on the same window.
 */
#include "../mpitest.h"

int main(int argc, char **argv)
{
    int rank, size, wrank;
    MPI_Comm node;
    MPI_Win win;
    int *mine;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                        MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &rank);
    MPI_Comm_size(node, &size);
    /* uneven slices, rank 1 none at all */
    MPI_Aint n = rank == 1 ? 0 : 8 + rank;
    MT_CHECK_RC(MPI_Win_allocate_shared(n * sizeof(int), sizeof(int),
                                        MPI_INFO_NULL, node, &mine, &win));
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    for (int i = 0; i < n; i++)
        mine[i] = 100 * rank + i;
    MPI_Win_sync(win);
    MPI_Barrier(node);
    MPI_Win_sync(win);
    for (int r = 0; r < size; r++) {
        MPI_Aint sz;
        int du, *p;
        MT_CHECK_RC(MPI_Win_shared_query(win, r, &sz, &du, &p));
        MT_CHECK(du == sizeof(int), "disp_unit %d", du);
        MT_CHECK(sz == (MPI_Aint)((r == 1 ? 0 : 8 + r) * sizeof(int)),
                 "size of %d: %ld", r, (long)sz);
        for (int i = 0; i < sz / (MPI_Aint)sizeof(int); i++)
            MT_CHECK(p[i] == 100 * r + i, "load from %d[%d]: %d", r, i, p[i]);
        /* the same data through MPI_Get */
        if (sz > 0) {
            int v = -1;
            MT_CHECK_RC(MPI_Get(&v, 1, MPI_INT, r, 2, 1, MPI_INT, win));
            MT_CHECK_RC(MPI_Win_flush(r, win));
            MT_CHECK(v == 100 * r + 2, "get from %d: %d", r, v);
        }
    }
    /* contiguous by default: slices follow each other */
    int *p0;
    MPI_Aint sz0;
    int du0;
    MT_CHECK_RC(MPI_Win_shared_query(win, MPI_PROC_NULL, &sz0, &du0, &p0));
    MT_CHECK(p0 != NULL && sz0 > 0, "PROC_NULL query gave no memory");
    MPI_Barrier(node);
    /* everyone stores into its right neighbour's slice directly */
    int right = (rank + 1) % size, *rp;
    MPI_Aint rsz;
    MPI_Win_shared_query(win, right, &rsz, &du0, &rp);
    if (rsz > 0)
        rp[0] = -rank - 1;
    MPI_Win_sync(win);
    MPI_Barrier(node);
    MPI_Win_sync(win);
    int left = (rank - 1 + size) % size;
    if (n > 0 && size > 1)
        MT_CHECK(mine[0] == -left - 1, "store from left: %d", mine[0]);
    MPI_Win_unlock_all(win);
    MT_CHECK_RC(MPI_Win_free(&win));
    MPI_Comm_free(&node);
    return mt_finish();
}
