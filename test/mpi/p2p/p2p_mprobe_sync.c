/* A synchronous send matched by MPI_Mprobe is acknowledged once: a later
 * Issend with the same envelope must not complete before its own receive
 * is posted (a second acknowledgement at the Mrecv used to complete it).
 * Run with UCMPI_SYNC_FLAG_ALWAYS=1 too (the off-node protocol). */
#include "../mpitest.h"
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size, v = 1, flag = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Request rq;
    MPI_Message m;
    MPI_Status st;

    for (int blocking = 0; blocking < 2; blocking++) {
        MPI_Issend(&v, 1, MPI_INT, right, 5, MPI_COMM_WORLD, &rq);
        if (blocking) {
            MPI_Mprobe(left, 5, MPI_COMM_WORLD, &m, &st);
        } else {
            flag = 0;
            while (!flag)
                MPI_Improbe(left, 5, MPI_COMM_WORLD, &flag, &m, &st);
        }
        /* the Mrecv is the matching receive: only then must the Issend
         * complete (UCX's own synchronous send, used between ranks of one
         * node, acknowledges at the Mrecv; the tag-flag protocol at the
         * mprobe) */
        MPI_Mrecv(&v, 1, MPI_INT, &m, &st);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);

        MPI_Issend(&v, 1, MPI_INT, right, 5, MPI_COMM_WORLD, &rq);
        double t0 = MPI_Wtime();
        flag = 0;
        while (MPI_Wtime() - t0 < 0.2 && !flag)
            MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
        MT_CHECK(!flag, "Issend completed before its receive was posted");
        MPI_Barrier(MPI_COMM_WORLD);   /* no receive before every check */
        MPI_Recv(&v, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &st);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    return mt_finish();
}
