/*
 * A rank whose own alltoall block fails the send/receive match check
 * (rank 1 sends one int more than it receives, under MPI_ERRORS_RETURN)
 * gets the error and still takes the collective's shm numbers, all of
 * them: the others must not wait for ever for its later chunks (they get
 * garbage blocks from it, as the standard allows after an error), and
 * the communicator stays usable.  Sizes from one shm buffer to many
 * chunks.  Before the fix rank 0 hung at 2 ranks from 100000 ints per
 * block (the erring rank took one number of the 25 the others took).
 */
#include "../mpitest.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    static const int counts[] = {100, 20000, 100000};
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i < 3; i++) {
        int cnt = counts[i];
        size_t n = (size_t)cnt * size;
        /* rank 1's send side spans (cnt + 1) * size ints */
        int *s = calloc(n + (size_t)size, sizeof(int));
        int *d = calloc(n, sizeof(int));
        int rc = MPI_Alltoall(s, rank == 1 ? cnt + 1 : cnt, MPI_INT, d, cnt,
                              MPI_INT, MPI_COMM_WORLD);

        if (rank == 1)
            MT_CHECK(rc != MPI_SUCCESS, "count %d: rank 1's own block "
                     "mismatch not reported", cnt);
        for (size_t j = 0; j < n; j++)
            s[j] = rank * 1000 + (int)(j / (size_t)cnt);
        rc = MPI_Alltoall(s, cnt, MPI_INT, d, cnt, MPI_INT, MPI_COMM_WORLD);
        MT_CHECK(rc == MPI_SUCCESS, "count %d: alltoall after the error "
                 "failed", cnt);
        for (int p = 0; p < size && rc == MPI_SUCCESS; p++)
            MT_CHECK(d[(size_t)p * cnt] == p * 1000 + rank &&
                         d[(size_t)p * cnt + cnt - 1] == p * 1000 + rank,
                     "count %d: block from %d is %d, want %d", cnt, p,
                     d[(size_t)p * cnt], p * 1000 + rank);
        free(s);
        free(d);
    }
    return mt_finish();
}
