/*
 * MPI_Gather and MPI_Gatherv in their blocking, nonblocking and persistent
 * forms, on intra- and intercommunicators: argument checks, algorithm
 * selection, then the shared schedule tail (coll/xfer.c).
 */
#include "coll/coll_drv.h"
#include "coll/coll_tune.h"
#include "coll/gather/gather.h"
#include "coll/gather/vtree.h"

#include <string.h>

enum { GATHER_LINEAR, GATHER_BINOMIAL };

const ucmpi_xfer_alg_t ucmpi_gather_algs[] = {
    {GATHER_LINEAR, "linear", "root receives from every rank in one round",
     ucmpi_gather_linear},
    {GATHER_BINOMIAL, "binomial",
     "binomial tree, subtrees forward packed blocks", ucmpi_gather_binomial},
    {0, NULL, NULL, NULL}
};


static const ucmpi_xfer_alg_t *gather_select(const ucmpi_coll_args_t *a)
{
    const ucmpi_xfer_alg_t *f = ucmpi_xfer_forced(ucmpi_gather_algs,
                                                  "GATHER_ALGORITHM");
    size_t bs = ucmpi_xfer_is_root(a->comm, a->root)
                    ? (size_t)(a->rcount * a->rdt->size)
                    : (size_t)(a->scount * a->sdt->size);

    if (a->comm->is_inter)
        return &ucmpi_gather_algs[GATHER_LINEAR];
    if (f)
        return f;
    /* block bytes agree on all ranks (type signatures match) */
    return a->size >= ucmpi_thr_n(UCMPI_THR_GATHER_TREE_MIN_RANKS) &&
                   bs * (size_t)a->size < ucmpi_thr(UCMPI_THR_GATHER_TREE_MAX_TOTAL)
               ? &ucmpi_gather_algs[GATHER_BINOMIAL]
               : &ucmpi_gather_algs[GATHER_LINEAR];
}

/* Checks shared by gather and gatherv; the receive side is checked by the
 * caller (uniform or v). */
