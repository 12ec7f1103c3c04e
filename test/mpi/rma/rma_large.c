/*
 * The large-count (_c) forms of the RMA operations: every one moves the
 * right data (MPI_Count counts, request-based forms included), on an
 * allocated window (direct path on the node) and on a created one, and
 * Win_shared_query_c reports what Win_shared_query does.
 */
#include "../mpitest.h"

#define N 1000

static void run(MPI_Win win, long *mem, int rank, int size)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    long src[N], res[N];
    MPI_Request rq;
    MPI_Count n = N;

    for (int i = 0; i < N; i++) {
        src[i] = rank * 10000 + i;
        mem[i] = mem[N + i] = 0;
    }
    MPI_Win_fence(0, win);
    MT_CHECK_RC(MPI_Put_c(src, n, MPI_LONG, right, 0, n, MPI_LONG, win));
    MT_CHECK_RC(MPI_Accumulate_c(src, n, MPI_LONG, right, N, n, MPI_LONG,
                                 MPI_SUM, win));
    MPI_Win_fence(0, win);
    for (int i = 0; i < N; i++) {
        MT_CHECK(mem[i] == left * 10000 + i, "put_c [%d] %ld", i, mem[i]);
        MT_CHECK(mem[N + i] == left * 10000 + i, "acc_c [%d] %ld", i,
                 mem[N + i]);
    }
    MT_CHECK_RC(MPI_Get_c(res, n, MPI_LONG, right, 0, n, MPI_LONG, win));
    MPI_Win_fence(0, win);
    for (int i = 0; i < N; i++)
        MT_CHECK(res[i] == rank * 10000 + i, "get_c [%d] %ld", i, res[i]);
    MPI_Win_fence(0, win);

    MPI_Win_lock_all(0, win);
    MT_CHECK_RC(MPI_Get_accumulate_c(src, n, MPI_LONG, res, n, MPI_LONG,
                                     right, N, n, MPI_LONG, MPI_SUM, win));
    MT_CHECK_RC(MPI_Win_flush(right, win));
    for (int i = 0; i < N; i++)
        MT_CHECK(res[i] == rank * 10000 + i, "get_accumulate_c [%d] %ld", i,
                 res[i]);
    MT_CHECK_RC(MPI_Raccumulate_c(src, n, MPI_LONG, right, N, n, MPI_LONG,
                                  MPI_SUM, win, &rq));
    MT_CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    MT_CHECK_RC(MPI_Rget_accumulate_c(NULL, 0, MPI_LONG, res, n, MPI_LONG,
                                      right, N, n, MPI_LONG, MPI_NO_OP, win,
                                      &rq));
    MT_CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    MT_CHECK_RC(MPI_Win_flush(right, win));
    for (int i = 0; i < N; i++)
        MT_CHECK(res[i] == 3L * (rank * 10000 + i), "rget_accumulate_c [%d] "
                 "%ld", i, res[i]);
    MT_CHECK_RC(MPI_Rput_c(src + 1, n - 1, MPI_LONG, right, 1, n - 1,
                           MPI_LONG, win, &rq));
    MT_CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    MT_CHECK_RC(MPI_Win_flush(right, win));
    MT_CHECK_RC(MPI_Rget_c(res, n, MPI_LONG, right, 0, n, MPI_LONG, win,
                           &rq));
    MT_CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++)
        MT_CHECK(res[i] == rank * 10000 + i, "rput_c/rget_c [%d] %ld", i,
                 res[i]);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Win win;
    long *mem;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK_RC(MPI_Win_allocate(2 * N * sizeof(long), sizeof(long),
                                 MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    run(win, mem, rank, size);
    MPI_Win_free(&win);

    long *user = malloc(2 * N * sizeof(long));
    MT_CHECK_RC(MPI_Win_create(user, 2 * N * sizeof(long), sizeof(long),
                               MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    run(win, user, rank, size);
    MPI_Win_free(&win);
    free(user);

    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                        MPI_INFO_NULL, &node);
    MT_CHECK_RC(MPI_Win_allocate_shared(8 * (rank + 1), 8, MPI_INFO_NULL,
                                        node, &mem, &win));
    int nsize;
    MPI_Comm_size(node, &nsize);
    for (int r = 0; r < nsize; r++) {
        MPI_Aint sz, sz_c, du_c;
        int du;
        void *b, *b_c;
        MT_CHECK_RC(MPI_Win_shared_query(win, r, &sz, &du, &b));
        MT_CHECK_RC(MPI_Win_shared_query_c(win, r, &sz_c, &du_c, &b_c));
        MT_CHECK(sz == sz_c && du == du_c && b == b_c,
                 "shared_query_c of %d differs", r);
    }
    MPI_Win_free(&win);
    MPI_Comm_free(&node);
    return mt_finish();
}
