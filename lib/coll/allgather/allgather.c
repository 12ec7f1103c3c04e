/* MPI_Allgather and MPI_Allgatherv, all forms. */
#include "coll/coll_drv.h"
#include "coll/coll_tune.h"
#include "coll/allgather/allgather.h"
#include "coll/shm/shm.h"
#include "coll/coll_hier.h"

enum { AG_RING, AG_BRUCK, AG_RD, AG_LINEAR, AG_SHM, AG_HIER };

#define UCMPI_AG_HIER_DESC \
    "node-aware: blocks packed at node leaders, leaders swap, bcast in node"

static const ucmpi_coll_alg_t ucmpi_allgather_algs[] = {
    {AG_RING, "ring", "n-1 neighbour rounds, bandwidth-optimal",
     ucmpi_allgather_ring},
    {AG_BRUCK, "bruck", "ceil(log2 n) rounds of packed prefixes",
     ucmpi_allgather_bruck},
    {AG_RD, "recursive_doubling",
     "log2 rounds among a power of two, others folded in",
     ucmpi_allgather_recursive_doubling},
    {AG_LINEAR, "linear", "everyone to everyone in one round",
     ucmpi_allgather_linear},
    /* no builder: the start runs it (ucmpi_xfer_shm; blocking, one node) */
    {AG_SHM, "shm", UCMPI_COLL_SHM_DESC, NULL},
    {AG_HIER, "hierarchical", UCMPI_AG_HIER_DESC, ucmpi_allgather_hier},
    {0, NULL, NULL, NULL}
};

/* allgatherv: the same builders minus recursive doubling (uniform only) */
static const ucmpi_coll_alg_t ucmpi_allgatherv_algs[] = {
    {AG_RING, "ring", "n-1 neighbour rounds, bandwidth-optimal",
     ucmpi_allgather_ring},
    {AG_BRUCK, "bruck", "ceil(log2 n) rounds of packed prefixes",
     ucmpi_allgather_bruck},
    {AG_LINEAR, "linear", "everyone to everyone in one round",
     ucmpi_allgather_linear},
    {AG_HIER, "hierarchical", UCMPI_AG_HIER_DESC, ucmpi_allgather_hier},
    {0, NULL, NULL, NULL}
};

static const ucmpi_coll_alg_t *ag_select(const ucmpi_coll_alg_t *table,
                                         const char *knob, size_t total,
                                         const ucmpi_coll_args_t *a)
{
    const ucmpi_coll_alg_t *f = ucmpi_coll_alg_forced(table, knob);
    int n = a->size;

    if (a->comm->is_inter)
        return ucmpi_coll_alg_by_id(table, AG_LINEAR);
    if (f && f->build)
        return f;
    if ((f = ucmpi_coll_tuned(table, knob, n, total)) != NULL)
        return f;
    if (total < ucmpi_thr(UCMPI_THR_ALLGATHER_LOG_MAX_TOTAL) &&
        ucmpi_hier_useful(a->comm))
        return ucmpi_coll_alg_by_id(table, AG_HIER);
    if (total >= ucmpi_thr(UCMPI_THR_ALLGATHER_LOG_MAX_TOTAL) || n <= 2)
        return ucmpi_coll_alg_by_id(table, AG_RING);
    if ((n & (n - 1)) == 0 && table == ucmpi_allgather_algs)
        return ucmpi_coll_alg_by_id(table, AG_RD);
    return ucmpi_coll_alg_by_id(table, AG_BRUCK);
}

/* IN_PLACE and send-side checks shared with allgatherv. */
static int ag_check_send(const ucmpi_coll_args_t *a)
{
    int rc = ucmpi_xfer_check_inplace(a->comm, a->sbuf, a->rbuf);

    if (rc != MPI_SUCCESS || a->sbuf == MPI_IN_PLACE)
        return rc;
    return ucmpi_xfer_check_buf(a->comm, a->scount, a->sdt, "send");
}

/* A failed rank takes the others' shm numbers marked invalid or runs their
 * schedule poisoned, so they report MPI_ERR_TRUNCATE instead of waiting. */
static int ag_failed(int rc, const ucmpi_coll_alg_t *table, const char *knob,
                     ucmpi_coll_args_t *a, size_t total)
{
    ucmpi_comm_t *comm = a->comm;
    int uniform = !a->rcounts && !a->rcounts_c;
    int shm = table == ucmpi_allgather_algs &&
              a->mode == UCMPI_COLL_BLOCKING;

    if (a->rbuf == MPI_IN_PLACE || !ucmpi_xfer_buf_ok(a->rcount, a->rdt))
        return ucmpi_xfer_lost(comm, rc, shm ? UCMPI_SHM_ALLGATHER : -1,
                               a->mode, a->req);
    size_t nbytes = (size_t)(a->rcount * a->rdt->size);
    if (uniform)
        total = nbytes * (size_t)comm->remote_size;
    if (shm && ucmpi_xfer_failed_shm(comm, UCMPI_SHM_ALLGATHER, nbytes,
                                     a->rcount,
                                     ucmpi_coll_shm_allgather_skip))
        return rc;
    /* count 0: the others with count 0 run the empty schedule */
    if (nbytes == 0 && !comm->is_inter && uniform)
        return ucmpi_coll_run_empty(comm, a->mode, a->req,
                                    rc);
    /* its sends are empty: in place (intracomm) or the receive buffer
     * standing in for the send side */
    a->sbuf = comm->is_inter ? a->rbuf : MPI_IN_PLACE;
    a->scount = comm->is_inter && uniform ? a->rcount : 0;
    a->sdt = a->scount ? a->rdt : MPI_BYTE;
    return ucmpi_xfer_run_failed(ag_select(table, knob, total, a), a, rc, 1);
}