static int gather_check_send(ucmpi_comm_t *c, const void *sbuf,
                             MPI_Count scount, MPI_Datatype sdt, void *rbuf,
                             int root, const char *fn)
{
    int is_root = ucmpi_xfer_is_root(c, root);
    int rc = ucmpi_xfer_check_root(c, root, fn);

    if (rc != MPI_SUCCESS)
        return rc;
    if (rbuf == MPI_IN_PLACE && is_root)
        return ucmpi_err_comm(c, MPI_ERR_BUFFER, fn, "recvbuf is "
                              "MPI_IN_PLACE (only sendbuf may be, at the root)");
    if (sbuf == MPI_IN_PLACE && (!is_root || c->is_inter))
        return ucmpi_err_comm(c, MPI_ERR_BUFFER, fn, "sendbuf is "
                              "MPI_IN_PLACE on a %s", c->is_inter
                              ? "intercommunicator" : "rank that is not root");
    if (c->is_inter && root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (c->is_inter && is_root)
        return MPI_SUCCESS;   /* root group: send arguments ignored */
    if (sbuf != MPI_IN_PLACE)
        return ucmpi_xfer_check_buf(c, sbuf, scount, sdt, "send", fn);
    return MPI_SUCCESS;
}

static const ucmpi_xfer_alg_t *gatherv_select(const ucmpi_coll_args_t *a);

/* The root's own block mismatches (error err): the others' blocks still
 * come, under the algorithm select picks, and then the root reports. */
static int run_without_own(const ucmpi_xfer_alg_t *(*select)(
                               const ucmpi_coll_args_t *),
                           ucmpi_coll_args_t *a, int mode,
                           MPI_Request *req, const char *fn, int err)
{
    a->sbuf = MPI_IN_PLACE;
    a->sdt = MPI_BYTE;
    a->scount = 0;
    return ucmpi_xfer_run_anyway(select(a), a, mode, req, fn, err);
}

/* ---- a root whose arguments failed a check ---- */

/* Block bytes of a valid (count, type); -1 when either is bad. */
static long long block_bytes(MPI_Count count, MPI_Datatype dt)
{
    const char *why;

    if (count < 0 || ucmpi_dt_check(dt, 1, &why) != MPI_SUCCESS)
        return -1;
    return (long long)(count * dt->size);
}

/* The algorithm the others run when this root's own arguments do not
 * give the block size (bs < 0: an MPI_IN_PLACE root with a bad count or
 * type): the forced one, or linear below the tree's size threshold, where
 * bs does not matter; NULL when it cannot be known. */
static const ucmpi_xfer_alg_t *gather_select_unknown(ucmpi_coll_args_t *a,
                                                     long long bs)
{
    const ucmpi_xfer_alg_t *f;

    if (bs >= 0 || a->comm->is_inter)
        return gather_select(a);
    f = ucmpi_xfer_forced(ucmpi_gather_algs, "GATHER_ALGORITHM");
    if (f != NULL)
        return f;
    return a->size < ucmpi_thr_n(UCMPI_THR_GATHER_TREE_MIN_RANKS)
               ? &ucmpi_gather_algs[GATHER_LINEAR] : NULL;
}

/* Zero-byte receives of what the others send this root under alg: UCX
 * truncates (and, for a rendezvous, acknowledges) whatever comes, so the
 * senders return.  One round: a truncation ends a schedule after it. */
static int drain_build(ucmpi_sched_t *s, const ucmpi_coll_args_t *a,
                       const ucmpi_xfer_alg_t *alg, long long bs)
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
static ucmpi_sched_t *gather_nonroot_build(ucmpi_comm_t *c, int root, int v,
                                           long long bs, int *rc)
{
    ucmpi_coll_args_t a = {.comm = c, .rank = c->rank, .size = c->size,
                           .root = root, .sdt = MPI_BYTE, .rdt = MPI_BYTE,
                           .scount = bs > 0 ? bs : 1};
    const ucmpi_xfer_alg_t *alg;
    ucmpi_sched_t *s;
    void *z;

    if (c->is_inter || root < 0 || root >= c->size)
        return NULL;
    alg = v ? gatherv_select(&a) : gather_select_unknown(&a, bs);
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
static int gather_failed(ucmpi_comm_t *c, int err, int root, int v,
                         long long bs, int mode,
                         MPI_Request *req, const char *fn)
{
    ucmpi_coll_args_t a = {.comm = c, .rank = c->rank, .size = c->size,
                           .root = root, .sbuf = MPI_IN_PLACE,
                           .sdt = MPI_BYTE, .rdt = MPI_BYTE,
                           .rcount = bs > 0 ? bs : 0};
    const ucmpi_xfer_alg_t *alg;
    ucmpi_sched_t *s;
    int rc;

    /* count 0: the others with count 0 run the empty schedule */
    if (bs == 0 && !v && !c->is_inter && c->size > 1 && root >= 0 &&
        root < c->size)
        return ucmpi_coll_run_empty_rooted(c, root, (int)mode, req, err);
    if (mode != UCMPI_COLL_BLOCKING && req != NULL)
        *req = MPI_REQUEST_NULL;
    /* (a root rank is a valid root) */
    if (!ucmpi_xfer_is_root(c, root)) {
        s = gather_nonroot_build(c, root, v, bs, &rc);
        if (s == NULL && !c->is_inter && root >= 0 && root < c->size)
            return ucmpi_coll_skip_abort(c, err, (int)mode, req);   /* algorithm unknown */
        if (s == NULL)
            return ucmpi_coll_skip(c, err, -1, 0, 0);
        if (mode == UCMPI_COLL_PERSISTENT)
            return ucmpi_coll_persist_failed(s, rc, req, err);
        ucmpi_coll_release(s, rc);
        return err;
    }
    alg = v ? gatherv_select(&a) : gather_select_unknown(&a, bs);
    if (alg == NULL && !c->is_inter)
        return ucmpi_coll_skip_abort(c, err, (int)mode, req);   /* senders may be held */
    if (alg == NULL || (s = ucmpi_sched_create(c)) == NULL)
        return ucmpi_coll_skip(c, err, -1, 0, 0);
    ucmpi_xfer_sign(s, alg, &a);
    rc = drain_build(s, &a, alg, bs);
    if (mode == UCMPI_COLL_PERSISTENT)
        return ucmpi_coll_persist_failed(s, rc, req, err);
    ucmpi_coll_release(s, rc);
    return err;
}

/* The count-0 rule (coll_util.h): the block is 0 bytes (at the root its
 * receive block, elsewhere the send block; a): the rank runs the empty
 * schedule, a star around the root, instead of an algorithm chosen for
 * blocks of 0 bytes (the others may choose another for theirs). */
static int gather_empty(const ucmpi_comm_t *c, const ucmpi_coll_args_t *a)
{
    return !c->is_inter && c->size > 1 &&
           (a->root == c->rank ? a->rcount * a->rdt->size
                               : a->scount * a->sdt->size) == 0;
}

static int gather_start(ucmpi_coll_args_t *in)
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
    ucmpi_coll_args_t a = {0};
    int rc = MPI_SUCCESS;
    long long bs;

    if (rc == MPI_SUCCESS)
        rc = gather_check_send(comm, sbuf, scount, sdt, rbuf, root, fn);
    if (rc == MPI_SUCCESS && ucmpi_xfer_is_root(comm, root)) {
        rc = ucmpi_xfer_check_buf(comm, rbuf, rcount, rdt, "receive", fn);
        /* the root's block and the n blocks it receives */
        if (rc == MPI_SUCCESS && !comm->is_inter && sbuf != MPI_IN_PLACE)
            rc = ucmpi_coll_check_alias1(comm, sbuf, scount, sdt, rbuf,
                                         rcount * comm->size, rdt, fn);
    }
    if (rc != MPI_SUCCESS) {
        /* the others' block size: the root's receive or its own block
         * (a non-root's receive arguments mean nothing) */
        int is_root = ucmpi_xfer_is_root(comm, root);
        bs = is_root ? block_bytes(rcount, rdt) : -1;
        if (bs < 0 && (sbuf != MPI_IN_PLACE || !is_root) && !comm->is_inter)
            bs = block_bytes(scount, sdt);
        return gather_failed(comm, rc, root, 0, bs, mode, req, fn);
    }
    a = (ucmpi_coll_args_t){.comm = comm, .rank = comm->rank,
                            .size = comm->size, .root = root, .sbuf = sbuf,
                            .scount = scount, .sdt = sdt, .rbuf = rbuf,
                            .rcount = rcount, .rdt = rdt};
    if (!ucmpi_xfer_is_root(comm, root)) {
        a.rdt = MPI_BYTE;     /* ignored at non-roots: keep sizes sane */
        a.rcount = 0;
    }
    if (sbuf == MPI_IN_PLACE || (comm->is_inter && root == MPI_ROOT) ||
        root == MPI_PROC_NULL) {
        a.sdt = MPI_BYTE;
        a.scount = 0;
    }
    if (!comm->is_inter && root == comm->rank && sbuf != MPI_IN_PLACE) {
        rc = ucmpi_xfer_check_match(comm, scount, sdt, rcount, rdt,
                                    "root's own block", fn);
        if (rc != MPI_SUCCESS && gather_empty(comm, &a))
            return ucmpi_coll_run_empty_rooted(comm, root, (int)mode, req, rc);
        if (rc != MPI_SUCCESS)
            return run_without_own(gather_select, &a, mode, req, fn, rc);
    }
    if (gather_empty(comm, &a))
        return ucmpi_coll_run_empty_rooted(comm, root, (int)mode, req,
                                           MPI_SUCCESS);
    return ucmpi_xfer_run(gather_select(&a), &a, mode, req, fn);
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

#pragma weak MPI_Gather = PMPI_Gather
int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .root = root,
                           .comm = comm};
    return ucmpi_coll_call(&gather_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Gather");
}

#pragma weak MPI_Igather = PMPI_Igather
int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .root = root,
                           .comm = comm};
    return ucmpi_coll_call(&gather_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Igather");
}

