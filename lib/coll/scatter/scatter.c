/* MPI_Scatter(v), all forms: algorithm tables and the path of a rank
 * whose arguments failed; the start is ucmpi_xfer_rooted_start. */
#include "coll/coll_drv.h"
#include "coll/coll_tune.h"
#include "coll/gather/gather.h"

enum { SCATTER_LINEAR, SCATTER_BINOMIAL };

static const ucmpi_coll_alg_t scatter_algs[] = {
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

/* A failed root still sends the others' blocks if it can, else empty
 * messages their exact receives fail on (alg: the others'). */
static int root_failed(int err, ucmpi_coll_args_t *a, bool can_send,
                       const ucmpi_coll_alg_t *alg)
{
    ucmpi_comm_t *c = a->comm;
    int mode = a->mode;
    MPI_Request *req = a->req;
    ucmpi_sched_t *s;
    int rc;

    if (can_send)
        return ucmpi_xfer_run_failed(alg, a, err, 0);
    if (mode != UCMPI_COLL_BLOCKING && req != NULL)
        *req = MPI_REQUEST_NULL;
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
    return ucmpi_coll_serve(s, rc, mode, req, err);
}

/* The others' algorithm for a root that cannot send: by bs (-1: none), else
 * forced, else linear (above the tree's threshold empties stay unmatched). */
static const ucmpi_coll_alg_t *select_nodata(const ucmpi_xfer_rooted_t *k,
                                             ucmpi_coll_args_t *a,
                                             long long bs)
{
    const ucmpi_coll_alg_t *f = ucmpi_coll_alg_forced(k->algs, k->knob);

    if (bs >= 0) {
        a->scount = bs;       /* bytes (sdt is MPI_BYTE) */
        return ucmpi_xfer_rooted_select(k, a);
    }
    if (f != NULL && !a->comm->is_inter) {
        a->scount = 1;        /* any non-empty block: the tree's shape */
        return f;
    }
    return &k->algs[SCATTER_LINEAR];
}

/* A failed non-root runs the others' algorithm poisoned (its own receive
 * block's size when valid); a root sends what it can. */
static int scatter_failed(const ucmpi_xfer_rooted_t *k, int err,
                          ucmpi_coll_args_t *in)
{
    ucmpi_comm_t *comm = in->comm;
    ucmpi_coll_args_t a = {.comm = comm, .rank = comm->rank,
                           .size = comm->size, .root = in->root,
                           .sbuf = in->sbuf, .sdt = MPI_BYTE,
                           .rbuf = MPI_IN_PLACE, .rdt = MPI_BYTE,
                           .mode = in->mode, .req = in->req};
    long long bs = -1;
    bool ok, some;

    if (!ucmpi_xfer_is_root(comm, in->root)) {
        if (!k->v && !comm->is_inter && in->rcount >= 0 && dt_ok(in->rdt))
            bs = (long long)(in->rcount * in->rdt->size);
        if (bs == 0 && comm->size > 1 && in->root >= 0 &&
            in->root < comm->size)
            return ucmpi_coll_run_empty(comm, in->mode, in->req, err);
        return ucmpi_xfer_rooted_nonroot(k, comm, in->root, bs, in->mode,
                                         in->req, err);
    }
    if (!k->v) {
        if ((ok = send_ok(in->sbuf, in->scount, in->sdt))) {
            a.scount = in->scount;
            a.sdt = in->sdt;
        } else if (!comm->is_inter && in->rbuf != MPI_IN_PLACE &&
                   in->rcount >= 0 && dt_ok(in->rdt)) {
            bs = (long long)(in->rcount * in->rdt->size);
        }
        /* a root with no data to send (its send side failed, or 0
         * bytes) has 0 bytes for the others: the count-0 rule */
        if (ok ? ucmpi_xfer_rooted_empty(&a, 0)
               : !comm->is_inter && comm->size > 1)
            return ucmpi_coll_run_empty(comm, in->mode, in->req, err);
        return root_failed(err, &a, ok, ok ? ucmpi_xfer_rooted_select(k, &a)
                                           : select_nodata(k, &a, bs));
    }
    ok = sendv_ok(comm->remote_size, in->sbuf, in->scounts, in->sdispls,
                  in->scounts_c, in->sdispls_c, in->sdt);
    /* only some counts are negative: the other blocks can go */
    some = !ok && in->sbuf != MPI_IN_PLACE && dt_ok(in->sdt) &&
           (in->scounts_c ? in->sdispls_c != NULL
                          : in->scounts && in->sdispls);
    if (ok || some) {
        a.sdt = in->sdt;
        a.scounts = in->scounts;
        a.sdispls = in->sdispls;
        a.scounts_c = in->scounts_c;
        a.sdispls_c = in->sdispls_c;
        a.nsblk = comm->remote_size;
    }
    return root_failed(err, &a, ok, ucmpi_xfer_rooted_select(k, &a));
}

static const ucmpi_xfer_rooted_t scatter_kind = {
    scatter_algs, "SCATTER_ALGORITHM", UCMPI_THR_SCATTER_TREE_MIN_RANKS,
    UCMPI_THR_SCATTER_TREE_MAX_TOTAL, 0, 0, scatter_failed};
static const ucmpi_xfer_rooted_t scatterv_kind = {
    scatterv_algs, "SCATTERV_ALGORITHM", UCMPI_THR_SCATTERV_TREE_MIN_RANKS,
    -1, 0, 1, scatter_failed};

static int scatter_start(ucmpi_coll_args_t *a)
{
    return ucmpi_xfer_rooted_start(&scatter_kind, a);
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

UCMPI_XFER_PAIR(Scatter, scatter, scatter_desc, scatter_desc,
                UCMPI_XFER_UNIFORM, UCMPI_XFER_UNIFORM_FILL,
                (int root, MPI_Comm comm), .root = root)

/* ---- scatterv ---- */

static int scatterv_start(ucmpi_coll_args_t *a)
{
    return ucmpi_xfer_rooted_start(&scatterv_kind, a);
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

/* scatterv's buffer parameters (count type ct, displacement type at) */
#define SCATTERV(ct, at)                                                     \
    const void *sendbuf, const ct sendcounts[], const at displs[],           \
        MPI_Datatype sendtype, void *recvbuf, ct recvcount,                  \
        MPI_Datatype recvtype
#define SCATTERV_FILL(sfx)                                                   \
    .sbuf = sendbuf, .scounts##sfx = sendcounts, .sdispls##sfx = displs,     \
    .sdt = sendtype, .rbuf = recvbuf, .rcount = recvcount, .rdt = recvtype,  \
    .comm = comm

UCMPI_XFER_PAIR(Scatterv, scatterv, scatterv_desc, scatterv_desc, SCATTERV,
                SCATTERV_FILL, (int root, MPI_Comm comm), .root = root)
