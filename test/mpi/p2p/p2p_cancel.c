/* MPI_Cancel of sends and receives: an unmatched send (standard, sync,
 * buffered, persistent; eager, multi-fragment and rendezvous sizes) is
 * cancelled and never delivered; a matched or unidentifiable one is
 * delivered once and reports not cancelled; the receiver keeps message
 * order across messages the cancellation moved (receive, probe, mprobe).
 * Each rank sends to its right neighbour and receives from its left. */
#include "../mpitest.h"
#include <string.h>

enum { CTRL = 1000, MARK = 1001 };
static int rank, size, right, left;
static const int sizes[] = {8, 10000, 1 << 20};

static void fill(char *b, int n, int seed)
{
    for (int i = 0; i < n; i++)
        b[i] = (char)(seed + i * 7);
}

static int same(const char *b, int n, int seed)
{
    for (int i = 0; i < n; i++)
        if (b[i] != (char)(seed + i * 7))
            return 0;
    return 1;
}

/* Starts a send of n bytes in `mode` (0 Isend, 1 Issend, 2 Ibsend,
 * 3 Send_init, 4 Ssend_init, 5 Bsend_init). */
static void start(int mode, char *b, int n, int tag, MPI_Request *rq)
{
    switch (mode) {
    case 0: MPI_Isend(b, n, MPI_CHAR, right, tag, MPI_COMM_WORLD, rq); break;
    case 1: MPI_Issend(b, n, MPI_CHAR, right, tag, MPI_COMM_WORLD, rq); break;
    case 2: MPI_Ibsend(b, n, MPI_CHAR, right, tag, MPI_COMM_WORLD, rq); break;
    case 3: MPI_Send_init(b, n, MPI_CHAR, right, tag, MPI_COMM_WORLD, rq); break;
    case 4: MPI_Ssend_init(b, n, MPI_CHAR, right, tag, MPI_COMM_WORLD, rq); break;
    default: MPI_Bsend_init(b, n, MPI_CHAR, right, tag, MPI_COMM_WORLD, rq);
    }
    if (mode >= 3)
        MPI_Start(rq);
}

/* Receives the marker that follows a case: the cancelled message must not
 * be delivered in its place. */
