/*
 * Erroneous intercommunicator collectives, whose
 * schedules were once unsigned, must end in an error on the ranks
 * that cannot complete, never in a hang or in data of another collective:
 *  - group A calls MPI_Allreduce, group B MPI_Allgather of the same bytes
 *    (every rank needs the other group's data: every rank must fail);
 *  - group A broadcasts (MPI_ROOT / MPI_PROC_NULL), group B reduces to A's
 *    rank 0, 256 KiB (rendezvous: neither side's send can complete; at
 *    least one of the two senders must fail, and nobody may hang);
 *  - group A broadcasts (or scatters) from its rank 0, group B names
 *    rank 1 as the root (needs 2 ranks in A: every rank of B must fail);
 *  - an allreduce whose groups pass different counts (every rank fails).
 * Each case runs blocking and nonblocking (Wait); afterwards a checked
 * allreduce and bcast on the same intercommunicator must succeed.
 * Groups: A = even world ranks, B = odd ones.
 * The same for ranks of one intracommunicator that call different
 * collectives of the same bytes (the signature names the collective),
 * blocking, nonblocking and persistent, then a checked allreduce:
 *  - rank 0 MPI_Allreduce of 1 int, the others MPI_Allgather of 1 int
 *    (every rank fails; it once returned success with wrong data);
 *  - rank 0 MPI_Bcast from rank size-1, the others MPI_Reduce to rank 0
 *    (rank 0 fails: it took a reduce message as its data);
 *  - on a periodic ring, rank 0 MPI_Neighbor_allgather, the others
 *    MPI_Allgather (every rank fails).
 * With UCMPI_COLL_SHM on (the default) the blocking intracommunicator
 * calls take the shared-memory paths, which do not tell collectives
 * apart (a gap: they return success); only their other forms are
 * checked then.  In "bcast vs reduce" the leader that returns success
 * leaves the other's rendezvous send unanswered: UCX may warn at
 * MPI_Finalize that a request was not returned.
 */
#define FAIL_RANK wrank
#include "coll_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int wrank, wsize, in_a, lrank, lsize, rsize, errors, verbose;
static MPI_Comm inter, ring;

static int wait_rc(int rc, MPI_Request *req, int nb)
{
    if (nb && rc == MPI_SUCCESS)
        rc = MPI_Wait(req, MPI_STATUS_IGNORE);
    else if (nb && *req != MPI_REQUEST_NULL)
        (void)MPI_Wait(req, MPI_STATUS_IGNORE);
    return rc;
}

/* The intercomm still works: a checked allreduce and bcast. */
static void check_usable(const char *after)
{
    int v = wrank + 1, sum = 0, want = 0, b[4] = {0, 0, 0, 0};

    /* the remote group's world ranks: the other parity */
    for (int r = in_a ? 1 : 0; r < wsize; r += 2)
        want += r + 1;
    if (MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, inter) != MPI_SUCCESS ||
        sum != want)
        FAIL("allreduce after %s: %d, want %d", after, sum, want);
    if (in_a && lrank == 0)
        for (int i = 0; i < 4; i++)
            b[i] = 100 + i;
    int root = in_a ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    if (MPI_Bcast(b, 4, MPI_INT, root, inter) != MPI_SUCCESS ||
        (!in_a && (b[0] != 100 || b[3] != 103)))
        FAIL("bcast after %s: %d %d", after, b[0], b[3]);
}

/* A: allreduce of n ints; B: allgather of n ints a rank. */
static int allreduce_vs_allgather(int nb, int *s, int *r, int n)
{
    MPI_Request q = MPI_REQUEST_NULL;
    int rc;

    if (in_a)
        rc = nb ? MPI_Iallreduce(s, r, n, MPI_INT, MPI_SUM, inter, &q)
                : MPI_Allreduce(s, r, n, MPI_INT, MPI_SUM, inter);
    else
        rc = nb ? MPI_Iallgather(s, n, MPI_INT, r, n, MPI_INT, inter, &q)
                : MPI_Allgather(s, n, MPI_INT, r, n, MPI_INT, inter);
    return wait_rc(rc, &q, nb);
}

/* A: bcast from its rank 0; B: reduce to A's rank 0. */
static int bcast_vs_reduce(int nb, int *s, int *r, int n)
{
    MPI_Request q = MPI_REQUEST_NULL;
    int rc;

    if (in_a) {
        int root = lrank == 0 ? MPI_ROOT : MPI_PROC_NULL;
        rc = nb ? MPI_Ibcast(s, n, MPI_INT, root, inter, &q)
                : MPI_Bcast(s, n, MPI_INT, root, inter);
    } else {
        rc = nb ? MPI_Ireduce(s, r, n, MPI_INT, MPI_SUM, 0, inter, &q)
                : MPI_Reduce(s, r, n, MPI_INT, MPI_SUM, 0, inter);
    }
    return wait_rc(rc, &q, nb);
}

