/*
 * spawn_bench: how long MPI_Comm_spawn takes, from the call to the parent
 * intercommunicator being usable, for 1, 2 and 4 children (this program
 * itself, which only says hello to its parent and disconnects).  Reports
 * the median of several spawns per count, in seconds.
 *
 *   mpiexec -n 1 bench/spawn_bench [SPAWNS]
 *
 * bench-np: 1
 */
#include "bench.h"

static double spawn_once(const char *self, int children)
{
    char *args[] = {"child", NULL};
    MPI_Comm inter;
    double t0 = MPI_Wtime();

    MPI_Comm_spawn(self, args, children, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter,
                   MPI_ERRCODES_IGNORE);
    MPI_Barrier(inter);           /* every child is up and connected */
    double t = MPI_Wtime() - t0;
    MPI_Comm_disconnect(&inter);
    return t;
}

int main(int argc, char **argv)
{
    MPI_Comm parent;
    bench_opts_t o;

    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        MPI_Barrier(parent);
        MPI_Comm_disconnect(&parent);
        MPI_Finalize();
        return 0;
    }
    bench_parse(argc, argv, &o, 0, 0);
    int spawns = argc > 1 && atoi(argv[argc - 1]) > 0 ? atoi(argv[argc - 1]) : 5;
    double t[64];
    if (spawns > 64)
        spawns = 64;
    if (o.rank == 0) {
        spawn_once(argv[0], 1);   /* warm-up: page cache, launcher */
        for (int n = 1; n <= 4; n *= 2) {
            for (int i = 0; i < spawns; i++)
                t[i] = spawn_once(argv[0], n);
            double med = bench_median(t, spawns);
            printf("BENCH spawn %d %d %.3f %.6f s\n", o.size, n, med * 1e6, med);
            fflush(stdout);
        }
    }
    MPI_Finalize();
    return 0;
}
