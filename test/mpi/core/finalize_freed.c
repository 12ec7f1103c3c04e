/* MPI_Finalize completes requests the user freed while active: even rank
 * r sends to r+1 (eager, synchronous and rendezvous-sized messages, all
 * freed right after the call, after a delay so the receiver is already in
 * MPI_Finalize); r+1 frees its receives at once.  After MPI_Finalize the
 * receive buffers must hold the data.  Every rank also frees a receive
 * that nothing matches (erroneous, but Finalize must not hang on it). */
#include "../mpitest.h"
#include <string.h>
#include <unistd.h>

#define BIG (1 << 20)         /* past the rendezvous threshold */

int main(int argc, char **argv)
{
    static int big[BIG / sizeof(int)];
    int small = -1, sync = -1, never = -1, rank, size;
    MPI_Request r;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = BIG / (int)sizeof(int);
    int peer = rank % 2 == 0 ? rank + 1 : rank - 1;

    MT_CHECK_RC(MPI_Irecv(&never, 1, MPI_INT, MPI_ANY_SOURCE, 999,
                          MPI_COMM_WORLD, &r));
    MT_CHECK_RC(MPI_Request_free(&r));
    if (peer < size && rank % 2 == 0) {
        usleep(200000);       /* the receiver is in MPI_Finalize by now */
        for (int i = 0; i < n; i++)
            big[i] = i ^ 0x5a5a;
        small = 42;
        sync = 43;
        MT_CHECK_RC(MPI_Isend(big, n, MPI_INT, peer, 1, MPI_COMM_WORLD, &r));
        MT_CHECK_RC(MPI_Request_free(&r));
        MT_CHECK_RC(MPI_Isend(&small, 1, MPI_INT, peer, 2, MPI_COMM_WORLD,
                              &r));
        MT_CHECK_RC(MPI_Request_free(&r));
        MT_CHECK_RC(MPI_Issend(&sync, 1, MPI_INT, peer, 3, MPI_COMM_WORLD,
                               &r));
        MT_CHECK_RC(MPI_Request_free(&r));
    } else if (peer < size) {
        memset(big, 0, sizeof(big));
        MT_CHECK_RC(MPI_Irecv(big, n, MPI_INT, peer, 1, MPI_COMM_WORLD, &r));
        MT_CHECK_RC(MPI_Request_free(&r));
        MT_CHECK_RC(MPI_Irecv(&small, 1, MPI_INT, peer, 2, MPI_COMM_WORLD,
                              &r));
        MT_CHECK_RC(MPI_Request_free(&r));
        MT_CHECK_RC(MPI_Irecv(&sync, 1, MPI_INT, peer, 3, MPI_COMM_WORLD,
                              &r));
        MT_CHECK_RC(MPI_Request_free(&r));
    }
    MPI_Finalize();

    /* the freed receives completed inside MPI_Finalize */
    int bad = 0;
    if (peer < size && rank % 2 == 1) {
        for (int i = 0; i < n; i++)
            bad += big[i] != (i ^ 0x5a5a);
        if (bad || small != 42 || sync != 43) {
            fprintf(stderr, "[rank %d] after MPI_Finalize: %d wrong ints "
                    "in the big message, small %d, sync %d\n", rank, bad,
                    small, sync);
            mt_errors++;
        }
    }
    if (never != -1) {
        fprintf(stderr, "[rank %d] the unmatched receive got %d\n", rank,
                never);
        mt_errors++;
    }
    return mt_errors ? 1 : 0;
}