static void recv_marker(int tag, const char *what)
{
    int v = -1;
    MPI_Recv(&v, 1, MPI_INT, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MT_CHECK(v == MARK, "%s: got %d instead of the marker", what, v);
}

/* An unmatched send is cancelled; a persistent one then runs normally. */
static void unmatched(int mode, int n)
{
    int tag = 10 + mode, flag = -1, mark = MARK, tell;
    char *b = malloc((size_t)n), *r = malloc((size_t)n);
    MPI_Request rq;
    MPI_Status st;

    fill(b, n, mode);
    start(mode, b, n, tag, &rq);
    MPI_Cancel(&rq);
    MPI_Wait(&rq, &st);
    MPI_Test_cancelled(&st, &flag);
    MT_CHECK(flag == 1, "mode %d size %d: unmatched send not cancelled",
             mode, n);
    tell = flag;
    if (mode >= 3) {         /* restart: delivered this time */
        MPI_Start(&rq);
        tell = 2;
    }
    MPI_Send(&mark, 1, MPI_INT, right, tag + 100, MPI_COMM_WORLD);
    MPI_Send(&tell, 1, MPI_INT, right, CTRL, MPI_COMM_WORLD);

    MPI_Recv(&tell, 1, MPI_INT, left, CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (tell != 1) {
        memset(r, 0, (size_t)n);
        MPI_Recv(r, n, MPI_CHAR, left, tag, MPI_COMM_WORLD, &st);
        MPI_Test_cancelled(&st, &flag);
        MT_CHECK(same(r, n, mode) && !flag, "mode %d size %d: bad data",
                 mode, n);
    }
    recv_marker(tag + 100, "unmatched");
    if (mode >= 3) {
        MPI_Wait(&rq, &st);
        MPI_Test_cancelled(&st, &flag);
        MT_CHECK(!flag, "mode %d: restarted send reported cancelled", mode);
        MPI_Request_free(&rq);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    free(b);
    free(r);
}

/* A send already received cannot be cancelled. */
static void matched(int n)
{
    char *b = malloc((size_t)n), *r = malloc((size_t)n);
    MPI_Request rq, rr;
    MPI_Status st;
    int flag = -1;

    fill(b, n, 3);
    MPI_Irecv(r, n, MPI_CHAR, left, 20, MPI_COMM_WORLD, &rr);
    MPI_Isend(b, n, MPI_CHAR, right, 20, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rr, &st);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Cancel(&rq);
    MPI_Wait(&rq, &st);
    MPI_Test_cancelled(&st, &flag);
    MT_CHECK(!flag, "size %d: a received send reported cancelled", n);
    MT_CHECK(same(r, n, 3), "size %d: matched data", n);
    free(b);
    free(r);
}

/* A later send to the same peer makes the first unidentifiable: it is
 * delivered, once, and reports not cancelled. */
static void unidentifiable(void)
{
    int a = 11, c = 12, ra = 0, rc = 0, flag = -1;
    MPI_Request rq[2];
    MPI_Status st;

    MPI_Isend(&a, 1, MPI_INT, right, 30, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(&c, 1, MPI_INT, right, 31, MPI_COMM_WORLD, &rq[1]);
    MPI_Cancel(&rq[0]);
    MPI_Recv(&ra, 1, MPI_INT, left, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&rc, 1, MPI_INT, left, 31, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MT_CHECK(ra == 11 && rc == 12, "got %d %d", ra, rc);
    MPI_Wait(&rq[0], &st);
    MPI_Test_cancelled(&st, &flag);
    MT_CHECK(!flag, "a delivered send reported cancelled");
    MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Cancel the newest of several unexpected messages: the older ones keep
 * their order for receive, probe and matched probe (MPICH scancel_unmatch
 * with more envelopes). */
static void order_kept(void)
{
    int x = 70, a = 71, c = 72, v = -1, flag = -1, mark = MARK;
    MPI_Request rq[2];
    MPI_Status st;
    MPI_Message msg;

    MPI_Send(&x, 1, MPI_INT, right, 7, MPI_COMM_WORLD);
    MPI_Isend(&a, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(&c, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &rq[1]);
    MPI_Cancel(&rq[1]);
    MPI_Wait(&rq[1], &st);
    MPI_Test_cancelled(&st, &flag);
    MT_CHECK(flag == 1, "newest of two equal envelopes not cancelled");
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    MPI_Send(&mark, 1, MPI_INT, right, 3, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    MT_CHECK(st.MPI_TAG == 7 && st.MPI_SOURCE == left, "probe saw tag %d",
             st.MPI_TAG);
    MPI_Recv(&v, 1, MPI_INT, left, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    MT_CHECK(v == 70 && st.MPI_TAG == 7, "first message %d tag %d", v,
             st.MPI_TAG);
    flag = 0;
    while (!flag)
        MPI_Improbe(left, 3, MPI_COMM_WORLD, &flag, &msg, &st);
    MPI_Mrecv(&v, 1, MPI_INT, &msg, &st);
    MT_CHECK(v == 71, "second message %d (72 was cancelled)", v);
    recv_marker(3, "order_kept");
    MPI_Barrier(MPI_COMM_WORLD);
}

static void receives(void)
{
    int v = 0, flag = -1, x = 5;
    MPI_Request rq;
    MPI_Status st;

    MPI_Irecv(&v, 1, MPI_INT, left, 40, MPI_COMM_WORLD, &rq);
    MPI_Cancel(&rq);
    MPI_Wait(&rq, &st);
    MPI_Test_cancelled(&st, &flag);
    MT_CHECK(flag == 1, "posted receive not cancelled");
    MPI_Irecv(&v, 1, MPI_INT, left, 41, MPI_COMM_WORLD, &rq);
    MPI_Send(&x, 1, MPI_INT, right, 41, MPI_COMM_WORLD);
    flag = 0;
    while (!flag)   /* complete but not yet waited: too late to cancel */
        MPI_Request_get_status(rq, &flag, MPI_STATUS_IGNORE);
    MPI_Cancel(&rq);
    MPI_Wait(&rq, &st);
    MPI_Test_cancelled(&st, &flag);
    MT_CHECK(!flag && v == 5, "matched receive: cancelled %d v %d", flag, v);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    int bsize = 4 * ((1 << 20) + MPI_BSEND_OVERHEAD);
    MPI_Buffer_attach(malloc((size_t)bsize), bsize);

    for (int s = 0; s < 3; s++)
        for (int mode = 0; mode < 6; mode++)
            unmatched(mode, sizes[s]);
    for (int s = 0; s < 3; s++)
        matched(sizes[s]);
    unidentifiable();
    order_kept();
    receives();

    void *bb;
    MPI_Buffer_detach(&bb, &bsize);
    free(bb);
    return mt_finish();
}