static int allgather_start(ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *comm = a->comm;
    const void *sbuf = a->sbuf;
    int rc = ag_check_send(a);

    if (rc == MPI_SUCCESS)
        rc = ucmpi_xfer_check_buf(comm, a->rcount, a->rdt, "receive");
    /* e.g. sendbuf = &recvbuf[rank] (MPI_IN_PLACE is the legal form) */
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = ucmpi_coll_check_alias1(comm, sbuf, a->scount, a->sdt, a->rbuf,
                                     a->rcount * comm->remote_size, a->rdt,
                                     ucmpi_call_name());
    if (rc == MPI_SUCCESS && !comm->is_inter && sbuf != MPI_IN_PLACE)
        rc = ucmpi_xfer_check_match(comm, a->scount, a->sdt, a->rcount,
                                    a->rdt, "own block");
    if (rc != MPI_SUCCESS)    /* the others went ahead */
        return ag_failed(rc, ucmpi_allgather_algs, "ALLGATHER_ALGORITHM", a,
                         0);
    if (a->mode == UCMPI_COLL_BLOCKING &&
        (rc = ucmpi_xfer_shm(a, UCMPI_SHM_ALLGATHER,
                             (size_t)(a->rcount * a->rdt->size),
                             ucmpi_coll_shm_allgather)) != UCMPI_SHM_FALLBACK)
        return rc;
    if (sbuf == MPI_IN_PLACE)
        ucmpi_xfer_drop_side(a, 1);
    if (a->rcount * a->rdt->size == 0 && !comm->is_inter)   /* count-0 rule */
        return ucmpi_coll_run_empty(comm, a->mode, a->req,
                                    MPI_SUCCESS);
    return ucmpi_xfer_run(ag_select(ucmpi_allgather_algs,
                                    "ALLGATHER_ALGORITHM",
                                    (size_t)(a->rcount * a->rdt->size) *
                                        (size_t)comm->remote_size, a),
                          a, a->mode, a->req);
}

static const ucmpi_coll_desc_t allgather_desc = {
    .record = ucmpi_xfer_record_uniform, .start = allgather_start};

UCMPI_XFER_PAIR(Allgather, allgather, allgather_desc, allgather_desc,
                UCMPI_XFER_UNIFORM, UCMPI_XFER_UNIFORM_FILL, (MPI_Comm comm))

/* ---- allgatherv ---- */

static int allgatherv_start(ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *comm = a->comm;
    ucmpi_coll_side_t s = {.buf = a->sbuf, .n = 1, .count = a->scount,
                           .dt = a->sdt};
    ucmpi_coll_side_t r = {.buf = a->rbuf, .n = comm->remote_size,
                           .dt = a->rdt, .counts = a->rcounts,
                           .ccounts = a->rcounts_c, .displs = a->rdispls,
                           .adispls = a->rdispls_c};
    size_t total = 0;
    int rc = ag_check_send(a), recv_ok;

    if (rc == MPI_SUCCESS) {
        rc = ucmpi_xfer_check_blocks(comm, &r, "receive");
        recv_ok = rc == MPI_SUCCESS;
    } else {
        /* a failed send side: the others still wait for this
         * rank's block, so it serves them if it can receive theirs */
        recv_ok = a->rbuf != MPI_IN_PLACE &&
                  ucmpi_xfer_check_blocks(NULL, &r, NULL) == MPI_SUCCESS;
    }
    if (rc == MPI_SUCCESS && a->sbuf != MPI_IN_PLACE)
        rc = ucmpi_coll_check_alias(comm, &s, &r, ucmpi_call_name());
    if (rc != MPI_SUCCESS && !recv_ok)   /* no receive side */
        return ucmpi_coll_skip_abort(comm, rc, a->mode, a->req);
    a->nrblk = comm->remote_size;
    for (int i = 0; i < r.n; i++)
        total += (size_t)(r.ccounts ? r.ccounts[i] : r.counts[i]) *
                 (size_t)a->rdt->size;
    if (rc == MPI_SUCCESS && !comm->is_inter && a->sbuf != MPI_IN_PLACE)
        rc = ucmpi_xfer_check_match(comm, a->scount, a->sdt,
                                    r.ccounts ? r.ccounts[comm->rank]
                                              : r.counts[comm->rank],
                                    a->rdt, "own block");
    if (rc != MPI_SUCCESS)    /* the others went ahead */
        return ag_failed(rc, ucmpi_allgatherv_algs, "ALLGATHERV_ALGORITHM",
                         a, total);
    if (a->sbuf == MPI_IN_PLACE)
        ucmpi_xfer_drop_side(a, 1);
    return ucmpi_xfer_run(ag_select(ucmpi_allgatherv_algs,
                                    "ALLGATHERV_ALGORITHM", total, a),
                          a, a->mode, a->req);
}

static void allgatherv_record(const ucmpi_coll_args_t *u,
                              ucmpi_coll_check_args_t *r)
{
    *r = (ucmpi_coll_check_args_t){
        .send = {.count = u->scount, .dt = u->sdt},
        .recv = {.vec = 1, .counts = u->rcounts, .ccounts = u->rcounts_c,
                 .dt = u->rdt}};
    if (u->sbuf == MPI_IN_PLACE) {   /* each sends its own block */
        r->send = r->recv;
        r->send.self_index = 1;
    }
}

static const ucmpi_coll_desc_t allgatherv_desc = {
    .record = allgatherv_record, .start = allgatherv_start};

UCMPI_XFER_PAIR(Allgatherv, allgatherv, allgatherv_desc, allgatherv_desc,
                UCMPI_XFER_RECVV, UCMPI_XFER_RECVV_FILL, (MPI_Comm comm))
