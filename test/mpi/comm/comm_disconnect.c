/* MPI_Comm_disconnect waits for the communication still pending on the
 * communicator: rank 2k sends to 2k+1 on a dup of MPI_COMM_WORLD with a
 * buffered send, a rendezvous-sized Isend it frees at once and an Issend
 * it frees; 2k+1 frees its receives at once.  When MPI_Comm_disconnect
 * returns, the freed receives hold the data and the handle is
 * MPI_COMM_NULL.  Then an intercommunicator, the error cases, and
 * MPI_Comm_get_parent (MPI_COMM_NULL: nothing is spawned). */
#include "../mpitest.h"
#include <string.h>
#include <unistd.h>

#define BIG (1 << 18)         /* ints: 1 MiB, past the rendezvous threshold */

static int rank, size;

static void test_pending(void)
{
    static int big[BIG];
    static char bbuf[1024 + MPI_BSEND_OVERHEAD];
    int small = -1, sync = -1, peer = rank ^ 1;
    MPI_Comm c;
    MPI_Request r;
    void *addr;
    int bytes;

    MT_CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    MT_CHECK_RC(MPI_Buffer_attach(bbuf, sizeof(bbuf)));
    if (peer < size && rank % 2 == 0) {
        usleep(100000);       /* the receiver is waiting in disconnect */
        for (int i = 0; i < BIG; i++)
            big[i] = i * 7 + 1;
        small = 11;
        sync = 12;
        MT_CHECK_RC(MPI_Bsend(&small, 1, MPI_INT, peer, 1, c));
        MT_CHECK_RC(MPI_Isend(big, BIG, MPI_INT, peer, 2, c, &r));
        MT_CHECK_RC(MPI_Request_free(&r));
        MT_CHECK_RC(MPI_Issend(&sync, 1, MPI_INT, peer, 3, c, &r));
        MT_CHECK_RC(MPI_Request_free(&r));
    } else if (peer < size) {
        memset(big, 0, sizeof(big));
        MT_CHECK_RC(MPI_Irecv(&small, 1, MPI_INT, peer, 1, c, &r));
        MT_CHECK_RC(MPI_Request_free(&r));
        MT_CHECK_RC(MPI_Irecv(big, BIG, MPI_INT, peer, 2, c, &r));
        MT_CHECK_RC(MPI_Request_free(&r));
        MT_CHECK_RC(MPI_Irecv(&sync, 1, MPI_INT, peer, 3, c, &r));
        MT_CHECK_RC(MPI_Request_free(&r));
    }
    MT_CHECK_RC(MPI_Comm_disconnect(&c));
    MT_CHECK(c == MPI_COMM_NULL, "handle not MPI_COMM_NULL after "
             "disconnect");
    if (peer < size && rank % 2 == 1) {
        int bad = 0;
        for (int i = 0; i < BIG; i++)
            bad += big[i] != i * 7 + 1;
        MT_CHECK(bad == 0 && small == 11 && sync == 12,
                 "after disconnect: %d wrong ints, small %d, sync %d", bad,
                 small, sync);
    }
    MT_CHECK_RC(MPI_Buffer_detach(&addr, &bytes));
}

/* an intercommunicator between the even and the odd ranks */
static void test_inter(void)
{
    MPI_Comm half, inter;
    int v = rank, got = -1;

    if (size < 2)
        return;
    MT_CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    MT_CHECK_RC(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - rank % 2,
                                     7, &inter));
    int hr, rsize;
    MPI_Comm_rank(half, &hr);
    MPI_Comm_remote_size(inter, &rsize);
    MPI_Request r;
    /* my half-rank's partner in the other group, if it has one */
    if (hr < rsize) {
        MT_CHECK_RC(MPI_Isend(&v, 1, MPI_INT, hr, 0, inter, &r));
        MT_CHECK_RC(MPI_Request_free(&r));
        MT_CHECK_RC(MPI_Recv(&got, 1, MPI_INT, hr, 0, inter,
                             MPI_STATUS_IGNORE));
        MT_CHECK(got == 2 * hr + 1 - rank % 2, "intercomm got %d", got);
    }
    MT_CHECK_RC(MPI_Comm_disconnect(&inter));
    MT_CHECK(inter == MPI_COMM_NULL, "intercomm handle not null");
    MT_CHECK_RC(MPI_Comm_disconnect(&half));
}

static void test_errors(void)
{
    int cls = -1;
    MPI_Comm w = MPI_COMM_WORLD, n = MPI_COMM_NULL;

    MPI_Error_class(MPI_Comm_disconnect(&w), &cls);
    MT_CHECK(cls == MPI_ERR_COMM, "disconnect of MPI_COMM_WORLD: class %d",
             cls);
    MT_CHECK(w == MPI_COMM_WORLD, "MPI_COMM_WORLD handle changed");
    MPI_Error_class(MPI_Comm_disconnect(&n), &cls);
    MT_CHECK(cls == MPI_ERR_COMM, "disconnect of MPI_COMM_NULL: class %d",
             cls);
    MPI_Comm parent = MPI_COMM_WORLD;
    MT_CHECK_RC(MPI_Comm_get_parent(&parent));
    MT_CHECK(parent == MPI_COMM_NULL, "a parent although not spawned");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    test_pending();
    test_inter();
    test_errors();
    return mt_finish();
}
