/* Send cancellation under MPI_THREAD_MULTIPLE: rank 2k runs THREADS
 * sender threads, each sending NMSG numbered messages on its own tag to
 * rank 2k+1 and cancelling every third one; rank 2k+1 runs as many
 * receiver threads, one per tag, receiving by blocking receive, by
 * Irecv+Wait and by Probe+Recv in turn (and pausing now and then, so that
 * some messages wait unexpected and their cancels succeed).  Checks: per
 * tag the messages arrive in order, none twice, and exactly those whose
 * cancel failed arrive (the sender ships its list of cancelled ones). */
#include "../mpitest.h"
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#define THREADS 4
#define NMSG 150
#define END (-1)

static int rank, size, peer;
static char cancelled[THREADS][NMSG];   /* sender: cancel succeeded */
static char got[THREADS][NMSG];         /* receiver: message arrived */
static int order_errors[THREADS];

static void *sender(void *arg)
{
    int t = (int)(intptr_t)arg;
    for (int i = 0; i < NMSG; i++) {
        int v = i;
        MPI_Request r;
        MPI_Status st;
        int flag = 0;
        MPI_Isend(&v, 1, MPI_INT, peer, t, MPI_COMM_WORLD, &r);
        if (i % 3 == 0)
            MPI_Cancel(&r);
        MPI_Wait(&r, &st);
        MPI_Test_cancelled(&st, &flag);
        cancelled[t][i] = (char)flag;
    }
    int end = END;
    MPI_Send(&end, 1, MPI_INT, peer, t, MPI_COMM_WORLD);
    return NULL;
}

static void *receiver(void *arg)
{
    int t = (int)(intptr_t)arg, last = -1;
    for (int k = 0;; k++) {
        int v = -2;
        MPI_Request r;
        MPI_Status st;
        if (k % 17 == 0)
            usleep(2000);     /* let messages queue up unexpected */
        switch (k % 3) {
        case 0:
            MPI_Recv(&v, 1, MPI_INT, peer, t, MPI_COMM_WORLD, &st);
            break;
        case 1:
            MPI_Irecv(&v, 1, MPI_INT, peer, t, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, &st);
            break;
        default:
            MPI_Probe(peer, t, MPI_COMM_WORLD, &st);
            MPI_Recv(&v, 1, MPI_INT, peer, t, MPI_COMM_WORLD, &st);
        }
        if (v == END)
            break;
        if (v < 0 || v >= NMSG || v <= last || got[t][v]) {
            order_errors[t]++;
            fprintf(stderr, "[rank %d] tag %d: got %d after %d\n", rank, t,
                    v, last);
        } else {
            got[t][v] = 1;
        }
        last = v;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    peer = rank ^ 1;
    if (peer < size) {
        pthread_t th[THREADS];
        for (int t = 0; t < THREADS; t++)
            pthread_create(&th[t], NULL, rank % 2 ? receiver : sender,
                           (void *)(intptr_t)t);
        for (int t = 0; t < THREADS; t++)
            pthread_join(th[t], NULL);
        int ncancel = 0;
        if (rank % 2 == 0) {
            MPI_Send(cancelled, sizeof(cancelled), MPI_CHAR, peer, 99,
                     MPI_COMM_WORLD);
            for (int t = 0; t < THREADS; t++)
                for (int i = 0; i < NMSG; i++)
                    ncancel += cancelled[t][i];
            MT_CHECK(ncancel <= THREADS * ((NMSG + 2) / 3),
                     "%d cancelled, more than were cancelled", ncancel);
        } else {
            MPI_Recv(cancelled, sizeof(cancelled), MPI_CHAR, peer, 99,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int t = 0; t < THREADS; t++) {
                MT_CHECK(order_errors[t] == 0, "tag %d: %d messages out of "
                         "order or twice", t, order_errors[t]);
                for (int i = 0; i < NMSG; i++) {
                    MT_CHECK(got[t][i] != cancelled[t][i], "tag %d message "
                             "%d: %s", t, i, got[t][i] ? "arrived although "
                             "cancelled" : "lost although not cancelled");
                    ncancel += cancelled[t][i];
                }
            }
        }
        if (rank < 2)
            printf("[rank %d] %d of %d cancels succeeded\n", rank, ncancel,
                   THREADS * ((NMSG + 2) / 3));
    }
    return mt_finish();
}
