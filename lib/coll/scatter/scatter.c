/*
 * MPI_Scatter and MPI_Scatterv in their blocking, nonblocking and
 * persistent forms, on intra- and intercommunicators.
 */
#include "coll/coll_drv.h"
#include "coll/coll_tune.h"
#include "coll/gather/gather.h"

enum { SCATTER_LINEAR, SCATTER_BINOMIAL };

static const ucmpi_coll_alg_t ucmpi_scatter_algs[] = {
    {SCATTER_LINEAR, "linear", "root sends to every rank in one round",
     ucmpi_scatter_linear},
    {SCATTER_BINOMIAL, "binomial",
     "binomial tree, each subtree gets its packed blocks in one message",
     ucmpi_scatter_binomial},
    {0, NULL, NULL, NULL}
};

static const ucmpi_coll_alg_t scatterv_algs[] = {
    {SCATTER_LINEAR, "linear", "root sends to every rank in one round",
     ucmpi_scatter_linear},
    {SCATTER_BINOMIAL, "binomial",
     "binomial tree; subtree counts travel with the data",
     ucmpi_scatterv_binomial},
    {0, NULL, NULL, NULL}
};

static const ucmpi_xfer_rooted_t scatter_kind = {
    ucmpi_scatter_algs, "SCATTER_ALGORITHM",
    UCMPI_THR_SCATTER_TREE_MIN_RANKS, UCMPI_THR_SCATTER_TREE_MAX_TOTAL, 0};
static const ucmpi_xfer_rooted_t scatterv_kind = {
    scatterv_algs, "SCATTERV_ALGORITHM", UCMPI_THR_SCATTERV_TREE_MIN_RANKS,
    -1, 0};

/* ---- a rank whose arguments failed a check ---- */

static bool dt_ok(MPI_Datatype dt)
{
    return ucmpi_xfer_buf_ok(0, dt);
}

/* The root's send side: fine (its blocks can still go) or not. */
static bool send_ok(const void *sbuf, MPI_Count scount, MPI_Datatype sdt)
{
    return sbuf != MPI_IN_PLACE && scount >= 0 && dt_ok(sdt) &&
           !(sbuf == NULL && scount > 0 && sdt->predefined && sdt->size > 0);
}

static bool sendv_ok(int n, const void *sbuf, const int *counts,
                     const int *displs, const MPI_Count *counts_c,
                     const MPI_Aint *displs_c, MPI_Datatype sdt)
{
    if (sbuf == MPI_IN_PLACE || !dt_ok(sdt) ||
        (counts_c ? counts_c == NULL || displs_c == NULL
                  : counts == NULL || displs == NULL))
        return n == 0 && sbuf != MPI_IN_PLACE;
    for (int i = 0; i < n; i++)
        if ((counts_c ? counts_c[i] : counts[i]) < 0)
            return false;
    return true;
}

/* A non-root whose arguments failed a check: it runs the others'
 * algorithm (alg; NULL: not known), its own block one byte of scratch
 * that takes whatever comes (its real size may be unknown), poisoned, so
 * that the root's send to it returns and the ranks below it in a tree get
 * empty messages (an error) instead of waiting.  A send built non-empty
 * goes empty, never as a loss token a 1-byte receive could take for
 * data. */
static int nonroot_failed(ucmpi_comm_t *c, int err, int root,
                          const ucmpi_coll_alg_t *alg, int mode,
                          MPI_Request *req)
{
    ucmpi_coll_args_t a = {.comm = c, .rank = c->rank, .size = c->size,
                           .root = root, .sdt = MPI_BYTE, .rdt = MPI_BYTE,
                           .rcount = 1};
    ucmpi_sched_t *s;
    int rc;

    if (alg == NULL && !c->is_inter && root >= 0 && root < c->size)
        return ucmpi_coll_skip_abort(c, err, mode, req);   /* unknown */
    if (alg == NULL || c->is_inter || root < 0 || root >= c->size ||
        (s = ucmpi_sched_create(c)) == NULL)
        return ucmpi_coll_skip(c, err, -1, 0, 0);
    ucmpi_xfer_sign(s, alg, &a);
    a.rbuf = ucmpi_sched_alloc(s, 1);
    rc = a.rbuf == NULL ? MPI_ERR_NO_MEM : alg->build(s, &a);
    ucmpi_sched_poison(s);
    if (mode == UCMPI_COLL_PERSISTENT)
        return ucmpi_coll_persist_failed(s, rc, req, err);
    ucmpi_coll_release(s, rc);
    return err;
}