/* A: bcast from its rank 0; B: names A's rank 1 as the root. */
static int bcast_wrong_root(int nb, int *s, int *r, int n)
{
    MPI_Request q = MPI_REQUEST_NULL;
    int root = in_a ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 1;
    int *buf = in_a ? s : r;
    int rc = nb ? MPI_Ibcast(buf, n, MPI_INT, root, inter, &q)
                : MPI_Bcast(buf, n, MPI_INT, root, inter);

    return wait_rc(rc, &q, nb);
}

/* A: scatter from its rank 0; B: names A's rank 1 as the root. */
static int scatter_wrong_root(int nb, int *s, int *r, int n)
{
    MPI_Request q = MPI_REQUEST_NULL;
    int root = in_a ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 1;
    int rc = nb ? MPI_Iscatter(s, n, MPI_INT, r, n, MPI_INT, root, inter, &q)
                : MPI_Scatter(s, n, MPI_INT, r, n, MPI_INT, root, inter);

    return wait_rc(rc, &q, nb);
}

/* An allreduce: A passes n ints, B 2n. */
static int allreduce_counts(int nb, int *s, int *r, int n)
{
    MPI_Request q = MPI_REQUEST_NULL;
    int cnt = in_a ? n : 2 * n;
    int rc = nb ? MPI_Iallreduce(s, r, cnt, MPI_INT, MPI_SUM, inter, &q)
                : MPI_Allreduce(s, r, cnt, MPI_INT, MPI_SUM, inter);

    return wait_rc(rc, &q, nb);
}

/* Intracommunicator cases: form 0 blocking, 1 nonblocking, 2 persistent. */
static int finish(int rc, MPI_Request *q, int form)
{
    if (form == 2 && rc == MPI_SUCCESS)
        rc = MPI_Start(q);
    rc = wait_rc(rc, q, form != 0);
    if (form == 2 && *q != MPI_REQUEST_NULL)
        MPI_Request_free(q);
    return rc;
}

static int intra_allreduce_vs_allgather(int form, int *s, int *r)
{
    MPI_Request q = MPI_REQUEST_NULL;
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info i = MPI_INFO_NULL;
    int rc;

    if (wrank == 0)
        rc = form == 0 ? MPI_Allreduce(s, r, 1, MPI_INT, MPI_SUM, w)
             : form == 1 ? MPI_Iallreduce(s, r, 1, MPI_INT, MPI_SUM, w, &q)
             : MPI_Allreduce_init(s, r, 1, MPI_INT, MPI_SUM, w, i, &q);
    else
        rc = form == 0 ? MPI_Allgather(s, 1, MPI_INT, r, 1, MPI_INT, w)
             : form == 1 ? MPI_Iallgather(s, 1, MPI_INT, r, 1, MPI_INT, w, &q)
             : MPI_Allgather_init(s, 1, MPI_INT, r, 1, MPI_INT, w, i, &q);
    return finish(rc, &q, form);
}

static int intra_bcast_vs_reduce(int form, int *s, int *r)
{
    MPI_Request q = MPI_REQUEST_NULL;
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info i = MPI_INFO_NULL;
    int rc, root = wsize - 1;

    if (wrank == 0)
        rc = form == 0 ? MPI_Bcast(r, 4, MPI_INT, root, w)
             : form == 1 ? MPI_Ibcast(r, 4, MPI_INT, root, w, &q)
             : MPI_Bcast_init(r, 4, MPI_INT, root, w, i, &q);
    else
        rc = form == 0 ? MPI_Reduce(s, r, 4, MPI_INT, MPI_SUM, 0, w)
             : form == 1 ? MPI_Ireduce(s, r, 4, MPI_INT, MPI_SUM, 0, w, &q)
             : MPI_Reduce_init(s, r, 4, MPI_INT, MPI_SUM, 0, w, i, &q);
    return finish(rc, &q, form);
}

static int intra_neighbor_vs_allgather(int form, int *s, int *r)
{
    MPI_Request q = MPI_REQUEST_NULL;
    MPI_Info i = MPI_INFO_NULL;
    int rc;

    if (wrank == 0)
        rc = form == 0 ? MPI_Neighbor_allgather(s, 1, MPI_INT, r, 1, MPI_INT,
                                                ring)
             : form == 1 ? MPI_Ineighbor_allgather(s, 1, MPI_INT, r, 1,
                                                   MPI_INT, ring, &q)
             : MPI_Neighbor_allgather_init(s, 1, MPI_INT, r, 1, MPI_INT,
                                           ring, i, &q);
    else
        rc = form == 0 ? MPI_Allgather(s, 1, MPI_INT, r, 1, MPI_INT, ring)
             : form == 1 ? MPI_Iallgather(s, 1, MPI_INT, r, 1, MPI_INT, ring,
                                          &q)
             : MPI_Allgather_init(s, 1, MPI_INT, r, 1, MPI_INT, ring, i, &q);
    return finish(rc, &q, form);
}

