/*
 * A bcast whose non-root passes a count other than the root's
 * (under MPI_ERRORS_RETURN) must get an error there (MPICH
 * errors/coll/bcastlength), never success with stale data or a hang; a
 * root whose buffer fails a check must not have the others take zeros
 * as its data.  Afterwards correct bcasts on the same comm must give the
 * right data (the ranks' collective numbers stayed in step).  Pairs
 * cross the shm path's one-buffer / chunked threshold (64 KiB, or 4 KiB
 * with UCMPI_COLL_SHM_SLOT_BYTES=4096) in both directions, and at 2
 * ranks with the automatic choice the shm limit (512 KiB: p2p above,
 * after a size vote; 120000/140000 ints cross it with a chunked root).
 * Before the
 * fix the shm bcast returned success with stale data on the odd rank and
 * the chunked pairs left the ranks out of step.
 */
#include "coll_common.h"

#include <stdlib.h>

static int rank, size;

/* Counts (ints): the root passes a, rank `odd` passes b. */
static const int pairs[][2] = {
    {1, 10},    {10, 1},       {3, 4},        {1000, 1001},
    {1, 40000}, {40000, 1},    {40000, 30000}, {30000, 40000},
    {5000, 900}, {900, 5000},  {120000, 140000}, {140000, 120000},
};
#define NPAIRS ((int)(sizeof(pairs) / sizeof(pairs[0])))
#define MAXN 140000

/* Correct bcasts of several sizes and roots: data checked everywhere. */
static void check_usable(const char *after, int p, int *buf)
{
    for (int len = 1; len <= MAXN; len *= 13) {
        int root = len % size;

        for (int i = 0; i < len; i++)
            buf[i] = rank == root ? root * 7 + i : -1;
        MT_CHECK_RC(MPI_Bcast(buf, len, MPI_INT, root, MPI_COMM_WORLD));
        for (int i = 0; i < len; i++)
            if (buf[i] != root * 7 + i) {
                MT_CHECK(0, "after %s pair %d: bcast len %d [%d] = %d",
                         after, p, len, i, buf[i]);
                break;
            }
    }
    MT_CHECK_RC(MPI_Barrier(MPI_COMM_WORLD));
}

/* The root passes a ints, rank odd b, the others a. */
static void mismatch(int p, int *buf)
{
    int root = p % size, odd = (root + 1) % size;
    int a = pairs[p][0], b = pairs[p][1];
    int n = rank == odd && odd != root ? b : a;

    for (int i = 0; i < n; i++)
        buf[i] = rank == root ? 3 * i + 1 : -1;
    int rc = MPI_Bcast(buf, n, MPI_INT, root, MPI_COMM_WORLD);

    if (rank == odd && odd != root)
        MT_CHECK(coll_mismatch_err(rc), "pair %d (%d/%d ints): the odd "
                 "rank got rc %d, not a mismatch error", p, a, b, rc);
    else if (rank != root && rc == MPI_SUCCESS)
        for (int i = 0; i < n; i++)
            if (buf[i] != 3 * i + 1) {
                MT_CHECK(0, "pair %d: success with [%d] = %d", p, i,
                         buf[i]);
                break;
            }
    check_usable("mismatch", p, buf);
}

/* The root's buffer fails a check (NULL with a positive count): the
 * others must not report success (they would hold no data from it). */
static void failed_root(int p, int *buf)
{
    int root = p % size, n = pairs[p][0];
    int rc = MPI_Bcast(rank == root ? NULL : buf, n, MPI_INT, root,
                       MPI_COMM_WORLD);

    MT_CHECK(rc != MPI_SUCCESS, "failed root, pair %d (%d ints): rank %d "
             "got success", p, n, rank);
    check_usable("failed root", p, buf);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int *buf = malloc(sizeof(int) * MAXN);

    MT_CHECK(buf != NULL, "out of memory");
    for (int p = 0; p < NPAIRS && buf != NULL; p++) {
        if (size > 1)
            mismatch(p, buf);
        failed_root(p, buf);
    }
    free(buf);
    return mt_finish();
}