#pragma weak MPI_Gather_init = PMPI_Gather_init
int PMPI_Gather_init(const void *sendbuf, int sendcount,
                     MPI_Datatype sendtype, void *recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .root = root,
                           .comm = comm};
    return ucmpi_coll_call(&gather_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Gather_init");
}

/* ---- gatherv ---- */

enum { GATHERV_LINEAR, GATHERV_BINOMIAL };

static const ucmpi_xfer_alg_t gatherv_algs[] = {
    {GATHERV_LINEAR, "linear", "root receives from every rank in one round",
     ucmpi_gather_linear},
    {GATHERV_BINOMIAL, "binomial",
     "binomial tree; subtree counts travel up first", ucmpi_gatherv_binomial},
    {0, NULL, NULL, NULL}
};


static const ucmpi_xfer_alg_t *gatherv_select(const ucmpi_coll_args_t *a)
{
    const ucmpi_xfer_alg_t *f = ucmpi_xfer_forced(gatherv_algs,
                                                  "GATHERV_ALGORITHM");

    if (a->comm->is_inter)
        return &gatherv_algs[GATHERV_LINEAR];
    if (f)
        return f;
    return a->size >= ucmpi_thr_n(UCMPI_THR_GATHERV_TREE_MIN_RANKS)
               ? &gatherv_algs[GATHERV_BINOMIAL]
               : &gatherv_algs[GATHERV_LINEAR];
}

