/*
 * The count-0 rule.  A rank whose data for a
 * collective is 0 bytes still takes part (an empty schedule), so that
 *  - a correct program where every rank passes count 0 completes at once
 *    with MPI_SUCCESS and leaves the buffers alone, in every form;
 *  - an erroneous one where only some ranks pass count 0 ends in an error
 *    instead of a hang.  Who must fail: the zero rank, and every rank that
 *    needs its data (allgather, alltoall: all; bcast, scatter from a zero
 *    root: all; gather, reduce: the root; scan, exscan: the ranks above
 *    it).  The others may complete, with the right data.
 * Collectives (XTEST_COLLS, a comma list; default allgather,alltoall,
 * bcast): allgather and alltoall (rank size-1 passes 0, the others 4 or
 * 5000 ints a block); bcast whose root passes 0, and whose non-root
 * does; gather, scatter and reduce (the root's count against the
 * others': a zero non-root, size-1 or rank 2 at 5000 ints where the tree
 * and linear algorithms differ, and a zero root); scan and exscan (rank
 * 0 or size-1 passes 0).
 * Forms: blocking, nonblocking + MPI_Wait, nonblocking polled with
 * MPI_Test only (the stall probe must be reached from polling too), and
 * persistent.  Last, a nonblocking allgather polled with MPI_Test whose
 * nonzero counts make the ranks choose different algorithms (alone with
 * XTEST_POLL_ONLY=1).  With the shm path on (default), a blocking
 * allgather/alltoall of 5000-int blocks is not run (the chunked shm path
 * goes on past the zero rank's size vote: open).  A blocking bcast from a zero root and a
 * blocking reduce at a zero non-root fail on the shm path too (they
 * returned MPI_SUCCESS there), and with UCMPI_COLL_SHM_MAX_BYTES=100 the
 * 5000-int bcast runs p2p on the nonzero ranks and shm on the zero one
 * (it hung).  Afterwards a checked allreduce and bcast on the same
 * communicator must give the right result.
 */
#include "coll_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, shm_on, errors;

enum { BLOCKING, WAIT, POLL, PERSISTENT, NFORMS };
static const char *fnames[] = {"blocking", "nonblocking+wait",
                               "nonblocking+test", "persistent"};
enum { ALLGATHER, ALLTOALL, BCAST, GATHER, SCATTER, REDUCE, SCAN, EXSCAN,
       NCOLLS };
static const char *cnames[] = {"allgather", "alltoall", "bcast", "gather",
                               "scatter", "reduce", "scan", "exscan"};
static int wanted[NCOLLS];

/* Completes req by MPI_Test alone (POLL), else MPI_Wait; a persistent
 * request is started first and freed after. */
static int finish(int rc, MPI_Request *req, int form)
{
    if (rc != MPI_SUCCESS || *req == MPI_REQUEST_NULL)
        return rc;
    if (form == PERSISTENT && (rc = MPI_Start(req)) != MPI_SUCCESS)
        return rc;
    if (form == POLL) {
        double t0 = MPI_Wtime();
        int done = 0;
        while (!done && rc == MPI_SUCCESS) {
            rc = MPI_Test(req, &done, MPI_STATUS_IGNORE);
            if (!done && MPI_Wtime() - t0 > 60) {
                fprintf(stderr, "rank %d: MPI_Test polled 60 s without "
                        "completion (hang)\n", rank);
                MPI_Abort(MPI_COMM_WORLD, 3);
            }
        }
    } else {
        rc = MPI_Wait(req, MPI_STATUS_IGNORE);
    }
    if (form == PERSISTENT && *req != MPI_REQUEST_NULL)
        MPI_Request_free(req);
    return rc;
}

