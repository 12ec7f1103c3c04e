/* MPI_Alltoall, MPI_Alltoallv and MPI_Alltoallw, all forms. */
#include "coll/coll_drv.h"
#include "coll/coll_tune.h"
#include "coll/alltoall/alltoall.h"
#include "coll/shm/shm.h"
#include "coll/coll_hier.h"

enum { A2A_SCATTERED, A2A_PAIRWISE, A2A_BRUCK, A2A_SHM, A2A_HIER };

static const ucmpi_coll_alg_t ucmpi_alltoall_algs[] = {
    {A2A_SCATTERED, "scattered",
     "all peers at once in windows of ALLTOALL_WINDOW steps",
     ucmpi_alltoall_scattered},
    {A2A_PAIRWISE, "pairwise", "one send/recv partner pair per round",
     ucmpi_alltoall_pairwise},
    {A2A_BRUCK, "bruck", "ceil(log2 n) rounds of packed blocks",
     ucmpi_alltoall_bruck},
    /* no builder: the start runs it (ucmpi_xfer_shm; blocking, one node) */
    {A2A_SHM, "shm", UCMPI_COLL_SHM_DESC, NULL},
    {A2A_HIER, "hierarchical",
     "node-aware, small blocks: leaders gather, swap one message per node "
     "pair, deliver", ucmpi_alltoall_hier},
    {0, NULL, NULL, NULL}
};

static const ucmpi_coll_alg_t ucmpi_alltoallv_algs[] = {
    {A2A_SCATTERED, "scattered",
     "all peers at once in windows of ALLTOALL_WINDOW steps",
     ucmpi_alltoall_scattered},
    {A2A_PAIRWISE, "pairwise", "one send/recv partner pair per round",
     ucmpi_alltoall_pairwise},
    {0, NULL, NULL, NULL}
};

static const ucmpi_coll_alg_t *a2a_select(const ucmpi_coll_args_t *a)
{
    const ucmpi_coll_alg_t *f = ucmpi_coll_alg_forced(ucmpi_alltoall_algs,
                                                  "ALLTOALL_ALGORITHM");
    size_t bs = (size_t)(a->rcount * a->rdt->size);

    if (a->comm->is_inter)
        return &ucmpi_alltoall_algs[A2A_SCATTERED];
    if (f && f->build)
        return f;
    if ((f = ucmpi_coll_tuned(ucmpi_alltoall_algs, "ALLTOALL_ALGORITHM",
                              a->size, bs)) != NULL)
        return f;
    if (bs <= ucmpi_thr(UCMPI_THR_ALLTOALL_HIER_MAX_BLOCK) &&
        ucmpi_hier_useful(a->comm))
        return &ucmpi_alltoall_algs[A2A_HIER];
    if (a->size >= ucmpi_thr_n(UCMPI_THR_ALLTOALL_BRUCK_MIN_RANKS) &&
        bs <= ucmpi_thr(UCMPI_THR_ALLTOALL_BRUCK_MAX_BLOCK))
        return &ucmpi_alltoall_algs[A2A_BRUCK];
    if (bs >= ucmpi_thr(UCMPI_THR_ALLTOALL_PAIRWISE_MIN_BLOCK))
        return &ucmpi_alltoall_algs[A2A_PAIRWISE];
    return &ucmpi_alltoall_algs[A2A_SCATTERED];
}

/* alltoallv/w: scattered unless forced, since counts differ per rank and no
 * other choice is consistent without communication. */
static const ucmpi_coll_alg_t *a2av_select(const ucmpi_coll_args_t *a)
{
    const ucmpi_coll_alg_t *f = ucmpi_coll_alg_forced(ucmpi_alltoallv_algs,
                                                  "ALLTOALLV_ALGORITHM");

    if (a->comm->is_inter || f == NULL)
        return &ucmpi_alltoallv_algs[A2A_SCATTERED];
    return f;
}

/* A failed rank takes the others' shm numbers or runs their schedule
 * poisoned, so they report MPI_ERR_TRUNCATE instead of waiting. */