/* rcounts_c/displs_c: the _c forms' arrays (then rcounts/displs NULL) */
static int gatherv_start(ucmpi_coll_args_t *in)
{
    const char *fn = ucmpi_call_name();
    ucmpi_comm_t *comm = in->comm;
    const void *sbuf = in->sbuf;
    MPI_Count scount = in->scount;
    MPI_Datatype sdt = in->sdt;
    void *rbuf = in->rbuf;
    const int *rcounts = in->rcounts;
    const int *displs = in->rdispls;
    const MPI_Count *rcounts_c = in->rcounts_c;
    const MPI_Aint *displs_c = in->rdispls_c;
    MPI_Datatype rdt = in->rdt;
    int root = in->root;
    int mode = in->mode;
    MPI_Request *req = in->req;
    ucmpi_coll_args_t a;
    int rc = MPI_SUCCESS;

    if (rc == MPI_SUCCESS)
        rc = gather_check_send(comm, sbuf, scount, sdt, rbuf, root, fn);
    if (rc == MPI_SUCCESS && ucmpi_xfer_is_root(comm, root))
        rc = rcounts_c ? ucmpi_xfer_check_counts_c(comm, comm->remote_size,
                                                   rcounts_c, displs_c, rdt,
                                                   NULL, "receive", fn)
                       : ucmpi_xfer_check_counts(comm, comm->remote_size,
                                                 rcounts, displs, rdt,
                                                 "receive", fn);
    if (rc == MPI_SUCCESS && !comm->is_inter && comm->rank == root &&
        sbuf != MPI_IN_PLACE) {
        ucmpi_coll_side_t s = {.buf = sbuf, .n = 1, .count = scount,
                               .dt = sdt};
        ucmpi_coll_side_t r = {.buf = rbuf, .n = comm->size, .dt = rdt,
                               .counts = rcounts, .ccounts = rcounts_c,
                               .displs = displs, .adispls = displs_c};
        rc = ucmpi_coll_check_alias(comm, &s, &r, fn);
    }
    if (rc != MPI_SUCCESS)
        return gather_failed(comm, rc, root, 1, -1, mode, req, fn);
    a = (ucmpi_coll_args_t){.comm = comm, .rank = comm->rank,
                            .size = comm->size, .root = root, .sbuf = sbuf,
                            .scount = scount, .sdt = sdt, .rbuf = rbuf,
                            .rcount = 0, .rdt = MPI_BYTE};
    if (ucmpi_xfer_is_root(comm, root)) {
        a.rcounts = rcounts;
        a.rdispls = displs;
        a.rcounts_c = rcounts_c;
        a.rdispls_c = displs_c;
        a.rdt = rdt;
        a.nrblk = comm->remote_size;
    }
    if (sbuf == MPI_IN_PLACE || (comm->is_inter && root == MPI_ROOT) ||
        root == MPI_PROC_NULL) {
        a.sdt = MPI_BYTE;
        a.scount = 0;
    }
    if (!comm->is_inter && root == comm->rank && sbuf != MPI_IN_PLACE) {
        rc = ucmpi_xfer_check_match(comm, scount, sdt,
                                    rcounts_c ? rcounts_c[root]
                                              : rcounts[root],
                                    rdt, "root's own block", fn);
        if (rc != MPI_SUCCESS)
            return run_without_own(gatherv_select, &a, mode, req, fn, rc);
    }
    return ucmpi_xfer_run(gatherv_select(&a), &a, mode, req, fn);
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

#pragma weak MPI_Gatherv = PMPI_Gatherv
int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, const int recvcounts[], const int displs[],
                 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts = recvcounts, .rdispls = displs,
                           .rdt = recvtype, .root = root, .comm = comm};
    return ucmpi_coll_call(&gatherv_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Gatherv");
}

