/*
 * MPI_Neighbor_allgather(v) and MPI_Neighbor_alltoall(v,w) in blocking,
 * nonblocking and persistent forms, on cartesian, graph and dist-graph
 * communicators (peers from ucmpi_topo_neighbors(), lib/comm/topo.h), in
 * their int and large-count (_c) forms.
 */
#include "coll/neighbor/neighbor.h"
#include "coll/coll_drv.h"
#include "comm/topo.h"

static const ucmpi_xfer_alg_t neighbor_alg = {
    0, "exchange", "all neighbours in one round", ucmpi_neighbor_exchange};

/* The topology part of *a (after the driver's checks). */
static int nbr_topology(ucmpi_coll_args_t *a, const char *fn)
{
    ucmpi_comm_t *comm = a->comm;

    if (a->sbuf == MPI_IN_PLACE || a->rbuf == MPI_IN_PLACE)
        return ucmpi_err_comm(comm, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is not "
                              "allowed in neighbor collectives");
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

/* One side's arrays: _c forms (large), alltoallw (dts), v forms
 * (counts) or uniform. */
static int nbr_side(ucmpi_comm_t *c, int large, int n, const void *buf,
                    MPI_Count count, const int *counts, const int *displs,
                    const MPI_Aint *adispls, const MPI_Count *ccounts,
                    const MPI_Aint *cdispls, MPI_Datatype dt,
                    const MPI_Datatype *dts, const char *what, const char *fn)
{
    if (large && ccounts != NULL)
        return ucmpi_xfer_check_counts_c(c, n, ccounts, cdispls, dt, dts,
                                         what, fn);
    if (large || (counts == NULL && dts == NULL))
        return ucmpi_xfer_check_buf(c, buf, count, dt, what, fn);
    if (dts != NULL)
        return nbr_check_w(c, n, counts, adispls, dts, what, fn);
    return ucmpi_xfer_check_counts(c, n, counts, displs, dt, what, fn);
}

/* allgather(v) (ag: one send block to every destination) and
 * alltoall(v,w), int or _c (large) forms. */
static int nbr_start(ucmpi_coll_args_t *a, int ag, int large)
{
    const char *fn = ucmpi_call_name();
    ucmpi_comm_t *comm = a->comm;
    int rc = nbr_topology(a, fn);

    if (rc == MPI_SUCCESS)
        rc = nbr_side(comm, large, ag ? 1 : a->outdeg, a->sbuf, a->scount,
                      a->scounts, a->sdispls, a->sadispls, a->scounts_c,
                      a->sdispls_c, a->sdt, a->sdts, "send", fn);
    if (rc == MPI_SUCCESS)
        rc = nbr_side(comm, large, a->indeg, a->rbuf, a->rcount, a->rcounts,
                      a->rdispls, a->radispls, a->rcounts_c, a->rdispls_c,
                      a->rdt, a->rdts, "receive", fn);
    if (rc == MPI_SUCCESS) {
        /* uniform: outdeg / indeg blocks; w: MPI_Aint byte displacements */
        ucmpi_coll_side_t s = {
            .buf = a->sbuf, .n = ag ? 1 : a->outdeg, .dt = a->sdt,
            .count = ag ? a->scount : a->scount * a->outdeg,
            .counts = a->scounts, .displs = a->sdispls,
            .ccounts = a->scounts_c,
            .adispls = large ? a->sdispls_c : a->sadispls, .dts = a->sdts};
        ucmpi_coll_side_t r = {
            .buf = a->rbuf, .n = a->indeg, .dt = a->rdt,
            .count = a->rcount * a->indeg, .counts = a->rcounts,
            .displs = a->rdispls, .ccounts = a->rcounts_c,
            .adispls = large ? a->rdispls_c : a->radispls, .dts = a->rdts};
        rc = ucmpi_coll_check_alias(comm, &s, &r, fn);
    }
    if (rc != MPI_SUCCESS)
        return rc;
    a->nsblk = ag ? 0 : a->outdeg;
    a->nrblk = a->indeg;
    return ucmpi_xfer_run(&neighbor_alg, a, a->mode, a->req, fn);
}

static int ag_start(ucmpi_coll_args_t *a)
{
    return nbr_start(a, 1, 0);
}

static int ag_c_start(ucmpi_coll_args_t *a)
{
    return nbr_start(a, 1, 1);
}

static int a2a_start(ucmpi_coll_args_t *a)
{
    return nbr_start(a, 0, 0);
}

static int a2a_c_start(ucmpi_coll_args_t *a)
{
    return nbr_start(a, 0, 1);
}

static const ucmpi_coll_desc_t ag_desc = {.start = ag_start};
static const ucmpi_coll_desc_t ag_c_desc = {.start = ag_c_start};
static const ucmpi_coll_desc_t a2a_desc = {.start = a2a_start};
static const ucmpi_coll_desc_t a2a_c_desc = {.start = a2a_c_start};

#pragma weak MPI_Neighbor_allgather = PMPI_Neighbor_allgather
int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype};
    return ucmpi_coll_call(&ag_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Neighbor_allgather");
}

