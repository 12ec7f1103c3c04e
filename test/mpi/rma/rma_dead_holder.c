/*
 * A process that dies while it holds a window memory's accumulate lock
 * (the on-node spin lock of lib/rma/atomic.c) must not leave the others
 * spinning: their accumulates to that memory fail with
 * MPI_ERR_PROC_FAILED.  Run with UCMPI_RMA_ACC_LOCK_DEAD=0: world rank
 * 0's first accumulate (to itself) leaves rank 0's lock held by a process
 * that has exited.  Then every rank's accumulate, fetch-and-op and
 * compare-and-swap to rank 0 must report MPI_ERR_PROC_FAILED, from the
 * call itself (direct path) or from the flush (UCMPI_RMA_DIRECT=0: rank
 * 0's message handler applies them); accumulates to other ranks still
 * work.  Before the fix every rank spun forever in its first accumulate.
 */
#include "../mpitest.h"

static int rank, size;

/* The error class of op + flush on win (the first failure). */
static int class_of(int rc, int target, MPI_Win win)
{
    int frc = MPI_Win_flush(target, win), cls = MPI_SUCCESS;

    MPI_Error_class(rc != MPI_SUCCESS ? rc : frc, &cls);
    return cls;
}

int main(int argc, char **argv)
{
    long *base, one = 1, res = -1, cmp = 0;
    MPI_Win win;
    int cls;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_allocate(4 * sizeof(long), sizeof(long), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    for (int i = 0; i < 4; i++)
        base[i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(MPI_Win_lock_all(0, win));
    if (rank == 0) {   /* the "dying" accumulate */
        MT_CHECK_RC(MPI_Accumulate(&one, 1, MPI_LONG, 0, 0, 1, MPI_LONG,
                                   MPI_SUM, win));
        MT_CHECK_RC(MPI_Win_flush(0, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);

    cls = class_of(MPI_Accumulate(&one, 1, MPI_LONG, 0, 1, 1, MPI_LONG,
                                  MPI_SUM, win), 0, win);
    MT_CHECK(cls == MPI_ERR_PROC_FAILED, "accumulate: class %d", cls);
    cls = class_of(MPI_Fetch_and_op(&one, &res, MPI_LONG, 0, 2, MPI_SUM,
                                    win), 0, win);
    MT_CHECK(cls == MPI_ERR_PROC_FAILED, "fetch_and_op: class %d", cls);
    cls = class_of(MPI_Compare_and_swap(&one, &cmp, &res, MPI_LONG, 0, 3,
                                        win), 0, win);
    MT_CHECK(cls == MPI_ERR_PROC_FAILED, "compare_and_swap: class %d", cls);
    /* the others' memory is unaffected */
    if (size > 1) {
        int t = 1 + rank % (size - 1);
        MT_CHECK_RC(MPI_Accumulate(&one, 1, MPI_LONG, t, 0, 1, MPI_LONG,
                                   MPI_SUM, win));
        MT_CHECK_RC(MPI_Win_flush(t, win));
    }
    MPI_Win_unlock_all(win);   /* may repeat the deferred error */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank > 0) {
        long want = 0;
        for (int r = 0; r < size; r++)
            want += 1 + r % (size - 1) == rank;
        MT_CHECK(base[0] == want, "my memory: %ld accumulates, want %ld",
                 base[0], want);
    }
    MT_CHECK(rank > 0 || (base[1] == 0 && base[2] == 0 && base[3] == 0),
             "rank 0's memory was changed: %ld %ld %ld", base[1], base[2],
             base[3]);
    MPI_Win_free(&win);
    return mt_finish();
}
