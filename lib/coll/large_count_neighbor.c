/* Large-count (MPI-4 "_c") neighbor collectives: Neighbor_allgather(v)_c
 * and Neighbor_alltoall(v,w)_c, blocking, nonblocking and persistent.  The
 * same shapes as neighbor/neighbor.c, with MPI_Count counts and MPI_Aint
 * displacements read through ucmpi_coll_args_t's *_c fields. */
#include "coll/neighbor/neighbor.h"

static const ucmpi_xfer_alg_t nbr_c_alg = {
    0, "exchange", "all neighbours in one round", ucmpi_neighbor_exchange};

/* allgather (rcounts NULL) and allgatherv */
static int nbr_allgather_c(const void *sbuf, MPI_Count scount,
                           MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                           const MPI_Count *rcounts, const MPI_Aint *displs,
                           MPI_Datatype rdt, MPI_Comm comm,
                           int mode, MPI_Request *req,
                           const char *fn)
{
    ucmpi_coll_args_t a;
    int rc = ucmpi_nbr_prepare(comm, sbuf, rbuf, mode, req, &a, fn);

    if (rc == MPI_SUCCESS)
        rc = ucmpi_xfer_check_buf(comm, sbuf, scount, sdt, "send", fn);
    if (rc == MPI_SUCCESS)
        rc = rcounts ? ucmpi_xfer_check_counts_c(comm, a.indeg, rcounts,
                                                 displs, rdt, NULL,
                                                 "receive", fn)
                     : ucmpi_xfer_check_buf(comm, rbuf, rcount, rdt,
                                            "receive", fn);
    if (rc == MPI_SUCCESS) {
        ucmpi_coll_side_t s = {.buf = sbuf, .n = 1, .count = scount,
                               .dt = sdt};
        ucmpi_coll_side_t r = {.buf = rbuf, .n = a.indeg, .dt = rdt,
                               .count = rcount * a.indeg, .ccounts = rcounts,
                               .adispls = displs};
        rc = ucmpi_coll_check_alias(comm, &s, &r, fn);
    }
    if (rc != MPI_SUCCESS)
        return rc;
    a.scount = scount;
    a.sdt = sdt;
    a.rcount = rcount;
    a.rdt = rdt;
    a.rcounts_c = rcounts;
    a.rdispls_c = displs;
    a.nrblk = a.indeg;
    return ucmpi_xfer_run(&nbr_c_alg, &a, mode, req, fn);
}

/* One side of an alltoall(v,w)_c: uniform when counts is NULL. */
static int nbr_side_c(MPI_Comm comm, const void *buf, MPI_Count count,
                      const MPI_Count *counts, const MPI_Aint *displs,
                      MPI_Datatype dt, const MPI_Datatype *dts, int n,
                      const char *what, const char *fn)
{
    if (counts == NULL)
        return ucmpi_xfer_check_buf(comm, buf, count, dt, what, fn);
    return ucmpi_xfer_check_counts_c(comm, n, counts, displs, dt, dts, what,
                                     fn);
}

/* alltoall (counts NULL), alltoallv (counts), alltoallw (counts, types,
 * byte displacements) */
static int nbr_alltoall_c(const void *sbuf, MPI_Count scount,
                          const MPI_Count *scounts, const MPI_Aint *sdispls,
                          MPI_Datatype sdt, const MPI_Datatype *sdts,
                          void *rbuf, MPI_Count rcount,
                          const MPI_Count *rcounts, const MPI_Aint *rdispls,
                          MPI_Datatype rdt, const MPI_Datatype *rdts,
                          MPI_Comm comm, int mode,
                          MPI_Request *req, const char *fn)
{
    ucmpi_coll_args_t a;
    int rc = ucmpi_nbr_prepare(comm, sbuf, rbuf, mode, req, &a, fn);

    if (rc == MPI_SUCCESS)
        rc = nbr_side_c(comm, sbuf, scount, scounts, sdispls, sdt, sdts,
                        a.outdeg, "send", fn);
    if (rc == MPI_SUCCESS)
        rc = nbr_side_c(comm, rbuf, rcount, rcounts, rdispls, rdt, rdts,
                        a.indeg, "receive", fn);
    if (rc == MPI_SUCCESS) {
        ucmpi_coll_side_t s = {.buf = sbuf, .n = a.outdeg, .dt = sdt,
                               .count = scount * a.outdeg, .ccounts = scounts,
                               .adispls = sdispls, .dts = sdts};
        ucmpi_coll_side_t r = {.buf = rbuf, .n = a.indeg, .dt = rdt,
                               .count = rcount * a.indeg, .ccounts = rcounts,
                               .adispls = rdispls, .dts = rdts};
        rc = ucmpi_coll_check_alias(comm, &s, &r, fn);
    }
    if (rc != MPI_SUCCESS)
        return rc;
    a.scount = scount;
    a.sdt = sdts ? MPI_BYTE : sdt;
    a.scounts_c = scounts;
    a.sdispls_c = sdispls;
    a.sdts = sdts;
    a.nsblk = a.outdeg;
    a.rcount = rcount;
    a.rdt = rdts ? MPI_BYTE : rdt;
    a.rcounts_c = rcounts;
    a.rdispls_c = rdispls;
    a.rdts = rdts;
    a.nrblk = a.indeg;
    return ucmpi_xfer_run(&nbr_c_alg, &a, mode, req, fn);
}

