/*
 * MPI_Gather and MPI_Gatherv in their blocking, nonblocking and persistent
 * forms, on intra- and intercommunicators: argument checks, algorithm
 * selection, then the shared schedule tail (coll/xfer.c).
 */
#include "coll/coll_drv.h"
#include "coll/coll_tune.h"
#include "coll/gather/gather.h"

#include <string.h>

enum { GATHER_LINEAR, GATHER_BINOMIAL };

static const ucmpi_coll_alg_t ucmpi_gather_algs[] = {
    {GATHER_LINEAR, "linear", "root receives from every rank in one round",
     ucmpi_gather_linear},
    {GATHER_BINOMIAL, "binomial",
     "binomial tree, subtrees forward packed blocks", ucmpi_gather_binomial},
    {0, NULL, NULL, NULL}
};

static const ucmpi_coll_alg_t gatherv_algs[] = {
    {GATHER_LINEAR, "linear", "root receives from every rank in one round",
     ucmpi_gather_linear},
    {GATHER_BINOMIAL, "binomial",
     "binomial tree; subtree counts travel up first", ucmpi_gatherv_binomial},
    {0, NULL, NULL, NULL}
};

static const ucmpi_xfer_rooted_t gather_kind = {
    ucmpi_gather_algs, "GATHER_ALGORITHM", UCMPI_THR_GATHER_TREE_MIN_RANKS,
    UCMPI_THR_GATHER_TREE_MAX_TOTAL, 1};
static const ucmpi_xfer_rooted_t gatherv_kind = {
    gatherv_algs, "GATHERV_ALGORITHM", UCMPI_THR_GATHERV_TREE_MIN_RANKS, -1,
    1};

/* ---- a rank whose arguments failed a check ---- */

/* Block bytes of a valid (count, type); -1 when either is bad. */
static long long block_bytes(MPI_Count count, MPI_Datatype dt)
{
    return ucmpi_xfer_buf_ok(count, dt) ? (long long)(count * dt->size) : -1;
}

/* The algorithm the others run, when this rank's own arguments may not
 * give the block size (bs < 0: unknown; v forms: k is gatherv's). */
static const ucmpi_coll_alg_t *others_alg(const ucmpi_xfer_rooted_t *k,
                                          const ucmpi_coll_args_t *a,
                                          long long bs)
{
    if (bs >= 0 || a->comm->is_inter || k == &gatherv_kind)
        return ucmpi_xfer_rooted_select(k, a);
    return ucmpi_xfer_rooted_guess(k, a);
}

/* Zero-byte receives of what the others send this root under alg: UCX
 * truncates (and, for a rendezvous, acknowledges) whatever comes, so the
 * senders return.  One round: a truncation ends a schedule after it. */
static int drain_build(ucmpi_sched_t *s, const ucmpi_coll_args_t *a,
                       const ucmpi_coll_alg_t *alg)
{
    ucmpi_comm_t *c = a->comm;
    int n = a->size, rc = MPI_SUCCESS;

    if (alg->build == ucmpi_gatherv_binomial && !c->is_inter && n > 1) {
        ucmpi_vtree_t *t = ucmpi_vtree_new(s, n, a->root, a->rank);
        if (t == NULL)
            return MPI_ERR_NO_MEM;
        for (int i = 0; i < t->nchild && rc == MPI_SUCCESS; i++) {
            int peer = ucmpi_vtree_rank(t, t->child[i].pos);
            rc = ucmpi_sched_recv(s, NULL, 0, MPI_BYTE, peer);
            if (rc == MPI_SUCCESS && t->child[i].cnt > 1)
                rc = ucmpi_sched_recv(s, NULL, 0, MPI_BYTE, peer);
        }
        return rc;
    }
    if (alg->build == ucmpi_gather_binomial && n > 1) {
        for (int m = 1; m < n && rc == MPI_SUCCESS; m <<= 1)
            rc = ucmpi_sched_recv(s, NULL, 0, MPI_BYTE, (m + a->root) % n);
        return rc;
    }
    /* linear: every other rank sends once (ucmpi_gather_linear) */
    for (int i = 0; i < c->remote_size && rc == MPI_SUCCESS; i++)
        if (c->is_inter || i != c->rank)
            rc = ucmpi_sched_recv(s, NULL, 0, MPI_BYTE, i);
    return rc;
}

