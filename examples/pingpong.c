/*
 * pingpong: ranks 0 and 1 bounce messages of growing size; rank 0
 * prints the one-way latency and the bandwidth per size.  Every message
 * carries a pattern the receiver checks.
 *   mpiexec -n 2 examples/pingpong [MAX_BYTES]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fill(unsigned char *buf, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = (unsigned char)(i * 7 + seed);
}

static int verify(const unsigned char *buf, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        if (buf[i] != (unsigned char)(i * 7 + seed))
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    int rank, size, errors = 0;
    size_t max = argc > 1 ? strtoul(argv[1], NULL, 0) : 1 << 22;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        if (rank == 0)
            fprintf(stderr, "pingpong: run with 2 ranks (mpiexec -n 2)\n");
        MPI_Finalize();
        return 1;
    }
    /* ranks 0 and 1 play; any others just wait at the final reduction */
    MPI_Comm comm = MPI_COMM_WORLD;
    unsigned char *sbuf = malloc(max ? max : 1), *rbuf = malloc(max ? max : 1);
    if (!sbuf || !rbuf) {
        fprintf(stderr, "pingpong: cannot allocate %zu bytes\n", max);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0)
        printf("%10s %8s %12s %12s\n", "bytes", "iters", "latency_us",
               "MB/s");
    for (size_t n = 0; n <= max && rank < 2; n = n ? 2 * n : 1) {
        int iters = n < 65536 ? 1000 : 100;
        fill(sbuf, n, (unsigned)n);
        double t = MPI_Wtime();
        for (int i = 0; i < iters; i++) {
            if (rank == 0) {
                MPI_Send(sbuf, (int)n, MPI_BYTE, 1, 1, comm);
                MPI_Recv(rbuf, (int)n, MPI_BYTE, 1, 1, comm,
                         MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(rbuf, (int)n, MPI_BYTE, 0, 1, comm,
                         MPI_STATUS_IGNORE);
                MPI_Send(rbuf, (int)n, MPI_BYTE, 0, 1, comm);
            }
        }
        t = (MPI_Wtime() - t) / iters / 2;
        if (!verify(rbuf, n, (unsigned)n))
            errors++;
        if (rank == 0)
            printf("%10zu %8d %12.2f %12.1f\n", n, iters, t * 1e6,
                   n / t / 1e6);
        if (n == max)
            break;
    }
    free(rbuf);
    free(sbuf);
    MPI_Allreduce(MPI_IN_PLACE, &errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("pingpong: data %s\n", errors ? "CORRUPTED" : "verified: OK");
    MPI_Finalize();
    return errors ? 1 : 0;
}