#define B UCMPI_COLL_BLOCKING
#define NB UCMPI_COLL_NONBLOCKING
#define P UCMPI_COLL_PERSISTENT

#pragma weak MPI_Neighbor_allgather_c = PMPI_Neighbor_allgather_c
int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm)
{
    return nbr_allgather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           NULL, NULL, recvtype, comm, B, NULL,
                           "MPI_Neighbor_allgather_c");
}

#pragma weak MPI_Ineighbor_allgather_c = PMPI_Ineighbor_allgather_c
int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request)
{
    return nbr_allgather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           NULL, NULL, recvtype, comm, NB, request,
                           "MPI_Ineighbor_allgather_c");
}

#pragma weak MPI_Neighbor_allgather_init_c = PMPI_Neighbor_allgather_init_c
int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount,
                                   MPI_Datatype sendtype, void *recvbuf,
                                   MPI_Count recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    (void)info;
    return nbr_allgather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           NULL, NULL, recvtype, comm, P, request,
                           "MPI_Neighbor_allgather_init_c");
}

#pragma weak MPI_Neighbor_allgatherv_c = PMPI_Neighbor_allgatherv_c
int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[],
                               const MPI_Aint displs[], MPI_Datatype recvtype,
                               MPI_Comm comm)
{
    return nbr_allgather_c(sendbuf, sendcount, sendtype, recvbuf, 0,
                           recvcounts, displs, recvtype, comm, B, NULL,
                           "MPI_Neighbor_allgatherv_c");
}

#pragma weak MPI_Ineighbor_allgatherv_c = PMPI_Ineighbor_allgatherv_c
int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount,
                                MPI_Datatype sendtype, void *recvbuf,
                                const MPI_Count recvcounts[],
                                const MPI_Aint displs[],
                                MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request)
{
    return nbr_allgather_c(sendbuf, sendcount, sendtype, recvbuf, 0,
                           recvcounts, displs, recvtype, comm, NB, request,
                           "MPI_Ineighbor_allgatherv_c");
}

#pragma weak MPI_Neighbor_allgatherv_init_c = PMPI_Neighbor_allgatherv_init_c
int PMPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount,
                                    MPI_Datatype sendtype, void *recvbuf,
                                    const MPI_Count recvcounts[],
                                    const MPI_Aint displs[],
                                    MPI_Datatype recvtype, MPI_Comm comm,
                                    MPI_Info info, MPI_Request *request)
{
    (void)info;
    return nbr_allgather_c(sendbuf, sendcount, sendtype, recvbuf, 0,
                           recvcounts, displs, recvtype, comm, P, request,
                           "MPI_Neighbor_allgatherv_init_c");
}

#pragma weak MPI_Neighbor_alltoall_c = PMPI_Neighbor_alltoall_c
int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm)
{
    return nbr_alltoall_c(sendbuf, sendcount, NULL, NULL, sendtype, NULL,
                          recvbuf, recvcount, NULL, NULL, recvtype, NULL,
                          comm, B, NULL, "MPI_Neighbor_alltoall_c");
}