static int run(int c, int form, const int *s, int *r, int cnt, int root)
{
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info i = MPI_INFO_NULL;
    int rc = MPI_SUCCESS, b = form == BLOCKING, p = form == PERSISTENT;

    switch (c) {
    case ALLGATHER:
        rc = b ? MPI_Allgather(s, cnt, MPI_INT, r, cnt, MPI_INT, w)
           : p ? MPI_Allgather_init(s, cnt, MPI_INT, r, cnt, MPI_INT, w, i,
                                    &req)
               : MPI_Iallgather(s, cnt, MPI_INT, r, cnt, MPI_INT, w, &req);
        break;
    case ALLTOALL:
        rc = b ? MPI_Alltoall(s, cnt, MPI_INT, r, cnt, MPI_INT, w)
           : p ? MPI_Alltoall_init(s, cnt, MPI_INT, r, cnt, MPI_INT, w, i,
                                   &req)
               : MPI_Ialltoall(s, cnt, MPI_INT, r, cnt, MPI_INT, w, &req);
        break;
    case BCAST:
        rc = b ? MPI_Bcast(r, cnt, MPI_INT, root, w)
           : p ? MPI_Bcast_init(r, cnt, MPI_INT, root, w, i, &req)
               : MPI_Ibcast(r, cnt, MPI_INT, root, w, &req);
        break;
    case GATHER:
        rc = b ? MPI_Gather(s, cnt, MPI_INT, r, cnt, MPI_INT, root, w)
           : p ? MPI_Gather_init(s, cnt, MPI_INT, r, cnt, MPI_INT, root, w,
                                 i, &req)
               : MPI_Igather(s, cnt, MPI_INT, r, cnt, MPI_INT, root, w, &req);
        break;
    case SCATTER:
        rc = b ? MPI_Scatter(s, cnt, MPI_INT, r, cnt, MPI_INT, root, w)
           : p ? MPI_Scatter_init(s, cnt, MPI_INT, r, cnt, MPI_INT, root, w,
                                  i, &req)
               : MPI_Iscatter(s, cnt, MPI_INT, r, cnt, MPI_INT, root, w,
                              &req);
        break;
    case REDUCE:
        rc = b ? MPI_Reduce(s, r, cnt, MPI_INT, MPI_SUM, root, w)
           : p ? MPI_Reduce_init(s, r, cnt, MPI_INT, MPI_SUM, root, w, i,
                                 &req)
               : MPI_Ireduce(s, r, cnt, MPI_INT, MPI_SUM, root, w, &req);
        break;
    case SCAN:
        rc = b ? MPI_Scan(s, r, cnt, MPI_INT, MPI_SUM, w)
           : p ? MPI_Scan_init(s, r, cnt, MPI_INT, MPI_SUM, w, i, &req)
               : MPI_Iscan(s, r, cnt, MPI_INT, MPI_SUM, w, &req);
        break;
    default:
        rc = b ? MPI_Exscan(s, r, cnt, MPI_INT, MPI_SUM, w)
           : p ? MPI_Exscan_init(s, r, cnt, MPI_INT, MPI_SUM, w, i, &req)
               : MPI_Iexscan(s, r, cnt, MPI_INT, MPI_SUM, w, &req);
        break;
    }
    return b ? rc : finish(rc, &req, form);
}

/* The same comm still works: a checked allreduce and bcast. */
static void check_usable(const char *after)
{
    int v = rank + 1, sum = 0, b[4] = {0, 0, 0, 0};
    int rc = MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

    if (rc != MPI_SUCCESS || sum != size * (size + 1) / 2)
        FAIL("allreduce after %s: rc %d, %d, want %d", after, rc, sum,
             size * (size + 1) / 2);
    if (rank == size - 1)
        for (int i = 0; i < 4; i++)
            b[i] = 100 + i;
    if (MPI_Bcast(b, 4, MPI_INT, size - 1, MPI_COMM_WORLD) != MPI_SUCCESS ||
        b[0] != 100 || b[3] != 103)
        FAIL("bcast after %s: %d %d", after, b[0], b[3]);
}

/* A correct program: count 0 everywhere, buffers untouched. */
static void all_zero(int c, int form)
{
    int s[2] = {7, 7}, r[2] = {-5, -5};
    int rc = run(c, form, s, r, 0, size - 1);

    if (rc != MPI_SUCCESS || r[0] != -5 || r[1] != -5 || s[0] != 7)
        FAIL("%s %s, count 0 everywhere: rc %d, buffer %d %d", cnames[c],
             fnames[form], rc, r[0], r[1]);
}

/* Whether this rank must fail when rank zr passes count 0 (root: of a
 * rooted collective): the zero rank, and the ranks that need its data. */
static int must_fail(int c, int form, int zr, int root)
{
    switch (c) {
    case BCAST:
        return rank == zr || root == zr;
    case SCATTER:
        return rank == zr || root == zr;
    case REDUCE:
        return rank == zr || rank == root;
    case GATHER:
        return rank == zr || rank == root;
    case SCAN:
    case EXSCAN:
        return rank >= zr;
    default:
        return 1;
    }
}

/* A rank that may complete must have the right data: the root's in a
 * bcast (77 + i) or its block of a scatter (77 + rank * n + i), its
 * prefix sum of a scan or exscan (element 0: sum of 1000 q). */
static int right_data(int c, const int *r, int n)
{
    int x = 1000 * rank * (rank + 1) / 2;

    if (n == 0)
        return 1;                 /* (the zero rank) */
    switch (c) {
    case BCAST:
        return r[0] == 77 && r[n - 1] == 77 + n - 1;
    case SCATTER:
        return r[0] == 77 + rank * n && r[n - 1] == 77 + rank * n + n - 1;
    case SCAN:
        return r[0] == x;
    case EXSCAN:
        return rank == 0 || r[0] == x - 1000 * rank;
    default:
        return 1;
    }
}

