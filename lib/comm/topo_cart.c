/* Cartesian topologies, Dims_create, Topo_test and the topology life cycle;
 * no reordering: rank i of the new communicator is rank i of the old. */
#include "comm/comm.h"
#include "core/call.h"
#include "comm/comm_internal.h"
#include "comm/topo.h"

#include <stdlib.h>
#include <string.h>

#define UCMPI_MAX_DIMS 64

void ucmpi_topo_destroy(void *p)
{
    ucmpi_topo_t *t = p;
    if (t == NULL)
        return;
    free(t->dims);
    free(t->periods);
    free(t->index);
    free(t->edges);
    free(t->sweights);
    free(t->dweights);
    free(t->sources);
    free(t->dests);
    free(t);
}

int *ucmpi_topo_ints(const int *a, int n)
{
    int *r = malloc((n > 0 ? (size_t)n : 1) * sizeof(int));
    if (r != NULL && a != NULL && n > 0)
        memcpy(r, a, n * sizeof(int));
    return r;
}

int ucmpi_topo_dup(ucmpi_comm_t *from, ucmpi_comm_t *to)
{
    ucmpi_topo_t *s = from->topo, *t;
    if (s == NULL)
        return MPI_SUCCESS;
    t = calloc(1, sizeof(*t));
    if (t == NULL)
        return MPI_ERR_NO_MEM;
    *t = *s;
    t->dims = ucmpi_topo_ints(s->dims, s->ndims);
    t->periods = ucmpi_topo_ints(s->periods, s->ndims);
    t->index = s->index ? ucmpi_topo_ints(s->index, s->nnodes) : NULL;
    t->edges = s->edges ? ucmpi_topo_ints(s->edges, s->nedges) : NULL;
    t->sweights = s->sweights ? ucmpi_topo_ints(s->sweights, s->indegree) : NULL;
    t->dweights = s->dweights ? ucmpi_topo_ints(s->dweights, s->outdegree) : NULL;
    t->sources = ucmpi_topo_ints(s->sources, s->indegree);
    t->dests = ucmpi_topo_ints(s->dests, s->outdegree);
    to->topo = t;
    if (!t->dims || !t->periods || !t->sources || !t->dests ||
        (s->index && !t->index) || (s->edges && !t->edges) ||
        (s->sweights && !t->sweights) || (s->dweights && !t->dweights))
        return MPI_ERR_NO_MEM;    /* the caller destroys `to` */
    return MPI_SUCCESS;
}

int ucmpi_topo_neighbors(ucmpi_comm_t *c, int *indegree, const int **sources,
                         int *outdegree, const int **dests)
{
    ucmpi_topo_t *t = c->topo;
    if (t == NULL)
        return MPI_ERR_TOPOLOGY;
    *indegree = t->indegree;
    *sources = t->sources;
    *outdegree = t->outdegree;
    *dests = t->dests;
    return MPI_SUCCESS;
}

/* Cartesian neighbours: for each dimension, -1 then +1 (MPI_PROC_NULL
 * off a non-periodic edge); incoming and outgoing lists are equal. */
static int cart_neighbors(ucmpi_topo_t *t, int rank)
{
    int n = 2 * t->ndims;
    t->sources = malloc((n ? n : 1) * sizeof(int));
    t->dests = malloc((n ? n : 1) * sizeof(int));
    if (t->sources == NULL || t->dests == NULL)
        return MPI_ERR_NO_MEM;
    for (int d = 0; d < t->ndims; d++) {
        int src, dst;
        ucmpi_cart_shift(t->dims, t->periods, t->ndims, rank, d, 1, &src,
                         &dst);
        t->sources[2 * d] = t->dests[2 * d] = src;
        t->sources[2 * d + 1] = t->dests[2 * d + 1] = dst;
    }
    t->indegree = t->outdegree = n;
    return MPI_SUCCESS;
}

