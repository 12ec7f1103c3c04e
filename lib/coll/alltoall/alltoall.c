/*
 * MPI_Alltoall, MPI_Alltoallv and MPI_Alltoallw in their blocking,
 * nonblocking and persistent forms, on intra- and intercommunicators.
 */
#include "coll/coll_drv.h"
#include "coll/coll_tune.h"
#include "coll/alltoall/alltoall.h"
#include "coll/shm/shm.h"

enum { A2A_SCATTERED, A2A_PAIRWISE, A2A_BRUCK, A2A_SHM };

const ucmpi_xfer_alg_t ucmpi_alltoall_algs[] = {
    {A2A_SCATTERED, "scattered",
     "all peers at once in windows of ALLTOALL_WINDOW steps",
     ucmpi_alltoall_scattered},
    {A2A_PAIRWISE, "pairwise", "one send/recv partner pair per round",
     ucmpi_alltoall_pairwise},
    {A2A_BRUCK, "bruck", "ceil(log2 n) rounds of packed blocks",
     ucmpi_alltoall_bruck},
    /* no builder: alltoall_common takes it (blocking, on one node) */
    {A2A_SHM, "shm", "on-node shared segment: flags and buffers, no "
     "messages (blocking, small)", NULL},
    {0, NULL, NULL, NULL}
};

const ucmpi_xfer_alg_t ucmpi_alltoallv_algs[] = {
    {A2A_SCATTERED, "scattered",
     "all peers at once in windows of ALLTOALL_WINDOW steps",
     ucmpi_alltoall_scattered},
    {A2A_PAIRWISE, "pairwise", "one send/recv partner pair per round",
     ucmpi_alltoall_pairwise},
    {0, NULL, NULL, NULL}
};


static const ucmpi_xfer_alg_t *a2a_select(const ucmpi_coll_args_t *a)
{
    const ucmpi_xfer_alg_t *f = ucmpi_xfer_forced(ucmpi_alltoall_algs,
                                                  "ALLTOALL_ALGORITHM");
    size_t bs = (size_t)(a->rcount * a->rdt->size);

    if (a->comm->is_inter)
        return &ucmpi_alltoall_algs[A2A_SCATTERED];
    if (f && f->build)
        return f;
    if (a->size >= ucmpi_thr_n(UCMPI_THR_ALLTOALL_BRUCK_MIN_RANKS) &&
        bs <= ucmpi_thr(UCMPI_THR_ALLTOALL_BRUCK_MAX_BLOCK))
        return &ucmpi_alltoall_algs[A2A_BRUCK];
    if (bs >= ucmpi_thr(UCMPI_THR_ALLTOALL_PAIRWISE_MIN_BLOCK))
        return &ucmpi_alltoall_algs[A2A_PAIRWISE];
    return &ucmpi_alltoall_algs[A2A_SCATTERED];
}

/* alltoallv/w: scattered unless forced (UCMPI_ALLTOALLV_ALGORITHM); the
 * counts differ per rank, so nothing else can be chosen consistently
 * without communication. */
static const ucmpi_xfer_alg_t *a2av_select(const ucmpi_coll_args_t *a)
{
    const ucmpi_xfer_alg_t *f = ucmpi_xfer_forced(ucmpi_alltoallv_algs,
                                                  "ALLTOALLV_ALGORITHM");

    if (a->comm->is_inter || f == NULL)
        return &ucmpi_alltoallv_algs[A2A_SCATTERED];
    return f;
}

static int a2a_check_inplace(ucmpi_comm_t *c, const void *sbuf,
                             const void *rbuf, const char *fn)
{
    if (rbuf == MPI_IN_PLACE)
        return ucmpi_err_comm(c, MPI_ERR_BUFFER, fn, "recvbuf is "
                              "MPI_IN_PLACE (only sendbuf may be)");
    if (sbuf == MPI_IN_PLACE && c->is_inter)
        return ucmpi_err_comm(c, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE on an "
                              "intercommunicator");
    return MPI_SUCCESS;
}