/* Rank zr passes count zn, the others n (ints a block); rooted
 * collectives from root. */
static void differ(int c, int form, int n, int zr, int root, int zn)
{
    int mine = rank == zr ? zn : n;
    size_t len = (size_t)n * (size_t)size + 1;
    int *s = malloc(len * sizeof(int)), *r = malloc(len * sizeof(int));
    int rooted = c == BCAST || c == GATHER || c == SCATTER || c == REDUCE;
    char what[128];

    for (size_t i = 0; i < len; i++) {
        s[i] = c == SCATTER && rank == root ? 77 + (int)i
                                            : rank * 1000 + (int)i;
        r[i] = c == BCAST && rank == root ? 77 + (int)i : -1;
    }
    snprintf(what, sizeof(what), "%s %s, rank %d count %d, others %d%s",
             cnames[c], fnames[form], zr, zn, n,
             !rooted ? "" : root == zr ? " (the root)" : " (a non-root)");
    int rc = run(c, form, s, r, mine, root);
    if (must_fail(c, form, zr, root) && !coll_mismatch_err(rc))
        FAIL("%s: rc %d, want an error", what, rc);
    else if (rc != MPI_SUCCESS && !coll_mismatch_err(rc))
        FAIL("%s: rc %d, not a mismatch class", what, rc);
    else if (rc == MPI_SUCCESS && !right_data(c, r, mine))
        FAIL("%s: success with wrong data %d", what, r[0]);
    free(s);
    free(r);
    check_usable(what);
}

static void some_zero(int c, int form, int n, int zr, int root)
{
    differ(c, form, n, zr, root, 0);
}

/* XTEST_COLLS: which collectives (default the first three) */
static void choose(void)
{
    const char *e = getenv("XTEST_COLLS");
    char buf[256], *tok, *save = NULL;

    snprintf(buf, sizeof(buf), "%s", e ? e : "allgather,alltoall,bcast");
    for (tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save))
        for (int c = 0; c < NCOLLS; c++)
            if (strcmp(tok, cnames[c]) == 0)
                wanted[c] = 1;
}

/* The erroneous calls of form f: rank size-1 (or mid, where 5000-int
 * blocks make the tree and linear algorithms differ) or the root passes
 * 0, rooted collectives from rank 0. */
static void mismatches(int f)
{
    int mid = size > 2 ? 2 : size - 1;

    for (int c = 0; c < BCAST; c++) {
        if (!wanted[c])
            continue;
        some_zero(c, f, 4, size - 1, 0);
        /* (not where 20 KB blocks take the chunked shm path: open) */
        if (f != BLOCKING || !shm_on)
            some_zero(c, f, 5000, size - 1, 0);
    }
    if (wanted[BCAST]) {
        some_zero(BCAST, f, 4, 0, 0);
        some_zero(BCAST, f, 5000, size - 1, 0);
        /* 2 ranks: past bcast's shm limit (32 KiB) the others vote */
        if (size == 2) {
            some_zero(BCAST, f, 40000, 0, 0);
            some_zero(BCAST, f, 40000, 1, 0);
        }
    }
    for (int c = GATHER; c <= REDUCE; c++) {
        if (!wanted[c])
            continue;
        some_zero(c, f, 4, size - 1, 0);
        some_zero(c, f, 5000, mid, 0);
        some_zero(c, f, 4, 0, 0);
    }
    for (int c = SCAN; c <= EXSCAN; c++) {
        if (!wanted[c])
            continue;
        some_zero(c, f, 4, size - 1, 0);
        some_zero(c, f, 4, 0, 0);
    }
}

int main(int argc, char **argv)
{
    const char *e;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    shm_on = (e = getenv("UCMPI_COLL_SHM")) == NULL || strcmp(e, "0") != 0;
    choose();
    /* XTEST_POLL_ONLY: the last part alone */
    int nf = getenv("XTEST_POLL_ONLY") != NULL ? 0 : NFORMS;
    for (int f = 0; f < nf; f++)
        for (int c = 0; c < NCOLLS; c++)
            if (wanted[c])
                all_zero(c, f);
    for (int f = 0; f < nf && size > 1; f++)
        mismatches(f);
    /* polled only, nonzero counts whose algorithms differ (bruck or
     * recursive doubling vs ring from 64 KiB in all) */
    if (size > 1 && wanted[ALLGATHER])
        differ(ALLGATHER, POLL, 65536 / 4 / size * 2, size - 1, 0, 4);
    int rc = coll_verdict(errors);
    MPI_Finalize();
    return rc;
}