#pragma weak MPI_Igatherv = PMPI_Igatherv
int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, const int recvcounts[], const int displs[],
                  MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts = recvcounts, .rdispls = displs,
                           .rdt = recvtype, .root = root, .comm = comm};
    return ucmpi_coll_call(&gatherv_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Igatherv");
}

#pragma weak MPI_Gatherv_init = PMPI_Gatherv_init
int PMPI_Gatherv_init(const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[],
                      MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts = recvcounts, .rdispls = displs,
                           .rdt = recvtype, .root = root, .comm = comm};
    return ucmpi_coll_call(&gatherv_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Gatherv_init");
}

/* ---- large-count (MPI-4) forms ---- */

#pragma weak MPI_Gather_c = PMPI_Gather_c
int PMPI_Gather_c(const void *sendbuf, MPI_Count sendcount,
                  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .root = root,
                           .comm = comm};
    return ucmpi_coll_call(&gather_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Gather_c");
}

#pragma weak MPI_Igather_c = PMPI_Igather_c
int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount,
                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm,
                   MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .root = root,
                           .comm = comm};
    return ucmpi_coll_call(&gather_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Igather_c");
}

#pragma weak MPI_Gather_init_c = PMPI_Gather_init_c
int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount,
                       MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .root = root,
                           .comm = comm};
    return ucmpi_coll_call(&gather_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Gather_init_c");
}

#pragma weak MPI_Gatherv_c = PMPI_Gatherv_c
int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount,
                   MPI_Datatype sendtype, void *recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[],
                   MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts_c = recvcounts, .rdispls_c = displs,
                           .rdt = recvtype, .root = root, .comm = comm};
    return ucmpi_coll_call(&gatherv_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Gatherv_c");
}

#pragma weak MPI_Igatherv_c = PMPI_Igatherv_c
int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount,
                    MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[],
                    MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts_c = recvcounts, .rdispls_c = displs,
                           .rdt = recvtype, .root = root, .comm = comm};
    return ucmpi_coll_call(&gatherv_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Igatherv_c");
}

#pragma weak MPI_Gatherv_init_c = PMPI_Gatherv_init_c
int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf,
                        const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, int root, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts_c = recvcounts, .rdispls_c = displs,
                           .rdt = recvtype, .root = root, .comm = comm};
    return ucmpi_coll_call(&gatherv_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Gatherv_init_c");
}