/* This rank's arguments failed a check (rc, reported): the others still
 * run the collective.  On the shm path take its shm numbers (all its
 * chunks); else run their schedule poisoned (their
 * receives from this rank fail instead of waiting for ever, and their
 * sends to it return); with no usable receive side, its schedule's tag. */
static int a2a_skip(ucmpi_comm_t *comm, int rc, int mode,
                    void *rbuf, MPI_Count rcount, MPI_Datatype rdt,
                    MPI_Request *req, const char *fn)
{
    ucmpi_coll_args_t a;
    size_t nbytes;
    int shm = mode == UCMPI_COLL_BLOCKING;

    if (rbuf == MPI_IN_PLACE || !ucmpi_xfer_buf_ok(rcount, rdt)) {
        /* no size to offer: the shm readers and voters fail */
        if (shm && ucmpi_xfer_shm_vote(comm, UCMPI_SHM_ALLTOALL, 0,
                                       UCMPI_XFER_VOTE_LOST, fn) !=
                       UCMPI_SHM_FALLBACK)
            return rc;
        return ucmpi_coll_skip_abort(comm, rc, (int)mode, req);   /* no receive side */
    }
    nbytes = (size_t)(rcount * rdt->size) * (size_t)comm->size;
    if (shm && ucmpi_xfer_failed_shm(comm, UCMPI_SHM_ALLTOALL, nbytes,
                                     rcount, ucmpi_coll_shm_alltoall_skip,
                                     fn))
        return rc;
    /* count 0: the others with count 0 run the empty schedule */
    if (nbytes == 0 && !comm->is_inter)
        return ucmpi_coll_run_empty(comm, (int)mode, req, rc);
    /* its sends are empty: the receive buffer stands in for the send side */
    a = (ucmpi_coll_args_t){.comm = comm, .rank = comm->rank,
                            .size = comm->size, .sbuf = rbuf,
                            .scount = rcount, .sdt = rdt, .rbuf = rbuf,
                            .rcount = rcount, .rdt = rdt};
    return ucmpi_xfer_run_poisoned(a2a_select(&a), &a, mode, req, rc);
}

static int alltoall_start(ucmpi_coll_args_t *in)
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
    rc = a2a_check_inplace(comm, sbuf, rbuf, fn);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE) {
        rc = ucmpi_xfer_check_buf(comm, sbuf, scount, sdt, "send", fn);
    }
    if (rc == MPI_SUCCESS)
        rc = ucmpi_xfer_check_buf(comm, rbuf, rcount, rdt, "receive", fn);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = ucmpi_coll_check_alias1(comm, sbuf, scount * comm->remote_size,
                                     sdt, rbuf, rcount * comm->remote_size,
                                     rdt, fn);
    if (rc != MPI_SUCCESS)    /* the others went ahead */
        return a2a_skip(comm, rc, mode, rbuf, rcount, rdt, req, fn);
    a = (ucmpi_coll_args_t){.comm = comm, .rank = comm->rank,
                            .size = comm->size, .sbuf = sbuf,
                            .scount = scount, .sdt = sdt, .rbuf = rbuf,
                            .rcount = rcount, .rdt = rdt};
    if (sbuf == MPI_IN_PLACE) {
        a.scount = rcount;
        a.sdt = rdt;
    }
    if (!comm->is_inter && sbuf != MPI_IN_PLACE) {
        rc = ucmpi_xfer_check_match(comm, scount, sdt, rcount, rdt,
                                    "own block", fn);
        /* the others went ahead: keep the shm numbers in step
         * (MPICH errors/coll/alltoalllength's next reduce saw another
         * collective's size records) */
        if (rc != MPI_SUCCESS)
            return a2a_skip(comm, rc, mode, rbuf, rcount, rdt, req, fn);
    }
    /* a rank's buffer holds its n blocks */
    if (mode == UCMPI_COLL_BLOCKING) {
        size_t nbytes = (size_t)(rcount * rdt->size) * (size_t)comm->size;
        if (rcount > 0 &&
            ucmpi_coll_shm_wanted(comm, UCMPI_SHM_ALLTOALL, nbytes)) {
            rc = ucmpi_coll_shm_alltoall(comm, sbuf, scount, sdt, rbuf,
                                         rcount, rdt);
            if (rc != UCMPI_SHM_FALLBACK)
                return rc;
        } else if ((rc = ucmpi_xfer_shm_vote(comm, UCMPI_SHM_ALLTOALL,
                                             nbytes, 0, fn)) !=
                   UCMPI_SHM_FALLBACK) {
            /* count 0 or past the shm limit: see the others' */
            if (rc != MPI_SUCCESS || rcount == 0)
                return rc;
        }
    }
    if (rcount * rdt->size == 0 && !comm->is_inter)   /* count-0 rule */
        return ucmpi_coll_run_empty(comm, (int)mode, req, MPI_SUCCESS);
    return ucmpi_xfer_run(a2a_select(&a), &a, mode, req, fn);
}