#pragma weak MPI_Ineighbor_alltoall_c = PMPI_Ineighbor_alltoall_c
int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request *request)
{
    return nbr_alltoall_c(sendbuf, sendcount, NULL, NULL, sendtype, NULL,
                          recvbuf, recvcount, NULL, NULL, recvtype, NULL,
                          comm, NB, request, "MPI_Ineighbor_alltoall_c");
}

#pragma weak MPI_Neighbor_alltoall_init_c = PMPI_Neighbor_alltoall_init_c
int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount,
                                  MPI_Datatype sendtype, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    (void)info;
    return nbr_alltoall_c(sendbuf, sendcount, NULL, NULL, sendtype, NULL,
                          recvbuf, recvcount, NULL, NULL, recvtype, NULL,
                          comm, P, request, "MPI_Neighbor_alltoall_init_c");
}

#pragma weak MPI_Neighbor_alltoallv_c = PMPI_Neighbor_alltoallv_c
int PMPI_Neighbor_alltoallv_c(const void *sendbuf,
                              const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], MPI_Datatype sendtype,
                              void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm)
{
    return nbr_alltoall_c(sendbuf, 0, sendcounts, sdispls, sendtype, NULL,
                          recvbuf, 0, recvcounts, rdispls, recvtype, NULL,
                          comm, B, NULL, "MPI_Neighbor_alltoallv_c");
}

#pragma weak MPI_Ineighbor_alltoallv_c = PMPI_Ineighbor_alltoallv_c
int PMPI_Ineighbor_alltoallv_c(const void *sendbuf,
                               const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[],
                               MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm,
                               MPI_Request *request)
{
    return nbr_alltoall_c(sendbuf, 0, sendcounts, sdispls, sendtype, NULL,
                          recvbuf, 0, recvcounts, rdispls, recvtype, NULL,
                          comm, NB, request, "MPI_Ineighbor_alltoallv_c");
}

#pragma weak MPI_Neighbor_alltoallv_init_c = PMPI_Neighbor_alltoallv_init_c
int PMPI_Neighbor_alltoallv_init_c(const void *sendbuf,
                                   const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[],
                                   MPI_Datatype sendtype, void *recvbuf,
                                   const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[],
                                   MPI_Datatype recvtype, MPI_Comm comm,
                                   MPI_Info info, MPI_Request *request)
{
    (void)info;
    return nbr_alltoall_c(sendbuf, 0, sendcounts, sdispls, sendtype, NULL,
                          recvbuf, 0, recvcounts, rdispls, recvtype, NULL,
                          comm, P, request, "MPI_Neighbor_alltoallv_init_c");
}

#pragma weak MPI_Neighbor_alltoallw_c = PMPI_Neighbor_alltoallw_c
int PMPI_Neighbor_alltoallw_c(const void *sendbuf,
                              const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf,
                              const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return nbr_alltoall_c(sendbuf, 0, sendcounts, sdispls, MPI_BYTE,
                          sendtypes, recvbuf, 0, recvcounts, rdispls,
                          MPI_BYTE, recvtypes, comm, B, NULL,
                          "MPI_Neighbor_alltoallw_c");
}

#pragma weak MPI_Ineighbor_alltoallw_c = PMPI_Ineighbor_alltoallw_c
int PMPI_Ineighbor_alltoallw_c(const void *sendbuf,
                               const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[],
                               const MPI_Datatype sendtypes[], void *recvbuf,
                               const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[],
                               const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Request *request)
{
    return nbr_alltoall_c(sendbuf, 0, sendcounts, sdispls, MPI_BYTE,
                          sendtypes, recvbuf, 0, recvcounts, rdispls,
                          MPI_BYTE, recvtypes, comm, NB, request,
                          "MPI_Ineighbor_alltoallw_c");
}

#pragma weak MPI_Neighbor_alltoallw_init_c = PMPI_Neighbor_alltoallw_init_c
int PMPI_Neighbor_alltoallw_init_c(const void *sendbuf,
                                   const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[],
                                   const MPI_Datatype sendtypes[],
                                   void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[],
                                   const MPI_Datatype recvtypes[],
                                   MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    (void)info;
    return nbr_alltoall_c(sendbuf, 0, sendcounts, sdispls, MPI_BYTE,
                          sendtypes, recvbuf, 0, recvcounts, rdispls,
                          MPI_BYTE, recvtypes, comm, P, request,
                          "MPI_Neighbor_alltoallw_init_c");
}
