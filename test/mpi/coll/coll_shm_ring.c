/*
 * A writer far ahead of a slow reader, at every buffer ring of the shm
 * path: bcast roots and reduce contributors run ahead of one rank that
 * sleeps now and then, over data of 8 B (small ring), 1-8 KiB (the
 * medium ring of an oversubscribed node or a 2-rank comm, or the big
 * one), just over 8 KiB and 20 KiB (big ring, or a 2-rank comm's medium
 * one up to 32 KiB) and 70 KiB (chunks).  Each call's data
 * differs, so a buffer reused before the slow rank read it shows as a
 * wrong value.  Run with UCMPI_WAIT_MODE=yield and poll (the segment's
 * layout follows rank 0's wait mode).
 */
#include "../mpitest.h"

#include <string.h>
#include <unistd.h>

#define CALLS 200

static int rank, size;

static int val(int it, int j)
{
    return it * 131 + j * 7 + 1;
}

/* Every call a different bcast root's data; the last rank is slow. */
static void ring_bcast(int count)
{
    int *buf = malloc(sizeof(int) * (size_t)count);
    int bad = 0;

    for (int it = 0; it < CALLS; it++) {
        if (rank == size - 1 && it % 50 == 0)
            usleep(3000);              /* the root runs as far as it may */
        for (int j = 0; j < count; j++)
            buf[j] = rank == 0 ? val(it, j) : -1;
        MT_CHECK_RC(MPI_Bcast(buf, count, MPI_INT, 0, MPI_COMM_WORLD));
        for (int j = 0; j < count && !bad; j++)
            if (buf[j] != val(it, j)) {
                MT_CHECK(0, "bcast count=%d call %d: [%d] = %d, not %d",
                         count, it, j, buf[j], val(it, j));
                bad = 1;
            }
    }
    free(buf);
}

/* Contributors run ahead of a slow root. */
static void ring_reduce(int count)
{
    int *sbuf = malloc(sizeof(int) * (size_t)count);
    int *rbuf = malloc(sizeof(int) * (size_t)count);
    int bad = 0, root = size - 1;

    for (int it = 0; it < CALLS; it++) {
        if (rank == root && it % 50 == 0)
            usleep(3000);
        for (int j = 0; j < count; j++) {
            sbuf[j] = val(it, j) + rank;
            rbuf[j] = -1;
        }
        MT_CHECK_RC(MPI_Reduce(sbuf, rbuf, count, MPI_INT, MPI_SUM, root,
                               MPI_COMM_WORLD));
        for (int j = 0; j < count && rank == root && !bad; j++) {
            int want = size * val(it, j) + size * (size - 1) / 2;
            if (rbuf[j] != want) {
                MT_CHECK(0, "reduce count=%d call %d: [%d] = %d, not %d",
                         count, it, j, rbuf[j], want);
                bad = 1;
            }
        }
    }
    free(sbuf);
    free(rbuf);
}

int main(int argc, char **argv)
{
    /* ints: 8 B, 1 KiB, 4 KiB, 8 KiB, 8 KiB + 4, 20 KiB, 32 KiB and 32
     * KiB + 4 (the top of a 2-rank comm's medium ring and past it), 70
     * KiB */
    static const int counts[] = {2, 256, 1024, 2048, 2049, 5000, 8192,
                                 8193, 17920};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
        ring_bcast(counts[i]);
        ring_reduce(counts[i]);
    }
    return mt_finish();
}