static ucmpi_topo_t *cart_topo(int ndims, const int *dims, const int *periods,
                               int rank)
{
    ucmpi_topo_t *t = calloc(1, sizeof(*t));
    if (t == NULL)
        return NULL;
    t->kind = MPI_CART;
    t->ndims = ndims;
    t->dims = ucmpi_topo_ints(dims, ndims);
    t->periods = malloc((ndims > 0 ? (size_t)ndims : 1) * sizeof(int));
    if (t->dims == NULL || t->periods == NULL) {
        ucmpi_topo_destroy(t);
        return NULL;
    }
    for (int i = 0; i < ndims; i++)
        t->periods[i] = periods[i] ? 1 : 0;
    if (cart_neighbors(t, rank) != MPI_SUCCESS) {
        ucmpi_topo_destroy(t);
        return NULL;
    }
    return t;
}

/* Validates ndims/dims; *nnodes = product. */
static int check_dims(MPI_Comm comm, int ndims, const int *dims,
                      const int *periods, long *nnodes)
{
    const char *fn = ucmpi_call_name();
    if (ndims < 0 || ndims > UCMPI_MAX_DIMS)
        return ucmpi_err_comm(comm, MPI_ERR_DIMS, fn,
                              "ndims = %d is not in [0, %d]", ndims,
                              UCMPI_MAX_DIMS);
    if (ndims > 0 && (dims == NULL || periods == NULL))
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn,
                              "dims or periods is NULL");
    *nnodes = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] <= 0)
            return ucmpi_err_comm(comm, MPI_ERR_DIMS, fn,
                                  "dims[%d] = %d is not positive", i,
                                  dims[i]);
        *nnodes *= dims[i];
        if (*nnodes > comm->size)
            return ucmpi_err_comm(comm, MPI_ERR_DIMS, fn,
                                  "the grid has more than the %d processes "
                                  "of comm", comm->size);
    }
    return MPI_SUCCESS;
}

int ucmpi_topo_comm_prefix(ucmpi_comm_t *comm, int nnodes, ucmpi_comm_t **out)
{
    int range[1][3] = {{0, nnodes - 1, 1}};
    ucmpi_group_t *g = nnodes > 0
                           ? ucmpi_group_range_incl(comm->group, 1, range)
                           : &ucmpi_group_empty;
    if (g == NULL)
        return MPI_ERR_NO_MEM;
    int rc = ucmpi_comm_create_internal(comm, g, out);
    ucmpi_group_release(g);
    return rc;
}

#pragma weak MPI_Cart_create = PMPI_Cart_create
int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[],
                     const int periods[], int reorder, MPI_Comm *comm_cart)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Cart_create");
    long nnodes;
    if (comm_cart != NULL)   /* MPI_COMM_NULL on error too, as MPICH does */
        *comm_cart = MPI_COMM_NULL;
    int rc = ucmpi_check_intra(comm_old);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_comm_live(comm_old, fn);
    if (rc == MPI_SUCCESS)
        rc = check_dims(comm_old, ndims, dims, periods, &nnodes);
    if (rc != MPI_SUCCESS)
        return rc;
    if (comm_cart == NULL)
        return ucmpi_err_comm(comm_old, MPI_ERR_ARG, fn, "comm_cart is NULL");
    ucmpi_comm_t *n;
    rc = ucmpi_topo_comm_prefix(comm_old, (int)nnodes, &n);
    if (rc == MPI_SUCCESS && n != NULL &&
        (n->topo = cart_topo(ndims, dims, periods, n->rank)) == NULL) {
        ucmpi_comm_release(n);
        rc = MPI_ERR_NO_MEM;
    }
    if (rc != MPI_SUCCESS)
        return ucmpi_err_comm(comm_old, rc, fn, "creating the grid failed");
    *comm_cart = n ? n : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int ucmpi_topo_check(MPI_Comm comm, int kind, ucmpi_topo_t **t)
{
    static const char *const names[] = {[MPI_GRAPH] = "graph",
                                        [MPI_CART] = "cartesian",
                                        [MPI_DIST_GRAPH] = "distributed graph"};
    const char *fn = ucmpi_call_name();
    int rc = ucmpi_check_comm(comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    *t = comm->topo;
    if (*t == NULL || (*t)->kind != kind)
        return ucmpi_err_comm(comm, MPI_ERR_TOPOLOGY, fn,
                              "comm has no %s topology", names[kind]);
    return MPI_SUCCESS;
}

#pragma weak MPI_Cartdim_get = PMPI_Cartdim_get
int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Cartdim_get");
    ucmpi_topo_t *t;
    int rc = ucmpi_topo_check(comm, MPI_CART, &t);
    if (rc == MPI_SUCCESS && ndims == NULL)
        rc = ucmpi_err_comm(comm, MPI_ERR_ARG, "MPI_Cartdim_get",
                            "ndims is NULL");
    if (rc == MPI_SUCCESS)
        *ndims = t->ndims;
    return rc;
}

