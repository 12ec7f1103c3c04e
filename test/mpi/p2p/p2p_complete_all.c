/* Completion of request arrays (MPI_Testall, MPI_Waitall, MPI_Waitany)
 * with every kind of entry: MPI_REQUEST_NULL, persistent requests never
 * started (inactive), started persistent ones, plain nonblocking ones and
 * one that fails (a truncated receive, MPI_ERRORS_RETURN).  Checks each
 * status slot (the empty status for inactive entries, the envelope for
 * the others, MPI_ERROR set by the array calls), which handles become
 * MPI_REQUEST_NULL and which stay (persistent), and the return codes.
 * Pairs of ranks (0-1, 2-3, ...); an odd last rank talks to itself. */
#include "../mpitest.h"

enum { N = 6 };

static int rank, size, peer;

static int empty(const MPI_Status *st)
{
    int count = -1;
    MPI_Get_count(st, MPI_INT, &count);
    return st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG &&
           count == 0;
}

/* rq: [0] NULL, [1] persistent recv not started, [2] persistent recv
 * started, [3] irecv, [4] isend, [5] persistent send started. */
static void setup(MPI_Request rq[N], int *rbuf, int *sbuf, int round)
{
    rq[0] = MPI_REQUEST_NULL;
    MPI_Recv_init(&rbuf[0], 1, MPI_INT, peer, 90, MPI_COMM_WORLD, &rq[1]);
    MPI_Recv_init(&rbuf[1], 1, MPI_INT, peer, 91, MPI_COMM_WORLD, &rq[2]);
    MPI_Start(&rq[2]);
    MPI_Irecv(&rbuf[2], 2, MPI_INT, peer, 92, MPI_COMM_WORLD, &rq[3]);
    sbuf[0] = 1000 * round + rank;
    sbuf[1] = 2000 * round + rank;
    MPI_Isend(&sbuf[0], 1, MPI_INT, peer, 92, MPI_COMM_WORLD, &rq[4]);
    MPI_Send_init(&sbuf[1], 1, MPI_INT, peer, 91, MPI_COMM_WORLD, &rq[5]);
    MPI_Start(&rq[5]);
}

static void check(MPI_Request rq[N], MPI_Status sts[N], int *rbuf, int round,
                  const char *how)
{
    int count = -1;

    MT_CHECK(rq[0] == MPI_REQUEST_NULL, "%s: null entry changed", how);
    MT_CHECK(empty(&sts[0]) && empty(&sts[1]),
             "%s: inactive entries need the empty status", how);
    MT_CHECK(rq[1] != MPI_REQUEST_NULL && rq[2] != MPI_REQUEST_NULL &&
             rq[5] != MPI_REQUEST_NULL, "%s: persistent request freed", how);
    MT_CHECK(rq[3] == MPI_REQUEST_NULL && rq[4] == MPI_REQUEST_NULL,
             "%s: completed request not freed", how);
    MT_CHECK(sts[2].MPI_SOURCE == peer && sts[2].MPI_TAG == 91 &&
             rbuf[1] == 2000 * round + peer, "%s: persistent receive got "
             "src %d tag %d value %d", how, sts[2].MPI_SOURCE,
             sts[2].MPI_TAG, rbuf[1]);
    MPI_Get_count(&sts[3], MPI_INT, &count);
    MT_CHECK(sts[3].MPI_SOURCE == peer && sts[3].MPI_TAG == 92 &&
             count == 1 && rbuf[2] == 1000 * round + peer,
             "%s: irecv got src %d tag %d count %d value %d", how,
             sts[3].MPI_SOURCE, sts[3].MPI_TAG, count, rbuf[2]);
    for (int i = 0; i < N; i++)
        MT_CHECK(sts[i].MPI_ERROR == MPI_SUCCESS, "%s: status %d error %d",
                 how, i, sts[i].MPI_ERROR);
    MPI_Request_free(&rq[1]);
    MPI_Request_free(&rq[2]);
    MPI_Request_free(&rq[5]);
}

