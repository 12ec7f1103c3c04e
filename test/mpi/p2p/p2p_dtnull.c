/*
 * Count-0 transfers described with MPI_DATATYPE_NULL (MPI-4.1 sets no
 * requirement on the type of an empty buffer; MPICH's part/nonblocking_pready
 * relies on it) through every point-to-point call, to a real peer: each
 * rank sends to its right neighbour and receives from its left one.  A
 * count above 0 with MPI_DATATYPE_NULL must still fail with MPI_ERR_TYPE.
 */
#include "../mpitest.h"
#include <string.h>

#define DTN MPI_DATATYPE_NULL

static int right, left;

/* An empty message from `left` with tag t, as the receive reported it. */
static void check_status(const MPI_Status *st, int tag, const char *what)
{
    int n = -1;

    MT_CHECK(st->MPI_SOURCE == left, "%s: source %d, want %d", what,
             st->MPI_SOURCE, left);
    MT_CHECK(st->MPI_TAG == tag, "%s: tag %d, want %d", what, st->MPI_TAG,
             tag);
    MPI_Get_count(st, MPI_INT, &n);
    MT_CHECK(n == 0, "%s: MPI_Get_count %d", what, n);
    MPI_Get_elements(st, MPI_DOUBLE, &n);
    MT_CHECK(n == 0, "%s: MPI_Get_elements %d", what, n);
}

static void blocking(void)
{
    MPI_Request rq;
    MPI_Status st;

    MT_CHECK_RC(MPI_Irecv(NULL, 0, DTN, left, 1, MPI_COMM_WORLD, &rq));
    MT_CHECK_RC(MPI_Send(NULL, 0, DTN, right, 1, MPI_COMM_WORLD));
    MT_CHECK_RC(MPI_Wait(&rq, &st));
    check_status(&st, 1, "Send/Irecv");

    MT_CHECK_RC(MPI_Irecv(NULL, 0, DTN, left, 2, MPI_COMM_WORLD, &rq));
    MT_CHECK_RC(MPI_Ssend(NULL, 0, DTN, right, 2, MPI_COMM_WORLD));
    MT_CHECK_RC(MPI_Wait(&rq, &st));
    check_status(&st, 2, "Ssend/Irecv");

    /* Rsend: every receive is posted before the barrier */
    MT_CHECK_RC(MPI_Irecv(NULL, 0, DTN, left, 3, MPI_COMM_WORLD, &rq));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(MPI_Rsend(NULL, 0, DTN, right, 3, MPI_COMM_WORLD));
    MT_CHECK_RC(MPI_Wait(&rq, &st));
    check_status(&st, 3, "Rsend/Irecv");

    MPI_Request sq;
    MT_CHECK_RC(MPI_Isend(NULL, 0, DTN, right, 4, MPI_COMM_WORLD, &sq));
    MT_CHECK_RC(MPI_Recv(NULL, 0, DTN, left, 4, MPI_COMM_WORLD, &st));
    check_status(&st, 4, "Isend/Recv");
    MT_CHECK_RC(MPI_Wait(&sq, MPI_STATUS_IGNORE));

    MT_CHECK_RC(MPI_Issend(NULL, 0, DTN, right, 5, MPI_COMM_WORLD, &sq));
    MT_CHECK_RC(MPI_Recv_c(NULL, 0, DTN, left, 5, MPI_COMM_WORLD, &st));
    check_status(&st, 5, "Issend/Recv_c");
    MT_CHECK_RC(MPI_Wait(&sq, MPI_STATUS_IGNORE));
}

static void sendrecv(void)
{
    MPI_Status st;
    MPI_Request rq;

    MT_CHECK_RC(MPI_Sendrecv(NULL, 0, DTN, right, 10, NULL, 0, DTN, left, 10,
                             MPI_COMM_WORLD, &st));
    check_status(&st, 10, "Sendrecv");
    MT_CHECK_RC(MPI_Sendrecv_replace(NULL, 0, DTN, right, 11, left, 11,
                                     MPI_COMM_WORLD, &st));
    check_status(&st, 11, "Sendrecv_replace");
    MT_CHECK_RC(MPI_Isendrecv(NULL, 0, DTN, right, 12, NULL, 0, DTN, left, 12,
                              MPI_COMM_WORLD, &rq));
    MT_CHECK_RC(MPI_Wait(&rq, &st));
    check_status(&st, 12, "Isendrecv");
    MT_CHECK_RC(MPI_Isendrecv_replace(NULL, 0, DTN, right, 13, left, 13,
                                      MPI_COMM_WORLD, &rq));
    MT_CHECK_RC(MPI_Wait(&rq, &st));
    check_status(&st, 13, "Isendrecv_replace");
}

static void persistent(void)
{
    MPI_Request rq[2];
    MPI_Status st[2];

    MT_CHECK_RC(MPI_Recv_init(NULL, 0, DTN, left, 20, MPI_COMM_WORLD, &rq[0]));
    MT_CHECK_RC(MPI_Send_init(NULL, 0, DTN, right, 20, MPI_COMM_WORLD,
                              &rq[1]));
    for (int i = 0; i < 3; i++) {
        MT_CHECK_RC(MPI_Startall(2, rq));
        MT_CHECK_RC(MPI_Waitall(2, rq, st));
        check_status(&st[0], 20, "Recv_init/Send_init");
    }
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);

    MT_CHECK_RC(MPI_Recv_init(NULL, 0, DTN, left, 21, MPI_COMM_WORLD, &rq[0]));
    MT_CHECK_RC(MPI_Ssend_init(NULL, 0, DTN, right, 21, MPI_COMM_WORLD,
                               &rq[1]));
    MT_CHECK_RC(MPI_Startall(2, rq));
    MT_CHECK_RC(MPI_Waitall(2, rq, st));
    check_status(&st[0], 21, "Recv_init/Ssend_init");
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
}

