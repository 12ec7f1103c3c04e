/* Partitioned receives started before their sender's init leave a
 * progress hook registered until the header arrives (lib/p2p/part.c).  Once
 * nothing partitioned is pending the hook must be gone again: while one
 * is registered every single-operation wait leaves its fast path
 * (lib/p2p/progress.h).  Checks the engine's hook count through its internal
 * symbol (weak: the test still runs its correctness part elsewhere), and
 * that many later blocking and nonblocking messages stay correct. */
#include "hooktest.h"
#include <string.h>

static int rank, size, next, prev;

/* One partitioned round whose receive starts before the sender exists;
 * with free_early, a receive request never started is freed before its
 * header came (its header receive may stay behind as a zombie). */
static void late_sender(int round, int free_early)
{
    enum { N = 32, P = 4 };
    int sbuf[N], rbuf[N];
    MPI_Request rreq = MPI_REQUEST_NULL, sreq;

    memset(rbuf, 0, sizeof(rbuf));
    if (free_early) {
        MPI_Comm dup;       /* nobody sends here: the header never comes */
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Precv_init(rbuf, P, N / P, MPI_INT, prev, 9, dup, MPI_INFO_NULL,
                       &rreq);
        MPI_Request_free(&rreq);
        MPI_Comm_free(&dup);
        return;
    }
    MPI_Precv_init(rbuf, P, N / P, MPI_INT, prev, 9, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &rreq);
    MPI_Start(&rreq);
    MPI_Barrier(MPI_COMM_WORLD);   /* every receive is started */
    for (int i = 0; i < N; i++)
        sbuf[i] = i + 100 * round + 10000 * rank;
    MPI_Psend_init(sbuf, P, N / P, MPI_INT, next, 9, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &sreq);
    MPI_Start(&sreq);
    MPI_Pready_range(0, P - 1, sreq);
    MPI_Wait(&rreq, MPI_STATUS_IGNORE);
    MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++)
        MT_CHECK(rbuf[i] == i + 100 * round + 10000 * prev,
                 "round %d rbuf[%d]=%d", round, i, rbuf[i]);
    MPI_Request_free(&rreq);
    MPI_Request_free(&sreq);
}

/* Many later ping-pongs and windows, each message checked. */
static void traffic(int iters)
{
    int s, r;
    MPI_Request q[2];

    for (int i = 0; i < iters; i++) {
        s = i * size + rank;
        MPI_Sendrecv(&s, 1, MPI_INT, next, 3, &r, 1, MPI_INT, prev, 3,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MT_CHECK(r == i * size + prev, "sendrecv %d got %d", i, r);
        MPI_Irecv(&r, 1, MPI_INT, prev, 4, MPI_COMM_WORLD, &q[0]);
        MPI_Isend(&s, 1, MPI_INT, next, 4, MPI_COMM_WORLD, &q[1]);
        MPI_Wait(&q[0], MPI_STATUS_IGNORE);
        MPI_Wait(&q[1], MPI_STATUS_IGNORE);
        MT_CHECK(r == i * size + prev, "isend/irecv %d got %d", i, r);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;

    MPI_Barrier(MPI_COMM_WORLD);
    int base = mt_hooks_settle(mt_hooks());
    for (int round = 0; round < 5; round++) {
        late_sender(round, 0);
        MPI_Barrier(MPI_COMM_WORLD);
        int n = mt_hooks_settle(base);
        MT_CHECK(n <= base, "round %d: %d progress hooks registered after "
                 "the partitioned round, %d before", round, n, base);
        traffic(200);
    }
    late_sender(0, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    int n = mt_hooks_settle(base);
    MT_CHECK(n <= base, "%d progress hooks registered after a freed "
             "partitioned receive, %d before", n, base);
    traffic(1000);
    return mt_finish();
}
