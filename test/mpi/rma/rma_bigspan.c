/* RMA with a target datatype whose elements lie far apart: a resized
 * MPI_INT with a 300 MiB extent, two of them (a few bytes moved over a
 * span of 300 MiB).  The run finder used to map the whole span and refused
 * types spanning over 256 MiB with MPI_ERR_TYPE (MPICH rma/accfence1 and
 * epochtest with dtpools' resized subarrays).  Put, accumulate and get go to
 * the right neighbour; the window's pages between the two ints stay
 * untouched. */
#include "../mpitest.h"

#define SPAN ((MPI_Aint)300 << 20)

int main(int argc, char **argv)
{
    int rank, size, *base = NULL;
    MPI_Datatype far;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int peer = (rank + 1) % size, left = (rank + size - 1) % size;
    MT_CHECK_RC(MPI_Type_create_resized(MPI_INT, 0, SPAN, &far));
    MT_CHECK_RC(MPI_Type_commit(&far));
    MT_CHECK_RC(MPI_Win_allocate(SPAN + (MPI_Aint)sizeof(int), 1,
                                 MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int *hi = (int *)((char *)base + SPAN);
    int src[2] = {1 + rank, 2 + rank}, add[2] = {10, 20}, dst[2] = {-1, -1};

    MPI_Win_fence(0, win);
    MT_CHECK_RC(MPI_Put(src, 2, MPI_INT, peer, 0, 2, far, win));
    MPI_Win_fence(0, win);
    MT_CHECK(base[0] == 1 + left && *hi == 2 + left, "put: %d %d, want %d %d",
             base[0], *hi, 1 + left, 2 + left);
    MPI_Win_fence(0, win);
    MT_CHECK_RC(MPI_Accumulate(add, 2, MPI_INT, peer, 0, 2, far, MPI_SUM,
                               win));
    MPI_Win_fence(0, win);
    MT_CHECK(base[0] == 11 + left && *hi == 22 + left,
             "accumulate: %d %d, want %d %d", base[0], *hi, 11 + left,
             22 + left);
    MPI_Win_fence(0, win);
    MT_CHECK_RC(MPI_Get(dst, 2, MPI_INT, peer, 0, 2, far, win));
    MPI_Win_fence(0, win);
    MT_CHECK(dst[0] == 11 + rank && dst[1] == 22 + rank,
             "get: %d %d, want %d %d", dst[0], dst[1], 11 + rank, 22 + rank);
    MPI_Win_free(&win);
    MPI_Type_free(&far);
    return mt_finish();
}