/* The argument error err on this rank.  A root whose send side is fine
 * still sends the others their blocks (a is ready but for its own
 * receive, dropped); one that cannot sends them empty messages instead,
 * which their exact receives turn into an error (alg: the algorithm the
 * others run).  The persistent form hands back a request that does so on
 * each start.  Other ranks keep their collective numbers in step. */
static int scatter_failed(int err, ucmpi_coll_args_t *a, bool can_send,
                          const ucmpi_coll_alg_t *alg)
{
    ucmpi_comm_t *c = a->comm;
    int mode = a->mode;
    MPI_Request *req = a->req;
    ucmpi_sched_t *s;
    int rc;

    if (mode != UCMPI_COLL_BLOCKING && req != NULL)
        *req = MPI_REQUEST_NULL;
    if (!ucmpi_xfer_is_root(c, a->root))
        return nonroot_failed(c, err, a->root, alg, mode, req);
    a->rbuf = MPI_IN_PLACE;
    a->rdt = MPI_BYTE;
    a->rcount = 0;
    if (can_send)
        return ucmpi_xfer_run_anyway(alg, a, mode, req, err);
    if ((s = ucmpi_sched_create(c)) == NULL)
        return ucmpi_coll_skip(c, err, -1, 0, 0);
    ucmpi_xfer_sign(s, alg, a);
    if (a->scounts != NULL || a->scounts_c != NULL) {
        /* scatterv with bad counts only: the valid blocks go (read from
         * sbuf: blocking, or at each start), the others are empty */
        rc = ucmpi_xfer_prepare(s, a);
        for (int i = 0; rc == MPI_SUCCESS && i < a->nsblk; i++)
            if (a->sblk[i].count < 0)
                a->sblk[i].count = 0;
        a->scounts = NULL;
        a->scounts_c = NULL;
        if (rc == MPI_SUCCESS)
            rc = alg->build(s, a);
        if (mode == UCMPI_COLL_PERSISTENT)
            return ucmpi_coll_persist_failed(s, rc, req, err);
        (void)ucmpi_coll_run(c, s, rc, UCMPI_COLL_BLOCKING, NULL);
        return err;
    }
    /* no data: the blocks' size (a->scount bytes) only shapes the tree;
     * nothing is read or sent but empty messages (ucmpi_sched_poison) */
    a->sbuf = NULL;
    a->sdt = MPI_BYTE;
    a->sblk = ucmpi_xblk_uniform(s, c->remote_size, NULL, 0, MPI_BYTE);
    rc = a->sblk == NULL ? MPI_ERR_NO_MEM : alg->build(s, a);
    ucmpi_sched_poison(s);
    if (mode == UCMPI_COLL_PERSISTENT)
        return ucmpi_coll_persist_failed(s, rc, req, err);
    ucmpi_coll_release(s, rc);
    return err;
}

/* The algorithm the others run when this root cannot send (bs: the block
 * bytes its own receive side gives, -1 if it gives none): its selection
 * when bs is known, else the forced one, else linear, which is right
 * below the tree's size threshold (at and above it, with the others in
 * the tree, linear's empty messages to the ranks that are not the root's
 * children stay unmatched). */
