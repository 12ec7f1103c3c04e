/*
 * MPI_Allgather and MPI_Allgatherv in their blocking, nonblocking and
 * persistent forms, on intra- and intercommunicators.
 */
#include "coll/coll_drv.h"
#include "coll/coll_tune.h"
#include "coll/allgather/allgather.h"
#include "coll/shm/shm.h"

enum { AG_RING, AG_BRUCK, AG_RD, AG_LINEAR, AG_SHM };

const ucmpi_xfer_alg_t ucmpi_allgather_algs[] = {
    {AG_RING, "ring", "n-1 neighbour rounds, bandwidth-optimal",
     ucmpi_allgather_ring},
    {AG_BRUCK, "bruck", "ceil(log2 n) rounds of packed prefixes",
     ucmpi_allgather_bruck},
    {AG_RD, "recursive_doubling",
     "log2 rounds among a power of two, others folded in",
     ucmpi_allgather_recursive_doubling},
    {AG_LINEAR, "linear", "everyone to everyone in one round",
     ucmpi_allgather_linear},
    /* no builder: allgather_common takes it (blocking, on one node) */
    {AG_SHM, "shm", "on-node shared segment: flags and buffers, no "
     "messages (blocking, small)", NULL},
    {0, NULL, NULL, NULL}
};

/* allgatherv: the same builders minus recursive doubling (uniform only) */
const ucmpi_xfer_alg_t ucmpi_allgatherv_algs[] = {
    {AG_RING, "ring", "n-1 neighbour rounds, bandwidth-optimal",
     ucmpi_allgather_ring},
    {AG_BRUCK, "bruck", "ceil(log2 n) rounds of packed prefixes",
     ucmpi_allgather_bruck},
    {AG_LINEAR, "linear", "everyone to everyone in one round",
     ucmpi_allgather_linear},
    {0, NULL, NULL, NULL}
};


static const ucmpi_xfer_alg_t *ag_select(const ucmpi_xfer_alg_t *table,
                                         const char *knob, size_t total,
                                         const ucmpi_coll_args_t *a)
{
    const ucmpi_xfer_alg_t *f = ucmpi_xfer_forced(table, knob);
    int n = a->size;

    if (a->comm->is_inter)
        return ucmpi_xfer_by_id(table, AG_LINEAR);
    if (f && f->build)
        return f;
    if (total >= ucmpi_thr(UCMPI_THR_ALLGATHER_LOG_MAX_TOTAL) || n <= 2)
        return ucmpi_xfer_by_id(table, AG_RING);
    if ((n & (n - 1)) == 0 && table == ucmpi_allgather_algs)
        return ucmpi_xfer_by_id(table, AG_RD);
    return ucmpi_xfer_by_id(table, AG_BRUCK);
}

/* IN_PLACE and send-side checks shared with allgatherv. */
static int ag_check_send(ucmpi_comm_t *c, const void *sbuf, MPI_Count scount,
                         MPI_Datatype sdt, const void *rbuf, const char *fn)
{
    if (rbuf == MPI_IN_PLACE)
        return ucmpi_err_comm(c, MPI_ERR_BUFFER, fn, "recvbuf is "
                              "MPI_IN_PLACE (only sendbuf may be)");
    if (sbuf == MPI_IN_PLACE) {
        if (c->is_inter)
            return ucmpi_err_comm(c, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE on "
                                  "an intercommunicator");
        return MPI_SUCCESS;
    }
    return ucmpi_xfer_check_buf(c, sbuf, scount, sdt, "send", fn);
}

/* This rank's arguments failed a check (rc, reported) after the others
 * went ahead.  Blocking on shm: take the call's shm numbers,
 * marked invalid; else run their schedule poisoned: they get empty
 * messages from this rank.  Either way they report MPI_ERR_TRUNCATE
 * instead of waiting for ever or keeping a stale block.  With no usable
 * receive side: the schedule's tag only. */
