/* MPI_THREAD_MULTIPLE: two threads per process create communicators at the
 * same time, each from its own parent, interleaved with MPI_COMM_SELF
 * duplications under a user lock.  Context-id agreements must neither
 * livelock (both rounds failing forever) nor deadlock (a lone agreement
 * waiting on a round that waits on another process's user lock). */
#include <mpi.h>
#include <pthread.h>
#include <unistd.h>
#include "../mpitest.h"

#define ITERS 20

static MPI_Comm parents[2];
static pthread_mutex_t user_lock = PTHREAD_MUTEX_INITIALIZER;
static int rank, size;

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    for (int i = 0; i < ITERS; i++) {
        MPI_Comm self_dup, dup, split;
        int r, sum = 0;
        if (t == rank % 2 && i == 0)
            usleep(200000);   /* the two threads start in different orders */
        pthread_mutex_lock(&user_lock);
        MPI_Comm_dup(MPI_COMM_SELF, &self_dup);
        pthread_mutex_unlock(&user_lock);
        MPI_Comm_free(&self_dup);
        MPI_Comm_dup(parents[t], &dup);
        MPI_Comm_split(dup, rank % 2, rank, &split);
        MPI_Comm_rank(split, &r);
        MT_CHECK(r == rank / 2, "thread %d split rank %d", t, r);
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup);
        MT_CHECK(sum == size * (size - 1) / 2, "thread %d sum %d", t, sum);
        MPI_Comm_free(&split);
        MPI_Comm_free(&dup);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    pthread_t th[2];
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided < MPI_THREAD_MULTIPLE) {
        MT_CHECK(0, "MPI_THREAD_MULTIPLE not provided (%d)", provided);
        return mt_finish();
    }
    for (int t = 0; t < 2; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &parents[t]);
    for (int t = 0; t < 2; t++)
        pthread_create(&th[t], NULL, worker, (void *)(long)t);
    for (int t = 0; t < 2; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < 2; t++)
        MPI_Comm_free(&parents[t]);
    return mt_finish();
}