static int a2a_skip(int rc, ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *comm = a->comm;
    int shm = a->mode == UCMPI_COLL_BLOCKING;
    size_t nbytes;

    if (a->rbuf == MPI_IN_PLACE || !ucmpi_xfer_buf_ok(a->rcount, a->rdt))
        return ucmpi_xfer_lost(comm, rc, shm ? UCMPI_SHM_ALLTOALL : -1,
                               a->mode, a->req);
    nbytes = (size_t)(a->rcount * a->rdt->size) * (size_t)comm->size;
    if (shm && ucmpi_xfer_failed_shm(comm, UCMPI_SHM_ALLTOALL, nbytes,
                                     a->rcount, ucmpi_coll_shm_alltoall_skip))
        return rc;
    /* count 0: the others with count 0 run the empty schedule */
    if (nbytes == 0 && !comm->is_inter)
        return ucmpi_coll_run_empty(comm, a->mode, a->req,
                                    rc);
    /* its sends are empty: the receive buffer stands in for the send side */
    a->sbuf = a->rbuf;
    a->scount = a->rcount;
    a->sdt = a->rdt;
    return ucmpi_xfer_run_failed(a2a_select(a), a, rc, 1);
}

static int alltoall_start(ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *comm = a->comm;
    int n = comm->remote_size, in_place = a->sbuf == MPI_IN_PLACE;
    int rc = ucmpi_xfer_check_inplace(comm, a->sbuf, a->rbuf);

    if (rc == MPI_SUCCESS && !in_place)
        rc = ucmpi_xfer_check_buf(comm, a->scount, a->sdt, "send");
    if (rc == MPI_SUCCESS)
        rc = ucmpi_xfer_check_buf(comm, a->rcount, a->rdt, "receive");
    if (rc == MPI_SUCCESS && !in_place)
        rc = ucmpi_coll_check_alias1(comm, a->sbuf, a->scount * n, a->sdt,
                                     a->rbuf, a->rcount * n, a->rdt,
                                     ucmpi_call_name());
    /* the others went ahead: keep the shm numbers in step (else the next
     * call reads another's size records: errors/coll/alltoalllength) */
    if (rc == MPI_SUCCESS && !comm->is_inter && !in_place)
        rc = ucmpi_xfer_check_match(comm, a->scount, a->sdt, a->rcount,
                                    a->rdt, "own block");
    if (rc != MPI_SUCCESS)
        return a2a_skip(rc, a);
    /* a rank's buffer holds its n blocks */
    if (a->mode == UCMPI_COLL_BLOCKING &&
        (rc = ucmpi_xfer_shm(a, UCMPI_SHM_ALLTOALL,
                             (size_t)(a->rcount * a->rdt->size) *
                                 (size_t)comm->size,
                             ucmpi_coll_shm_alltoall)) != UCMPI_SHM_FALLBACK)
        return rc;
    if (in_place) {
        a->scount = a->rcount;
        a->sdt = a->rdt;
    }
    if (a->rcount * a->rdt->size == 0 && !comm->is_inter)   /* count-0 rule */
        return ucmpi_coll_run_empty(comm, a->mode, a->req,
                                    MPI_SUCCESS);
    return ucmpi_xfer_run(a2a_select(a), a, a->mode, a->req);
}

static const ucmpi_coll_desc_t alltoall_desc = {
    .record = ucmpi_xfer_record_uniform, .start = alltoall_start};

UCMPI_XFER_PAIR(Alltoall, alltoall, alltoall_desc, alltoall_desc,
                UCMPI_XFER_UNIFORM, UCMPI_XFER_UNIFORM_FILL, (MPI_Comm comm))

/* ---- alltoallv / alltoallw (sdts/rdts non-NULL: w, byte displs) ---- */

/* The same for alltoallv/w (r: the receive side, standing in for the
 * send side); with no usable receive side, an abort. */
