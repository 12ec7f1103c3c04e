/*
 * MPI_Scatter and MPI_Scatterv in their blocking, nonblocking and
 * persistent forms, on intra- and intercommunicators.
 */
#include "coll/coll_drv.h"
#include "coll/coll_tune.h"
#include "coll/scatter/scatter.h"
#include "coll/gather/vtree.h"

enum { SCATTER_LINEAR, SCATTER_BINOMIAL };

const ucmpi_xfer_alg_t ucmpi_scatter_algs[] = {
    {SCATTER_LINEAR, "linear", "root sends to every rank in one round",
     ucmpi_scatter_linear},
    {SCATTER_BINOMIAL, "binomial",
     "binomial tree, each subtree gets its packed blocks in one message",
     ucmpi_scatter_binomial},
    {0, NULL, NULL, NULL}
};


static const ucmpi_xfer_alg_t *scatter_select(const ucmpi_coll_args_t *a)
{
    const ucmpi_xfer_alg_t *f = ucmpi_xfer_forced(ucmpi_scatter_algs,
                                                  "SCATTER_ALGORITHM");
    size_t bs = ucmpi_xfer_is_root(a->comm, a->root)
                    ? (size_t)(a->scount * a->sdt->size)
                    : (size_t)(a->rcount * a->rdt->size);

    if (a->comm->is_inter)
        return &ucmpi_scatter_algs[SCATTER_LINEAR];
    if (f)
        return f;
    return a->size >= ucmpi_thr_n(UCMPI_THR_SCATTER_TREE_MIN_RANKS) &&
                   bs * (size_t)a->size < ucmpi_thr(UCMPI_THR_SCATTER_TREE_MAX_TOTAL)
               ? &ucmpi_scatter_algs[SCATTER_BINOMIAL]
               : &ucmpi_scatter_algs[SCATTER_LINEAR];
}

/* Checks of the receive side and of IN_PLACE, shared with scatterv. */
static int scatter_check_recv(ucmpi_comm_t *c, const void *sbuf, void *rbuf,
                              MPI_Count rcount, MPI_Datatype rdt, int root,
                              const char *fn)
{
    int is_root = ucmpi_xfer_is_root(c, root);
    int rc = ucmpi_xfer_check_root(c, root, fn);

    if (rc != MPI_SUCCESS)
        return rc;
    if (sbuf == MPI_IN_PLACE && is_root)
        return ucmpi_err_comm(c, MPI_ERR_BUFFER, fn, "sendbuf is "
                              "MPI_IN_PLACE (only recvbuf may be, at the root)");
    if (rbuf == MPI_IN_PLACE && (!is_root || c->is_inter))
        return ucmpi_err_comm(c, MPI_ERR_BUFFER, fn, "recvbuf is "
                              "MPI_IN_PLACE on a %s", c->is_inter
                              ? "intercommunicator" : "rank that is not root");
    if (c->is_inter && (root == MPI_PROC_NULL || is_root))
        return MPI_SUCCESS;
    if (rbuf != MPI_IN_PLACE)
        return ucmpi_xfer_check_buf(c, rbuf, rcount, rdt, "receive", fn);
    return MPI_SUCCESS;
}

static void scatter_args(ucmpi_coll_args_t *a, MPI_Comm comm, int root,
                         const void *sbuf, void *rbuf, MPI_Count rcount,
                         MPI_Datatype rdt)
{
    *a = (ucmpi_coll_args_t){.comm = comm, .rank = comm->rank,
                             .size = comm->size, .root = root, .sbuf = sbuf,
                             .scount = 0, .sdt = MPI_BYTE, .rbuf = rbuf,
                             .rcount = rcount, .rdt = rdt};
    if (rbuf == MPI_IN_PLACE || (comm->is_inter && root == MPI_ROOT) ||
        root == MPI_PROC_NULL) {
        a->rdt = MPI_BYTE;
        a->rcount = 0;
    }
}

static const ucmpi_xfer_alg_t *scatterv_select(const ucmpi_coll_args_t *a);

/* The root's own block mismatches (error err): the others' blocks still
 * go, under the algorithm select picks, and then the root reports. */
