/* A buffer that holds exactly one round of buffered sends is enough for
 * every round once the receiver has taken the previous one (a barrier
 * between rounds): MPI_Bsend must take in the completions of the last
 * round instead of failing with MPI_ERR_BUFFER.  Under
 * MPI_THREAD_MULTIPLE, THREADS threads per rank send (or receive) N
 * messages each, as MPICH threads/pt2pt/mt_bsendrecv_huge does.  Pairs
 * (0,1), (2,3), ... */
#include "../mpitest.h"
#include <pthread.h>
#include <string.h>

#define THREADS 4
#define N 8
#define LEN 4096            /* ints: 16 KiB */
#define ROUNDS 4

static int rank, size, peer, round_no;

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    int *msg = malloc(sizeof(int) * LEN);

    for (int i = 0; i < N; i++) {
        int tag = t * N + i;
        if (rank % 2 == 0) {
            msg[0] = round_no * 1000 + tag;
            msg[LEN - 1] = -msg[0];
            int rc = MPI_Bsend(msg, LEN, MPI_INT, peer, tag, MPI_COMM_WORLD);
            MT_CHECK(rc == MPI_SUCCESS, "round %d send %d: rc %d", round_no,
                     tag, rc);
            if (rc != MPI_SUCCESS)     /* the receiver still gets it */
                MPI_Send(msg, LEN, MPI_INT, peer, tag, MPI_COMM_WORLD);
        } else {
            memset(msg, 0, sizeof(int) * LEN);
            MPI_Recv(msg, LEN, MPI_INT, peer, tag, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MT_CHECK(msg[0] == round_no * 1000 + tag &&
                         msg[LEN - 1] == -msg[0],
                     "round %d message %d: %d %d", round_no, tag, msg[0],
                     msg[LEN - 1]);
        }
    }
    free(msg);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    pthread_t th[THREADS];

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int bufsize = THREADS * N * (LEN * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    MPI_Buffer_attach(malloc((size_t)bufsize), bufsize);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    peer = rank ^ 1;
    for (round_no = 0; round_no < ROUNDS; round_no++) {
        for (long t = 0; peer < size && t < THREADS; t++)
            pthread_create(&th[t], NULL, worker, (void *)t);
        for (int t = 0; peer < size && t < THREADS; t++)
            pthread_join(th[t], NULL);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    void *b;
    int bs;
    MPI_Buffer_detach(&b, &bs);
    free(b);
    return mt_finish();
}
