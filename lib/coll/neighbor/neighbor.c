/* MPI_Neighbor_allgather(v) and MPI_Neighbor_alltoall(v,w), all forms,
 * over the peers of ucmpi_topo_neighbors() (lib/comm/topo.h). */
#include "coll/neighbor/neighbor.h"
#include "coll/coll_drv.h"
#include "comm/topo.h"

static const ucmpi_coll_alg_t neighbor_alg = {
    0, "exchange", "all neighbours in one round", ucmpi_neighbor_exchange};

/* The topology part of *a (after the driver's checks). */
static int nbr_topology(ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *comm = a->comm;

    if (a->sbuf == MPI_IN_PLACE || a->rbuf == MPI_IN_PLACE)
        return ucmpi_coll_err(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is not "
                              "allowed in neighbor collectives");
    if (comm->is_inter ||
        ucmpi_topo_neighbors(comm, &a->indeg, &a->srcs, &a->outdeg,
                             &a->dsts) != MPI_SUCCESS)
        return ucmpi_coll_err(comm, MPI_ERR_TOPOLOGY, "communicator has "
                              "no process topology");
    a->cart = ((const ucmpi_topo_t *)comm->topo)->kind == MPI_CART;
    return MPI_SUCCESS;
}

/* One side: its arrays (v, w or _c forms) or, uniform, one count (the
 * _c forms without arrays too). */
static int nbr_side(ucmpi_comm_t *c, int large, const ucmpi_coll_side_t *s,
                    MPI_Count count, const char *what)
{
    if (large ? s->ccounts == NULL : s->counts == NULL && s->dts == NULL)
        return ucmpi_xfer_check_buf(c, count, s->dt, what);
    if (!large && s->dts && s->n > 0 && s->adispls == NULL)
        return ucmpi_coll_err(c, MPI_ERR_ARG, "%s displacements array "
                              "is NULL", what);
    return ucmpi_xfer_check_blocks(c, s, what);
}

/* allgather(v) (ag: one send block to every destination) and
 * alltoall(v,w), int or _c (large) forms. */
static int nbr_start(ucmpi_coll_args_t *a, int ag, int large)
{
    ucmpi_comm_t *comm = a->comm;
    int rc = nbr_topology(a);

    if (rc != MPI_SUCCESS)
        return rc;
    /* uniform: outdeg / indeg blocks; w: MPI_Aint byte displacements */
    ucmpi_coll_side_t s = {
        .buf = a->sbuf, .n = ag ? 1 : a->outdeg, .dt = a->sdt,
        .count = ag ? a->scount : a->scount * a->outdeg,
        .counts = a->scounts, .displs = a->sdispls, .ccounts = a->scounts_c,
        .adispls = large ? a->sdispls_c : a->sadispls, .dts = a->sdts};
    ucmpi_coll_side_t r = {
        .buf = a->rbuf, .n = a->indeg, .dt = a->rdt,
        .count = a->rcount * a->indeg, .counts = a->rcounts,
        .displs = a->rdispls, .ccounts = a->rcounts_c,
        .adispls = large ? a->rdispls_c : a->radispls, .dts = a->rdts};

    rc = nbr_side(comm, large, &s, a->scount, "send");
    if (rc == MPI_SUCCESS)
        rc = nbr_side(comm, large, &r, a->rcount, "receive");
    if (rc == MPI_SUCCESS)
        rc = ucmpi_coll_check_alias(comm, &s, &r, ucmpi_call_name());
    if (rc != MPI_SUCCESS)
        return rc;
    a->nsblk = ag ? 0 : a->outdeg;
    a->nrblk = a->indeg;
    return ucmpi_xfer_run(&neighbor_alg, a, a->mode, a->req);
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

UCMPI_XFER_PAIR(Neighbor_allgather, neighbor_allgather, ag_desc, ag_c_desc,
                UCMPI_XFER_UNIFORM, UCMPI_XFER_UNIFORM_FILL, (MPI_Comm comm))
UCMPI_XFER_PAIR(Neighbor_allgatherv, neighbor_allgatherv, ag_desc, ag_c_desc,
                UCMPI_XFER_RECVV, UCMPI_XFER_RECVV_FILL, (MPI_Comm comm))
UCMPI_XFER_PAIR(Neighbor_alltoall, neighbor_alltoall, a2a_desc, a2a_c_desc,
                UCMPI_XFER_UNIFORM, UCMPI_XFER_UNIFORM_FILL, (MPI_Comm comm))
UCMPI_XFER_PAIR(Neighbor_alltoallv, neighbor_alltoallv, a2a_desc, a2a_c_desc,
                UCMPI_XFER_V, UCMPI_XFER_V_FILL, (MPI_Comm comm))
/* the int form's displacements are MPI_Aint bytes too (sadispls) */
UCMPI_XFER_FORMS(Neighbor_alltoallw, neighbor_alltoallw, , a2a_desc,
                 (UCMPI_XFER_W(int, MPI_Aint), MPI_Comm comm),
                 .sbuf = sendbuf, .scounts = sendcounts, .sadispls = sdispls,
                 .sdt = MPI_BYTE, .sdts = sendtypes, .rbuf = recvbuf,
                 .rcounts = recvcounts, .radispls = rdispls, .rdt = MPI_BYTE,
                 .rdts = recvtypes, .comm = comm)
UCMPI_XFER_FORMS(Neighbor_alltoallw, neighbor_alltoallw, _c, a2a_c_desc,
                 (UCMPI_XFER_W(MPI_Count, MPI_Aint), MPI_Comm comm),
                 UCMPI_XFER_W_FILL(_c))