static const ucmpi_coll_alg_t *select_nodata(ucmpi_coll_args_t *a,
                                             long long bs)
{
    const ucmpi_coll_alg_t *f = ucmpi_coll_alg_forced(ucmpi_scatter_algs,
                                                  "SCATTER_ALGORITHM");

    if (bs >= 0) {
        a->scount = bs;       /* bytes (sdt is MPI_BYTE) */
        return ucmpi_xfer_rooted_select(&scatter_kind, a);
    }
    if (f != NULL && !a->comm->is_inter) {
        a->scount = 1;        /* any non-empty block: the tree's shape */
        return f;
    }
    return &ucmpi_scatter_algs[SCATTER_LINEAR];
}

/* The count-0 rule (coll_util.h): the block is 0 bytes (at the root its
 * send block, elsewhere the receive block; a): the rank runs the empty
 * schedule (a zero rank hears from its parent in any algorithm, and a
 * zero root's first message reaches its first child). */
static int scatter_empty(const ucmpi_coll_args_t *a)
{
    const ucmpi_comm_t *c = a->comm;

    return !c->is_inter && c->size > 1 &&
           (a->root == c->rank ? a->scount * a->sdt->size
                               : a->rcount * a->rdt->size) == 0;
}

/* An intracomm non-root whose arguments failed (err): the others' block
 * size is its own receive block's, when valid. */
static int nonroot_error(const ucmpi_xfer_rooted_t *k, int err,
                         const ucmpi_coll_args_t *in)
{
    ucmpi_comm_t *c = in->comm;
    int root = in->root;
    long long bs = k == &scatter_kind && in->rcount >= 0 && dt_ok(in->rdt)
                       ? (long long)(in->rcount * in->rdt->size) : -1;
    ucmpi_coll_args_t a = {.comm = c, .rank = c->rank, .size = c->size,
                           .root = root, .rdt = MPI_BYTE, .sdt = MPI_BYTE,
                           .rcount = bs, .mode = in->mode, .req = in->req};
    const ucmpi_coll_alg_t *alg;

    if (bs == 0 && c->size > 1 && root >= 0 && root < c->size)
        return ucmpi_coll_run_empty(c, in->mode, in->req,
                                    err);
    alg = bs >= 0 || k == &scatterv_kind ? ucmpi_xfer_rooted_select(k, &a)
                                         : ucmpi_xfer_rooted_guess(k, &a);
    return scatter_failed(err, &a, false, alg);
}

/* The receive side of a rank that receives nothing: in place, an
 * intercomm root group, or a MPI_PROC_NULL rank. */
static void no_recv(ucmpi_coll_args_t *a)
{
    if (a->rbuf == MPI_IN_PLACE || (a->comm->is_inter && a->root == MPI_ROOT) ||
        a->root == MPI_PROC_NULL) {
        a->rdt = MPI_BYTE;
        a->rcount = 0;
    }
}