#pragma weak MPI_Ineighbor_allgather = PMPI_Ineighbor_allgather
int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype};
    return ucmpi_coll_call(&ag_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ineighbor_allgather");
}

#pragma weak MPI_Neighbor_allgather_init = PMPI_Neighbor_allgather_init
int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void *recvbuf,
                                 int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype};
    return ucmpi_coll_call(&ag_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Neighbor_allgather_init");
}

#pragma weak MPI_Neighbor_allgatherv = PMPI_Neighbor_allgatherv
int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts = recvcounts, .rdispls = displs,
                           .rdt = recvtype};
    return ucmpi_coll_call(&ag_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Neighbor_allgatherv");
}

#pragma weak MPI_Ineighbor_allgatherv = PMPI_Ineighbor_allgatherv
int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts = recvcounts, .rdispls = displs,
                           .rdt = recvtype};
    return ucmpi_coll_call(&ag_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ineighbor_allgatherv");
}

#pragma weak MPI_Neighbor_allgatherv_init = PMPI_Neighbor_allgatherv_init
int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount,
                                  MPI_Datatype sendtype, void *recvbuf,
                                  const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm,
                                  MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts = recvcounts, .rdispls = displs,
                           .rdt = recvtype};
    return ucmpi_coll_call(&ag_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Neighbor_allgatherv_init");
}

#pragma weak MPI_Neighbor_alltoall = PMPI_Neighbor_alltoall
int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype};
    return ucmpi_coll_call(&a2a_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Neighbor_alltoall");
}

#pragma weak MPI_Ineighbor_alltoall = PMPI_Ineighbor_alltoall
int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype};
    return ucmpi_coll_call(&a2a_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ineighbor_alltoall");
}

#pragma weak MPI_Neighbor_alltoall_init = PMPI_Neighbor_alltoall_init
int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount,
                                MPI_Datatype sendtype, void *recvbuf,
                                int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Info info,
                                MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype};
    return ucmpi_coll_call(&a2a_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Neighbor_alltoall_init");
}

#pragma weak MPI_Neighbor_alltoallv = PMPI_Neighbor_alltoallv
int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[],
                            const int sdispls[], MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf,
                           .scounts = sendcounts, .sdispls = sdispls,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts = recvcounts, .rdispls = rdispls,
                           .rdt = recvtype};
    return ucmpi_coll_call(&a2a_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Neighbor_alltoallv");
}

#pragma weak MPI_Ineighbor_alltoallv = PMPI_Ineighbor_alltoallv
int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[],
                             const int sdispls[], MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype,
                             MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf,
                           .scounts = sendcounts, .sdispls = sdispls,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts = recvcounts, .rdispls = rdispls,
                           .rdt = recvtype};
    return ucmpi_coll_call(&a2a_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ineighbor_alltoallv");
}

#pragma weak MPI_Neighbor_alltoallv_init = PMPI_Neighbor_alltoallv_init
int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[],
                                 const int sdispls[], MPI_Datatype sendtype,
                                 void *recvbuf, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf,
                           .scounts = sendcounts, .sdispls = sdispls,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts = recvcounts, .rdispls = rdispls,
                           .rdt = recvtype};
    return ucmpi_coll_call(&a2a_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Neighbor_alltoallv_init");
}

#pragma weak MPI_Neighbor_alltoallw = PMPI_Neighbor_alltoallw
int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                            const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf,
                            const int recvcounts[], const MPI_Aint rdispls[],
                            const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf,
                           .scounts = sendcounts, .sadispls = sdispls,
                           .sdt = MPI_BYTE, .sdts = sendtypes, .rbuf = recvbuf,
                           .rcounts = recvcounts, .radispls = rdispls,
                           .rdt = MPI_BYTE, .rdts = recvtypes};
    return ucmpi_coll_call(&a2a_desc, &a, UCMPI_COLL_BLOCKING, NULL,
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
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf,
                           .scounts = sendcounts, .sadispls = sdispls,
                           .sdt = MPI_BYTE, .sdts = sendtypes, .rbuf = recvbuf,
                           .rcounts = recvcounts, .radispls = rdispls,
                           .rdt = MPI_BYTE, .rdts = recvtypes};
    return ucmpi_coll_call(&a2a_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ineighbor_alltoallw");
}

#pragma weak MPI_Neighbor_alltoallw_init = PMPI_Neighbor_alltoallw_init
int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[],
                                 const MPI_Datatype sendtypes[], void *recvbuf,
                                 const int recvcounts[],
                                 const MPI_Aint rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf,
                           .scounts = sendcounts, .sadispls = sdispls,
                           .sdt = MPI_BYTE, .sdts = sendtypes, .rbuf = recvbuf,
                           .rcounts = recvcounts, .radispls = rdispls,
                           .rdt = MPI_BYTE, .rdts = recvtypes};
    return ucmpi_coll_call(&a2a_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Neighbor_alltoallw_init");
}

/* Large-count (MPI-4) forms. */
#pragma weak MPI_Neighbor_allgather_c = PMPI_Neighbor_allgather_c
int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype};
    return ucmpi_coll_call(&ag_c_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Neighbor_allgather_c");
}