/* A non-root whose arguments failed: it runs the others'
 * algorithm with its block empty (bs scratch bytes, poisoned: every send
 * is empty), so its parent's exact receive passes the loss up to the
 * root, which reports it instead of waiting for ever.  Inside a tree it
 * takes its children's messages into scratch (their sizes need not match:
 * it fails anyway) and forwards nothing.  An unknown bs (its own count or
 * type is bad) is taken as 1: a send built non-empty goes empty, never as
 * a loss token a 1-byte receive could take for data.  NULL: the algorithm
 * is not known (automatic selection needs the block size). */
static ucmpi_sched_t *nonroot_build(const ucmpi_xfer_rooted_t *k,
                                    ucmpi_comm_t *c, int root, long long bs,
                                    int *rc)
{
    ucmpi_coll_args_t a = {.comm = c, .rank = c->rank, .size = c->size,
                           .root = root, .sdt = MPI_BYTE, .rdt = MPI_BYTE,
                           .scount = bs > 0 ? bs : 1};
    const ucmpi_coll_alg_t *alg;
    ucmpi_sched_t *s;
    void *z;

    if (c->is_inter || root < 0 || root >= c->size)
        return NULL;
    alg = others_alg(k, &a, bs);
    if (alg == NULL || (s = ucmpi_sched_create(c)) == NULL)
        return NULL;
    ucmpi_xfer_sign(s, alg, &a);
    if ((z = ucmpi_sched_alloc(s, (size_t)a.scount)) == NULL) {
        ucmpi_sched_free(s);
        return NULL;
    }
    a.sbuf = memset(z, 0, (size_t)a.scount);
    *rc = alg->build(s, &a);
    ucmpi_sched_poison(s);
    return s;
}

/* The argument error err on this rank: a root still drains the others'
 * blocks, in the background or, for a persistent form, in the request it
 * hands back (bs: the uniform block bytes, -1 unknown or v form); any
 * rank keeps its collective numbers in step. */
static int gather_failed(const ucmpi_xfer_rooted_t *k, int err,
                         const ucmpi_coll_args_t *in, long long bs)
{
    ucmpi_comm_t *c = in->comm;
    int root = in->root, mode = in->mode;
    MPI_Request *req = in->req;
    ucmpi_coll_args_t a = {.comm = c, .rank = c->rank, .size = c->size,
                           .root = root, .sbuf = MPI_IN_PLACE,
                           .sdt = MPI_BYTE, .rdt = MPI_BYTE,
                           .rcount = bs > 0 ? bs : 0};
    int intra_root = !c->is_inter && root >= 0 && root < c->size;
    const ucmpi_coll_alg_t *alg;
    ucmpi_sched_t *s;
    int rc = MPI_SUCCESS;

    /* count 0: the others with count 0 run the empty schedule */
    if (bs == 0 && k == &gather_kind && c->size > 1 && intra_root)
        return ucmpi_coll_run_empty_rooted(c, root, mode, req, err);
    if (mode != UCMPI_COLL_BLOCKING && req != NULL)
        *req = MPI_REQUEST_NULL;
    /* (a root rank is a valid root) */
    if (!ucmpi_xfer_is_root(c, root)) {
        s = nonroot_build(k, c, root, bs, &rc);
        if (s == NULL && intra_root)   /* algorithm unknown */
            return ucmpi_coll_skip_abort(c, err, mode, req);
    } else {
        alg = others_alg(k, &a, bs);
        if (alg == NULL && !c->is_inter)   /* senders may be held */
            return ucmpi_coll_skip_abort(c, err, mode, req);
        if (alg != NULL && (s = ucmpi_sched_create(c)) != NULL) {
            ucmpi_xfer_sign(s, alg, &a);
            rc = drain_build(s, &a, alg);
        } else {
            s = NULL;
        }
    }
    if (s == NULL)
        return ucmpi_coll_skip(c, err, -1, 0, 0);
    if (mode == UCMPI_COLL_PERSISTENT)
        return ucmpi_coll_persist_failed(s, rc, req, err);
    ucmpi_coll_release(s, rc);
    return err;
}

