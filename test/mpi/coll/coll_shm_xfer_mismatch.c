/*
 * Blocking MPI_Allgather / MPI_Alltoall on the shm path
 * whose ranks pass block counts that differ (rank 0 one count, the others
 * another; both sides on the one-buffer shm path) returned MPI_SUCCESS on
 * every rank and took the other ranks' blocks as data (allgather 4
 * vs 16384 ints, alltoall 16 vs 128 ints at np 2).  Every rank must now
 * report an error class for mismatched counts, and correct calls on the
 * same comm afterwards must give the right blocks.
 *
 * Blocks larger than one shm buffer (64 KiB; alltoall: n blocks)
 * go in chunks (shm_large.c), which recorded no sizes: one rank on the
 * one-buffer path against chunked ones, or two chunked sizes, returned
 * MPI_SUCCESS with wrong blocks or left the ranks out of step.  With
 * UCMPI_COLL_SHM_MAX_BYTES=100000 (a list line) the larger of a chunked
 * pair is past the shm limit: a voter bound for p2p against a chunked
 * rank, as is a rank with count 0 (at np 4, alltoall of 5000 ints
 * against 0 on the last rank, the chunked readers went on, and the next
 * allreduce returned 0, then hung).  At 2 ranks alltoall goes
 * shm up to 256 KiB by default, so 17000 against 60000 ints (136000 B
 * chunked, 480000 B a p2p voter) cross that limit both ways.
 */
#include "coll_common.h"

#include <stdlib.h>
#include <string.h>

static int rank, size;

/* ints per block: rank 0 passes a, the others b */
static const struct {
    int a, b;
} pairs[] = {{4, 16384}, {16384, 4}, {1, 2}, {16, 128}, {128, 16},
             {64, 65}, {3, 1000},
             /* chunked: one buffer against chunks, chunks of
              * two sizes (the same number of chunks, or not) */
             {4, 20000}, {20000, 4}, {20000, 30000}, {30000, 20000},
             {17000, 60000}, {60000, 17000},
             /* count 0 (a vote bound for p2p) against chunks */
             {0, 20000}, {20000, 0}};
#define NPAIRS ((int)(sizeof(pairs) / sizeof(pairs[0])))
#define MOST 60000

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
    size_t most = (size_t)MOST * (size_t)size;
    int *s = calloc(most, sizeof(int)), *r = calloc(most, sizeof(int));

    for (int a2a = 0; a2a < 2; a2a++)
        for (int p = 0; p < NPAIRS && size > 1; p++) {
            int cnt = rank == 0 ? pairs[p].a : pairs[p].b;
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
            check_usable(s, r, 20000, a2a, "a mismatch");
        }
    check_usable(s, r, 3, 0, "nothing");
    check_usable(s, r, 3, 1, "nothing");
    free(s);
    free(r);
    return mt_finish();
}
