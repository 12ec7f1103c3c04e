/*
 * Progress from RMA calls alone: rank 0 polls a flag in its own dynamic
 * window with Get_accumulate(NO_OP) + flush (no other MPI call), while
 * the others set it with Accumulate(REPLACE) + flush, which only rank 0
 * can apply (dynamic windows go through the target's handler).  Polling
 * must serve those requests, or both sides wait forever.  The same on
 * an allocated window, where the flag lives in node-shared memory.
 */
#include "../mpitest.h"

static void poll_flag(MPI_Win win, MPI_Aint disp, int rank, int size)
{
    long one = 1, got = 0;
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        long sum = 0;
        long polls = 0;
        while (sum < size - 1) {
            MT_CHECK_RC(MPI_Get_accumulate(NULL, 0, MPI_LONG, &got, 1,
                                           MPI_LONG, 0, disp, 1, MPI_LONG,
                                           MPI_NO_OP, win));
            MT_CHECK_RC(MPI_Win_flush(0, win));
            sum = got;
            if (++polls > 100000000L) {
                MT_CHECK(0, "flag never reached %d (is %ld)", size - 1, sum);
                break;
            }
        }
    } else {
        MT_CHECK_RC(MPI_Accumulate(&one, 1, MPI_LONG, 0, disp, 1, MPI_LONG,
                                   MPI_SUM, win));
        MT_CHECK_RC(MPI_Win_flush(0, win));
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Win win;
    long flag = 0, *mem;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MT_CHECK_RC(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MT_CHECK_RC(MPI_Win_attach(win, &flag, sizeof(flag)));
    MPI_Aint disp;
    MPI_Get_address(&flag, &disp);
    MPI_Bcast(&disp, 1, MPI_AINT, 0, MPI_COMM_WORLD);
    poll_flag(win, disp, rank, size);
    MT_CHECK_RC(MPI_Win_detach(win, &flag));
    MPI_Win_free(&win);

    MT_CHECK_RC(MPI_Win_allocate(sizeof(long), sizeof(long), MPI_INFO_NULL,
                                 MPI_COMM_WORLD, &mem, &win));
    *mem = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    poll_flag(win, 0, rank, size);
    MPI_Win_free(&win);
    return mt_finish();
}