static int ag_failed(ucmpi_comm_t *comm, int rc, const ucmpi_xfer_alg_t *table,
                     const char *knob, ucmpi_coll_args_t *a, size_t total,
                     int mode, MPI_Request *req)
{
    const char *fn = "MPI_Allgather (skipped)";
    int shm = table == ucmpi_allgather_algs &&
                mode == UCMPI_COLL_BLOCKING;

    if (a->rbuf == MPI_IN_PLACE || !ucmpi_xfer_buf_ok(a->rcount, a->rdt)) {
        /* no size to offer: the shm readers and voters fail */
        if (shm && ucmpi_xfer_shm_vote(comm, UCMPI_SHM_ALLGATHER, 0,
                                       UCMPI_XFER_VOTE_LOST, fn) !=
                       UCMPI_SHM_FALLBACK)
            return rc;
        return ucmpi_coll_skip_abort(comm, rc, (int)mode, req);   /* no receive side */
    }
    size_t nbytes = (size_t)(a->rcount * a->rdt->size);
    if (shm && ucmpi_xfer_failed_shm(comm, UCMPI_SHM_ALLGATHER, nbytes,
                                     a->rcount,
                                     ucmpi_coll_shm_allgather_skip, fn))
        return rc;
    /* count 0: the others with count 0 run the empty schedule */
    if (nbytes == 0 && !comm->is_inter && !a->rcounts && !a->rcounts_c)
        return ucmpi_coll_run_empty(comm, (int)mode, req, rc);
    /* its sends are empty: in place (intracomm) or the receive buffer
     * standing in for the send side */
    a->sbuf = comm->is_inter ? a->rbuf : MPI_IN_PLACE;
    a->scount = comm->is_inter && !a->rcounts && !a->rcounts_c ? a->rcount
                                                                : 0;
    a->sdt = a->scount ? a->rdt : MPI_BYTE;
    return ucmpi_xfer_run_poisoned(ag_select(table, knob, total, a), a, mode,
                                   req, rc);
}

static int allgather_start(ucmpi_coll_args_t *in)
{
    const char *fn = ucmpi_call_name();
    ucmpi_comm_t *comm = in->comm;
    const void *sbuf = in->sbuf;
    MPI_Count scount = in->scount;
    MPI_Datatype sdt = in->sdt;
    void *rbuf = in->rbuf;
    MPI_Count rcount = in->rcount;
    MPI_Datatype rdt = in->rdt;
    int mode = in->mode;
    MPI_Request *req = in->req;
    ucmpi_coll_args_t a;
    int rc = MPI_SUCCESS;

    if (rc != MPI_SUCCESS)
        return rc;
    rc = ag_check_send(comm, sbuf, scount, sdt, rbuf, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_xfer_check_buf(comm, rbuf, rcount, rdt, "receive", fn);
    /* e.g. sendbuf = &recvbuf[rank] (MPI_IN_PLACE is the legal form) */
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = ucmpi_coll_check_alias1(comm, sbuf, scount, sdt, rbuf,
                                     rcount * comm->remote_size, rdt, fn);
    a = (ucmpi_coll_args_t){.comm = comm, .rank = comm->rank,
                            .size = comm->size, .sbuf = sbuf,
                            .scount = scount, .sdt = sdt, .rbuf = rbuf,
                            .rcount = rcount, .rdt = rdt};
    if (rc == MPI_SUCCESS && !comm->is_inter && sbuf != MPI_IN_PLACE)
        rc = ucmpi_xfer_check_match(comm, scount, sdt, rcount, rdt,
                                    "own block", fn);
    if (rc != MPI_SUCCESS)    /* the others went ahead */
        return ag_failed(comm, rc, ucmpi_allgather_algs,
                         "ALLGATHER_ALGORITHM", &a,
                         (size_t)(rcount * rdt->size) *
                             (size_t)comm->remote_size, mode, req);
    if (sbuf == MPI_IN_PLACE) {
        a.scount = 0;
        a.sdt = MPI_BYTE;
    }
    if (mode == UCMPI_COLL_BLOCKING) {
        size_t nbytes = (size_t)(rcount * rdt->size);
        if (rcount > 0 &&
            ucmpi_coll_shm_wanted(comm, UCMPI_SHM_ALLGATHER, nbytes)) {
            rc = ucmpi_coll_shm_allgather(comm, sbuf, scount, sdt, rbuf,
                                          rcount, rdt);
            if (rc != UCMPI_SHM_FALLBACK)
                return rc;
        } else if ((rc = ucmpi_xfer_shm_vote(comm, UCMPI_SHM_ALLGATHER,
                                             nbytes, 0, fn)) !=
                   UCMPI_SHM_FALLBACK) {
            /* count 0 or past the shm limit: see the others' */
            if (rc != MPI_SUCCESS || rcount == 0)
                return rc;
        }
    }
    if (rcount * rdt->size == 0 && !comm->is_inter)   /* count-0 rule */
        return ucmpi_coll_run_empty(comm, (int)mode, req, MPI_SUCCESS);
    return ucmpi_xfer_run(ag_select(ucmpi_allgather_algs,
                                    "ALLGATHER_ALGORITHM",
                                    (size_t)(rcount * rdt->size) *
                                        (size_t)comm->remote_size, &a),
                          &a, mode, req, fn);
}

static void allgather_record(const ucmpi_coll_args_t *u,
                             ucmpi_coll_check_args_t *r)
{
    *r = (ucmpi_coll_check_args_t){
        .send = {.count = u->sbuf == MPI_IN_PLACE ? u->rcount : u->scount,
                 .dt = u->sbuf == MPI_IN_PLACE ? u->rdt : u->sdt},
        .recv = {.count = u->rcount, .dt = u->rdt}};
}

static const ucmpi_coll_desc_t allgather_desc = {
    .record = allgather_record, .start = allgather_start};

#pragma weak MPI_Allgather = PMPI_Allgather
int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&allgather_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Allgather");
}

