/* Non-overtaking order when receives of one source and tag mix small
 * buffers (matched exactly, UCX's hashed expected queue) with large ones
 * (flag-ignoring wildcard match) and MPI_ANY_SOURCE/MPI_ANY_TAG: every
 * message must land in the receive posted for it, whether the receives
 * were posted first (expected) or the messages arrived first
 * (unexpected), with blocking receives too.  Ranks pair up (0-1, 2-3..);
 * an odd last rank sends to itself. */
#include "../mpitest.h"
#include <string.h>

#define N 48
#define SMALL 8
#define BIG 1024

/* Receive i's buffer size and source/tag (wildcards on some). */
static int cap_of(int i, int round)
{
    return (i + round) % 3 == 0 ? BIG : SMALL;
}

static void post(int i, int round, int peer, char *buf, MPI_Request *r)
{
    int src = i % 5 == 4 ? MPI_ANY_SOURCE : peer;
    int tag = i % 7 == 6 ? MPI_ANY_TAG : 3;
    MPI_Irecv(buf, cap_of(i, round), MPI_CHAR, src, tag, MPI_COMM_WORLD, r);
}

static void send_all(int peer, int round, char *sbuf, MPI_Request *reqs)
{
    for (int i = 0; i < N; i++) {
        /* message i fits receive i and says which it is */
        memset(sbuf + i * BIG, 'a' + i % 26, SMALL);
        sbuf[i * BIG] = (char)i;
        MPI_Isend(sbuf + i * BIG, SMALL, MPI_CHAR, peer, 3, MPI_COMM_WORLD,
                  &reqs[i]);
    }
}

static void check_all(char *rbuf, MPI_Status *st, int round, int peer)
{
    for (int i = 0; i < N; i++) {
        int n = -1;
        MPI_Get_count(&st[i], MPI_CHAR, &n);
        MT_CHECK(rbuf[i * BIG] == (char)i,
                 "round %d: receive %d got message %d", round, i,
                 rbuf[i * BIG]);
        MT_CHECK(n == SMALL && st[i].MPI_SOURCE == peer &&
                     st[i].MPI_TAG == 3,
                 "round %d: receive %d: count %d source %d tag %d", round,
                 i, n, st[i].MPI_SOURCE, st[i].MPI_TAG);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int peer = rank ^ 1;
    if (peer >= size)
        peer = rank;
    char *sbuf = calloc(N, BIG), *rbuf = calloc(N, BIG);
    MPI_Request sreq[N], rreq[N];
    MPI_Status st[N];

    for (int round = 0; round < 3; round++) {
        /* expected: receives first, then the peer sends */
        memset(rbuf, 0xff, (size_t)N * BIG);
        for (int i = 0; i < N; i++)
            post(i, round, peer, rbuf + i * BIG, &rreq[i]);
        MPI_Barrier(MPI_COMM_WORLD);
        send_all(peer, round, sbuf, sreq);
        MPI_Waitall(N, rreq, st);
        MPI_Waitall(N, sreq, MPI_STATUSES_IGNORE);
        check_all(rbuf, st, round, peer);

        /* unexpected: messages first, then the receives */
        memset(rbuf, 0xff, (size_t)N * BIG);
        send_all(peer, round, sbuf, sreq);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < N; i++)
            post(i, round, peer, rbuf + i * BIG, &rreq[i]);
        MPI_Waitall(N, rreq, st);
        MPI_Waitall(N, sreq, MPI_STATUSES_IGNORE);
        check_all(rbuf, st, round, peer);

        /* blocking receives, alternating sizes, half of them unexpected */
        memset(rbuf, 0xff, (size_t)N * BIG);
        send_all(peer, round, sbuf, sreq);
        for (int i = 0; i < N; i++) {
            if (i == N / 2)
                MPI_Barrier(MPI_COMM_WORLD);
            MPI_Recv(rbuf + i * BIG, cap_of(i, round), MPI_CHAR,
                     i % 5 == 4 ? MPI_ANY_SOURCE : peer, 3, MPI_COMM_WORLD,
                     &st[i]);
        }
        MPI_Waitall(N, sreq, MPI_STATUSES_IGNORE);
        check_all(rbuf, st, round, peer);
    }
    free(sbuf);
    free(rbuf);
    return mt_finish();
}
