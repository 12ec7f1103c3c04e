/* MPI_THREAD_MULTIPLE: several threads per rank exchange messages around
 * the ring at once (each thread its own tag), blocking and nonblocking. */
#include "../mpitest.h"
#include <pthread.h>

enum { THREADS = 4, ITERS = 300 };
static int rank, size;
static int thread_errors;

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int i = 0; i < ITERS; i++) {
        int out[16], in[16] = {0};
        for (int j = 0; j < 16; j++)
            out[j] = rank * 1000000 + t * 10000 + i;
        MPI_Request rq;
        MPI_Irecv(in, 16, MPI_INT, left, t, MPI_COMM_WORLD, &rq);
        if (i % 2)
            MPI_Send(out, 16, MPI_INT, right, t, MPI_COMM_WORLD);
        else
            MPI_Ssend(out, 16, MPI_INT, right, t, MPI_COMM_WORLD);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        if (in[15] != left * 1000000 + t * 10000 + i)
            __atomic_add_fetch(&thread_errors, 1, __ATOMIC_RELAXED);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    pthread_t th[THREADS];
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    int main_flag = 0;
    MPI_Is_thread_main(&main_flag);
    MT_CHECK(main_flag, "main thread not recognised");
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    MT_CHECK(thread_errors == 0, "%d wrong messages", thread_errors);
    return mt_finish();
}