#pragma weak MPI_Iallgather = PMPI_Iallgather
int PMPI_Iallgather(const void *sendbuf, int sendcount,
                    MPI_Datatype sendtype, void *recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&allgather_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Iallgather");
}

#pragma weak MPI_Allgather_init = PMPI_Allgather_init
int PMPI_Allgather_init(const void *sendbuf, int sendcount,
                        MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&allgather_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Allgather_init");
}

/* ---- allgatherv ---- */

/* rcounts_c/displs_c: the _c forms' arrays (then rcounts/displs NULL) */
static int allgatherv_start(ucmpi_coll_args_t *in)
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
    int mode = in->mode;
    MPI_Request *req = in->req;
    ucmpi_coll_args_t a;
    size_t total = 0;
    int rc = MPI_SUCCESS, recv_ok;

    if (rc != MPI_SUCCESS)
        return rc;
    rc = ag_check_send(comm, sbuf, scount, sdt, rbuf, fn);
    if (rc == MPI_SUCCESS) {
        rc = rcounts_c ? ucmpi_xfer_check_counts_c(comm, comm->remote_size,
                                                   rcounts_c, displs_c, rdt,
                                                   NULL, "receive", fn)
                       : ucmpi_xfer_check_counts(comm, comm->remote_size,
                                                 rcounts, displs, rdt,
                                                 "receive", fn);
        recv_ok = rc == MPI_SUCCESS;
    } else {
        /* a failed send side: the others still wait for this
         * rank's block, so it serves them if it can receive theirs */
        recv_ok = rbuf != MPI_IN_PLACE &&
                  ucmpi_xfer_blocks_ok(comm->remote_size, rcounts, displs,
                                       rcounts_c, displs_c, rdt, NULL);
    }
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE) {
        ucmpi_coll_side_t s = {.buf = sbuf, .n = 1, .count = scount,
                               .dt = sdt};
        ucmpi_coll_side_t r = {.buf = rbuf, .n = comm->remote_size,
                               .dt = rdt, .counts = rcounts,
                               .ccounts = rcounts_c, .displs = displs,
                               .adispls = displs_c};
        rc = ucmpi_coll_check_alias(comm, &s, &r, fn);
    }
    if (rc != MPI_SUCCESS && !recv_ok)
        return ucmpi_coll_skip_abort(comm, rc, (int)mode, req);   /* no receive side */
    a = (ucmpi_coll_args_t){.comm = comm, .rank = comm->rank,
                            .size = comm->size, .sbuf = sbuf,
                            .scount = scount, .sdt = sdt, .rbuf = rbuf,
                            .rcount = 0, .rdt = rdt, .rcounts = rcounts,
                            .rdispls = displs, .rcounts_c = rcounts_c,
                            .rdispls_c = displs_c,
                            .nrblk = comm->remote_size};
    for (int i = 0; i < comm->remote_size; i++)
        total += (size_t)(rcounts_c ? rcounts_c[i] : rcounts[i]) *
                 (size_t)rdt->size;
    if (rc == MPI_SUCCESS && !comm->is_inter && sbuf != MPI_IN_PLACE)
        rc = ucmpi_xfer_check_match(comm, scount, sdt, rcounts_c ? rcounts_c[comm->rank]
                                              : rcounts[comm->rank],
                                    rdt, "own block", fn);
    if (rc != MPI_SUCCESS)    /* the others went ahead */
        return ag_failed(comm, rc, ucmpi_allgatherv_algs,
                         "ALLGATHERV_ALGORITHM", &a, total, mode, req);
    if (sbuf == MPI_IN_PLACE) {
        a.scount = 0;
        a.sdt = MPI_BYTE;
    }
    return ucmpi_xfer_run(ag_select(ucmpi_allgatherv_algs,
                                    "ALLGATHERV_ALGORITHM", total, &a),
                          &a, mode, req, fn);
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

