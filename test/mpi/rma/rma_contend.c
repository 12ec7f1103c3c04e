/*
 * Contention: concurrent accumulates from every rank to one target, a
 * shared fetch-and-add counter, and exclusive locks protecting a
 * read-modify-write that would lose updates without mutual exclusion.
 */
#include "../mpitest.h"

#define ITERS 50
#define VEC 64

int main(int argc, char **argv)
{
    int rank, size;
    long *mem;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Aint n = VEC + 4;
    MT_CHECK_RC(MPI_Win_allocate(n * sizeof(long), sizeof(long),
                                 MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    for (int i = 0; i < n; i++)
        mem[i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);

    /* 1. vector accumulates from everyone into rank 0 under lock_all */
    long vec[VEC];
    for (int i = 0; i < VEC; i++)
        vec[i] = rank + i;
    MPI_Win_lock_all(0, win);
    for (int it = 0; it < ITERS; it++)
        MT_CHECK_RC(MPI_Accumulate(vec, VEC, MPI_LONG, 0, 0, VEC, MPI_LONG,
                                   MPI_SUM, win));
    /* 2. counter: the fetched values must be unique across ranks */
    long one = 1, got[ITERS];
    for (int it = 0; it < ITERS; it++) {
        MT_CHECK_RC(MPI_Fetch_and_op(&one, &got[it], MPI_LONG, 0, VEC,
                                     MPI_SUM, win));
        MT_CHECK_RC(MPI_Win_flush(0, win));
    }
    MPI_Win_unlock_all(win);
    for (int it = 1; it < ITERS; it++)
        MT_CHECK(got[it] > got[it - 1], "counter not increasing: %ld %ld",
                 got[it - 1], got[it]);

    /* 3. exclusive lock: get, increment, put (not atomic by itself) */
    for (int it = 0; it < ITERS; it++) {
        long v = -1;
        int target = it % size;
        MT_CHECK_RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
        MT_CHECK_RC(MPI_Get(&v, 1, MPI_LONG, target, VEC + 1, 1, MPI_LONG,
                            win));
        MT_CHECK_RC(MPI_Win_flush(target, win));
        v++;
        MT_CHECK_RC(MPI_Put(&v, 1, MPI_LONG, target, VEC + 1, 1, MPI_LONG,
                            win));
        MT_CHECK_RC(MPI_Win_unlock(target, win));
    }
    /* 4. readers and writers mixed: a writer stores a pair in two steps
     * under an exclusive lock; shared-lock readers never see it torn */
    for (int it = 0; it < ITERS / 2; it++) {
        long pair[2] = {rank * 1000 + it, rank * 1000 + it};
        if ((it + rank) % 2) {
            MT_CHECK_RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
            MT_CHECK_RC(MPI_Put(&pair[0], 1, MPI_LONG, 0, VEC + 2, 1,
                                MPI_LONG, win));
            MT_CHECK_RC(MPI_Win_flush(0, win));
            MT_CHECK_RC(MPI_Put(&pair[1], 1, MPI_LONG, 0, VEC + 3, 1,
                                MPI_LONG, win));
            MT_CHECK_RC(MPI_Win_unlock(0, win));
        } else {
            MT_CHECK_RC(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
            MT_CHECK_RC(MPI_Get(pair, 2, MPI_LONG, 0, VEC + 2, 2, MPI_LONG,
                                win));
            MT_CHECK_RC(MPI_Win_unlock(0, win));
            MT_CHECK(pair[0] == pair[1], "torn pair %ld %ld", pair[0],
                     pair[1]);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);

    long total = 0;
    int iters_here = 0;
    for (int it = 0; it < ITERS; it++)
        iters_here += it % size == rank;
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
    total = mem[VEC + 1];
    if (rank == 0) {
        for (int i = 0; i < VEC; i++) {
            long want = (long)ITERS * ((long)size * (size - 1) / 2 +
                                       (long)size * i);
            MT_CHECK(mem[i] == want, "acc[%d] = %ld, want %ld", i, mem[i],
                     want);
        }
        MT_CHECK(mem[VEC] == (long)ITERS * size, "counter %ld, want %ld",
                 mem[VEC], (long)ITERS * size);
    }
    MPI_Win_unlock(rank, win);
    MT_CHECK(total == (long)iters_here * size,
             "exclusive increments: %ld, want %ld", total,
             (long)iters_here * size);
    MT_CHECK_RC(MPI_Win_free(&win));
    return mt_finish();
}
