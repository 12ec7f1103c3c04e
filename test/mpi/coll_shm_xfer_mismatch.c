/*
 * Issue #5 (rs10): blocking MPI_Allgather / MPI_Alltoall on the shm path
 * whose ranks pass block counts that differ (rank 0 one count, the others
 * another; both sides on the one-buffer shm path) returned MPI_SUCCESS on
 * every rank and took the other ranks' blocks as data (base10: allgather 4
 * vs 16384 ints, alltoall 16 vs 128 ints at np 2).  Every rank must now
 * report an error class for mismatched counts, and correct calls on the
 * same comm afterwards must give the right blocks.
 */
#include "coll_common.h"

#include <stdlib.h>
#include <string.h>

static int rank, size;

/* ints per block: rank 0 passes a, the others b */
static const struct {
    int a, b;
} pairs[] = {{4, 16384}, {16384, 4}, {1, 2}, {16, 128}, {128, 16},
             {64, 65}, {3, 1000}};
#define NPAIRS ((int)(sizeof(pairs) / sizeof(pairs[0])))

static void check_usable(int *s, int *r, int cnt, int a2a, const char *after)
{
    for (int i = 0; i < cnt * size; i++)
        s[i] = a2a ? rank * 100000 + i : rank * 100000 + i % cnt;
    memset(r, 0xff, sizeof(int) * (size_t)cnt * (size_t)size);
    int rc = a2a ? MPI_Alltoall(s, cnt, MPI_INT, r, cnt, MPI_INT,
                                MPI_COMM_WORLD)
                 : MPI_Allgather(s, cnt, MPI_INT, r, cnt, MPI_INT,
                                 MPI_COMM_WORLD);
    MT_CHECK(rc == MPI_SUCCESS, "correct %s of %d after %s: rc %d",
             a2a ? "alltoall" : "allgather", cnt, after, rc);
    for (int p = 0; p < size && rc == MPI_SUCCESS; p++)
        for (int i = 0; i < cnt; i++) {
            int want = a2a ? p * 100000 + rank * cnt + i : p * 100000 + i;
            if (r[p * cnt + i] != want) {
                MT_CHECK(0, "%s after %s: block %d [%d] = %d, want %d",
                         a2a ? "alltoall" : "allgather", after, p, i,
                         r[p * cnt + i], want);
                return;
            }
        }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    size_t most = (size_t)16384 * (size_t)size;
    int *s = calloc(most, sizeof(int)), *r = calloc(most, sizeof(int));

    for (int a2a = 0; a2a < 2; a2a++)
        for (int p = 0; p < NPAIRS && size > 1; p++) {
            int cnt = rank == 0 ? pairs[p].a : pairs[p].b;
            /* alltoall: n blocks must fit one buffer (the small path) */
            if (a2a && (size_t)(pairs[p].a > pairs[p].b ? pairs[p].a
                                                        : pairs[p].b) *
                               sizeof(int) * (size_t)size > 65536)
                continue;
            int rc = a2a ? MPI_Alltoall(s, cnt, MPI_INT, r, cnt, MPI_INT,
                                        MPI_COMM_WORLD)
                         : MPI_Allgather(s, cnt, MPI_INT, r, cnt, MPI_INT,
                                         MPI_COMM_WORLD);
            MT_CHECK(rc != MPI_SUCCESS && coll_mismatch_err(rc),
                     "%s with %d vs %d ints: rc %d (want an error)",
                     a2a ? "alltoall" : "allgather", pairs[p].a, pairs[p].b,
                     rc);
            check_usable(s, r, 5, a2a, "a mismatch");
            check_usable(s, r, 1000, a2a, "a mismatch");
        }
    check_usable(s, r, 3, 0, "nothing");
    check_usable(s, r, 3, 1, "nothing");
    free(s);
    free(r);
    return mt_finish();
}