static int run_without_own(const ucmpi_xfer_alg_t *(*select)(
                               const ucmpi_coll_args_t *),
                           ucmpi_coll_args_t *a, int mode,
                           MPI_Request *req, const char *fn, int err)
{
    a->rbuf = MPI_IN_PLACE;
    a->rdt = MPI_BYTE;
    a->rcount = 0;
    return ucmpi_xfer_run_anyway(select(a), a, mode, req, fn, err);
}

/* ---- a root whose arguments failed a check ---- */

static bool dt_ok(MPI_Datatype dt)
{
    const char *why;

    return ucmpi_dt_check(dt, 1, &why) == MPI_SUCCESS;
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
static int scatter_nonroot_failed(ucmpi_comm_t *c, int err, int root,
                                  const ucmpi_xfer_alg_t *alg,
                                  int mode, MPI_Request *req)
{
    ucmpi_coll_args_t a = {.comm = c, .rank = c->rank, .size = c->size,
                           .root = root, .sdt = MPI_BYTE, .rdt = MPI_BYTE,
                           .rcount = 1};
    ucmpi_sched_t *s;
    int rc;

    if (alg == NULL && !c->is_inter && root >= 0 && root < c->size)
        return ucmpi_coll_skip_abort(c, err, (int)mode, req);   /* algorithm unknown */
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
static int scatter_failed(ucmpi_comm_t *c, int err, ucmpi_coll_args_t *a,
                          bool can_send, const ucmpi_xfer_alg_t *alg,
                          int mode, MPI_Request *req,
                          const char *fn)
{
    ucmpi_sched_t *s;
    int rc;

    if (mode != UCMPI_COLL_BLOCKING && req != NULL)
        *req = MPI_REQUEST_NULL;
    if (!ucmpi_xfer_is_root(c, a->root))
        return scatter_nonroot_failed(c, err, a->root, alg, mode, req);
    a->rbuf = MPI_IN_PLACE;
    a->rdt = MPI_BYTE;
    a->rcount = 0;
    if (can_send)
        return ucmpi_xfer_run_anyway(alg, a, mode, req, fn, err);
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
    a->scounts = NULL;
    a->scounts_c = NULL;
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
static const ucmpi_xfer_alg_t *scatter_select_nodata(ucmpi_coll_args_t *a,
                                                     long long bs)
{
    const ucmpi_xfer_alg_t *f = ucmpi_xfer_forced(ucmpi_scatter_algs,
                                                  "SCATTER_ALGORITHM");

    if (bs >= 0) {
        a->scount = bs;       /* bytes (sdt is MPI_BYTE) */
        return scatter_select(a);
    }
    if (f != NULL && !a->comm->is_inter) {
        a->scount = 1;        /* any non-empty block: the tree's shape */
        return f;
    }
    return &ucmpi_scatter_algs[SCATTER_LINEAR];
}

/* The algorithm the others run, seen from a non-root whose own block
 * has bs bytes (-1: its count or type is bad): its selection when bs is
 * known, else the forced one, else linear below the tree's size
 * threshold; NULL when it cannot be known. */
static const ucmpi_xfer_alg_t *scatter_select_others(ucmpi_comm_t *c,
                                                     int root, long long bs)
{
    ucmpi_coll_args_t a = {.comm = c, .rank = c->rank, .size = c->size,
                           .root = root, .rdt = MPI_BYTE, .sdt = MPI_BYTE,
                           .rcount = bs};
    const ucmpi_xfer_alg_t *f;

    if (bs >= 0)
        return scatter_select(&a);
    f = ucmpi_xfer_forced(ucmpi_scatter_algs, "SCATTER_ALGORITHM");
    if (f != NULL)
        return f;
    return c->size < ucmpi_thr_n(UCMPI_THR_SCATTER_TREE_MIN_RANKS)
               ? &ucmpi_scatter_algs[SCATTER_LINEAR] : NULL;
}

/* The count-0 rule (coll_util.h): the block is 0 bytes (at the root its
 * send block, elsewhere the receive block; a): the rank runs the empty
 * schedule (a zero rank hears from its parent in any algorithm, and a
 * zero root's first message reaches its first child). */
static int scatter_empty(const ucmpi_comm_t *c, const ucmpi_coll_args_t *a)
{
    return !c->is_inter && c->size > 1 &&
           (a->root == c->rank ? a->scount * a->sdt->size
                               : a->rcount * a->rdt->size) == 0;
}

static int scatter_start(ucmpi_coll_args_t *in)
{
    const char *fn = ucmpi_call_name();
    ucmpi_comm_t *comm = in->comm;
    const void *sbuf = in->sbuf;
    MPI_Count scount = in->scount;
    MPI_Datatype sdt = in->sdt;
    void *rbuf = in->rbuf;
    MPI_Count rcount = in->rcount;
    MPI_Datatype rdt = in->rdt;
    int root = in->root;
    int mode = in->mode;
    MPI_Request *req = in->req;
    ucmpi_coll_args_t a;
    int rc = MPI_SUCCESS;

    if (rc == MPI_SUCCESS)
        rc = scatter_check_recv(comm, sbuf, rbuf, rcount, rdt, root, fn);
    if (rc == MPI_SUCCESS && ucmpi_xfer_is_root(comm, root)) {
        rc = ucmpi_xfer_check_buf(comm, sbuf, scount, sdt, "send", fn);
        /* the n blocks the root sends and its own block */
        if (rc == MPI_SUCCESS && !comm->is_inter && rbuf != MPI_IN_PLACE)
            rc = ucmpi_coll_check_alias1(comm, sbuf, scount * comm->size, sdt,
                                         rbuf, rcount, rdt, fn);
    }
    if (rc != MPI_SUCCESS && !comm->is_inter &&
        !ucmpi_xfer_is_root(comm, root)) {
        long long bs = rcount >= 0 && dt_ok(rdt)
                           ? (long long)(rcount * rdt->size) : -1;
        if (bs == 0 && comm->size > 1 && root >= 0 && root < comm->size)
            return ucmpi_coll_run_empty(comm, (int)mode, req, rc);
        return scatter_nonroot_failed(comm, rc, root,
                                      scatter_select_others(comm, root, bs),
                                      mode, req);
    }
    if (rc != MPI_SUCCESS) {
        bool ok = send_ok(sbuf, scount, sdt);
        long long bs = -1;

        a = (ucmpi_coll_args_t){.comm = comm, .rank = comm->rank,
                                .size = comm->size, .root = root,
                                .sbuf = sbuf, .scount = ok ? scount : 0,
                                .sdt = ok ? sdt : MPI_BYTE,
                                .rdt = MPI_BYTE};
        if (!ok && !comm->is_inter && rbuf != MPI_IN_PLACE && rcount >= 0 &&
            dt_ok(rdt))
            bs = (long long)(rcount * rdt->size);
        /* a root with no data to send (its send side failed, or 0
         * bytes) has 0 bytes for the others: the count-0 rule */
        if ((ok ? scatter_empty(comm, &a)
                : !comm->is_inter && comm->size > 1) &&
            ucmpi_xfer_is_root(comm, root))
            return ucmpi_coll_run_empty(comm, (int)mode, req, rc);
        return scatter_failed(comm, rc, &a, ok, ok ? scatter_select(&a)
                                  : scatter_select_nodata(&a, bs),
                              mode, req, fn);
    }
    scatter_args(&a, comm, root, sbuf, rbuf, rcount, rdt);
    if (ucmpi_xfer_is_root(comm, root)) {
        a.scount = scount;
        a.sdt = sdt;
    }
    if (!comm->is_inter && root == comm->rank && rbuf != MPI_IN_PLACE) {
        rc = ucmpi_xfer_check_match(comm, scount, sdt, rcount, rdt,
                                    "root's own block", fn);
        if (rc != MPI_SUCCESS && scatter_empty(comm, &a))
            return ucmpi_coll_run_empty(comm, (int)mode, req, rc);
        if (rc != MPI_SUCCESS)
            return run_without_own(scatter_select, &a, mode, req, fn, rc);
    }
    if (scatter_empty(comm, &a))
        return ucmpi_coll_run_empty(comm, (int)mode, req, MPI_SUCCESS);
    return ucmpi_xfer_run(scatter_select(&a), &a, mode, req, fn);
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

#pragma weak MPI_Scatter = PMPI_Scatter
int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .root = root,
                           .comm = comm};
    return ucmpi_coll_call(&scatter_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Scatter");
}

#pragma weak MPI_Iscatter = PMPI_Iscatter
int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .root = root,
                           .comm = comm};
    return ucmpi_coll_call(&scatter_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Iscatter");
}

#pragma weak MPI_Scatter_init = PMPI_Scatter_init
int PMPI_Scatter_init(const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .root = root,
                           .comm = comm};
    return ucmpi_coll_call(&scatter_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Scatter_init");
}

/* ---- scatterv ---- */

enum { SCATTERV_LINEAR, SCATTERV_BINOMIAL };

static const ucmpi_xfer_alg_t scatterv_algs[] = {
    {SCATTERV_LINEAR, "linear", "root sends to every rank in one round",
     ucmpi_scatter_linear},
    {SCATTERV_BINOMIAL, "binomial",
     "binomial tree; subtree counts travel with the data",
     ucmpi_scatterv_binomial},
    {0, NULL, NULL, NULL}
};


static const ucmpi_xfer_alg_t *scatterv_select(const ucmpi_coll_args_t *a)
{
    const ucmpi_xfer_alg_t *f = ucmpi_xfer_forced(scatterv_algs,
                                                  "SCATTERV_ALGORITHM");

    if (a->comm->is_inter)
        return &scatterv_algs[SCATTERV_LINEAR];
    if (f)
        return f;
    return a->size >= ucmpi_thr_n(UCMPI_THR_SCATTERV_TREE_MIN_RANKS)
               ? &scatterv_algs[SCATTERV_BINOMIAL]
               : &scatterv_algs[SCATTERV_LINEAR];
}

/* scounts_c/displs_c: the _c forms' arrays (then scounts/displs NULL) */
static int scatterv_start(ucmpi_coll_args_t *in)
{
    const char *fn = ucmpi_call_name();
    ucmpi_comm_t *comm = in->comm;
    const void *sbuf = in->sbuf;
    const int *scounts = in->scounts;
    const int *displs = in->sdispls;
    const MPI_Count *scounts_c = in->scounts_c;
    const MPI_Aint *displs_c = in->sdispls_c;
    MPI_Datatype sdt = in->sdt;
    void *rbuf = in->rbuf;
    MPI_Count rcount = in->rcount;
    MPI_Datatype rdt = in->rdt;
    int root = in->root;
    int mode = in->mode;
    MPI_Request *req = in->req;
    ucmpi_coll_args_t a;
    int rc = MPI_SUCCESS;

    if (rc == MPI_SUCCESS)
        rc = scatter_check_recv(comm, sbuf, rbuf, rcount, rdt, root, fn);
    if (rc == MPI_SUCCESS && ucmpi_xfer_is_root(comm, root))
        rc = scounts_c ? ucmpi_xfer_check_counts_c(comm, comm->remote_size,
                                                   scounts_c, displs_c, sdt,
                                                   NULL, "send", fn)
                       : ucmpi_xfer_check_counts(comm, comm->remote_size,
                                                 scounts, displs, sdt, "send",
                                                 fn);
    if (rc == MPI_SUCCESS && !comm->is_inter && comm->rank == root &&
        rbuf != MPI_IN_PLACE) {
        ucmpi_coll_side_t s = {.buf = sbuf, .n = comm->size, .dt = sdt,
                               .counts = scounts, .ccounts = scounts_c,
                               .displs = displs, .adispls = displs_c};
        ucmpi_coll_side_t r = {.buf = rbuf, .n = 1, .count = rcount,
                               .dt = rdt};
        rc = ucmpi_coll_check_alias(comm, &s, &r, fn);
    }
    if (rc != MPI_SUCCESS) {
        bool ok = sendv_ok(comm->remote_size, sbuf, scounts, displs,
                           scounts_c, displs_c, sdt);
        /* only some counts are negative: the other blocks can go */
        bool some = !ok && sbuf != MPI_IN_PLACE && dt_ok(sdt) &&
                    (scounts_c ? displs_c != NULL : scounts && displs);

        a = (ucmpi_coll_args_t){.comm = comm, .rank = comm->rank,
                                .size = comm->size, .root = root,
                                .sbuf = sbuf, .sdt = ok || some ? sdt
                                                               : MPI_BYTE,
                                .rdt = MPI_BYTE};
        if (ok || some) {
            a.scounts = scounts;
            a.sdispls = displs;
            a.scounts_c = scounts_c;
            a.sdispls_c = displs_c;
            a.nsblk = comm->remote_size;
        }
        return scatter_failed(comm, rc, &a, ok, scatterv_select(&a), mode,
                              req, fn);
    }
    scatter_args(&a, comm, root, sbuf, rbuf, rcount, rdt);
    if (ucmpi_xfer_is_root(comm, root)) {
        a.scounts = scounts;
        a.sdispls = displs;
        a.scounts_c = scounts_c;
        a.sdispls_c = displs_c;
        a.sdt = sdt;
        a.nsblk = comm->remote_size;
    }
    if (!comm->is_inter && root == comm->rank && rbuf != MPI_IN_PLACE) {
        rc = ucmpi_xfer_check_match(comm, scounts_c ? scounts_c[root]
                                    : scounts[root], sdt, rcount, rdt,
                                    "root's own block", fn);
        if (rc != MPI_SUCCESS)
            return run_without_own(scatterv_select, &a, mode, req, fn, rc);
    }
    return ucmpi_xfer_run(scatterv_select(&a), &a, mode, req, fn);
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

#pragma weak MPI_Scatterv = PMPI_Scatterv
int PMPI_Scatterv(const void *sendbuf, const int sendcounts[],
                  const int displs[], MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root,
                  MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scounts = sendcounts,
                           .sdispls = displs, .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .root = root,
                           .comm = comm};
    return ucmpi_coll_call(&scatterv_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Scatterv");
}

#pragma weak MPI_Iscatterv = PMPI_Iscatterv
int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[],
                   const int displs[], MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root,
                   MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scounts = sendcounts,
                           .sdispls = displs, .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .root = root,
                           .comm = comm};
    return ucmpi_coll_call(&scatterv_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Iscatterv");
}

#pragma weak MPI_Scatterv_init = PMPI_Scatterv_init
int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[],
                       const int displs[], MPI_Datatype sendtype,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scounts = sendcounts,
                           .sdispls = displs, .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .root = root,
                           .comm = comm};
    return ucmpi_coll_call(&scatterv_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Scatterv_init");
}

/* ---- large-count (MPI-4) forms ---- */

#pragma weak MPI_Scatter_c = PMPI_Scatter_c
int PMPI_Scatter_c(const void *sendbuf, MPI_Count sendcount,
                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .root = root,
                           .comm = comm};
    return ucmpi_coll_call(&scatter_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Scatter_c");
}

#pragma weak MPI_Iscatter_c = PMPI_Iscatter_c
int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount,
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .root = root,
                           .comm = comm};
    return ucmpi_coll_call(&scatter_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Iscatter_c");
}

