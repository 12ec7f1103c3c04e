/* Partitioned point-to-point under MPI_THREAD_MULTIPLE: in a ring, four
 * threads per rank fill and mark ready interleaved partitions of the send
 * and poll MPI_Parrived on partitions of the receive, for several rounds. */
#include "../mpitest.h"
#include <pthread.h>
#include <string.h>

#define THREADS 4
#define PARTS 32
#define PER 1024            /* doubles per partition: 256 KiB in all */
#define ROUNDS 5

static int rank, size, next, prev, iter;
static double sbuf[PARTS * PER], rbuf[PARTS * PER];
static MPI_Request req[2];

static double val(int i, int it, int r)
{
    return (double)i + 1e6 * it + 1e8 * r;
}

static void *worker(void *arg)
{
    int t = (int)(long)arg;

    for (int p = t; p < PARTS; p += THREADS) {
        for (int i = p * PER; i < (p + 1) * PER; i++)
            sbuf[i] = val(i, iter, rank);
        int rc = MPI_Pready(p, req[1]);
        MT_CHECK_RC(rc);
    }
    for (int p = PARTS / 2 - 1 - t; p >= 0; p -= THREADS) {
        int flag = 0;
        while (!flag)
            MPI_Parrived(req[0], p, &flag);
        for (int i = p * 2 * PER; i < (p + 1) * 2 * PER; i++)
            if (rbuf[i] != val(i, iter, prev)) {
                MT_CHECK(0, "round %d rbuf[%d]=%g", iter, i, rbuf[i]);
                break;
            }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    pthread_t th[THREADS];

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MT_CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;
    /* the receiver splits the buffer in half as many partitions */
    MPI_Precv_init(rbuf, PARTS / 2, 2 * PER, MPI_DOUBLE, prev, 1,
                   MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]);
    MPI_Psend_init(sbuf, PARTS, PER, MPI_DOUBLE, next, 1, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &req[1]);
    for (iter = 0; iter < ROUNDS; iter++) {
        memset(rbuf, 0, sizeof(rbuf));
        MPI_Startall(2, req);
        for (long t = 0; t < THREADS; t++)
            pthread_create(&th[t], NULL, worker, (void *)t);
        for (int t = 0; t < THREADS; t++)
            pthread_join(th[t], NULL);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
    return mt_finish();
}