static void intra_usable(MPI_Comm c, const char *after)
{
    int v = wrank + 1, sum = 0;

    if (MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, c) != MPI_SUCCESS ||
        sum != wsize * (wsize + 1) / 2)
        FAIL("allreduce after %s: %d, want %d", after, sum,
             wsize * (wsize + 1) / 2);
}

/* all: every rank must fail, else rank 0 must */
static void intra_case(const char *name, int (*run)(int, int *, int *),
                       int all, int form, MPI_Comm c)
{
    int s[8], r[8 * 64];
    char what[96];

    for (int k = 0; k < 8; k++)
        s[k] = wrank;
    snprintf(what, sizeof(what), "%s (form %d)", name, form);
    if (verbose)
        fprintf(stderr, "rank %d: %s\n", wrank, what);
    int rc = run(form, s, r);
    if ((all || wrank == 0) && !coll_mismatch_err(rc))
        FAIL("%s: rc %d, want a mismatch error", what, rc);
    intra_usable(c, what);
}

typedef struct {
    const char *name;
    int (*run)(int nb, int *s, int *r, int n);
    int n;
    int min_a;              /* ranks group A needs */
} mcase_t;

/* must: 'a' every rank fails, 'b' every rank of B fails, '1' at least one
 * of the two leaders fails */
static void run_case(const mcase_t *c, char must, int nb)
{
    size_t n = (size_t)c->n * 2 * (size_t)(wsize + 1);
    int *s = malloc(n * sizeof(int)), *r = malloc(n * sizeof(int));
    char what[96];

    for (size_t i = 0; i < n; i++)
        s[i] = wrank;
    snprintf(what, sizeof(what), "%s (%s)", c->name,
             nb ? "nonblocking" : "blocking");
    if (verbose)
        fprintf(stderr, "rank %d: %s\n", wrank, what);
    int rc = c->run(nb, s, r, c->n);
    int failed = !coll_mismatch_err(rc) ? 0 : 1, leaders = 0;
    if (rc != MPI_SUCCESS && !failed)
        FAIL("%s: error class of %d is not a mismatch's", what, rc);
    if (must == 'a' && !failed)
        FAIL("%s: returned success", what);
    if (must == 'b' && !in_a && !failed)
        FAIL("%s: a rank of group B returned success", what);
    int mine = lrank == 0 && failed;
    MPI_Allreduce(&mine, &leaders, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (must == '1' && leaders == 0 && wrank == 0)
        FAIL("%s: both leaders returned success", what);
    free(s);
    free(r);
    check_usable(what);
}

int main(int argc, char **argv)
{
    static const mcase_t cases[] = {
        {"allreduce vs allgather", allreduce_vs_allgather, 16, 1},
        {"bcast vs reduce, 256 KiB", bcast_vs_reduce, 65536, 1},
        {"bcast, B names a wrong root", bcast_wrong_root, 16, 2},
        {"allreduce, counts 16 vs 32", allreduce_counts, 16, 1},
        {"scatter, B names a wrong root", scatter_wrong_root, 16, 2},
    };
    static const char must[] = {'a', '1', 'b', 'a', 'b'};
    MPI_Comm half;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    verbose = getenv("XTEST_VERBOSE") != NULL;
    if (wsize < 2) {
        printf(" No Errors\n");
        MPI_Finalize();
        return 0;
    }
    in_a = wrank % 2 == 0;
    MPI_Comm_split(MPI_COMM_WORLD, !in_a, wrank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, in_a ? 1 : 0, 12, &inter);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);
    int size_a = in_a ? lsize : rsize;
    for (int nb = 0; nb < 2; nb++)
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
            if (size_a >= cases[i].min_a)
                run_case(&cases[i], must[i], nb);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    int dims = wsize, periods = 1;
    MPI_Cart_create(MPI_COMM_WORLD, 1, &dims, &periods, 0, &ring);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    const char *e = getenv("UCMPI_COLL_SHM");
    int shm_on = e == NULL || strcmp(e, "0") != 0;
    for (int f = shm_on ? 1 : 0; f < 3; f++) {
        intra_case("allreduce vs allgather", intra_allreduce_vs_allgather, 1,
                   f, MPI_COMM_WORLD);
        intra_case("bcast vs reduce", intra_bcast_vs_reduce, 0, f,
                   MPI_COMM_WORLD);
        intra_case("neighbor_allgather vs allgather",
                   intra_neighbor_vs_allgather, 1, f, ring);
    }
    MPI_Comm_free(&ring);
    int rc = coll_verdict(errors);
    MPI_Finalize();
    return rc;
}
