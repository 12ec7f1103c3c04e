/*
 * MPI_Alltoall, MPI_Alltoallv and MPI_Alltoallw in their blocking,
 * nonblocking and persistent forms, on intra- and intercommunicators.
 */
#include "coll/coll_check.h"
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

/* Thresholds on the block size (bytes per peer, equal on all ranks):
 * Bruck's log rounds beat n-1 messages for tiny blocks on 8+ ranks;
 * big blocks go pairwise so that one peer pair streams at a time.
 * Starting points from MPICH's defaults (256 B Bruck, 32 KiB-ish
 * pairwise, here 256 KiB since the scattered window already bounds the
 * requests in flight); see gather.c for why not yet measured here. */
static const struct {
    int bruck_min_ranks;
    size_t bruck_max_block;
    size_t pairwise_min_block;
} a2a_thresh = {8, 256, 256 * 1024};

static const ucmpi_xfer_alg_t *a2a_select(const ucmpi_xfer_args_t *a)
{
    const ucmpi_xfer_alg_t *f = ucmpi_xfer_forced(ucmpi_alltoall_algs,
                                                  "ALLTOALL_ALGORITHM");
    size_t bs = (size_t)(a->rcount * a->rdt->size);

    if (a->comm->is_inter)
        return &ucmpi_alltoall_algs[A2A_SCATTERED];
    if (f && f->build)
        return f;
    if (a->size >= a2a_thresh.bruck_min_ranks &&
        bs <= a2a_thresh.bruck_max_block)
        return &ucmpi_alltoall_algs[A2A_BRUCK];
    if (bs >= a2a_thresh.pairwise_min_block)
        return &ucmpi_alltoall_algs[A2A_PAIRWISE];
    return &ucmpi_alltoall_algs[A2A_SCATTERED];
}

/* alltoallv/w: scattered unless forced (UCMPI_ALLTOALLV_ALGORITHM); the
 * counts differ per rank, so nothing else can be chosen consistently
 * without communication. */
static const ucmpi_xfer_alg_t *a2av_select(const ucmpi_xfer_args_t *a)
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
 * chunks: collL7); else run their schedule poisoned (collerr8: their
 * receives from this rank fail instead of waiting for ever, and their
 * sends to it return); with no usable receive side, its schedule's tag. */
