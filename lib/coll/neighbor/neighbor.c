/*
 * MPI_Neighbor_allgather(v) and MPI_Neighbor_alltoall(v,w) in blocking,
 * nonblocking and persistent forms, on cartesian, graph and dist-graph
 * communicators (peers from ucmpi_topo_neighbors(), lib/comm/topo.h).
 */
#include "coll/neighbor/neighbor.h"
#include "comm/topo.h"

static const ucmpi_xfer_alg_t neighbor_alg = {
    0, "exchange", "all neighbours in one round", ucmpi_neighbor_exchange};

/* What every neighbor collective checks first; fills the topology part of
 * *a (also used by the _c forms in large_count_neighbor.c). */
int ucmpi_nbr_prepare(MPI_Comm comm, const void *sbuf, const void *rbuf,
                      int mode, MPI_Request *req,
                      ucmpi_coll_args_t *a, const char *fn)
{
    int rc = ucmpi_xfer_check_comm(comm, fn);

    if (rc != MPI_SUCCESS)
        return rc;
    rc = ucmpi_coll_check_req(comm, (int)mode, req, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (sbuf == MPI_IN_PLACE || rbuf == MPI_IN_PLACE)
        return ucmpi_err_comm(comm, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is not "
                              "allowed in neighbor collectives");
    *a = (ucmpi_coll_args_t){.comm = comm, .rank = comm->rank,
                             .size = comm->size, .sbuf = sbuf,
                             .sdt = MPI_BYTE, .rbuf = (void *)rbuf,
                             .rdt = MPI_BYTE};
    if (comm->is_inter ||
        ucmpi_topo_neighbors(comm, &a->indeg, &a->srcs, &a->outdeg,
                             &a->dsts) != MPI_SUCCESS)
        return ucmpi_err_comm(comm, MPI_ERR_TOPOLOGY, fn, "communicator has "
                              "no process topology");
    a->cart = ((const ucmpi_topo_t *)comm->topo)->kind == MPI_CART;
    return MPI_SUCCESS;
}

/* alltoallw checks: counts and types (displacements are MPI_Aint) */
static int nbr_check_w(ucmpi_comm_t *c, int n, const int *counts,
                       const MPI_Aint *displs, const MPI_Datatype *dts,
                       const char *what, const char *fn)
{
    static const int zero = 0;

    if (n > 0 && displs == NULL)
        return ucmpi_err_comm(c, MPI_ERR_ARG, fn, "%s displacements array "
                              "is NULL", what);
    /* the int-displacement check only looks at counts and types */
    for (int i = 0; i < n; i++) {
        int rc = ucmpi_xfer_check_types(c, 1, counts ? &counts[i] : NULL,
                                        &zero, dts ? &dts[i] : NULL, what,
                                        fn);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

static int nbr_allgather(const void *sbuf, int scount, MPI_Datatype sdt,
                         void *rbuf, int rcount, const int *rcounts,
                         const int *displs, MPI_Datatype rdt, MPI_Comm comm,
                         int mode, MPI_Request *req,
                         const char *fn)
{
    ucmpi_coll_args_t a;
    int rc = ucmpi_nbr_prepare(comm, sbuf, rbuf, mode, req, &a, fn);

    if (rc == MPI_SUCCESS)
        rc = ucmpi_xfer_check_buf(comm, sbuf, scount, sdt, "send", fn);
    if (rc == MPI_SUCCESS)
        rc = rcounts ? ucmpi_xfer_check_counts(comm, a.indeg, rcounts, displs,
                                               rdt, "receive", fn)
                     : ucmpi_xfer_check_buf(comm, rbuf, rcount, rdt,
                                            "receive", fn);
    if (rc == MPI_SUCCESS) {
        ucmpi_coll_side_t s = {.buf = sbuf, .n = 1, .count = scount,
                               .dt = sdt};
        ucmpi_coll_side_t r = {.buf = rbuf, .n = a.indeg, .dt = rdt,
                               .count = rcount * a.indeg, .counts = rcounts,
                               .displs = displs};
        rc = ucmpi_coll_check_alias(comm, &s, &r, fn);
    }
    if (rc != MPI_SUCCESS)
        return rc;
    a.scount = scount;
    a.sdt = sdt;
    a.rcount = rcount;
    a.rdt = rdt;
    a.rcounts = rcounts;
    a.rdispls = displs;
    a.nrblk = a.indeg;
    return ucmpi_xfer_run(&neighbor_alg, &a, mode, req, fn);
}

/* alltoall (counts NULL), alltoallv (counts), alltoallw (counts, types,
 * MPI_Aint byte displacements) */
static int nbr_alltoallw(const void *sbuf, int scount, const int *scounts,
                         const int *sdispls, const MPI_Aint *sadispls,
                         MPI_Datatype sdt, const MPI_Datatype *sdts,
                         void *rbuf, int rcount, const int *rcounts,
                         const int *rdispls, const MPI_Aint *radispls,
                         MPI_Datatype rdt, const MPI_Datatype *rdts,
                         MPI_Comm comm, int mode,
                         MPI_Request *req, const char *fn)
{
    ucmpi_coll_args_t a;
    int rc = ucmpi_nbr_prepare(comm, sbuf, rbuf, mode, req, &a, fn);

    if (rc == MPI_SUCCESS && sdts)
        rc = nbr_check_w(comm, a.outdeg, scounts, sadispls, sdts, "send", fn);
    else if (rc == MPI_SUCCESS)
        rc = scounts ? ucmpi_xfer_check_counts(comm, a.outdeg, scounts,
                                               sdispls, sdt, "send", fn)
                     : ucmpi_xfer_check_buf(comm, sbuf, scount, sdt, "send",
                                            fn);
    if (rc == MPI_SUCCESS && rdts)
        rc = nbr_check_w(comm, a.indeg, rcounts, radispls, rdts, "receive",
                         fn);
    else if (rc == MPI_SUCCESS)
        rc = rcounts ? ucmpi_xfer_check_counts(comm, a.indeg, rcounts,
                                               rdispls, rdt, "receive", fn)
                     : ucmpi_xfer_check_buf(comm, rbuf, rcount, rdt,
                                            "receive", fn);
    if (rc == MPI_SUCCESS) {
        /* uniform: outdeg / indeg blocks; w: MPI_Aint byte displacements */
        ucmpi_coll_side_t s = {.buf = sbuf, .n = a.outdeg, .dt = sdt,
                               .count = scount * a.outdeg, .counts = scounts,
                               .displs = sdispls, .adispls = sadispls,
                               .dts = sdts};
        ucmpi_coll_side_t r = {.buf = rbuf, .n = a.indeg, .dt = rdt,
                               .count = rcount * a.indeg, .counts = rcounts,
                               .displs = rdispls, .adispls = radispls,
                               .dts = rdts};
        rc = ucmpi_coll_check_alias(comm, &s, &r, fn);
    }
    if (rc != MPI_SUCCESS)
        return rc;
    a.scount = scount;
    a.sdt = sdts ? MPI_BYTE : sdt;
    a.scounts = scounts;
    a.sdispls = sdispls;
    a.sadispls = sadispls;
    a.sdts = sdts;
    a.nsblk = a.outdeg;
    a.rcount = rcount;
    a.rdt = rdts ? MPI_BYTE : rdt;
    a.rcounts = rcounts;
    a.rdispls = rdispls;
    a.radispls = radispls;
    a.rdts = rdts;
    a.nrblk = a.indeg;
    return ucmpi_xfer_run(&neighbor_alg, &a, mode, req, fn);
}

static int nbr_alltoall(const void *sbuf, int scount, const int *scounts,
                        const int *sdispls, MPI_Datatype sdt,
                        const MPI_Datatype *sdts, void *rbuf, int rcount,
                        const int *rcounts, const int *rdispls,
                        MPI_Datatype rdt, const MPI_Datatype *rdts,
                        MPI_Comm comm, int mode,
                        MPI_Request *req, const char *fn)
{
    return nbr_alltoallw(sbuf, scount, scounts, sdispls, NULL, sdt, sdts,
                         rbuf, rcount, rcounts, rdispls, NULL, rdt, rdts,
                         comm, mode, req, fn);
}

#define B UCMPI_COLL_BLOCKING
#define NB UCMPI_COLL_NONBLOCKING
#define P UCMPI_COLL_PERSISTENT

#pragma weak MPI_Neighbor_allgather = PMPI_Neighbor_allgather
int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm)
{
    return nbr_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                         NULL, NULL, recvtype, comm, B, NULL,
                         "MPI_Neighbor_allgather");
}

#pragma weak MPI_Ineighbor_allgather = PMPI_Ineighbor_allgather
int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm, MPI_Request *request)
{
    return nbr_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                         NULL, NULL, recvtype, comm, NB, request,
                         "MPI_Ineighbor_allgather");
}

