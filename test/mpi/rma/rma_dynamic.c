/*
 * Dynamic windows: attach memory, publish its address, put, get and
 * accumulate at absolute displacements, detach; and access to memory
 * that is not attached reports MPI_ERR_RMA_RANGE.
 */
#include "../mpitest.h"

#define N 16

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Win win;
    int buf[N], buf2[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK_RC(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    for (int i = 0; i < N; i++)
        buf[i] = 0;
    MT_CHECK_RC(MPI_Win_attach(win, buf, sizeof(buf)));
    MT_CHECK_RC(MPI_Win_attach(win, buf2, sizeof(buf2)));
    MPI_Aint *mine = calloc(size, sizeof(MPI_Aint));
    MPI_Aint *addr = malloc(sizeof(MPI_Aint) * size);
    MPI_Get_address(buf, &mine[rank]);
    MPI_Allreduce(mine, addr, size, MPI_AINT, MPI_SUM, MPI_COMM_WORLD);
    free(mine);

    int right = (rank + 1) % size, v = 10 + rank, one = 1;
    MPI_Win_lock_all(0, win);
    MT_CHECK_RC(MPI_Put(&v, 1, MPI_INT, right, addr[right], 1, MPI_INT, win));
    for (int t = 0; t < size; t++)
        MT_CHECK_RC(MPI_Accumulate(&one, 1, MPI_INT, t,
                                   addr[t] + sizeof(int), 1, MPI_INT,
                                   MPI_SUM, win));
    MT_CHECK_RC(MPI_Win_flush_all(win));
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK(buf[0] == 10 + (rank - 1 + size) % size, "put: %d", buf[0]);
    MT_CHECK(buf[1] == size, "accumulate: %d", buf[1]);

    int got[2] = {-1, -1};
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    MT_CHECK_RC(MPI_Get(got, 2, MPI_INT, right, addr[right], 2, MPI_INT,
                        win));
    MT_CHECK_RC(MPI_Win_unlock(right, win));
    MT_CHECK(got[0] == 10 + rank && got[1] == size, "get: %d %d", got[0],
             got[1]);

    /* beyond the attached region: the target refuses, nothing written */
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    int rc = MPI_Put(&v, 1, MPI_INT, right, addr[right] + N * sizeof(int) + 64,
                     1, MPI_INT, win);
    if (rc == MPI_SUCCESS)
        rc = MPI_Win_unlock(right, win);
    else
        MPI_Win_unlock(right, win);
    int cls;
    MPI_Error_class(rc, &cls);
    MT_CHECK(cls == MPI_ERR_RMA_RANGE, "unattached access gave %d", rc);
    MPI_Barrier(MPI_COMM_WORLD);

    MT_CHECK_RC(MPI_Win_detach(win, buf2));
    MT_CHECK_RC(MPI_Win_detach(win, buf));
    rc = MPI_Win_detach(win, buf);
    MPI_Error_class(rc, &cls);
    MT_CHECK(cls == MPI_ERR_RMA_ATTACH, "double detach gave %d", rc);
    free(addr);
    MT_CHECK_RC(MPI_Win_free(&win));
    return mt_finish();
}