static void fill(MPI_Status sts[N])
{
    for (int i = 0; i < N; i++) {
        sts[i].MPI_SOURCE = -7;
        sts[i].MPI_TAG = -7;
        sts[i].MPI_ERROR = -7;
    }
}

static void testall(int round)
{
    MPI_Request rq[N];
    MPI_Status sts[N];
    int rbuf[4] = {0}, sbuf[2], flag = 0, rc = MPI_SUCCESS;

    setup(rq, rbuf, sbuf, round);
    fill(sts);
    while (!flag && rc == MPI_SUCCESS)
        rc = MPI_Testall(N, rq, &flag, sts);
    MT_CHECK(rc == MPI_SUCCESS, "testall rc %d", rc);
    check(rq, sts, rbuf, round, "testall");
}

static void waitall(int round)
{
    MPI_Request rq[N];
    MPI_Status sts[N];
    int rbuf[4] = {0}, sbuf[2];

    setup(rq, rbuf, sbuf, round);
    fill(sts);
    int rc = MPI_Waitall(N, rq, sts);
    MT_CHECK(rc == MPI_SUCCESS, "waitall rc %d", rc);
    check(rq, sts, rbuf, round, "waitall");
}

/* Waitany over the same array until it reports MPI_UNDEFINED. */
static void waitany(int round)
{
    MPI_Request rq[N];
    MPI_Status sts[N], st;
    int rbuf[4] = {0}, sbuf[2], idx, seen = 0;

    setup(rq, rbuf, sbuf, round);
    fill(sts);
    for (;;) {
        int rc = MPI_Waitany(N, rq, &idx, &st);
        MT_CHECK(rc == MPI_SUCCESS, "waitany rc %d", rc);
        if (idx == MPI_UNDEFINED)
            break;
        MT_CHECK(idx >= 2 && idx < N && !(seen & (1 << idx)),
                 "waitany index %d (seen %#x)", idx, seen);
        if (idx < 0 || idx >= N)
            break;
        seen |= 1 << idx;
        st.MPI_ERROR = MPI_SUCCESS;   /* single completions leave it */
        sts[idx] = st;
    }
    MT_CHECK(seen == 0x3c, "waitany completed %#x, want 0x3c", seen);
    MPI_Request nul = MPI_REQUEST_NULL;
    MPI_Status e;                 /* the empty status, for check() */
    MPI_Wait(&nul, &e);
    e.MPI_ERROR = MPI_SUCCESS;
    sts[0] = sts[1] = e;
    check(rq, sts, rbuf, round, "waitany");
}

/* A truncated receive among good ones: MPI_ERR_IN_STATUS, its status
 * carries MPI_ERR_TRUNCATE, the others MPI_SUCCESS. */
static void waitall_error(void)
{
    MPI_Request rq[3];
    MPI_Status sts[3];
    int big[2] = {5, 6}, small = 0, one = 7, got = 0;

    MPI_Irecv(&small, 1, MPI_INT, peer, 95, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(&got, 1, MPI_INT, peer, 96, MPI_COMM_WORLD, &rq[1]);
    MPI_Isend(big, 2, MPI_INT, peer, 95, MPI_COMM_WORLD, &rq[2]);
    MPI_Send(&one, 1, MPI_INT, peer, 96, MPI_COMM_WORLD);
    int rc = MPI_Waitall(3, rq, sts);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    MT_CHECK(cls == MPI_ERR_IN_STATUS, "waitall with a truncation: rc %d", rc);
    MPI_Error_class(sts[0].MPI_ERROR, &cls);
    MT_CHECK(cls == MPI_ERR_TRUNCATE, "truncated status error %d",
             sts[0].MPI_ERROR);
    MT_CHECK(sts[1].MPI_ERROR == MPI_SUCCESS && got == 7 &&
             sts[2].MPI_ERROR == MPI_SUCCESS, "good entries: %d %d got %d",
             sts[1].MPI_ERROR, sts[2].MPI_ERROR, got);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    peer = rank ^ 1;
    if (peer >= size)
        peer = rank;
    for (int round = 0; round < 20; round++) {
        testall(round);
        waitall(round);
        waitany(round);
    }
    waitall_error();
    return mt_finish();
}
