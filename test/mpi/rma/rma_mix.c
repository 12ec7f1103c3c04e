/*
 * Accumulates from origins on both paths at once: even ranks apply them
 * directly to the mapped window memory, odd ranks are told to use UCX
 * (UCMPI_RMA_DIRECT=0, set from PMIX_RANK before MPI_Init), so their
 * operations are applied by the target's message handler.  Element
 * atomicity must hold across the two: no update may be lost, whatever
 * the type (long, double, short, long double, int CAS, int MAX).  Under
 * another MPI the variable is ignored and the test checks plain
 * atomicity.
 */
#include "../mpitest.h"

#include <stdlib.h>
#include <string.h>

#define ITERS 100

enum { OFF_CNT = 0, OFF_DBL = 8, OFF_SHORT = 16, OFF_LDBL = 32,
       OFF_CAS = 48, OFF_MAX = 52, WIN_BYTES = 64 };

int main(int argc, char **argv)
{
    const char *pr = getenv("PMIX_RANK");
    if (pr != NULL && atoi(pr) % 2 == 1)
        setenv("UCMPI_RMA_DIRECT", "0", 1);
    int rank, size;
    char *mem;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK_RC(MPI_Win_allocate(WIN_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                                 &mem, &win));
    for (int i = 0; i < WIN_BYTES; i++)
        mem[i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);

    long one = 1, *got = malloc(sizeof(long) * ITERS * size);
    double d1 = 1.0;
    short s1 = 1;
    long double l1 = 1.0L;
    int mymax;
    MPI_Win_lock_all(0, win);
    for (int it = 0; it < ITERS; it++) {
        for (int t = 0; t < size; t++) {
            MT_CHECK_RC(MPI_Fetch_and_op(&one, &got[it * size + t], MPI_LONG,
                                         t, OFF_CNT, MPI_SUM, win));
            MT_CHECK_RC(MPI_Accumulate(&d1, 1, MPI_DOUBLE, t, OFF_DBL, 1,
                                       MPI_DOUBLE, MPI_SUM, win));
            MT_CHECK_RC(MPI_Accumulate(&s1, 1, MPI_SHORT, t, OFF_SHORT, 1,
                                       MPI_SHORT, MPI_SUM, win));
            MT_CHECK_RC(MPI_Accumulate(&l1, 1, MPI_LONG_DOUBLE, t, OFF_LDBL,
                                       1, MPI_LONG_DOUBLE, MPI_SUM, win));
            mymax = rank * 1000 + it;
            MT_CHECK_RC(MPI_Accumulate(&mymax, 1, MPI_INT, t, OFF_MAX, 1,
                                       MPI_INT, MPI_MAX, win));
            /* increment by compare-and-swap until it sticks */
            int cur = 0, next, old;
            MT_CHECK_RC(MPI_Get_accumulate(NULL, 0, MPI_INT, &cur, 1,
                                           MPI_INT, t, OFF_CAS, 1, MPI_INT,
                                           MPI_NO_OP, win));
            MT_CHECK_RC(MPI_Win_flush(t, win));
            for (;;) {
                next = cur + 1;
                MT_CHECK_RC(MPI_Compare_and_swap(&next, &cur, &old, MPI_INT,
                                                 t, OFF_CAS, win));
                MT_CHECK_RC(MPI_Win_flush(t, win));
                if (old == cur)
                    break;
                cur = old;
            }
        }
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);

    long total = (long)size * ITERS;
    long cnt;
    double dbl;
    short sh;
    long double ld;
    int cas, mx;
    memcpy(&cnt, mem + OFF_CNT, sizeof(cnt));
    memcpy(&dbl, mem + OFF_DBL, sizeof(dbl));
    memcpy(&sh, mem + OFF_SHORT, sizeof(sh));
    memcpy(&ld, mem + OFF_LDBL, sizeof(ld));
    memcpy(&cas, mem + OFF_CAS, sizeof(cas));
    memcpy(&mx, mem + OFF_MAX, sizeof(mx));
    MT_CHECK(cnt == total, "long counter %ld, want %ld", cnt, total);
    MT_CHECK(dbl == (double)total, "double sum %g, want %ld", dbl, total);
    MT_CHECK(sh == (short)total, "short sum %d, want %ld", sh, total);
    MT_CHECK(ld == (long double)total, "long double sum %Lg, want %ld", ld,
             total);
    MT_CHECK(cas == total, "CAS counter %d, want %ld", cas, total);
    MT_CHECK(mx == (size - 1) * 1000 + ITERS - 1, "max %d", mx);

    /* fetched counter values towards target 0 are all different */
    long *all = rank == 0 ? malloc(sizeof(long) * total) : NULL;
    long *mine = malloc(sizeof(long) * ITERS);
    for (int it = 0; it < ITERS; it++)
        mine[it] = got[it * size];
    MPI_Gather(mine, ITERS, MPI_LONG, all, ITERS, MPI_LONG, 0,
               MPI_COMM_WORLD);
    if (rank == 0) {
        char *seen = calloc(total, 1);
        for (long i = 0; i < total; i++) {
            MT_CHECK(all[i] >= 0 && all[i] < total, "fetched %ld", all[i]);
            if (all[i] >= 0 && all[i] < total) {
                MT_CHECK(!seen[all[i]], "value %ld fetched twice", all[i]);
                seen[all[i]] = 1;
            }
        }
        free(seen);
        free(all);
    }
    free(mine);
    free(got);
    MPI_Win_free(&win);
    return mt_finish();
}
