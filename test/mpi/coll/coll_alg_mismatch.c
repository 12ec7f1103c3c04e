/*
 * Erroneous collective calls whose ranks cannot all
 * know the others' schedule must end in an error on the ranks that need
 * the missing data, never in a hang:
 *  - allreduce, allgather and alltoall whose counts differ enough for the
 *    ranks to choose different p2p algorithms (recursive doubling vs
 *    Rabenseifner vs ring_segmented at 8 KiB / 1 MiB, ring_segmented's
 *    segment count, allgather's 64 KiB switch, alltoall's Bruck vs
 *    scattered at 256 B a block), and count 0 on one rank only;
 *  - gather, scatter and reduce with automatic selection whose non-root
 *    passes a bad count (count -1): it cannot know whether the others run
 *    the linear or the binomial tree.
 * Every rank of a mismatched allreduce/allgather/alltoall must report an
 * error (each needs every rank's data); in the rooted calls the failing
 * rank and, in gather and reduce, the root must.  Afterwards a checked
 * allreduce and bcast on the same communicator must give the right
 * result.  XTEST_FORMS=1 blocking only, 2 (default) adds the nonblocking
 * form, 3 the persistent form too; run with UCMPI_COLL_SHM=0 to keep the
 * blocking calls on the p2p schedules (else a size vote catches them).
 */
#include "coll_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, forms = 2, first_form, verbose, shm_on, errors;

/* Completes a nonblocking call's request, or starts and completes a
 * persistent one, twice (an init that failed on this rank may still hand
 * back a request that serves the others: it is started as theirs are);
 * returns the first error. */
static int finish(int rc, MPI_Request *req, int persistent)
{
    for (int run = 0; run < (persistent ? 2 : 1); run++) {
        if (*req == MPI_REQUEST_NULL)
            break;
        int e = persistent ? MPI_Start(req) : MPI_SUCCESS;
        if (e == MPI_SUCCESS)
            e = MPI_Wait(req, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = e;
    }
    if (persistent && *req != MPI_REQUEST_NULL)
        MPI_Request_free(req);
    return rc;
}

/* The same comm still works: a checked allreduce and bcast. */
static void check_usable(const char *after)
{
    int v = rank + 1, sum = 0, b[4] = {0, 0, 0, 0};

    if (MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) !=
            MPI_SUCCESS ||
        sum != size * (size + 1) / 2)
        FAIL("allreduce after %s: %d, want %d", after, sum,
             size * (size + 1) / 2);
    if (rank == size - 1)
        for (int i = 0; i < 4; i++)
            b[i] = 100 + i;
    if (MPI_Bcast(b, 4, MPI_INT, size - 1, MPI_COMM_WORLD) != MPI_SUCCESS ||
        b[0] != 100 || b[3] != 103)
        FAIL("bcast after %s: %d %d", after, b[0], b[3]);
}

enum { ALLREDUCE, ALLGATHER, ALLTOALL, NDIVERGE };
static const char *dnames[] = {"allreduce", "allgather", "alltoall"};

/* Collective c in form f with count cnt (per rank's block for allgather
 * and alltoall). */
static int run_diverge(int c, int f, const int *s, int *r, int cnt)
{
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Comm w = MPI_COMM_WORLD;
    int rc;

    switch (c * 3 + f) {
    case 0: return MPI_Allreduce(s, r, cnt, MPI_INT, MPI_SUM, w);
    case 1: rc = MPI_Iallreduce(s, r, cnt, MPI_INT, MPI_SUM, w, &req); break;
    case 2:
        rc = MPI_Allreduce_init(s, r, cnt, MPI_INT, MPI_SUM, w,
                                MPI_INFO_NULL, &req);
        break;
    case 3: return MPI_Allgather(s, cnt, MPI_INT, r, cnt, MPI_INT, w);
    case 4: rc = MPI_Iallgather(s, cnt, MPI_INT, r, cnt, MPI_INT, w, &req); break;
    case 5:
        rc = MPI_Allgather_init(s, cnt, MPI_INT, r, cnt, MPI_INT, w,
                                MPI_INFO_NULL, &req);
        break;
    case 6: return MPI_Alltoall(s, cnt, MPI_INT, r, cnt, MPI_INT, w);
    case 7: rc = MPI_Ialltoall(s, cnt, MPI_INT, r, cnt, MPI_INT, w, &req); break;
    default:
        rc = MPI_Alltoall_init(s, cnt, MPI_INT, r, cnt, MPI_INT, w,
                               MPI_INFO_NULL, &req);
        break;
    }
    return finish(rc, &req, f == 2);
}

