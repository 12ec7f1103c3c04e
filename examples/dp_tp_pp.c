/*
 * DP x TP x PP: lay the ranks out on a 3-d grid (data, pipeline, tensor
 * parallelism; tensor fastest so tensor-parallel peers are neighbours)
 * with MPI_Cart_create, derive one communicator per parallelism with
 * MPI_Cart_sub, and check each group: its size, the world ranks in it,
 * and a collective over it.
 *
 *   mpiexec -n 8 ./dp_tp_pp [TP [PP]]     (DP = size / (TP * PP))
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { DP, PP, TP, NDIMS };
static const char *names[NDIMS] = {"data", "pipeline", "tensor"};

int main(int argc, char **argv)
{
    int rank, size, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* tp and pp from the command line when they divide the job, else a
     * balanced split of what is left */
    int dims[NDIMS] = {0, 0, 0}, periods[NDIMS] = {0, 0, 0};
    int tp = argc > 1 ? atoi(argv[1]) : 0, pp = argc > 2 ? atoi(argv[2]) : 0;
    if (tp > 0 && size % tp == 0)
        dims[TP] = tp;
    if (pp > 0 && size % ((dims[TP] ? dims[TP] : 1) * pp) == 0)
        dims[PP] = pp;
    MPI_Dims_create(size, NDIMS, dims);

    MPI_Comm grid, sub[NDIMS];
    MPI_Cart_create(MPI_COMM_WORLD, NDIMS, dims, periods, 0, &grid);
    int coords[NDIMS];
    MPI_Cart_coords(grid, rank, NDIMS, coords);

    for (int d = 0; d < NDIMS; d++) {
        int remain[NDIMS] = {0, 0, 0}, n, r;
        remain[d] = 1;
        MPI_Cart_sub(grid, remain, &sub[d]);
        MPI_Comm_size(sub[d], &n);
        MPI_Comm_rank(sub[d], &r);
        if (n != dims[d] || r != coords[d]) {
            fprintf(stderr, "rank %d: %s group has size %d rank %d, "
                    "expected %d %d\n", rank, names[d], n, r, dims[d],
                    coords[d]);
            errors++;
        }
        /* members: the world ranks that differ from me only along d */
        int *members = malloc(n * sizeof(int));
        MPI_Allgather(&rank, 1, MPI_INT, members, 1, MPI_INT, sub[d]);
        for (int i = 0; i < n; i++) {
            int c[NDIMS] = {coords[0], coords[1], coords[2]}, expect;
            c[d] = i;
            MPI_Cart_rank(grid, c, &expect);
            if (members[i] != expect) {
                fprintf(stderr, "rank %d: %s member %d is %d, expected %d\n",
                        rank, names[d], i, members[i], expect);
                errors++;
            }
        }
        free(members);
    }

    /* one "training step": gradients summed over data parallelism,
     * activations passed down the pipeline, tensor shards gathered */
    double grad = rank, sum;
    MPI_Allreduce(&grad, &sum, 1, MPI_DOUBLE, MPI_SUM, sub[DP]);
    double expect = 0;
    for (int i = 0; i < dims[DP]; i++) {
        int c[NDIMS] = {i, coords[PP], coords[TP]}, w;
        MPI_Cart_rank(grid, c, &w);
        expect += w;
    }
    if (sum != expect) {
        fprintf(stderr, "rank %d: data-parallel sum %g, expected %g\n", rank,
                sum, expect);
        errors++;
    }
    int prev, next, act = coords[PP], got = -1;
    MPI_Cart_shift(sub[PP], 0, 1, &prev, &next);
    MPI_Sendrecv(&act, 1, MPI_INT, next, 0, &got, 1, MPI_INT, prev, 0,
                 sub[PP], MPI_STATUS_IGNORE);
    if (prev != MPI_PROC_NULL && got != coords[PP] - 1) {
        fprintf(stderr, "rank %d: pipeline stage got %d\n", rank, got);
        errors++;
    }

    int total;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("dp_tp_pp: %d ranks as DP %d x PP %d x TP %d: %s\n", size,
               dims[DP], dims[PP], dims[TP], total ? "FAILED" : "ok");
    for (int d = 0; d < NDIMS; d++)
        MPI_Comm_free(&sub[d]);
    MPI_Comm_free(&grid);
    MPI_Finalize();
    return total ? 1 : 0;
}