#pragma weak MPI_Allgatherv = PMPI_Allgatherv
int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    void *recvbuf, const int recvcounts[], const int displs[],
                    MPI_Datatype recvtype, MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts = recvcounts, .rdispls = displs,
                           .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&allgatherv_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Allgatherv");
}

#pragma weak MPI_Iallgatherv = PMPI_Iallgatherv
int PMPI_Iallgatherv(const void *sendbuf, int sendcount,
                     MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[],
                     MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts = recvcounts, .rdispls = displs,
                           .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&allgatherv_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Iallgatherv");
}

#pragma weak MPI_Allgatherv_init = PMPI_Allgatherv_init
int PMPI_Allgatherv_init(const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[],
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                         MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts = recvcounts, .rdispls = displs,
                           .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&allgatherv_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Allgatherv_init");
}

/* ---- large-count (MPI-4) forms ---- */

#pragma weak MPI_Allgather_c = PMPI_Allgather_c
int PMPI_Allgather_c(const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype,
                     MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&allgather_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Allgather_c");
}

#pragma weak MPI_Iallgather_c = PMPI_Iallgather_c
int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount,
                      MPI_Datatype sendtype, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype,
                      MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&allgather_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Iallgather_c");
}

#pragma weak MPI_Allgather_init_c = PMPI_Allgather_init_c
int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount,
                          MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype,
                          MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&allgather_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Allgather_init_c");
}

#pragma weak MPI_Allgatherv_c = PMPI_Allgatherv_c
int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount,
                      MPI_Datatype sendtype, void *recvbuf,
                      const MPI_Count recvcounts[], const MPI_Aint displs[],
                      MPI_Datatype recvtype, MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts_c = recvcounts, .rdispls_c = displs,
                           .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&allgatherv_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Allgatherv_c");
}

#pragma weak MPI_Iallgatherv_c = PMPI_Iallgatherv_c
int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount,
                       MPI_Datatype sendtype, void *recvbuf,
                       const MPI_Count recvcounts[], const MPI_Aint displs[],
                       MPI_Datatype recvtype, MPI_Comm comm,
                       MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts_c = recvcounts, .rdispls_c = displs,
                           .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&allgatherv_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Iallgatherv_c");
}

#pragma weak MPI_Allgatherv_init_c = PMPI_Allgatherv_init_c
int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount,
                           MPI_Datatype sendtype, void *recvbuf,
                           const MPI_Count recvcounts[],
                           const MPI_Aint displs[], MPI_Datatype recvtype,
                           MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts_c = recvcounts, .rdispls_c = displs,
                           .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&allgatherv_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Allgatherv_init_c");
}
