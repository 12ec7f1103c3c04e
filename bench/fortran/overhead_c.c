/*
 * The C half of bench/fortran/overhead.f90: the same 8-byte MPI_Send /
 * MPI_Recv ping-pong as the Fortran one, called from Fortran so that both
 * run in one job, interleaved.  Returns the seconds of `iters` round trips.
 */
#include <mpi.h>

double ucmpi_bench_c_pingpong(int iters, int rank);
double ucmpi_bench_c_pingpong(int iters, int rank)
{
    double buf = 0, t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        if (rank == 0) {
            MPI_Send(&buf, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(&buf, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(&buf, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&buf, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
        }
    }
    return MPI_Wtime() - t0;
}