/* The count-0 rule (coll_util.h): the block is 0 bytes (at the root its
 * receive block, elsewhere the send block; a): the rank runs the empty
 * schedule, a star around the root, instead of an algorithm chosen for
 * blocks of 0 bytes (the others may choose another for theirs). */
static int gather_empty(const ucmpi_coll_args_t *a)
{
    const ucmpi_comm_t *c = a->comm;

    return !c->is_inter && c->size > 1 &&
           (a->root == c->rank ? a->rcount * a->rdt->size
                               : a->scount * a->sdt->size) == 0;
}

/* The send side of a rank that sends nothing: in place, an intercomm
 * root group, or a MPI_PROC_NULL rank. */
static void no_send(ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *c = a->comm;

    if (a->sbuf == MPI_IN_PLACE || (c->is_inter && a->root == MPI_ROOT) ||
        a->root == MPI_PROC_NULL) {
        a->sdt = MPI_BYTE;
        a->scount = 0;
    }
}

static int gather_start(ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *comm = a->comm;
    int is_root = ucmpi_xfer_is_root(comm, a->root);
    int own = !comm->is_inter && is_root && a->sbuf != MPI_IN_PLACE;
    int rc = ucmpi_xfer_check_rooted(a, 1);

    if (rc == MPI_SUCCESS && is_root)
        rc = ucmpi_xfer_check_buf(comm, a->rcount, a->rdt, "receive");
    /* the root's block and the n blocks it receives */
    if (rc == MPI_SUCCESS && own)
        rc = ucmpi_coll_check_alias1(comm, a->sbuf, a->scount, a->sdt,
                                     a->rbuf, a->rcount * comm->size, a->rdt,
                                     ucmpi_call_name());
    if (rc != MPI_SUCCESS) {
        /* the others' block size: the root's receive or its own block
         * (a non-root's receive arguments mean nothing) */
        long long bs = is_root ? block_bytes(a->rcount, a->rdt) : -1;
        if (bs < 0 && (a->sbuf != MPI_IN_PLACE || !is_root) &&
            !comm->is_inter)
            bs = block_bytes(a->scount, a->sdt);
        return gather_failed(&gather_kind, rc, a, bs);
    }
    if (!is_root) {
        a->rdt = MPI_BYTE;     /* ignored at non-roots: keep sizes sane */
        a->rcount = 0;
    }
    no_send(a);
    if (own) {
        rc = ucmpi_xfer_check_match(comm, a->scount, a->sdt, a->rcount,
                                    a->rdt, "root's own block");
        if (rc != MPI_SUCCESS && gather_empty(a))
            return ucmpi_coll_run_empty_rooted(comm, a->root, a->mode, a->req, rc);
        if (rc != MPI_SUCCESS)
            return ucmpi_xfer_run_without_own(&gather_kind, a, rc);
    }
    if (gather_empty(a))
        return ucmpi_coll_run_empty_rooted(comm, a->root, a->mode, a->req, MPI_SUCCESS);
    return ucmpi_xfer_run(ucmpi_xfer_rooted_select(&gather_kind, a), a,
                          a->mode, a->req);
}

static void gather_record(const ucmpi_coll_args_t *u,
                          ucmpi_coll_check_args_t *r)
{
    *r = (ucmpi_coll_check_args_t){
        .rooted = 1, .root = u->root,
        .send = {.who = UCMPI_CCK_NONROOT, .to_root = 1, .count = u->scount,
                 .dt = u->sdt},
        .recv = {.who = UCMPI_CCK_ROOT, .count = u->rcount, .dt = u->rdt}};
}