static void alltoall_record(const ucmpi_coll_args_t *u,
                            ucmpi_coll_check_args_t *r)
{
    *r = (ucmpi_coll_check_args_t){
        .send = {.count = u->sbuf == MPI_IN_PLACE ? u->rcount : u->scount,
                 .dt = u->sbuf == MPI_IN_PLACE ? u->rdt : u->sdt},
        .recv = {.count = u->rcount, .dt = u->rdt}};
}

static const ucmpi_coll_desc_t alltoall_desc = {
    .record = alltoall_record, .start = alltoall_start};

#pragma weak MPI_Alltoall = PMPI_Alltoall
int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&alltoall_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Alltoall");
}

#pragma weak MPI_Ialltoall = PMPI_Ialltoall
int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&alltoall_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ialltoall");
}

#pragma weak MPI_Alltoall_init = PMPI_Alltoall_init
int PMPI_Alltoall_init(const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&alltoall_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Alltoall_init");
}

/* ---- alltoallv / alltoallw (sdts/rdts non-NULL: w, byte displs) ---- */

/* The large-count (_c) forms' arrays: NULL for the int forms. */
typedef struct {
    const MPI_Count *scounts, *rcounts;
    const MPI_Aint *sdispls, *rdispls;
} a2a_c_t;

static int a2a_check_side(ucmpi_comm_t *comm, int n, const int *counts,
                          const int *displs, const MPI_Count *ccounts,
                          const MPI_Aint *cdispls, MPI_Datatype dt,
                          const MPI_Datatype *dts, const char *what,
                          const char *fn)
{
    if (ccounts)
        return ucmpi_xfer_check_counts_c(comm, n, ccounts, cdispls, dt, dts,
                                         what, fn);
    return dts ? ucmpi_xfer_check_types(comm, n, counts, displs, dts, what,
                                        fn)
               : ucmpi_xfer_check_counts(comm, n, counts, displs, dt, what,
                                         fn);
}

/* An alltoallv/w rank whose arguments failed a check (rc, reported): the
 * others went ahead and wait for its blocks, so it runs their schedule
 * poisoned as a2a_skip does (returning at once would leave them waiting
 * for ever), its receive blocks standing in for the send side; with no
 * usable receive side, its schedule's tag. */
static int a2av_skip(ucmpi_comm_t *comm, int rc, int mode,
                     void *rbuf, const int *rcounts, const int *rdispls,
                     MPI_Datatype rdt, const MPI_Datatype *rdts,
                     const MPI_Count *rcounts_c, const MPI_Aint *rdispls_c,
                     MPI_Request *req)
{
    int n = comm->remote_size;
    ucmpi_coll_args_t a = {.comm = comm, .rank = comm->rank,
                           .size = comm->size, .sbuf = rbuf, .sdt = rdt,
                           .rbuf = rbuf, .rdt = rdt, .nsblk = n, .nrblk = n,
                           .scounts = rcounts, .sdispls = rdispls,
                           .sdts = rdts, .scounts_c = rcounts_c,
                           .sdispls_c = rdispls_c, .rcounts = rcounts,
                           .rdispls = rdispls, .rdts = rdts,
                           .rcounts_c = rcounts_c, .rdispls_c = rdispls_c};

    if (rbuf == MPI_IN_PLACE ||
        !ucmpi_xfer_blocks_ok(n, rcounts, rdispls, rcounts_c, rdispls_c, rdt,
                              rdts))
        return ucmpi_coll_skip_abort(comm, rc, (int)mode, req);   /* no receive side */
    if (a.rdt == MPI_DATATYPE_NULL)
        a.sdt = a.rdt = MPI_BYTE;
    return ucmpi_xfer_run_poisoned(a2av_select(&a), &a, mode, req, rc);
}

