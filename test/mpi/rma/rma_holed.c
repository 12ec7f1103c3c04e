/*
 * Accumulates on MPI_SHORT_INT, the pair type with a hole inside (short,
 * 2 padding bytes, int): MAXLOC from every rank into rank 0, fetched back
 * with Get_accumulate(NO_OP), then a REPLACE through a derived type built
 * of it.  The padding bytes at the target must never change.  Runs over
 * Win_create (active-message path towards other ranks) and Win_allocate
 * (direct path on the node).
 */
#include "../mpitest.h"

#include <string.h>

#define N 5

typedef struct {
    short v;
    int i;
} si_t;

static void run(int rank, int size, int allocate)
{
    const char *what = allocate ? "allocate" : "create";
    si_t *mem, local[N];
    MPI_Win win;

    if (allocate) {
        MPI_Win_allocate(N * sizeof(si_t), sizeof(si_t), MPI_INFO_NULL,
                         MPI_COMM_WORLD, &mem, &win);
    } else {
        mem = local;
        MPI_Win_create(mem, N * sizeof(si_t), sizeof(si_t), MPI_INFO_NULL,
                       MPI_COMM_WORLD, &win);
    }
    memset(mem, 0x5a, N * sizeof(si_t));   /* the padding stays 0x5a */
    for (int j = 0; j < N; j++) {
        mem[j].v = -1;
        mem[j].i = -1;
    }
    MPI_Barrier(MPI_COMM_WORLD);

    si_t mine[N], got[N];
    for (int j = 0; j < N; j++) {
        mine[j].v = (short)(rank % 3 + j);
        mine[j].i = rank;
    }
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MT_CHECK_RC(MPI_Accumulate(mine, N, MPI_SHORT_INT, 0, 0, N, MPI_SHORT_INT,
                               MPI_MAXLOC, win));
    MPI_Win_unlock(0, win);
    MPI_Barrier(MPI_COMM_WORLD);

    /* max of rank % 3 is min(2, size-1); MAXLOC ties keep the low rank */
    int top = size - 1 < 2 ? size - 1 : 2;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MT_CHECK_RC(MPI_Get_accumulate(NULL, 0, MPI_SHORT_INT, got, N,
                                   MPI_SHORT_INT, 0, 0, N, MPI_SHORT_INT,
                                   MPI_NO_OP, win));
    MPI_Win_unlock(0, win);
    for (int j = 0; j < N; j++)
        MT_CHECK(got[j].v == top + j && got[j].i == top,
                 "%s: element %d is (%d, %d), want (%d, %d)", what, j,
                 got[j].v, got[j].i, top + j, top);
    MPI_Barrier(MPI_COMM_WORLD);

    /* the last rank replaces elements 1..2 through contiguous(2) */
    if (rank == size - 1) {
        MPI_Datatype two;
        MPI_Type_contiguous(2, MPI_SHORT_INT, &two);
        MPI_Type_commit(&two);
        si_t rep[2] = {{100, 7}, {200, 8}};
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MT_CHECK_RC(MPI_Accumulate(rep, 1, two, 0, 1, 1, two, MPI_REPLACE,
                                   win));
        MPI_Win_unlock(0, win);
        MPI_Type_free(&two);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        for (int j = 0; j < N; j++) {
            short wv = (short)(j == 1 ? 100 : j == 2 ? 200 : top + j);
            int wi = j == 1 ? 7 : j == 2 ? 8 : top;
            const unsigned char *pad = (const unsigned char *)&mem[j] + 2;
            MT_CHECK(mem[j].v == wv && mem[j].i == wi,
                     "%s: memory element %d is (%d, %d), want (%d, %d)",
                     what, j, mem[j].v, mem[j].i, wv, wi);
            MT_CHECK(pad[0] == 0x5a && pad[1] == 0x5a,
                     "%s: padding of element %d changed: %02x %02x", what,
                     j, pad[0], pad[1]);
        }
        MPI_Win_unlock(0, win);
    }
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    run(rank, size, 0);
    run(rank, size, 1);
    return mt_finish();
}
