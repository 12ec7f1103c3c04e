/*
 * ring: a token travels around the ranks, 0 -> 1 -> ... -> size-1 -> 0,
 * for a few laps; each rank adds its rank number as the token passes.
 * Rank 0 checks the final value against the formula and says OK or
 * FAILED (exit status 1).
 *   mpiexec -n 4 examples/ring [LAPS]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, laps = argc > 1 ? atoi(argv[1]) : 3;
    long token = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    if (laps < 1)
        laps = 1;

    double t = MPI_Wtime();
    for (int lap = 0; lap < laps; lap++) {
        if (rank == 0) {
            long out = token + rank;
            MPI_Request req;   /* nonblocking: with 1 rank, 0 is its own peer */
            MPI_Isend(&out, 1, MPI_LONG, next, lap, MPI_COMM_WORLD, &req);
            MPI_Recv(&token, 1, MPI_LONG, prev, lap, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            printf("ring: lap %d: token came back to rank 0 from rank %d "
                   "with value %ld\n", lap + 1, prev, token);
        } else {
            MPI_Recv(&token, 1, MPI_LONG, prev, lap, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            token += rank;
            MPI_Send(&token, 1, MPI_LONG, next, lap, MPI_COMM_WORLD);
        }
    }
    t = MPI_Wtime() - t;

    int ok = 1;
    if (rank == 0) {
        long want = (long)laps * size * (size - 1) / 2;
        ok = token == want;
        printf("ring: %d ranks, %d laps, %d messages in %.3f ms: token = %ld, "
               "expected %d x (0+1+...+%d) = %ld: %s\n", size, laps,
               laps * size, t * 1e3, token, laps, size - 1, want,
               ok ? "OK" : "FAILED");
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return ok ? 0 : 1;
}