static int alltoallvw_start(ucmpi_coll_args_t *in)
{
    const char *fn = ucmpi_call_name();
    ucmpi_comm_t *comm = in->comm;
    const void *sbuf = in->sbuf;
    const int *scounts = in->scounts;
    const int *sdispls = in->sdispls;
    MPI_Datatype sdt = in->sdt;
    const MPI_Datatype *sdts = in->sdts;
    void *rbuf = in->rbuf;
    const int *rcounts = in->rcounts;
    const int *rdispls = in->rdispls;
    MPI_Datatype rdt = in->rdt;
    const MPI_Datatype *rdts = in->rdts;
    int mode = in->mode;
    MPI_Request *req = in->req;
    a2a_c_t cforms = {in->scounts_c, in->rcounts_c, in->sdispls_c,
                      in->rdispls_c};
    const a2a_c_t *c = in->scounts_c || in->rcounts_c ? &cforms : NULL;
    static const a2a_c_t none;
    ucmpi_coll_args_t a;
    int rc = MPI_SUCCESS, n;

    if (rc != MPI_SUCCESS)
        return rc;
    n = comm->remote_size;

    if (rc != MPI_SUCCESS)
        return rc;
    rc = a2a_check_inplace(comm, sbuf, rbuf, fn);
    if (c == NULL)
        c = &none;
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = a2a_check_side(comm, n, scounts, sdispls, c->scounts,
                            c->sdispls, sdt, rdts ? sdts : NULL, "send", fn);
    if (rc == MPI_SUCCESS)
        rc = a2a_check_side(comm, n, rcounts, rdispls, c->rcounts,
                            c->rdispls, rdt, rdts, "receive", fn);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE) {
        /* w forms: byte displacements (int, or MPI_Aint for _c) */
        ucmpi_coll_side_t s = {.buf = sbuf, .n = n, .dt = sdt,
                               .counts = scounts, .ccounts = c->scounts,
                               .displs = sdispls, .adispls = c->sdispls,
                               .dts = rdts ? sdts : NULL};
        ucmpi_coll_side_t r = {.buf = rbuf, .n = n, .dt = rdt,
                               .counts = rcounts, .ccounts = c->rcounts,
                               .displs = rdispls, .adispls = c->rdispls,
                               .dts = rdts};
        rc = ucmpi_coll_check_alias(comm, &s, &r, fn);
    }
    if (rc != MPI_SUCCESS)
        return a2av_skip(comm, rc, mode, rbuf, rcounts, rdispls, rdt, rdts,
                         c->rcounts, c->rdispls, req);
    a = (ucmpi_coll_args_t){.comm = comm, .rank = comm->rank,
                            .size = comm->size, .sbuf = sbuf, .sdt = sdt,
                            .rbuf = rbuf, .rdt = rdt, .nsblk = n, .nrblk = n,
                            .rcounts = rcounts, .rdispls = rdispls,
                            .rdts = rdts, .rcounts_c = c->rcounts,
                            .rdispls_c = c->rdispls};
    if (sbuf != MPI_IN_PLACE) {
        a.scounts = scounts;
        a.sdispls = sdispls;
        a.sdts = sdts;
        a.scounts_c = c->scounts;
        a.sdispls_c = c->sdispls;
    }
    if (a.sdt == MPI_DATATYPE_NULL)
        a.sdt = MPI_BYTE;
    if (a.rdt == MPI_DATATYPE_NULL)
        a.rdt = MPI_BYTE;
    if (!comm->is_inter && sbuf != MPI_IN_PLACE) {
        int me = comm->rank;
        rc = ucmpi_xfer_check_match(comm,
                                    c->scounts ? c->scounts[me] : scounts[me],
                                    sdts ? sdts[me] : sdt,
                                    c->rcounts ? c->rcounts[me] : rcounts[me],
                                    rdts ? rdts[me] : rdt, "own block", fn);
        if (rc != MPI_SUCCESS)
            return a2av_skip(comm, rc, mode, rbuf, rcounts, rdispls, a.rdt,
                             rdts, c->rcounts, c->rdispls, req);
    }
    return ucmpi_xfer_run(a2av_select(&a), &a, mode, req, fn);
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

