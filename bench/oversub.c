/*
 * A small collective-heavy job for timing oversubscribed runs (more ranks
 * than cores), where an MPI that busy-polls starves the rank it waits
 * for.  compare.sh times the whole mpiexec (start-up included); the line
 * printed here is the time inside MPI_Init..MPI_Finalize.
 * Usage: oversub [ITERATIONS]   (default 300)
 */
#include "bench.h"

int main(int argc, char **argv)
{
    int rank, np, iters = argc > 1 ? atoi(argv[1]) : 300, bad = 0;
    double v[8], t;
    char msg[1024];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int *a2a_s = malloc(sizeof(int) * 16 * np);
    int *a2a_r = malloc(sizeof(int) * 16 * np);
    t = MPI_Wtime();
    for (int it = 0; it < iters; it++) {
        for (int i = 0; i < 8; i++)
            v[i] = rank + i + it;
        MPI_Allreduce(MPI_IN_PLACE, v, 8, MPI_DOUBLE, MPI_SUM,
                      MPI_COMM_WORLD);
        bad += v[3] != (double)np * (np - 1) / 2 + (double)np * (3 + it);
        memset(msg, rank == it % np ? 'a' + it % 26 : 0, sizeof(msg));
        MPI_Bcast(msg, sizeof(msg), MPI_CHAR, it % np, MPI_COMM_WORLD);
        bad += msg[sizeof(msg) - 1] != 'a' + it % 26;
        for (int i = 0; i < 16 * np; i++)
            a2a_s[i] = rank * 100000 + i;
        MPI_Alltoall(a2a_s, 16, MPI_INT, a2a_r, 16, MPI_INT, MPI_COMM_WORLD);
        bad += a2a_r[16 * (np - 1)] != (np - 1) * 100000 + 16 * rank;
        MPI_Barrier(MPI_COMM_WORLD);
    }
    t = MPI_Wtime() - t;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("BENCH oversub %d %d %.3f %.3f s\n", np, iters, t * 1e6, t);
        if (bad)
            printf("oversub: %d wrong results\n", bad);
    }
    free(a2a_r);
    free(a2a_s);
    MPI_Finalize();
    return bad != 0;
}