#pragma weak MPI_Neighbor_allgather_init = PMPI_Neighbor_allgather_init
int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void *recvbuf,
                                 int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    (void)info;
    return nbr_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                         NULL, NULL, recvtype, comm, P, request,
                         "MPI_Neighbor_allgather_init");
}

#pragma weak MPI_Neighbor_allgatherv = PMPI_Neighbor_allgatherv
int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm)
{
    return nbr_allgather(sendbuf, sendcount, sendtype, recvbuf, 0,
                         recvcounts, displs, recvtype, comm, B, NULL,
                         "MPI_Neighbor_allgatherv");
}

#pragma weak MPI_Ineighbor_allgatherv = PMPI_Ineighbor_allgatherv
int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request *request)
{
    return nbr_allgather(sendbuf, sendcount, sendtype, recvbuf, 0,
                         recvcounts, displs, recvtype, comm, NB, request,
                         "MPI_Ineighbor_allgatherv");
}

#pragma weak MPI_Neighbor_allgatherv_init = PMPI_Neighbor_allgatherv_init
int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount,
                                  MPI_Datatype sendtype, void *recvbuf,
                                  const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm,
                                  MPI_Info info, MPI_Request *request)
{
    (void)info;
    return nbr_allgather(sendbuf, sendcount, sendtype, recvbuf, 0,
                         recvcounts, displs, recvtype, comm, P, request,
                         "MPI_Neighbor_allgatherv_init");
}