#pragma weak MPI_Scatter_init_c = PMPI_Scatter_init_c
int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .root = root,
                           .comm = comm};
    return ucmpi_coll_call(&scatter_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Scatter_init_c");
}

#pragma weak MPI_Scatterv_c = PMPI_Scatterv_c
int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[],
                    const MPI_Aint displs[], MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scounts_c = sendcounts,
                           .sdispls_c = displs, .sdt = sendtype,
                           .rbuf = recvbuf, .rcount = recvcount,
                           .rdt = recvtype, .root = root, .comm = comm};
    return ucmpi_coll_call(&scatterv_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Scatterv_c");
}

#pragma weak MPI_Iscatterv_c = PMPI_Iscatterv_c
int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[],
                     const MPI_Aint displs[], MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scounts_c = sendcounts,
                           .sdispls_c = displs, .sdt = sendtype,
                           .rbuf = recvbuf, .rcount = recvcount,
                           .rdt = recvtype, .root = root, .comm = comm};
    return ucmpi_coll_call(&scatterv_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Iscatterv_c");
}

#pragma weak MPI_Scatterv_init_c = PMPI_Scatterv_init_c
int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                         const MPI_Aint displs[], MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scounts_c = sendcounts,
                           .sdispls_c = displs, .sdt = sendtype,
                           .rbuf = recvbuf, .rcount = recvcount,
                           .rdt = recvtype, .root = root, .comm = comm};
    return ucmpi_coll_call(&scatterv_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Scatterv_init_c");
}