#pragma weak MPI_Cart_get = PMPI_Cart_get
int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[],
                  int coords[])
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Cart_get");
    ucmpi_topo_t *t;
    int rc = ucmpi_topo_check(comm, MPI_CART, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    if (maxdims < t->ndims)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn,
                              "maxdims %d < ndims %d", maxdims, t->ndims);
    if (t->ndims > 0 && (!dims || !periods || !coords))
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn,
                              "dims, periods or coords is NULL");
    for (int i = 0; i < t->ndims; i++) {
        dims[i] = t->dims[i];
        periods[i] = t->periods[i];
    }
    ucmpi_cart_coords(t->dims, t->ndims, comm->rank, coords);
    return MPI_SUCCESS;
}

#pragma weak MPI_Cart_rank = PMPI_Cart_rank
int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Cart_rank");
    ucmpi_topo_t *t;
    int rc = ucmpi_topo_check(comm, MPI_CART, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((t->ndims > 0 && coords == NULL) || rank == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn,
                              "coords or rank is NULL");
    for (int i = 0; i < t->ndims; i++)
        if (!t->periods[i] && (coords[i] < 0 || coords[i] >= t->dims[i]))
            return ucmpi_err_comm(comm, MPI_ERR_ARG, fn,
                                  "coords[%d] = %d is outside [0, %d) of a "
                                  "non-periodic dimension", i, coords[i],
                                  t->dims[i]);
    *rank = ucmpi_cart_rank(t->dims, t->periods, t->ndims, coords);
    return MPI_SUCCESS;
}

#pragma weak MPI_Cart_coords = PMPI_Cart_coords
int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Cart_coords");
    ucmpi_topo_t *t;
    int rc = ucmpi_topo_check(comm, MPI_CART, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    if (rank < 0 || rank >= comm->size)
        return ucmpi_err_comm(comm, MPI_ERR_RANK, fn,
                              "rank %d is not in [0, %d)", rank, comm->size);
    if (maxdims < t->ndims || (t->ndims > 0 && coords == NULL))
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn,
                              "maxdims %d < ndims %d or coords NULL",
                              maxdims, t->ndims);
    ucmpi_cart_coords(t->dims, t->ndims, rank, coords);
    return MPI_SUCCESS;
}

#pragma weak MPI_Cart_shift = PMPI_Cart_shift
int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp,
                    int *rank_source, int *rank_dest)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Cart_shift");
    ucmpi_topo_t *t;
    int rc = ucmpi_topo_check(comm, MPI_CART, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    if (direction < 0 || direction >= t->ndims)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn,
                              "direction %d is not in [0, %d)", direction,
                              t->ndims);
    if (rank_source == NULL || rank_dest == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn,
                              "rank_source or rank_dest is NULL");
    ucmpi_cart_shift(t->dims, t->periods, t->ndims, comm->rank, direction,
                     disp, rank_source, rank_dest);
    return MPI_SUCCESS;
}