#pragma weak MPI_Neighbor_alltoall = PMPI_Neighbor_alltoall
int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype,
                           MPI_Comm comm)
{
    return nbr_alltoall(sendbuf, sendcount, NULL, NULL, sendtype, NULL,
                        recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm,
                        B, NULL, "MPI_Neighbor_alltoall");
}

#pragma weak MPI_Ineighbor_alltoall = PMPI_Ineighbor_alltoall
int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request *request)
{
    return nbr_alltoall(sendbuf, sendcount, NULL, NULL, sendtype, NULL,
                        recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm,
                        NB, request, "MPI_Ineighbor_alltoall");
}

#pragma weak MPI_Neighbor_alltoall_init = PMPI_Neighbor_alltoall_init
int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount,
                                MPI_Datatype sendtype, void *recvbuf,
                                int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Info info,
                                MPI_Request *request)
{
    (void)info;
    return nbr_alltoall(sendbuf, sendcount, NULL, NULL, sendtype, NULL,
                        recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm,
                        P, request, "MPI_Neighbor_alltoall_init");
}

#pragma weak MPI_Neighbor_alltoallv = PMPI_Neighbor_alltoallv
int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[],
                            const int sdispls[], MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm)
{
    return nbr_alltoall(sendbuf, 0, sendcounts, sdispls, sendtype, NULL,
                        recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm,
                        B, NULL, "MPI_Neighbor_alltoallv");
}

#pragma weak MPI_Ineighbor_alltoallv = PMPI_Ineighbor_alltoallv
int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[],
                             const int sdispls[], MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype,
                             MPI_Comm comm, MPI_Request *request)
{
    return nbr_alltoall(sendbuf, 0, sendcounts, sdispls, sendtype, NULL,
                        recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm,
                        NB, request, "MPI_Ineighbor_alltoallv");
}

#pragma weak MPI_Neighbor_alltoallv_init = PMPI_Neighbor_alltoallv_init
int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[],
                                 const int sdispls[], MPI_Datatype sendtype,
                                 void *recvbuf, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    (void)info;
    return nbr_alltoall(sendbuf, 0, sendcounts, sdispls, sendtype, NULL,
                        recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm,
                        P, request, "MPI_Neighbor_alltoallv_init");
}


#pragma weak MPI_Neighbor_alltoallw = PMPI_Neighbor_alltoallw
int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                            const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf,
                            const int recvcounts[], const MPI_Aint rdispls[],
                            const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return nbr_alltoallw(sendbuf, 0, sendcounts, NULL, sdispls, MPI_BYTE,
                         sendtypes, recvbuf, 0, recvcounts, NULL, rdispls,
                         MPI_BYTE, recvtypes, comm, B, NULL,
                         "MPI_Neighbor_alltoallw");
}

#pragma weak MPI_Ineighbor_alltoallw = PMPI_Ineighbor_alltoallw
int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                             const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf,
                             const int recvcounts[], const MPI_Aint rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm,
                             MPI_Request *request)
{
    return nbr_alltoallw(sendbuf, 0, sendcounts, NULL, sdispls, MPI_BYTE,
                         sendtypes, recvbuf, 0, recvcounts, NULL, rdispls,
                         MPI_BYTE, recvtypes, comm, NB, request,
                         "MPI_Ineighbor_alltoallw");
}

#pragma weak MPI_Neighbor_alltoallw_init = PMPI_Neighbor_alltoallw_init
int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[],
                                 const MPI_Datatype sendtypes[],
                                 void *recvbuf, const int recvcounts[],
                                 const MPI_Aint rdispls[],
                                 const MPI_Datatype recvtypes[],
                                 MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    (void)info;
    return nbr_alltoallw(sendbuf, 0, sendcounts, NULL, sdispls, MPI_BYTE,
                         sendtypes, recvbuf, 0, recvcounts, NULL, rdispls,
                         MPI_BYTE, recvtypes, comm, P, request,
                         "MPI_Neighbor_alltoallw_init");
}
