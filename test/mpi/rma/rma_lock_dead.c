/*
 * A process that dies while it holds a passive-target lock must not leave
 * the others spinning in MPI_Win_lock: a ticket it took is never
 * released, so the lock can never be granted again.  Run with
 * UCMPI_RMA_LOCK_DEAD=d: world rank d's first lock (exclusive, on rank 0)
 * stays held by a process that has exited.  Then every rank's shared and
 * exclusive MPI_Win_lock and its MPI_Win_lock_all involving rank 0 report
 * MPI_ERR_PROC_FAILED, while locks on the other ranks still work.  With d
 * outside the job every lock must simply work.  Before the fix every rank
 * but d spun forever in its first MPI_Win_lock on rank 0.
 */
#include "../mpitest.h"

static int rank, size, dead = -1;

/* rc is MPI_ERR_PROC_FAILED when a rank holds rank 0's lock dead, else
 * success (then the epoch it opened is closed again). */
static void expect(int rc, const char *what, MPI_Win win, int all)
{
    int cls = MPI_SUCCESS;

    MPI_Error_class(rc, &cls);
    if (dead < 0) {
        MT_CHECK(cls == MPI_SUCCESS, "%s: class %d", what, cls);
        if (cls == MPI_SUCCESS)
            MT_CHECK_RC(all ? MPI_Win_unlock_all(win) : MPI_Win_unlock(0, win));
    } else {
        MT_CHECK(cls == MPI_ERR_PROC_FAILED, "%s: class %d, want %d", what,
                 cls, MPI_ERR_PROC_FAILED);
    }
}

int main(int argc, char **argv)
{
    long *base, one = 1, mark;
    const char *env = getenv("UCMPI_RMA_LOCK_DEAD");
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (env != NULL && atoi(env) >= 0 && atoi(env) < size)
        dead = atoi(env);
    MPI_Win_allocate(size * sizeof(long), sizeof(long), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    for (int i = 0; i < size; i++)
        base[i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == dead) {   /* the lock its "dying" holder never gives back */
        mark = rank + 1;
        MT_CHECK_RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        MT_CHECK_RC(MPI_Put(&mark, 1, MPI_LONG, 0, rank, 1, MPI_LONG, win));
        MT_CHECK_RC(MPI_Win_unlock(0, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);

    expect(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win), "shared lock", win, 0);
    expect(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win), "exclusive lock",
           win, 0);
    expect(MPI_Win_lock_all(0, win), "lock_all", win, 1);
    /* the others' locks are unaffected */
    if (size > 1) {
        int t = 1 + rank % (size - 1);
        MT_CHECK_RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
        MT_CHECK_RC(MPI_Accumulate(&one, 1, MPI_LONG, t, 0, 1, MPI_LONG,
                                   MPI_SUM, win));
        MT_CHECK_RC(MPI_Win_unlock(t, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank > 0) {
        long want = 0;
        for (int r = 0; r < size; r++)
            want += 1 + r % (size - 1) == rank;
        MT_CHECK(base[0] == want, "my memory: %ld accumulates, want %ld",
                 base[0], want);
    } else if (dead >= 0) {
        MT_CHECK(base[dead] == dead + 1, "the holder's put: %ld, want %d",
                 base[dead], dead + 1);
    }
    MPI_Win_free(&win);
    return mt_finish();
}