#pragma weak MPI_Alltoallv = PMPI_Alltoallv
int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[],
                   const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int rdispls[],
                   MPI_Datatype recvtype, MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scounts = sendcounts,
                           .sdispls = sdispls, .sdt = sendtype,
                           .rbuf = recvbuf, .rcounts = recvcounts,
                           .rdispls = rdispls, .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&alltoallvw_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Alltoallv");
}

#pragma weak MPI_Ialltoallv = PMPI_Ialltoallv
int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[],
                    const int sdispls[], MPI_Datatype sendtype,
                    void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scounts = sendcounts,
                           .sdispls = sdispls, .sdt = sendtype,
                           .rbuf = recvbuf, .rcounts = recvcounts,
                           .rdispls = rdispls, .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&alltoallvw_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ialltoallv");
}

#pragma weak MPI_Alltoallv_init = PMPI_Alltoallv_init
int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[],
                        const int sdispls[], MPI_Datatype sendtype,
                        void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scounts = sendcounts,
                           .sdispls = sdispls, .sdt = sendtype,
                           .rbuf = recvbuf, .rcounts = recvcounts,
                           .rdispls = rdispls, .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&alltoallvw_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Alltoallv_init");
}

#pragma weak MPI_Alltoallw = PMPI_Alltoallw
int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[],
                   const int sdispls[], const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[],
                   const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scounts = sendcounts,
                           .sdispls = sdispls, .sdt = MPI_BYTE,
                           .sdts = sendtypes, .rbuf = recvbuf,
                           .rcounts = recvcounts, .rdispls = rdispls,
                           .rdt = MPI_BYTE, .rdts = recvtypes, .comm = comm};
    return ucmpi_coll_call(&alltoallvw_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Alltoallw");
}

#pragma weak MPI_Ialltoallw = PMPI_Ialltoallw
int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[],
                    const int sdispls[], const MPI_Datatype sendtypes[],
                    void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[],
                    MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scounts = sendcounts,
                           .sdispls = sdispls, .sdt = MPI_BYTE,
                           .sdts = sendtypes, .rbuf = recvbuf,
                           .rcounts = recvcounts, .rdispls = rdispls,
                           .rdt = MPI_BYTE, .rdts = recvtypes, .comm = comm};
    return ucmpi_coll_call(&alltoallvw_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ialltoallw");
}

#pragma weak MPI_Alltoallw_init = PMPI_Alltoallw_init
int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[],
                        const int sdispls[], const MPI_Datatype sendtypes[],
                        void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[],
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scounts = sendcounts,
                           .sdispls = sdispls, .sdt = MPI_BYTE,
                           .sdts = sendtypes, .rbuf = recvbuf,
                           .rcounts = recvcounts, .rdispls = rdispls,
                           .rdt = MPI_BYTE, .rdts = recvtypes, .comm = comm};
    return ucmpi_coll_call(&alltoallvw_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Alltoallw_init");
}

/* ---- large-count (MPI-4) forms ---- */

#pragma weak MPI_Alltoall_c = PMPI_Alltoall_c
int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount,
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&alltoall_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Alltoall_c");
}