static void buffered(void)
{
    static char pool[4 * MPI_BSEND_OVERHEAD + 64];
    MPI_Request rq[2];
    MPI_Status st;
    void *b;
    int sz;

    MT_CHECK_RC(MPI_Buffer_attach(pool, sizeof(pool)));
    MT_CHECK_RC(MPI_Bsend(NULL, 0, DTN, right, 30, MPI_COMM_WORLD));
    MT_CHECK_RC(MPI_Recv(NULL, 0, DTN, left, 30, MPI_COMM_WORLD, &st));
    check_status(&st, 30, "Bsend");
    MT_CHECK_RC(MPI_Ibsend(NULL, 0, DTN, right, 31, MPI_COMM_WORLD, &rq[0]));
    MT_CHECK_RC(MPI_Recv(NULL, 0, DTN, left, 31, MPI_COMM_WORLD, &st));
    check_status(&st, 31, "Ibsend");
    MT_CHECK_RC(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
    MT_CHECK_RC(MPI_Bsend_init(NULL, 0, DTN, right, 32, MPI_COMM_WORLD,
                               &rq[0]));
    MT_CHECK_RC(MPI_Start(&rq[0]));
    MT_CHECK_RC(MPI_Recv(NULL, 0, DTN, left, 32, MPI_COMM_WORLD, &st));
    check_status(&st, 32, "Bsend_init");
    MT_CHECK_RC(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
    MPI_Request_free(&rq[0]);
    MT_CHECK_RC(MPI_Buffer_detach(&b, &sz));
}

static void matched(void)
{
    MPI_Request sq, rq;
    MPI_Message msg;
    MPI_Status st;
    int flag = 0;

    MT_CHECK_RC(MPI_Isend(NULL, 0, DTN, right, 40, MPI_COMM_WORLD, &sq));
    MT_CHECK_RC(MPI_Mprobe(left, 40, MPI_COMM_WORLD, &msg, &st));
    check_status(&st, 40, "Mprobe");
    MT_CHECK_RC(MPI_Mrecv(NULL, 0, DTN, &msg, &st));
    check_status(&st, 40, "Mrecv");
    MT_CHECK_RC(MPI_Wait(&sq, MPI_STATUS_IGNORE));

    MT_CHECK_RC(MPI_Isend(NULL, 0, DTN, right, 41, MPI_COMM_WORLD, &sq));
    while (!flag)
        MT_CHECK_RC(MPI_Improbe(left, 41, MPI_COMM_WORLD, &flag, &msg, &st));
    MT_CHECK_RC(MPI_Imrecv(NULL, 0, DTN, &msg, &rq));
    MT_CHECK_RC(MPI_Wait(&rq, &st));
    check_status(&st, 41, "Imrecv");
    MT_CHECK_RC(MPI_Wait(&sq, MPI_STATUS_IGNORE));
}

static void partitioned(void)
{
    MPI_Request rq[2];
    MPI_Status st[2];
    int flag = 0;

    MT_CHECK_RC(MPI_Precv_init(NULL, 4, 0, DTN, left, 50, MPI_COMM_WORLD,
                               MPI_INFO_NULL, &rq[0]));
    MT_CHECK_RC(MPI_Psend_init(NULL, 4, 0, DTN, right, 50, MPI_COMM_WORLD,
                               MPI_INFO_NULL, &rq[1]));
    for (int i = 0; i < 2; i++) {
        MT_CHECK_RC(MPI_Startall(2, rq));
        MT_CHECK_RC(MPI_Pready_range(0, 3, rq[1]));
        MT_CHECK_RC(MPI_Waitall(2, rq, st));
        MT_CHECK_RC(MPI_Parrived(rq[0], 3, &flag));
        MT_CHECK(flag, "Parrived after completion");
    }
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
}

/* The type is free only when there is no data. */
static void errors(void)
{
    int x = 7, ec = 0;
    MPI_Request sq;
    MPI_Status st;

    int rc = MPI_Send(&x, 1, DTN, right, 60, MPI_COMM_WORLD);
    MPI_Error_class(rc, &ec);
    MT_CHECK(ec == MPI_ERR_TYPE, "Send count 1 MPI_DATATYPE_NULL: class %d",
             ec);
    rc = MPI_Irecv(&x, 1, DTN, left, 60, MPI_COMM_WORLD, &sq);
    MPI_Error_class(rc, &ec);
    MT_CHECK(ec == MPI_ERR_TYPE, "Irecv count 1 MPI_DATATYPE_NULL: class %d",
             ec);
    /* an empty MPI_DATATYPE_NULL receive of a longer message truncates */
    MT_CHECK_RC(MPI_Isend(&x, 1, MPI_INT, right, 61, MPI_COMM_WORLD, &sq));
    rc = MPI_Recv(NULL, 0, DTN, left, 61, MPI_COMM_WORLD, &st);
    MPI_Error_class(rc, &ec);
    MT_CHECK(ec == MPI_ERR_TRUNCATE, "count-0 receive of 4 bytes: class %d",
             ec);
    MT_CHECK_RC(MPI_Wait(&sq, MPI_STATUS_IGNORE));
}

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    blocking();
    sendrecv();
    persistent();
    buffered();
    matched();
    partitioned();
    errors();
    return mt_finish();
}