static int a2a_skip(ucmpi_comm_t *comm, int rc, ucmpi_xfer_mode_t mode,
                    void *rbuf, MPI_Count rcount, MPI_Datatype rdt,
                    MPI_Request *req, const char *fn)
{
    ucmpi_xfer_args_t a;
    size_t nbytes;
    int shm = mode == UCMPI_XFER_BLOCKING;

    if (rbuf == MPI_IN_PLACE || !ucmpi_xfer_buf_ok(rcount, rdt)) {
        /* (xfer9) no size to offer: the shm readers and voters fail */
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
        return ucmpi_coll_run_empty(comm, (int)mode, req, fn, rc);
    /* its sends are empty: the receive buffer stands in for the send side */
    a = (ucmpi_xfer_args_t){.comm = comm, .rank = comm->rank,
                            .size = comm->size, .sbuf = rbuf,
                            .scount = rcount, .sdt = rdt, .rbuf = rbuf,
                            .rcount = rcount, .rdt = rdt};
    return ucmpi_xfer_run_poisoned(a2a_select(&a), &a, mode, req, rc);
}

static int alltoall_run(const void *sbuf, MPI_Count scount,
                        MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                        MPI_Datatype rdt,
                        MPI_Comm comm, ucmpi_xfer_mode_t mode,
                        MPI_Request *req, const char *fn)
{
    ucmpi_xfer_args_t a;
    int rc = ucmpi_xfer_check_comm(comm, fn);

    if (rc != MPI_SUCCESS)
        return rc;
    rc = ucmpi_coll_check_req(comm, (int)mode, req, fn);
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
    if (rc != MPI_SUCCESS)    /* the others went ahead (collerr8) */
        return a2a_skip(comm, rc, mode, rbuf, rcount, rdt, req, fn);
    a = (ucmpi_xfer_args_t){.comm = comm, .rank = comm->rank,
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
        /* the others went ahead: keep the shm numbers in step (core7;
         * MPICH errors/coll/alltoalllength's next reduce saw another
         * collective's size records) */
        if (rc != MPI_SUCCESS)
            return a2a_skip(comm, rc, mode, rbuf, rcount, rdt, req, fn);
    }
    /* a rank's buffer holds its n blocks */
    if (mode == UCMPI_XFER_BLOCKING) {
        size_t nbytes = (size_t)(rcount * rdt->size) * (size_t)comm->size;
        if (rcount > 0 &&
            ucmpi_coll_shm_wanted(comm, UCMPI_SHM_ALLTOALL, nbytes)) {
            rc = ucmpi_coll_shm_alltoall(comm, sbuf, scount, sdt, rbuf,
                                         rcount, rdt, fn);
            if (rc != UCMPI_SHM_FALLBACK)
                return rc;
        } else if ((rc = ucmpi_xfer_shm_vote(comm, UCMPI_SHM_ALLTOALL,
                                             nbytes, 0, fn)) !=
                   UCMPI_SHM_FALLBACK) {
            /* (xfer9) count 0 or past the shm limit: see the others' */
            if (rc != MPI_SUCCESS || rcount == 0)
                return rc;
        }
    }
    if (rcount * rdt->size == 0 && !comm->is_inter)   /* count-0 rule */
        return ucmpi_coll_run_empty(comm, (int)mode, req, fn, MPI_SUCCESS);
    return ucmpi_xfer_run(a2a_select(&a), &a, mode, req, fn);
}

/* UCMPI_COLL_CHECK=1 (coll_check.h): the ranks agree on the call
 * first. */
static int alltoall_checked(const void *sbuf, MPI_Count scount,
                            MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                            MPI_Datatype rdt, MPI_Comm comm,
                            ucmpi_xfer_mode_t mode, MPI_Request *req,
                            const char *fn)
{
    ucmpi_coll_check_args_t a = {
        .send = {.count = sbuf == MPI_IN_PLACE ? rcount : scount,
                 .dt = sbuf == MPI_IN_PLACE ? rdt : sdt},
        .recv = {.count = rcount, .dt = rdt}};
    int rc = ucmpi_coll_check_begin(comm, (int)mode, &a, fn);

    if (rc == MPI_SUCCESS) {
        rc = alltoall_run(sbuf, scount, sdt, rbuf, rcount, rdt, comm, mode,
                          req, fn);
        ucmpi_coll_check_end(comm);
    }
    return rc;
}

static int alltoall_common(const void *sbuf, MPI_Count scount,
                           MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                           MPI_Datatype rdt, MPI_Comm comm,
                           ucmpi_xfer_mode_t mode, MPI_Request *req,
                           const char *fn)
{
    if (ucmpi_coll_check_wanted())
        return alltoall_checked(sbuf, scount, sdt, rbuf, rcount, rdt, comm,
                                mode, req, fn);
    return alltoall_run(sbuf, scount, sdt, rbuf, rcount, rdt, comm, mode, req,
                        fn);
}

#pragma weak MPI_Alltoall = PMPI_Alltoall
int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  MPI_Comm comm)
{
    return alltoall_common(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           recvtype, comm, UCMPI_XFER_BLOCKING, NULL,
                           "MPI_Alltoall");
}

#pragma weak MPI_Ialltoall = PMPI_Ialltoall
int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   MPI_Comm comm, MPI_Request *request)
{
    return alltoall_common(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           recvtype, comm, UCMPI_XFER_NONBLOCKING, request,
                           "MPI_Ialltoall");
}

