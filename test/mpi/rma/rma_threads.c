/*
 * MPI_THREAD_MULTIPLE: several threads of every rank issue RMA at once
 * into two windows, one created over user memory (UCX and the target's
 * handler for other ranks) and one allocated (direct path on the node),
 * with request-based operations, flushes and per-thread locks of
 * different targets.  Every update must arrive exactly once.
 */
#include "../mpitest.h"

#include <pthread.h>

#define THREADS 4
#define ITERS 200

static int rank, size;
static MPI_Win wins[2];

static void *work(void *arg)
{
    int id = (int)(long)arg;
    long one = 1, old;
    /* a put's origin buffer stays untouched until the put completes (the
     * flushes below): one variable for the whole loop */
    long v = rank;
    for (int it = 0; it < ITERS; it++) {
        for (int w = 0; w < 2; w++) {
            int t = (it + id) % size;
            MPI_Request rq;
            MT_CHECK_RC(MPI_Fetch_and_op(&one, &old, MPI_LONG, t, 0, MPI_SUM,
                                         wins[w]));
            MT_CHECK_RC(MPI_Raccumulate(&one, 1, MPI_LONG, t, 1 + id, 1,
                                        MPI_LONG, MPI_SUM, wins[w], &rq));
            MT_CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            MT_CHECK_RC(MPI_Put(&v, 1, MPI_LONG, t, 1 + THREADS + rank, 1,
                                MPI_LONG, wins[w]));
            if (it % 16 == 0)
                MT_CHECK_RC(MPI_Win_flush(t, wins[w]));
        }
    }
    MT_CHECK_RC(MPI_Win_flush_all(wins[0]));
    MT_CHECK_RC(MPI_Win_flush_all(wins[1]));
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    MPI_Aint n = 1 + THREADS + size;
    long *mem[2], *user = calloc(n, sizeof(long));
    MT_CHECK_RC(MPI_Win_create(user, n * sizeof(long), sizeof(long),
                               MPI_INFO_NULL, MPI_COMM_WORLD, &wins[0]));
    mem[0] = user;
    MT_CHECK_RC(MPI_Win_allocate(n * sizeof(long), sizeof(long),
                                 MPI_INFO_NULL, MPI_COMM_WORLD, &mem[1],
                                 &wins[1]));
    for (int i = 0; i < n; i++)
        mem[1][i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, wins[0]);
    MPI_Win_lock_all(0, wins[1]);
    pthread_t th[THREADS];
    for (long i = 0; i < THREADS; i++)
        pthread_create(&th[i], NULL, work, (void *)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    MPI_Win_unlock_all(wins[0]);
    MPI_Win_unlock_all(wins[1]);
    MPI_Barrier(MPI_COMM_WORLD);

    /* how many updates each thread id sent to me: one per iteration
     * whose target (it + id) % size is me, from every rank */
    long want_total = 0;
    for (int id = 0; id < THREADS; id++) {
        long per = 0;
        for (int it = 0; it < ITERS; it++)
            per += (it + id) % size == rank;
        want_total += per;
        for (int w = 0; w < 2; w++)
            MT_CHECK(mem[w][1 + id] == per * size,
                     "win %d thread %d slot %ld, want %ld", w, id,
                     mem[w][1 + id], per * size);
    }
    for (int w = 0; w < 2; w++) {
        MT_CHECK(mem[w][0] == want_total * size, "win %d counter %ld, want %ld",
                 w, mem[w][0], want_total * size);
        for (int r = 0; r < size; r++)
            MT_CHECK(mem[w][1 + THREADS + r] == r || want_total == 0,
                     "win %d put slot of %d holds %ld", w, r,
                     mem[w][1 + THREADS + r]);
    }
    MPI_Win_free(&wins[0]);
    MPI_Win_free(&wins[1]);
    free(user);
    return mt_finish();
}