#pragma weak MPI_Ineighbor_allgather_c = PMPI_Ineighbor_allgather_c
int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype};
    return ucmpi_coll_call(&ag_c_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ineighbor_allgather_c");
}

#pragma weak MPI_Neighbor_allgather_init_c = PMPI_Neighbor_allgather_init_c
int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount,
                                   MPI_Datatype sendtype, void *recvbuf,
                                   MPI_Count recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype};
    return ucmpi_coll_call(&ag_c_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Neighbor_allgather_init_c");
}

#pragma weak MPI_Neighbor_allgatherv_c = PMPI_Neighbor_allgatherv_c
int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[],
                               const MPI_Aint displs[], MPI_Datatype recvtype,
                               MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts_c = recvcounts, .rdispls_c = displs,
                           .rdt = recvtype};
    return ucmpi_coll_call(&ag_c_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Neighbor_allgatherv_c");
}

#pragma weak MPI_Ineighbor_allgatherv_c = PMPI_Ineighbor_allgatherv_c
int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount,
                                MPI_Datatype sendtype, void *recvbuf,
                                const MPI_Count recvcounts[],
                                const MPI_Aint displs[], MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts_c = recvcounts, .rdispls_c = displs,
                           .rdt = recvtype};
    return ucmpi_coll_call(&ag_c_desc, &a, UCMPI_COLL_NONBLOCKING, request,
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
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts_c = recvcounts, .rdispls_c = displs,
                           .rdt = recvtype};
    return ucmpi_coll_call(&ag_c_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Neighbor_allgatherv_init_c");
}

#pragma weak MPI_Neighbor_alltoall_c = PMPI_Neighbor_alltoall_c
int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype};
    return ucmpi_coll_call(&a2a_c_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Neighbor_alltoall_c");
}

#pragma weak MPI_Ineighbor_alltoall_c = PMPI_Ineighbor_alltoall_c
int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype};
    return ucmpi_coll_call(&a2a_c_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ineighbor_alltoall_c");
}

#pragma weak MPI_Neighbor_alltoall_init_c = PMPI_Neighbor_alltoall_init_c
int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount,
                                  MPI_Datatype sendtype, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .scount = sendcount,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = recvtype};
    return ucmpi_coll_call(&a2a_c_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Neighbor_alltoall_init_c");
}

#pragma weak MPI_Neighbor_alltoallv_c = PMPI_Neighbor_alltoallv_c
int PMPI_Neighbor_alltoallv_c(const void *sendbuf,
                              const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], MPI_Datatype sendtype,
                              void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf,
                           .scounts_c = sendcounts, .sdispls_c = sdispls,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts_c = recvcounts, .rdispls_c = rdispls,
                           .rdt = recvtype};
    return ucmpi_coll_call(&a2a_c_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Neighbor_alltoallv_c");
}

#pragma weak MPI_Ineighbor_alltoallv_c = PMPI_Ineighbor_alltoallv_c
int PMPI_Ineighbor_alltoallv_c(const void *sendbuf,
                               const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], MPI_Datatype sendtype,
                               void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf,
                           .scounts_c = sendcounts, .sdispls_c = sdispls,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts_c = recvcounts, .rdispls_c = rdispls,
                           .rdt = recvtype};
    return ucmpi_coll_call(&a2a_c_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ineighbor_alltoallv_c");
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
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf,
                           .scounts_c = sendcounts, .sdispls_c = sdispls,
                           .sdt = sendtype, .rbuf = recvbuf,
                           .rcounts_c = recvcounts, .rdispls_c = rdispls,
                           .rdt = recvtype};
    return ucmpi_coll_call(&a2a_c_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Neighbor_alltoallv_init_c");
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
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf,
                           .scounts_c = sendcounts, .sdispls_c = sdispls,
                           .sdt = MPI_BYTE, .sdts = sendtypes, .rbuf = recvbuf,
                           .rcounts_c = recvcounts, .rdispls_c = rdispls,
                           .rdt = MPI_BYTE, .rdts = recvtypes};
    return ucmpi_coll_call(&a2a_c_desc, &a, UCMPI_COLL_BLOCKING, NULL,
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
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf,
                           .scounts_c = sendcounts, .sdispls_c = sdispls,
                           .sdt = MPI_BYTE, .sdts = sendtypes, .rbuf = recvbuf,
                           .rcounts_c = recvcounts, .rdispls_c = rdispls,
                           .rdt = MPI_BYTE, .rdts = recvtypes};
    return ucmpi_coll_call(&a2a_c_desc, &a, UCMPI_COLL_NONBLOCKING, request,
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
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf,
                           .scounts_c = sendcounts, .sdispls_c = sdispls,
                           .sdt = MPI_BYTE, .sdts = sendtypes, .rbuf = recvbuf,
                           .rcounts_c = recvcounts, .rdispls_c = rdispls,
                           .rdt = MPI_BYTE, .rdts = recvtypes};
    return ucmpi_coll_call(&a2a_c_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Neighbor_alltoallw_init_c");
}