#pragma weak MPI_Alltoall_init = PMPI_Alltoall_init
int PMPI_Alltoall_init(const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    (void)info;
    return alltoall_common(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           recvtype, comm, UCMPI_XFER_PERSISTENT, request,
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
 * poisoned as a2a_skip does (xfer9; returning at once left them waiting
 * for ever), its receive blocks standing in for the send side; with no
 * usable receive side, its schedule's tag. */
static int a2av_skip(ucmpi_comm_t *comm, int rc, ucmpi_xfer_mode_t mode,
                     void *rbuf, const int *rcounts, const int *rdispls,
                     MPI_Datatype rdt, const MPI_Datatype *rdts,
                     const MPI_Count *rcounts_c, const MPI_Aint *rdispls_c,
                     MPI_Request *req)
{
    int n = comm->remote_size;
    ucmpi_xfer_args_t a = {.comm = comm, .rank = comm->rank,
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

static int alltoallvw_run(const void *sbuf, const int *scounts,
                          const int *sdispls, MPI_Datatype sdt,
                          const MPI_Datatype *sdts, void *rbuf,
                          const int *rcounts, const int *rdispls,
                          MPI_Datatype rdt, const MPI_Datatype *rdts,
                          const a2a_c_t *c, MPI_Comm comm,
                          ucmpi_xfer_mode_t mode, MPI_Request *req,
                          const char *fn)
{
    static const a2a_c_t none;
    ucmpi_xfer_args_t a;
    int rc = ucmpi_xfer_check_comm(comm, fn), n;

    if (rc != MPI_SUCCESS)
        return rc;
    n = comm->remote_size;
    rc = ucmpi_coll_check_req(comm, (int)mode, req, fn);
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
    a = (ucmpi_xfer_args_t){.comm = comm, .rank = comm->rank,
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

/* UCMPI_COLL_CHECK=1 (coll_check.h): the ranks agree on the call
 * first. */
static int alltoallvw_checked(const void *sbuf, const int *scounts,
                              const int *sdispls, MPI_Datatype sdt,
                              const MPI_Datatype *sdts, void *rbuf,
                              const int *rcounts, const int *rdispls,
                              MPI_Datatype rdt, const MPI_Datatype *rdts,
                              const a2a_c_t *c, MPI_Comm comm,
                              ucmpi_xfer_mode_t mode, MPI_Request *req,
                              const char *fn)
{
    ucmpi_coll_check_args_t a = {
        .send = {.vec = 1, .counts = scounts, .ccounts = c ? c->scounts : NULL,
                 .dt = sdt, .dts = sdts},
        .recv = {.vec = 1, .counts = rcounts, .ccounts = c ? c->rcounts : NULL,
                 .dt = rdt, .dts = rdts}};
    int rc;

    if (sbuf == MPI_IN_PLACE)     /* it sends what it receives */
        a.send = a.recv;
    rc = ucmpi_coll_check_begin(comm, (int)mode, &a, fn);

    if (rc == MPI_SUCCESS) {
        rc = alltoallvw_run(sbuf, scounts, sdispls, sdt, sdts, rbuf, rcounts,
                            rdispls, rdt, rdts, c, comm, mode, req, fn);
        ucmpi_coll_check_end(comm);
    }
    return rc;
}

static int alltoallvw_common(const void *sbuf, const int *scounts,
                             const int *sdispls, MPI_Datatype sdt,
                             const MPI_Datatype *sdts, void *rbuf,
                             const int *rcounts, const int *rdispls,
                             MPI_Datatype rdt, const MPI_Datatype *rdts,
                             const a2a_c_t *c, MPI_Comm comm,
                             ucmpi_xfer_mode_t mode, MPI_Request *req,
                             const char *fn)
{
    if (ucmpi_coll_check_wanted())
        return alltoallvw_checked(sbuf, scounts, sdispls, sdt, sdts, rbuf,
                                  rcounts, rdispls, rdt, rdts, c, comm, mode,
                                  req, fn);
    return alltoallvw_run(sbuf, scounts, sdispls, sdt, sdts, rbuf, rcounts,
                          rdispls, rdt, rdts, c, comm, mode, req, fn);
}

#pragma weak MPI_Alltoallv = PMPI_Alltoallv
int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[],
                   const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int rdispls[],
                   MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoallvw_common(sendbuf, sendcounts, sdispls, sendtype, NULL,
                             recvbuf, recvcounts, rdispls, recvtype, NULL,
                             NULL, comm, UCMPI_XFER_BLOCKING, NULL,
                             "MPI_Alltoallv");
}

#pragma weak MPI_Ialltoallv = PMPI_Ialltoallv
int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[],
                    const int sdispls[], MPI_Datatype sendtype,
                    void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request *request)
{
    return alltoallvw_common(sendbuf, sendcounts, sdispls, sendtype, NULL,
                             recvbuf, recvcounts, rdispls, recvtype, NULL,
                             NULL, comm, UCMPI_XFER_NONBLOCKING, request,
                             "MPI_Ialltoallv");
}

#pragma weak MPI_Alltoallv_init = PMPI_Alltoallv_init
int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[],
                        const int sdispls[], MPI_Datatype sendtype,
                        void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return alltoallvw_common(sendbuf, sendcounts, sdispls, sendtype, NULL,
                             recvbuf, recvcounts, rdispls, recvtype, NULL,
                             NULL, comm, UCMPI_XFER_PERSISTENT, request,
                             "MPI_Alltoallv_init");
}

#pragma weak MPI_Alltoallw = PMPI_Alltoallw
int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[],
                   const int sdispls[], const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[],
                   const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return alltoallvw_common(sendbuf, sendcounts, sdispls, MPI_BYTE,
                             sendtypes, recvbuf, recvcounts, rdispls,
                             MPI_BYTE, recvtypes, NULL, comm, UCMPI_XFER_BLOCKING,
                             NULL, "MPI_Alltoallw");
}

#pragma weak MPI_Ialltoallw = PMPI_Ialltoallw
int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[],
                    const int sdispls[], const MPI_Datatype sendtypes[],
                    void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[],
                    MPI_Comm comm, MPI_Request *request)
{
    return alltoallvw_common(sendbuf, sendcounts, sdispls, MPI_BYTE,
                             sendtypes, recvbuf, recvcounts, rdispls,
                             MPI_BYTE, recvtypes, NULL, comm,
                             UCMPI_XFER_NONBLOCKING, request,
                             "MPI_Ialltoallw");
}

#pragma weak MPI_Alltoallw_init = PMPI_Alltoallw_init
int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[],
                        const int sdispls[], const MPI_Datatype sendtypes[],
                        void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[],
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return alltoallvw_common(sendbuf, sendcounts, sdispls, MPI_BYTE,
                             sendtypes, recvbuf, recvcounts, rdispls,
                             MPI_BYTE, recvtypes, NULL, comm,
                             UCMPI_XFER_PERSISTENT, request,
                             "MPI_Alltoallw_init");
}

