/* The instructions one MPI call costs, for bench/callcost/callcost.sh:
 * run under callgrind with two iteration counts, the difference divided
 * by the iterations is the per-call cost, free of start-up and of this
 * machine's slow periods.  One rank; "self" kinds send to itself.
 *   test      MPI_Test of a receive that never matches (a polling loop)
 *   testany   MPI_Testany of the same
 *   iprobe    MPI_Iprobe that finds nothing
 *   isend     MPI_Irecv + MPI_Isend + MPI_Waitall of 8 B to itself
 *   send      MPI_Irecv + MPI_Send + MPI_Wait of 8 B to itself (a blocking
 *             send to oneself with no receive posted may never return)
 * Usage: call_cost ITERATIONS KIND */
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void poll_empty(int n, const char *kind)
{
    int buf, idx, flag;
    MPI_Request r;

    MPI_Recv_init(&buf, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &r);
    MPI_Start(&r);
    for (int i = 0; i < n; i++) {
        if (kind[4] == 'a')
            MPI_Testany(1, &r, &idx, &flag, MPI_STATUS_IGNORE);
        else if (kind[0] == 'i')
            MPI_Iprobe(MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &flag,
                       MPI_STATUS_IGNORE);
        else
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    }
    MPI_Cancel(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Request_free(&r);
}

static int self_traffic(int n, bool nonblocking)
{
    char s[8] = "payload", r[8];
    MPI_Request q[2];
    int bad = 0;

    for (int i = 0; i < n; i++) {
        s[0] = (char)i;
        if (nonblocking) {
            MPI_Irecv(r, 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &q[0]);
            MPI_Isend(s, 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &q[1]);
            MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        } else {
            MPI_Irecv(r, 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &q[0]);
            MPI_Send(s, 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
            MPI_Wait(&q[0], MPI_STATUS_IGNORE);
        }
        bad += r[0] != s[0];
    }
    return bad;
}

int main(int argc, char **argv)
{
    int n = argc > 2 ? atoi(argv[1]) : 0, bad = 0;
    const char *kind = argc > 2 ? argv[2] : "";

    MPI_Init(&argc, &argv);
    if (!strcmp(kind, "test") || !strcmp(kind, "testany") ||
        !strcmp(kind, "iprobe"))
        poll_empty(n, kind);
    else if (!strcmp(kind, "isend") || !strcmp(kind, "send"))
        bad = self_traffic(n, kind[0] == 'i');
    else
        bad = -1;
    if (bad != 0)
        fprintf(stderr, "call_cost: %s\n", bad < 0 ? "usage: call_cost N KIND"
                                                   : "wrong data received");
    MPI_Finalize();
    return bad != 0;
}
