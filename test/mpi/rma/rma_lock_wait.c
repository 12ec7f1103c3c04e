/*
 * Lock waits when the node is oversubscribed: every rank takes every
 * target's exclusive lock many times in a row (MPICH contention_putget's
 * pattern) and increments a counter there with get + put, which loses
 * updates unless the lock excludes.  Shared locks check that no writer
 * is inside at the same time.  The lock is a ticket lock: each grant
 * goes to one rank in a fixed order, so a waiter that keeps the core
 * while the next ticket's owner is descheduled costs a time slice per
 * grant (minutes, or a hang, with UCMPI_WAIT_MODE=poll at 4 ranks on 2
 * cores).  The list's timeout is what catches that.
 */
#include "../mpitest.h"

#define ITERS 400

/* get + flush + put of a counter: correct only under an exclusive lock */
static void bump(MPI_Win win, int t, MPI_Aint disp)
{
    long v = -1;

    MT_CHECK_RC(MPI_Get(&v, 1, MPI_LONG, t, disp, 1, MPI_LONG, win));
    MT_CHECK_RC(MPI_Win_flush(t, win));
    v++;
    MT_CHECK_RC(MPI_Put(&v, 1, MPI_LONG, t, disp, 1, MPI_LONG, win));
}

static void run(MPI_Win win, long *mem, int rank, int size, const char *what)
{
    /* mem[0]: exclusive counter, mem[1]: writer inside (a marker) */
    MT_CHECK_RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    mem[0] = mem[1] = 0;
    MT_CHECK_RC(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);

    for (int i = 0; i < size; i++) {
        int t = (rank + i) % size;
        for (int it = 0; it < ITERS; it++) {
            MT_CHECK_RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
            long in = 1, out = 0;
            MT_CHECK_RC(MPI_Put(&in, 1, MPI_LONG, t, 1, 1, MPI_LONG, win));
            bump(win, t, 0);
            MT_CHECK_RC(MPI_Put(&out, 1, MPI_LONG, t, 1, 1, MPI_LONG, win));
            MT_CHECK_RC(MPI_Win_unlock(t, win));
            if (it % 8 == 0) {     /* a reader never sees a writer inside */
                long w = -1;
                MT_CHECK_RC(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
                MT_CHECK_RC(MPI_Get(&w, 1, MPI_LONG, t, 1, 1, MPI_LONG, win));
                MT_CHECK_RC(MPI_Win_unlock(t, win));
                MT_CHECK(w == 0, "%s: reader of rank %d saw a writer inside",
                         what, t);
            }
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    MT_CHECK(mem[0] == (long)size * ITERS,
             "%s: counter %ld, expected %ld (lost updates)", what, mem[0],
             (long)size * ITERS);
    MT_CHECK_RC(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int rank, size;
    long *mem;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* a window on user memory (MPICH's test) and an allocated one */
    MT_CHECK_RC(MPI_Alloc_mem(2 * sizeof(long), MPI_INFO_NULL, &mem));
    MT_CHECK_RC(MPI_Win_create(mem, 2 * sizeof(long), sizeof(long),
                               MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    run(win, mem, rank, size, "Win_create");
    MT_CHECK_RC(MPI_Win_free(&win));
    MT_CHECK_RC(MPI_Free_mem(mem));

    MT_CHECK_RC(MPI_Win_allocate(2 * sizeof(long), sizeof(long),
                                 MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    run(win, mem, rank, size, "Win_allocate");
    MT_CHECK_RC(MPI_Win_free(&win));
    return mt_finish();
}