/* Members of my sub-grid, computed locally from the grid: no exchange. */
#pragma weak MPI_Cart_sub = PMPI_Cart_sub
int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Cart_sub");
    ucmpi_topo_t *t;
    int rc = ucmpi_topo_check(comm, MPI_CART, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((t->ndims > 0 && remain_dims == NULL) || newcomm == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn,
                              "remain_dims or newcomm is NULL");
    int nd = 0, sdims[UCMPI_MAX_DIMS], speriods[UCMPI_MAX_DIMS], size = 1;
    int me[UCMPI_MAX_DIMS], co[UCMPI_MAX_DIMS], sco[UCMPI_MAX_DIMS];
    for (int i = 0; i < t->ndims; i++)
        if (remain_dims[i]) {
            sdims[nd] = t->dims[i];
            speriods[nd++] = t->periods[i];
            size *= t->dims[i];
        }
    int *tab = malloc(size * sizeof(int));
    if (tab == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    ucmpi_cart_coords(t->dims, t->ndims, comm->rank, me);
    for (int k = 0; k < size; k++) {
        ucmpi_cart_coords(sdims, nd, k, sco);
        for (int i = 0, j = 0; i < t->ndims; i++)
            co[i] = remain_dims[i] ? sco[j++] : me[i];
        tab[k] = ucmpi_group_world(
            comm->group, ucmpi_cart_rank(t->dims, t->periods, t->ndims, co));
    }
    ucmpi_cc_t cc;
    uint32_t id;
    ucmpi_cc_init(&cc, comm);
    rc = ucmpi_ctx_agree(&cc, 1, &id);
    if (rc != MPI_SUCCESS) {
        free(tab);
        return ucmpi_err_comm(comm, rc, fn, "context id agreement failed");
    }
    ucmpi_group_t *g = ucmpi_group_from_table(tab, size);
    ucmpi_comm_t *n = g ? ucmpi_comm_build(g, NULL, id, comm) : NULL;
    if (n != NULL &&
        (n->topo = cart_topo(nd, sdims, speriods, n->rank)) == NULL) {
        ucmpi_comm_release(n);
        n = NULL;
        id = UCMPI_CTX_IDS;       /* released with n */
    }
    if (n == NULL) {
        ucmpi_ctx_release(id);
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    *newcomm = n;
    return MPI_SUCCESS;
}

#pragma weak MPI_Cart_map = PMPI_Cart_map
int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[],
                  const int periods[], int *newrank)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Cart_map");
    long nnodes;
    int rc = ucmpi_check_intra(comm);
    if (rc == MPI_SUCCESS)
        rc = check_dims(comm, ndims, dims, periods, &nnodes);
    if (rc == MPI_SUCCESS && newrank == NULL)
        rc = ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "newrank is NULL");
    if (rc == MPI_SUCCESS)
        *newrank = comm->rank < nnodes ? comm->rank : MPI_UNDEFINED;
    return rc;
}

#pragma weak MPI_Dims_create = PMPI_Dims_create
int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
    const char *fn = "MPI_Dims_create";
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (ndims < 0 || (ndims > 0 && dims == NULL) || nnodes <= 0)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "nnodes = %d, ndims = %d or dims invalid",
                           nnodes, ndims);
    if (ndims == 0)
        return nnodes == 1 ? MPI_SUCCESS
                           : ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_DIMS,
                                         fn, "ndims = 0 needs nnodes = 1");
    rc = ucmpi_dims_balance(nnodes, ndims, dims);
    if (rc != MPI_SUCCESS)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, rc, fn,
                           "nnodes %d is not divisible by the product of "
                           "the fixed dims (or a dim is negative)", nnodes);
    return MPI_SUCCESS;
}

#pragma weak MPI_Topo_test = PMPI_Topo_test
int PMPI_Topo_test(MPI_Comm comm, int *status)
{
    int rc = ucmpi_check_comm_out(comm, "MPI_Topo_test", status, "status");
    if (rc == MPI_SUCCESS)
        *status = comm->topo ? ((ucmpi_topo_t *)comm->topo)->kind
                             : MPI_UNDEFINED;
    return rc;
}
