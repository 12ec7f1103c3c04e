/*
 * Derived datatypes on both sides: strided origin into contiguous target,
 * contiguous origin into a strided target, accumulate and get_accumulate
 * through vector types, and an indexed type for get.
 */
#include "../mpitest.h"

#define N 8

int main(int argc, char **argv)
{
    int rank, size;
    double *mem;
    MPI_Win win;
    MPI_Datatype vec, idx;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Type_vector(N, 1, 3, MPI_DOUBLE, &vec);      /* every 3rd double */
    MPI_Type_commit(&vec);
    int bl[3] = {2, 1, 3}, dp[3] = {0, 5, 9};
    MPI_Type_indexed(3, bl, dp, MPI_DOUBLE, &idx);
    MPI_Type_commit(&idx);
    MT_CHECK_RC(MPI_Win_allocate(4 * N * sizeof(double), sizeof(double),
                                 MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    for (int i = 0; i < 4 * N; i++)
        mem[i] = 0;
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    double src[3 * N], res[3 * N];
    for (int i = 0; i < 3 * N; i++)
        src[i] = rank * 1000 + i;

    MPI_Win_fence(0, win);
    /* strided origin -> contiguous target [0, N) */
    MT_CHECK_RC(MPI_Put(src, 1, vec, right, 0, N, MPI_DOUBLE, win));
    /* contiguous origin -> strided target at N: N, N+3, ... */
    MT_CHECK_RC(MPI_Put(src, N, MPI_DOUBLE, right, N, 1, vec, win));
    MPI_Win_fence(0, win);
    for (int i = 0; i < N; i++) {
        MT_CHECK(mem[i] == left * 1000 + 3 * i, "vec->contig [%d] %g", i,
                 mem[i]);
        MT_CHECK(mem[N + 3 * i] == left * 1000 + i, "contig->vec [%d] %g", i,
                 mem[N + 3 * i]);
        if (i < N - 1)
            MT_CHECK(mem[N + 3 * i + 1] == 0, "hole written [%d]", i);
    }
    MPI_Barrier(MPI_COMM_WORLD);   /* checked before others accumulate */
    /* accumulate through the vector from every rank into rank 0 */
    double ones[N];
    for (int i = 0; i < N; i++)
        ones[i] = i + 1;
    MT_CHECK_RC(MPI_Accumulate(ones, N, MPI_DOUBLE, 0, N, 1, vec, MPI_SUM,
                               win));
    MPI_Win_fence(0, win);
    if (rank == 0)
        for (int i = 0; i < N; i++)
            MT_CHECK(mem[N + 3 * i] == (size > 1 ? (size - 1) * 1000 + i : i)
                                           + (double)size * (i + 1),
                     "acc through vec [%d] %g", i, mem[N + 3 * i]);
    MPI_Win_fence(0, win);
    /* get_accumulate: fetch strided, replace with contiguous */
    for (int i = 0; i < 3 * N; i++)
        res[i] = -1;
    MT_CHECK_RC(MPI_Get_accumulate(src, N, MPI_DOUBLE, res, 1, vec, right, 0,
                                   N, MPI_DOUBLE, MPI_REPLACE, win));
    MPI_Win_fence(0, win);
    for (int i = 0; i < N; i++) {
        MT_CHECK(res[3 * i] == rank * 1000 + 3 * i, "gacc result [%d] %g", i,
                 res[3 * i]);
        MT_CHECK(mem[i] == left * 1000 + i, "gacc replaced [%d] %g", i,
                 mem[i]);
    }
    /* indexed get */
    double g[6];
    MT_CHECK_RC(MPI_Get(g, 6, MPI_DOUBLE, right, 0, 1, idx, win));
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    double want[6] = {0, 1, 5, 9, 10, 11};
    for (int i = 0; i < 6; i++) {
        int at = (int)want[i];
        double w = at < N ? rank * 1000 + at : -2;
        if (at >= N)
            continue;   /* beyond the replaced part: checked above */
        MT_CHECK(g[i] == w, "indexed get [%d] %g want %g", i, g[i], w);
    }
    MT_CHECK_RC(MPI_Win_free(&win));
    MPI_Type_free(&vec);
    MPI_Type_free(&idx);
    return mt_finish();
}