static int scatter_start(ucmpi_coll_args_t *in)
{
    ucmpi_comm_t *comm = in->comm;
    int is_root = ucmpi_xfer_is_root(comm, in->root);
    int own = !comm->is_inter && is_root && in->rbuf != MPI_IN_PLACE;
    int rc = ucmpi_xfer_check_rooted(in, 0);

    if (rc == MPI_SUCCESS && is_root)
        rc = ucmpi_xfer_check_buf(comm, in->scount, in->sdt, "send");
    /* the n blocks the root sends and its own block */
    if (rc == MPI_SUCCESS && own)
        rc = ucmpi_coll_check_alias1(comm, in->sbuf, in->scount * comm->size,
                                     in->sdt, in->rbuf, in->rcount, in->rdt,
                                     ucmpi_call_name());
    if (rc != MPI_SUCCESS && !comm->is_inter && !is_root)
        return nonroot_error(&scatter_kind, rc, in);
    if (rc != MPI_SUCCESS) {
        bool ok = send_ok(in->sbuf, in->scount, in->sdt);
        long long bs = -1;
        ucmpi_coll_args_t a = {.comm = comm, .rank = comm->rank,
                               .size = comm->size, .root = in->root,
                               .sbuf = in->sbuf, .scount = ok ? in->scount : 0,
                               .sdt = ok ? in->sdt : MPI_BYTE,
                               .rdt = MPI_BYTE, .mode = in->mode,
                               .req = in->req};

        if (!ok && !comm->is_inter && in->rbuf != MPI_IN_PLACE &&
            in->rcount >= 0 && dt_ok(in->rdt))
            bs = (long long)(in->rcount * in->rdt->size);
        /* a root with no data to send (its send side failed, or 0
         * bytes) has 0 bytes for the others: the count-0 rule */
        if ((ok ? scatter_empty(&a) : !comm->is_inter && comm->size > 1) &&
            is_root)
            return ucmpi_coll_run_empty(comm, in->mode, in->req, rc);
        return scatter_failed(rc, &a, ok,
                              ok ? ucmpi_xfer_rooted_select(&scatter_kind, &a)
                                 : select_nodata(&a, bs));
    }
    if (!is_root) {
        in->scount = 0;
        in->sdt = MPI_BYTE;
    }
    no_recv(in);
    if (own) {
        rc = ucmpi_xfer_check_match(comm, in->scount, in->sdt, in->rcount,
                                    in->rdt, "root's own block");
        if (rc != MPI_SUCCESS && scatter_empty(in))
            return ucmpi_coll_run_empty(comm, in->mode, in->req, rc);
        if (rc != MPI_SUCCESS)
            return ucmpi_xfer_run_without_own(&scatter_kind, in, rc);
    }
    if (scatter_empty(in))
        return ucmpi_coll_run_empty(comm, in->mode, in->req, MPI_SUCCESS);
    return ucmpi_xfer_run(ucmpi_xfer_rooted_select(&scatter_kind, in), in,
                          in->mode, in->req);
}

static void scatter_record(const ucmpi_coll_args_t *u,
                           ucmpi_coll_check_args_t *r)
{
    *r = (ucmpi_coll_check_args_t){
        .rooted = 1, .root = u->root,
        .send = {.who = UCMPI_CCK_ROOT, .count = u->scount, .dt = u->sdt},
        .recv = {.who = UCMPI_CCK_NONROOT, .to_root = 1, .count = u->rcount,
                 .dt = u->rdt}};
}

static const ucmpi_coll_desc_t scatter_desc = {
    .record = scatter_record, .start = scatter_start};

UCMPI_XFER_FORMS(Scatter, scatter, , scatter_desc,
                 (UCMPI_XFER_UNIFORM(int), int root, MPI_Comm comm),
                 UCMPI_XFER_UNIFORM_FILL, .root = root)
UCMPI_XFER_FORMS(Scatter, scatter, _c, scatter_desc,
                 (UCMPI_XFER_UNIFORM(MPI_Count), int root, MPI_Comm comm),
                 UCMPI_XFER_UNIFORM_FILL, .root = root)

/* ---- scatterv ---- */

