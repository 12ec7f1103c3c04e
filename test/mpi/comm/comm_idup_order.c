/* MPI_Comm_idup on four communicators, started in different orders on
 * different ranks: odd ranks start all four at once, even ranks start two
 * of them, wait for those, and only then start the other two (MPICH
 * threads/comm/idup_deadlock without threads).  An agreement that other
 * ranks have not started yet must not keep the context-id lock from the
 * ones they have: that deadlocked. */
#include "../mpitest.h"

#define N 4

static void check_comm(MPI_Comm c, MPI_Comm parent, int round, int i)
{
    int me, size, sum = -1, res = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_compare(c, parent, &res);
    MT_CHECK(res == MPI_CONGRUENT, "round %d comm %d: compare %d", round, i,
             res);
    MT_CHECK_RC(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c));
    MT_CHECK(sum == size * (size - 1) / 2, "round %d comm %d: sum %d", round,
             i, sum);
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Comm base[N], out[N];
    MPI_Request req[N];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < N; i++)
        MT_CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &base[i]));

    for (int round = 0; round < 20; round++) {
        /* late ones: the even or the odd comms, the lower or upper pair */
        int late = round % 2, early = 1 - late;
        if (rank % 2 == 1) {
            for (int i = 0; i < N; i++)
                MT_CHECK_RC(MPI_Comm_idup(base[i], &out[i], &req[i]));
            MT_CHECK_RC(MPI_Waitall(N, req, MPI_STATUSES_IGNORE));
        } else {
            for (int i = early; i < N; i += 2)
                MT_CHECK_RC(MPI_Comm_idup(base[i], &out[i], &req[i]));
            for (int i = early; i < N; i += 2)
                MT_CHECK_RC(MPI_Wait(&req[i], MPI_STATUS_IGNORE));
            for (int i = late; i < N; i += 2)
                MT_CHECK_RC(MPI_Comm_idup(base[i], &out[i], &req[i]));
            for (int i = late; i < N; i += 2)
                MT_CHECK_RC(MPI_Wait(&req[i], MPI_STATUS_IGNORE));
        }
        for (int i = 0; i < N; i++) {
            check_comm(out[i], base[i], round, i);
            MPI_Comm_free(&out[i]);
        }
    }
    for (int i = 0; i < N; i++)
        MPI_Comm_free(&base[i]);
    return mt_finish();
}