#pragma weak MPI_Ialltoall_c = PMPI_Ialltoall_c
int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&alltoall_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ialltoall_c");
}

#pragma weak MPI_Alltoall_init_c = PMPI_Alltoall_init_c
int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount,
                         MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype, .comm = comm};
    return ucmpi_coll_call(&alltoall_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Alltoall_init_c");
}

#pragma weak MPI_Alltoallv_c = PMPI_Alltoallv_c
int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                     const MPI_Aint sdispls[], MPI_Datatype sendtype,
                     void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], MPI_Datatype recvtype,
                     MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .sdt = sendtype, .rbuf = recvbuf,
                           .rdt = recvtype, .scounts_c = sendcounts,
                           .sdispls_c = sdispls, .rcounts_c = recvcounts,
                           .rdispls_c = rdispls, .comm = comm};
    return ucmpi_coll_call(&alltoallvw_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Alltoallv_c");
}

#pragma weak MPI_Ialltoallv_c = PMPI_Ialltoallv_c
int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                      const MPI_Aint sdispls[], MPI_Datatype sendtype,
                      void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], MPI_Datatype recvtype,
                      MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .sdt = sendtype, .rbuf = recvbuf,
                           .rdt = recvtype, .scounts_c = sendcounts,
                           .sdispls_c = sdispls, .rcounts_c = recvcounts,
                           .rdispls_c = rdispls, .comm = comm};
    return ucmpi_coll_call(&alltoallvw_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ialltoallv_c");
}

#pragma weak MPI_Alltoallv_init_c = PMPI_Alltoallv_init_c
int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], MPI_Datatype sendtype,
                          void *recvbuf, const MPI_Count recvcounts[],
                          const MPI_Aint rdispls[], MPI_Datatype recvtype,
                          MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .sdt = sendtype, .rbuf = recvbuf,
                           .rdt = recvtype, .scounts_c = sendcounts,
                           .sdispls_c = sdispls, .rcounts_c = recvcounts,
                           .rdispls_c = rdispls, .comm = comm};
    return ucmpi_coll_call(&alltoallvw_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Alltoallv_init_c");
}

#pragma weak MPI_Alltoallw_c = PMPI_Alltoallw_c
int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                     const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                     void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[],
                     const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .sdt = MPI_BYTE, .sdts = sendtypes,
                           .rbuf = recvbuf, .rdt = MPI_BYTE, .rdts = recvtypes,
                           .scounts_c = sendcounts, .sdispls_c = sdispls,
                           .rcounts_c = recvcounts, .rdispls_c = rdispls,
                           .comm = comm};
    return ucmpi_coll_call(&alltoallvw_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Alltoallw_c");
}

#pragma weak MPI_Ialltoallw_c = PMPI_Ialltoallw_c
int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                      const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf,
                      const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                      const MPI_Datatype recvtypes[], MPI_Comm comm,
                      MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .sdt = MPI_BYTE, .sdts = sendtypes,
                           .rbuf = recvbuf, .rdt = MPI_BYTE, .rdts = recvtypes,
                           .scounts_c = sendcounts, .sdispls_c = sdispls,
                           .rcounts_c = recvcounts, .rdispls_c = rdispls,
                           .comm = comm};
    return ucmpi_coll_call(&alltoallvw_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ialltoallw_c");
}

#pragma weak MPI_Alltoallw_init_c = PMPI_Alltoallw_init_c
int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[],
                          const MPI_Datatype sendtypes[], void *recvbuf,
                          const MPI_Count recvcounts[],
                          const MPI_Aint rdispls[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm,
                          MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.sbuf = sendbuf, .sdt = MPI_BYTE, .sdts = sendtypes,
                           .rbuf = recvbuf, .rdt = MPI_BYTE, .rdts = recvtypes,
                           .scounts_c = sendcounts, .sdispls_c = sdispls,
                           .rcounts_c = recvcounts, .rdispls_c = rdispls,
                           .comm = comm};
    return ucmpi_coll_call(&alltoallvw_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Alltoallw_init_c");
}
