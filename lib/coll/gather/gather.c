/* MPI_Gather(v), all forms: algorithm tables and the path of a rank whose
 * arguments failed; the start is ucmpi_xfer_rooted_start (xfer_check.c). */
#include "coll/coll_drv.h"
#include "coll/coll_tune.h"
#include "coll/gather/gather.h"

enum { GATHER_LINEAR, GATHER_BINOMIAL };

static const ucmpi_coll_alg_t gather_algs[] = {
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

/* Block bytes of a valid (count, type); -1 when either is bad. */
static long long block_bytes(MPI_Count count, MPI_Datatype dt)
{
    return ucmpi_xfer_buf_ok(count, dt) ? (long long)(count * dt->size) : -1;
}

/* Zero-byte receives: UCX truncates (and acknowledges) what comes, so the
 * senders return; one round, as a truncation ends the schedule. */
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

/* A failed root still drains the others' blocks (in the background, or per
 * start of a persistent request); bs: their block bytes, -1 unknown. */
static int gather_failed(const ucmpi_xfer_rooted_t *k, int err,
                         ucmpi_coll_args_t *in)
{
    ucmpi_comm_t *c = in->comm;
    int root = in->root, mode = in->mode;
    int is_root = ucmpi_xfer_is_root(c, root);
    int intra_root = !c->is_inter && root >= 0 && root < c->size;
    MPI_Request *req = in->req;
    long long bs = is_root && !k->v ? block_bytes(in->rcount, in->rdt) : -1;
    const ucmpi_coll_alg_t *alg;
    ucmpi_sched_t *s;

    if (bs < 0 && !k->v && (in->sbuf != MPI_IN_PLACE || !is_root) &&
        !c->is_inter)
        bs = block_bytes(in->scount, in->sdt);
    /* count 0: the others with count 0 run the empty schedule */
    if (bs == 0 && !k->v && c->size > 1 && intra_root)
        return ucmpi_coll_run_empty_rooted(c, root, mode, req, err);
    if (!is_root)
        return ucmpi_xfer_rooted_nonroot(k, c, root, bs, mode, req, err);
    if (mode != UCMPI_COLL_BLOCKING && req != NULL)
        *req = MPI_REQUEST_NULL;
    ucmpi_coll_args_t a = {.comm = c, .rank = c->rank, .size = c->size,
                           .root = root, .sbuf = MPI_IN_PLACE,
                           .sdt = MPI_BYTE, .rdt = MPI_BYTE,
                           .rcount = bs > 0 ? bs : 0};
    alg = ucmpi_xfer_rooted_guess(k, &a, bs);
    if (alg == NULL && !c->is_inter)   /* senders may be held */
        return ucmpi_coll_skip_abort(c, err, mode, req);
    if (alg == NULL || (s = ucmpi_sched_create(c)) == NULL)
        return ucmpi_coll_skip(c, err, -1, 0, 0);
    ucmpi_xfer_sign(s, alg, &a);
    return ucmpi_coll_serve(s, drain_build(s, &a, alg), mode, req, err);
}

static const ucmpi_xfer_rooted_t gather_kind = {
    gather_algs, "GATHER_ALGORITHM", UCMPI_THR_GATHER_TREE_MIN_RANKS,
    UCMPI_THR_GATHER_TREE_MAX_TOTAL, 1, 0, gather_failed};
static const ucmpi_xfer_rooted_t gatherv_kind = {
    gatherv_algs, "GATHERV_ALGORITHM", UCMPI_THR_GATHERV_TREE_MIN_RANKS, -1,
    1, 1, gather_failed};

static int gather_start(ucmpi_coll_args_t *a)
{
    return ucmpi_xfer_rooted_start(&gather_kind, a);
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

UCMPI_XFER_PAIR(Gather, gather, gather_desc, gather_desc, UCMPI_XFER_UNIFORM,
                UCMPI_XFER_UNIFORM_FILL, (int root, MPI_Comm comm),
                .root = root)

/* ---- gatherv ---- */

static int gatherv_start(ucmpi_coll_args_t *a)
{
    return ucmpi_xfer_rooted_start(&gatherv_kind, a);
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

UCMPI_XFER_PAIR(Gatherv, gatherv, gatherv_desc, gatherv_desc, UCMPI_XFER_RECVV,
                UCMPI_XFER_RECVV_FILL, (int root, MPI_Comm comm), .root = root)