static const ucmpi_coll_desc_t gather_desc = {
    .record = gather_record, .start = gather_start};

UCMPI_XFER_FORMS(Gather, gather, , gather_desc,
                 (UCMPI_XFER_UNIFORM(int), int root, MPI_Comm comm),
                 UCMPI_XFER_UNIFORM_FILL, .root = root)
UCMPI_XFER_FORMS(Gather, gather, _c, gather_desc,
                 (UCMPI_XFER_UNIFORM(MPI_Count), int root, MPI_Comm comm),
                 UCMPI_XFER_UNIFORM_FILL, .root = root)

/* ---- gatherv ---- */

static int gatherv_start(ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *comm = a->comm;
    int is_root = ucmpi_xfer_is_root(comm, a->root);
    int own = !comm->is_inter && is_root && a->sbuf != MPI_IN_PLACE;
    ucmpi_coll_side_t s = {.buf = a->sbuf, .n = 1, .count = a->scount,
                           .dt = a->sdt};
    ucmpi_coll_side_t r = {.buf = a->rbuf, .n = comm->remote_size,
                           .dt = a->rdt, .counts = a->rcounts,
                           .ccounts = a->rcounts_c, .displs = a->rdispls,
                           .adispls = a->rdispls_c};
    int rc = ucmpi_xfer_check_rooted(a, 1);

    if (rc == MPI_SUCCESS && is_root)
        rc = ucmpi_xfer_check_blocks(comm, &r, "receive");
    if (rc == MPI_SUCCESS && own) {
        r.n = comm->size;
        rc = ucmpi_coll_check_alias(comm, &s, &r, ucmpi_call_name());
    }
    if (rc != MPI_SUCCESS)
        return gather_failed(&gatherv_kind, rc, a, -1);
    if (is_root) {
        a->nrblk = comm->remote_size;
    } else {                  /* ignored at non-roots */
        a->rcounts = NULL;
        a->rdispls = NULL;
        a->rcounts_c = NULL;
        a->rdispls_c = NULL;
        a->rdt = MPI_BYTE;
    }
    no_send(a);
    if (own) {
        rc = ucmpi_xfer_check_match(comm, a->scount, a->sdt,
                                    r.ccounts ? r.ccounts[a->root]
                                              : r.counts[a->root],
                                    a->rdt, "root's own block");
        if (rc != MPI_SUCCESS)
            return ucmpi_xfer_run_without_own(&gatherv_kind, a, rc);
    }
    return ucmpi_xfer_run(ucmpi_xfer_rooted_select(&gatherv_kind, a), a,
                          a->mode, a->req);
}

static void gatherv_record(const ucmpi_coll_args_t *u,
                           ucmpi_coll_check_args_t *r)
{
    *r = (ucmpi_coll_check_args_t){
        .rooted = 1, .root = u->root,
        .send = {.who = UCMPI_CCK_NONROOT, .to_root = 1, .count = u->scount,
                 .dt = u->sdt},
        .recv = {.who = UCMPI_CCK_ROOT, .vec = 1, .counts = u->rcounts,
                 .ccounts = u->rcounts_c, .dt = u->rdt}};
}

static const ucmpi_coll_desc_t gatherv_desc = {
    .record = gatherv_record, .start = gatherv_start};

UCMPI_XFER_FORMS(Gatherv, gatherv, , gatherv_desc,
                 (UCMPI_XFER_RECVV(int, int), int root, MPI_Comm comm),
                 UCMPI_XFER_RECVV_FILL(), .root = root)
UCMPI_XFER_FORMS(Gatherv, gatherv, _c, gatherv_desc,
                 (UCMPI_XFER_RECVV(MPI_Count, MPI_Aint), int root,
                  MPI_Comm comm),
                 UCMPI_XFER_RECVV_FILL(_c), .root = root)