static int scatterv_start(ucmpi_coll_args_t *in)
{
    ucmpi_comm_t *comm = in->comm;
    int is_root = ucmpi_xfer_is_root(comm, in->root);
    int own = !comm->is_inter && is_root && in->rbuf != MPI_IN_PLACE;
    ucmpi_coll_side_t s = {.buf = in->sbuf, .n = comm->remote_size,
                           .dt = in->sdt, .counts = in->scounts,
                           .ccounts = in->scounts_c, .displs = in->sdispls,
                           .adispls = in->sdispls_c};
    ucmpi_coll_side_t r = {.buf = in->rbuf, .n = 1, .count = in->rcount,
                           .dt = in->rdt};
    int rc = ucmpi_xfer_check_rooted(in, 0);

    if (rc == MPI_SUCCESS && is_root)
        rc = ucmpi_xfer_check_blocks(comm, &s, "send");
    if (rc == MPI_SUCCESS && own)
        rc = ucmpi_coll_check_alias(comm, &s, &r, ucmpi_call_name());
    if (rc != MPI_SUCCESS && !comm->is_inter && !is_root)
        return nonroot_error(&scatterv_kind, rc, in);
    if (rc != MPI_SUCCESS) {
        bool ok = sendv_ok(s.n, s.buf, s.counts, s.displs, s.ccounts,
                           s.adispls, s.dt);
        /* only some counts are negative: the other blocks can go */
        bool some = !ok && s.buf != MPI_IN_PLACE && dt_ok(s.dt) &&
                    (s.ccounts ? s.adispls != NULL : s.counts && s.displs);
        ucmpi_coll_args_t a = {.comm = comm, .rank = comm->rank,
                               .size = comm->size, .root = in->root,
                               .sbuf = in->sbuf,
                               .sdt = ok || some ? in->sdt : MPI_BYTE,
                               .rdt = MPI_BYTE, .mode = in->mode,
                               .req = in->req};

        if (ok || some) {
            a.scounts = s.counts;
            a.sdispls = s.displs;
            a.scounts_c = s.ccounts;
            a.sdispls_c = s.adispls;
            a.nsblk = s.n;
        }
        return scatter_failed(rc, &a, ok,
                              ucmpi_xfer_rooted_select(&scatterv_kind, &a));
    }
    if (is_root) {
        in->nsblk = comm->remote_size;
    } else {                  /* ignored at non-roots */
        in->scounts = NULL;
        in->sdispls = NULL;
        in->scounts_c = NULL;
        in->sdispls_c = NULL;
        in->sdt = MPI_BYTE;
    }
    no_recv(in);
    if (own) {
        rc = ucmpi_xfer_check_match(comm, s.ccounts ? s.ccounts[in->root]
                                                    : s.counts[in->root],
                                    in->sdt, in->rcount, in->rdt,
                                    "root's own block");
        if (rc != MPI_SUCCESS)
            return ucmpi_xfer_run_without_own(&scatterv_kind, in, rc);
    }
    return ucmpi_xfer_run(ucmpi_xfer_rooted_select(&scatterv_kind, in), in,
                          in->mode, in->req);
}

static void scatterv_record(const ucmpi_coll_args_t *u,
                            ucmpi_coll_check_args_t *r)
{
    *r = (ucmpi_coll_check_args_t){
        .rooted = 1, .root = u->root,
        .send = {.who = UCMPI_CCK_ROOT, .vec = 1, .counts = u->scounts,
                 .ccounts = u->scounts_c, .dt = u->sdt},
        .recv = {.who = UCMPI_CCK_NONROOT, .to_root = 1, .count = u->rcount,
                 .dt = u->rdt}};
}

static const ucmpi_coll_desc_t scatterv_desc = {
    .record = scatterv_record, .start = scatterv_start};

/* scatterv's parameters (count type ct, displacement type at) */
#define SCATTERV(ct, at)                                                     \
    (const void *sendbuf, const ct sendcounts[], const at displs[],          \
     MPI_Datatype sendtype, void *recvbuf, ct recvcount,                     \
     MPI_Datatype recvtype, int root, MPI_Comm comm)
#define SCATTERV_FILL(sfx)                                                   \
    .sbuf = sendbuf, .scounts##sfx = sendcounts, .sdispls##sfx = displs,     \
    .sdt = sendtype, .rbuf = recvbuf, .rcount = recvcount, .rdt = recvtype,  \
    .root = root, .comm = comm

UCMPI_XFER_FORMS(Scatterv, scatterv, , scatterv_desc, SCATTERV(int, int),
                 SCATTERV_FILL())
UCMPI_XFER_FORMS(Scatterv, scatterv, _c, scatterv_desc,
                 SCATTERV(MPI_Count, MPI_Aint), SCATTERV_FILL(_c))
