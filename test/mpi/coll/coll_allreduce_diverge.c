/*
 * Allreduce, reduce_scatter_block and reduce_scatter
 * whose ranks pass counts that differ enough to send them down different
 * paths: count 0 on one rank only (it used to return at once while the
 * others waited for it), or sizes on both sides of the shm path's limit
 * (tiny tuned buffers, UCMPI_COLL_SHM_SLOT_BYTES=64|192: one rank in the
 * shared segment, the other on the p2p schedules, both waiting for ever).
 * Every rank must report an error (MPI_ERR_TRUNCATE / MPI_ERR_OTHER /
 * MPI_ERR_COUNT; on the p2p schedules a count-0 rank may see success),
 * none may hang, and afterwards correct calls on the same comm must give
 * the right results.  XTEST_FORMS=3 adds the nonblocking
 * and persistent forms, for the pairs whose nonzero side runs recursive
 * doubling / halving (small): the count-0 rank runs that too;
 * XTEST_SMALL=1 keeps only those pairs (the p2p schedules: counts that
 * change the algorithm itself hung before schedules were signed and the
 * stall probe; coll_alg_mismatch covers them in every form).  20000
 * against 40000 ints per block cross the 2-rank shm limit of
 * reduce_scatter (256 KiB: 160000 B in shm chunks, 320000 B a voter bound
 * for p2p) both ways.  With UCMPI_COLL_SHM=0 at 4-5 ranks they send rank
 * 0 down recursive halving and the others down ring_segmented: that hung
 * until reduce_scatter's schedules were signed with their algorithm.
 */
#include "coll_common.h"

#include <stdlib.h>
#include <string.h>

static int rank, size, forms = 1, small_only, p2p_only;

/* Counts (ints per rank's block): rank `odd` passes a, the others b;
 * small: the nonzero side runs recursive doubling at every size here
 * (1), or not (0), or a pair across the 2-rank shm limit (2, see
 * above). */
static const struct {
    int a, b, small;
} pairs[] = {
    {0, 10, 1},  {10, 0, 1},  {0, 1, 1},    {0, 3000, 0}, {3000, 0, 0},
    {1, 40, 1},  {40, 1, 1},  {16, 17, 1},  {10, 5000, 0}, {5000, 10, 0},
    {20000, 40000, 2}, {40000, 20000, 2},
};
#define NPAIRS ((int)(sizeof(pairs) / sizeof(pairs[0])))

enum { ALLREDUCE, RS_BLOCK, RS, NCOLL };
static const char *names[] = {"allreduce", "reduce_scatter_block",
                              "reduce_scatter"};

/* Collective c in form f (0 blocking, 1 nonblocking, 2 persistent), with
 * cnt elements per block (allreduce: the whole vector). */
static int run(int c, int f, const int *s, int *r, int cnt, int *counts)
{
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info i = MPI_INFO_NULL;
    int rc;

    for (int p = 0; p < size; p++)
        counts[p] = cnt;
    switch (c * 3 + f) {
    case 0: return MPI_Allreduce(s, r, cnt, MPI_INT, MPI_SUM, w);
    case 1: rc = MPI_Iallreduce(s, r, cnt, MPI_INT, MPI_SUM, w, &req); break;
    case 2: rc = MPI_Allreduce_init(s, r, cnt, MPI_INT, MPI_SUM, w, i, &req);
            break;
    case 3: return MPI_Reduce_scatter_block(s, r, cnt, MPI_INT, MPI_SUM, w);
    case 4: rc = MPI_Ireduce_scatter_block(s, r, cnt, MPI_INT, MPI_SUM, w,
                                           &req); break;
    case 5: rc = MPI_Reduce_scatter_block_init(s, r, cnt, MPI_INT, MPI_SUM, w,
                                               i, &req); break;
    case 6: return MPI_Reduce_scatter(s, r, counts, MPI_INT, MPI_SUM, w);
    case 7: rc = MPI_Ireduce_scatter(s, r, counts, MPI_INT, MPI_SUM, w, &req);
            break;
    default: rc = MPI_Reduce_scatter_init(s, r, counts, MPI_INT, MPI_SUM, w,
                                          i, &req); break;
    }
    if (rc == MPI_SUCCESS && f == 2)
        rc = MPI_Start(&req);
    if (rc == MPI_SUCCESS)
        rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (f == 2 && req != MPI_REQUEST_NULL)
        MPI_Request_free(&req);
    return rc;
}

/* Correct calls of each collective and form (sizes around the pairs'):
 * results checked. */
static void check_usable(int *s, int *r, int *counts, const char *after)
{
    static const int lens[] = {1, 16, 40, 5000};

    for (int c = 0; c < NCOLL; c++)
        for (int f = 0; f < forms; f++)
            for (int l = 0; l < 4; l++) {
                int cnt = lens[l];
                int n = c == ALLREDUCE ? cnt : cnt * size;
                for (int i = 0; i < n; i++) {
                    s[i] = rank + i;
                    r[i] = -1;
                }
                int rc = run(c, f, s, r, cnt, counts);
                MT_CHECK_RC(rc);
                int off = c == ALLREDUCE ? 0 : rank * cnt;
                for (int i = 0; i < cnt; i++)
                    MT_CHECK(r[i] == size * (size - 1) / 2 + size * (off + i),
                             "after %s: %s form %d count %d: [%d] = %d",
                             after, names[c], f, cnt, i, r[i]);
            }
    int brc = MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(brc);
}

int main(int argc, char **argv)
{
    enum { MAXC = 40000 };
    const char *e = getenv("XTEST_FORMS");

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (e != NULL)
        forms = atoi(e);
    small_only = getenv("XTEST_SMALL") != NULL && atoi(getenv("XTEST_SMALL"));
    /* the library's own knob: no shared segment, every form on p2p */
    p2p_only = getenv("UCMPI_COLL_SHM") != NULL &&
               atoi(getenv("UCMPI_COLL_SHM")) == 0;
    int *s = calloc((size_t)MAXC * (size_t)size, sizeof(int));
    int *r = calloc((size_t)MAXC * (size_t)size, sizeof(int));
    int *counts = calloc((size_t)size, sizeof(int));
    check_usable(s, r, counts, "the start");
    for (int c = 0; c < NCOLL; c++)
        for (int f = 0; f < forms; f++)
            for (int p = 0; p < NPAIRS && size > 1; p++) {
                if ((f > 0 || small_only) && pairs[p].small != 1)
                    continue;
                int odd = p % 2 == 0 ? 0 : size - 1;
                int cnt = rank == odd ? pairs[p].a : pairs[p].b;
                int rc = run(c, f, s, r, cnt, counts);

                /* on the p2p schedules a count-0 rank may not learn of
                 * it (its partner failed first and sent it an empty
                 * message, as for its count): nothing of it is stale */
                MT_CHECK(coll_mismatch_err(rc) ||
                             (rc == MPI_SUCCESS && cnt == 0 && (f > 0 ||
                                                                p2p_only)),
                         "%s form %d pair %d (count %d): rc %d", names[c], f,
                         p, cnt, rc);
                char after[64];
                snprintf(after, sizeof(after), "%s form %d pair %d",
                         names[c], f, p);
                check_usable(s, r, counts, after);
            }
    free(s);
    free(r);
    free(counts);
    return mt_finish();
}