static int a2av_skip(int rc, ucmpi_coll_args_t *a,
                     const ucmpi_coll_side_t *r)
{
    int n = a->comm->remote_size;

    if (a->rbuf == MPI_IN_PLACE ||
        ucmpi_xfer_check_blocks(NULL, r, NULL) != MPI_SUCCESS)
        return ucmpi_coll_skip_abort(a->comm, rc, a->mode, a->req);
    if (a->rdt == MPI_DATATYPE_NULL)
        a->rdt = MPI_BYTE;
    a->sbuf = a->rbuf;
    a->sdt = a->rdt;
    a->scounts = a->rcounts;
    a->sdispls = a->rdispls;
    a->sdts = a->rdts;
    a->scounts_c = a->rcounts_c;
    a->sdispls_c = a->rdispls_c;
    a->nsblk = a->nrblk = n;
    return ucmpi_xfer_run_failed(a2av_select(a), a, rc, 1);
}

/* alltoallv and alltoallw (sdts/rdts non-NULL: byte displacements) */
static int alltoallvw_start(ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *comm = a->comm;
    int n = comm->remote_size, me = comm->rank;
    int in_place = a->sbuf == MPI_IN_PLACE;
    ucmpi_coll_side_t s = {.buf = a->sbuf, .n = n, .dt = a->sdt,
                           .counts = a->scounts, .ccounts = a->scounts_c,
                           .displs = a->sdispls, .adispls = a->sdispls_c,
                           .dts = a->rdts ? a->sdts : NULL};
    ucmpi_coll_side_t r = {.buf = a->rbuf, .n = n, .dt = a->rdt,
                           .counts = a->rcounts, .ccounts = a->rcounts_c,
                           .displs = a->rdispls, .adispls = a->rdispls_c,
                           .dts = a->rdts};
    int rc = ucmpi_xfer_check_inplace(comm, a->sbuf, a->rbuf);

    if (rc == MPI_SUCCESS && !in_place)
        rc = ucmpi_xfer_check_blocks(comm, &s, "send");
    if (rc == MPI_SUCCESS)
        rc = ucmpi_xfer_check_blocks(comm, &r, "receive");
    if (rc == MPI_SUCCESS && !in_place)
        rc = ucmpi_coll_check_alias(comm, &s, &r, ucmpi_call_name());
    if (rc != MPI_SUCCESS)
        return a2av_skip(rc, a, &r);
    a->nsblk = a->nrblk = n;
    if (in_place)             /* the send arrays are ignored */
        ucmpi_xfer_drop_side(a, 1);
    if (a->sdt == MPI_DATATYPE_NULL)
        a->sdt = MPI_BYTE;
    if (a->rdt == MPI_DATATYPE_NULL)
        a->rdt = MPI_BYTE;
    if (!comm->is_inter && !in_place) {
        rc = ucmpi_xfer_check_match(comm, s.ccounts ? s.ccounts[me]
                                                    : s.counts[me],
                                    a->sdts ? a->sdts[me] : s.dt,
                                    r.ccounts ? r.ccounts[me] : r.counts[me],
                                    r.dts ? r.dts[me] : r.dt, "own block");
        if (rc != MPI_SUCCESS)
            return a2av_skip(rc, a, &r);
    }
    return ucmpi_xfer_run(a2av_select(a), a, a->mode, a->req);
}

static void alltoallvw_record(const ucmpi_coll_args_t *u,
                              ucmpi_coll_check_args_t *r)
{
    *r = (ucmpi_coll_check_args_t){
        .send = {.vec = 1, .counts = u->scounts, .ccounts = u->scounts_c,
                 .dt = u->sdt, .dts = u->sdts},
        .recv = {.vec = 1, .counts = u->rcounts, .ccounts = u->rcounts_c,
                 .dt = u->rdt, .dts = u->rdts}};
    if (u->sbuf == MPI_IN_PLACE)     /* it sends what it receives */
        r->send = r->recv;
}

static const ucmpi_coll_desc_t alltoallvw_desc = {
    .record = alltoallvw_record, .start = alltoallvw_start};

UCMPI_XFER_PAIR(Alltoallv, alltoallv, alltoallvw_desc, alltoallvw_desc,
                UCMPI_XFER_V, UCMPI_XFER_V_FILL, (MPI_Comm comm))
UCMPI_XFER_PAIR(Alltoallw, alltoallw, alltoallvw_desc, alltoallvw_desc,
                UCMPI_XFER_W, UCMPI_XFER_W_FILL, (MPI_Comm comm))