/* ---- large-count (MPI-4) forms ---- */

#pragma weak MPI_Alltoall_c = PMPI_Alltoall_c
int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount,
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall_common(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           recvtype, comm, UCMPI_XFER_BLOCKING, NULL,
                           "MPI_Alltoall_c");
}

#pragma weak MPI_Ialltoall_c = PMPI_Ialltoall_c
int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request)
{
    return alltoall_common(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           recvtype, comm, UCMPI_XFER_NONBLOCKING, request,
                           "MPI_Ialltoall_c");
}

#pragma weak MPI_Alltoall_init_c = PMPI_Alltoall_init_c
int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount,
                         MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return alltoall_common(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           recvtype, comm, UCMPI_XFER_PERSISTENT, request,
                           "MPI_Alltoall_init_c");
}

#pragma weak MPI_Alltoallv_c = PMPI_Alltoallv_c
int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                     const MPI_Aint sdispls[], MPI_Datatype sendtype,
                     void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], MPI_Datatype recvtype,
                     MPI_Comm comm)
{
    a2a_c_t c = {sendcounts, recvcounts, sdispls, rdispls};
    return alltoallvw_common(sendbuf, NULL, NULL, sendtype, NULL, recvbuf,
                             NULL, NULL, recvtype, NULL, &c, comm,
                             UCMPI_XFER_BLOCKING, NULL, "MPI_Alltoallv_c");
}

#pragma weak MPI_Ialltoallv_c = PMPI_Ialltoallv_c
int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                      const MPI_Aint sdispls[], MPI_Datatype sendtype,
                      void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], MPI_Datatype recvtype,
                      MPI_Comm comm, MPI_Request *request)
{
    a2a_c_t c = {sendcounts, recvcounts, sdispls, rdispls};
    return alltoallvw_common(sendbuf, NULL, NULL, sendtype, NULL, recvbuf,
                             NULL, NULL, recvtype, NULL, &c, comm,
                             UCMPI_XFER_NONBLOCKING, request,
                             "MPI_Ialltoallv_c");
}

#pragma weak MPI_Alltoallv_init_c = PMPI_Alltoallv_init_c
int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], MPI_Datatype sendtype,
                          void *recvbuf, const MPI_Count recvcounts[],
                          const MPI_Aint rdispls[], MPI_Datatype recvtype,
                          MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    a2a_c_t c = {sendcounts, recvcounts, sdispls, rdispls};
    (void)info;
    return alltoallvw_common(sendbuf, NULL, NULL, sendtype, NULL, recvbuf,
                             NULL, NULL, recvtype, NULL, &c, comm,
                             UCMPI_XFER_PERSISTENT, request,
                             "MPI_Alltoallv_init_c");
}

#pragma weak MPI_Alltoallw_c = PMPI_Alltoallw_c
int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                     const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                     void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[],
                     const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    a2a_c_t c = {sendcounts, recvcounts, sdispls, rdispls};
    return alltoallvw_common(sendbuf, NULL, NULL, MPI_BYTE, sendtypes,
                             recvbuf, NULL, NULL, MPI_BYTE, recvtypes, &c,
                             comm, UCMPI_XFER_BLOCKING, NULL,
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
    a2a_c_t c = {sendcounts, recvcounts, sdispls, rdispls};
    return alltoallvw_common(sendbuf, NULL, NULL, MPI_BYTE, sendtypes,
                             recvbuf, NULL, NULL, MPI_BYTE, recvtypes, &c,
                             comm, UCMPI_XFER_NONBLOCKING, request,
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
    a2a_c_t c = {sendcounts, recvcounts, sdispls, rdispls};
    (void)info;
    return alltoallvw_common(sendbuf, NULL, NULL, MPI_BYTE, sendtypes,
                             recvbuf, NULL, NULL, MPI_BYTE, recvtypes, &c,
                             comm, UCMPI_XFER_PERSISTENT, request,
                             "MPI_Alltoallw_init_c");
}