/* Rank size-1 passes a, the others b (ints). */
static void diverge(int c, int f, int a, int b)
{
    int mine = rank == size - 1 ? a : b, big = a > b ? a : b;
    size_t n = (size_t)big * (c == ALLREDUCE ? 1 : (size_t)size) + 1;
    int *s = malloc(n * sizeof(int)), *r = malloc(n * sizeof(int));
    char what[96];

    for (size_t i = 0; i < n; i++)
        s[i] = rank;
    snprintf(what, sizeof(what), "%s form %d counts %d/%d", dnames[c], f, a,
             b);
    if (verbose)
        fprintf(stderr, "rank %d: %s\n", rank, what);
    int rc = run_diverge(c, f, s, r, mine);
    if (size > 1 && !coll_mismatch_err(rc))
        FAIL("%s: rc %d, want an error", what, rc);
    free(s);
    free(r);
    check_usable(what);
}

enum { GATHER, SCATTER, REDUCE, NROOTED };
static const char *rnames[] = {"gather", "scatter", "reduce"};

/* Rank `bad` (not the root 0) passes count -1, the others cnt. */
static int run_rooted(int c, int f, int *s, int *r, int cnt)
{
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info i = MPI_INFO_NULL;
    int rc;

    switch (c * 3 + f) {
    case 0: return MPI_Gather(s, cnt, MPI_INT, r, cnt, MPI_INT, 0, w);
    case 1: rc = MPI_Igather(s, cnt, MPI_INT, r, cnt, MPI_INT, 0, w, &req); break;
    case 2:
        rc = MPI_Gather_init(s, cnt, MPI_INT, r, cnt, MPI_INT, 0, w, i, &req);
        break;
    case 3: return MPI_Scatter(s, cnt, MPI_INT, r, cnt, MPI_INT, 0, w);
    case 4: rc = MPI_Iscatter(s, cnt, MPI_INT, r, cnt, MPI_INT, 0, w, &req); break;
    case 5:
        rc = MPI_Scatter_init(s, cnt, MPI_INT, r, cnt, MPI_INT, 0, w, i, &req);
        break;
    case 6: return MPI_Reduce(s, r, cnt, MPI_INT, MPI_SUM, 0, w);
    case 7: rc = MPI_Ireduce(s, r, cnt, MPI_INT, MPI_SUM, 0, w, &req); break;
    default:
        rc = MPI_Reduce_init(s, r, cnt, MPI_INT, MPI_SUM, 0, w, i, &req);
        break;
    }
    return finish(rc, &req, f == 2);
}

static void rooted(int c, int f, int bad, int cnt)
{
    size_t n = (size_t)cnt * (size_t)size + 1;
    int *s = calloc(n, sizeof(int)), *r = calloc(n, sizeof(int));
    char what[96];

    snprintf(what, sizeof(what), "%s form %d rank %d count -1 (others %d)",
             rnames[c], f, bad, cnt);
    if (verbose)
        fprintf(stderr, "rank %d: %s\n", rank, what);
    int rc = run_rooted(c, f, s, r, rank == bad ? -1 : cnt);
    if (rank == bad && rc == MPI_SUCCESS)
        FAIL("%s: the failing rank returned success", what);
    if (rank == 0 && c != SCATTER && rc == MPI_SUCCESS)
        FAIL("%s: the root returned success without rank %d's data", what,
             bad);
    free(s);
    free(r);
    check_usable(what);
}

int main(int argc, char **argv)
{
    /* (a, b) ints: recursive doubling (<= 8 KiB) vs Rabenseifner or
     * ring_segmented, Rabenseifner vs ring_segmented (1 MiB), two
     * ring_segmented segment counts, and count 0 vs large */
    static const int ar[][2] = {
        {512, 4096}, {4096, 512}, {8192, 300000}, {300000, 600000},
        {0, 300000},
    };
    const char *e = getenv("XTEST_FORMS");

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (e != NULL)
        forms = atoi(e);
    if ((e = getenv("XTEST_FIRST_FORM")) != NULL)
        first_form = atoi(e);
    verbose = getenv("XTEST_VERBOSE") != NULL;
    shm_on = (e = getenv("UCMPI_COLL_SHM")) == NULL || strcmp(e, "0") != 0;
    for (int f = first_form; f < forms && size > 1; f++) {
        for (size_t i = 0; i < sizeof(ar) / sizeof(ar[0]); i++)
            diverge(ALLREDUCE, f, ar[i][0], ar[i][1]);
        /* allgather: 64 KiB in all switches to the ring; alltoall: Bruck
         * up to 256 B a block from 8 ranks.  (Blocking ones that both
         * take the shm path are not checked: they return success: a gap of
         * the shm path.) */
        if (f != 0 || !shm_on) {
            diverge(ALLGATHER, f, 4, 65536 / 4 / size * 2);
            diverge(ALLTOALL, f, 16, 128);
        }
        /* rooted: a non-root (1, and size-1) with a bad count */
        for (int c = 0; c < NROOTED; c++) {
            rooted(c, f, 1, 4096);
            if (size > 2)
                rooted(c, f, size - 1, 16);
        }
    }
    int rc = coll_verdict(errors);
    MPI_Finalize();
    return rc;
}
