/* Topologies attached to communicators and the neighbour lists the
 * neighbourhood collectives use. */
#ifndef UCMPI_TOPO_H
#define UCMPI_TOPO_H

#include "comm/comm.h"

typedef struct {
    int kind;                 /* MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */
    /* cartesian */
    int ndims;
    int *dims, *periods;
    /* graph */
    int nnodes, nedges;
    int *index, *edges;
    /* distributed graph (weights NULL when unweighted) */
    int weighted;
    int *sweights, *dweights;
    /* neighbour lists of this process, in the standard's order */
    int indegree, outdegree;
    int *sources, *dests;
} ucmpi_topo_t;

/* Neighbours of this process in comm's topology (arrays owned by the
 * communicator).  MPI_ERR_TOPOLOGY when comm has none. */
int ucmpi_topo_neighbors(ucmpi_comm_t *c, int *indegree, const int **sources,
                         int *outdegree, const int **dests);

/* comm carries a topology of `kind` (*t set); else MPI_ERR_TOPOLOGY. */
int ucmpi_topo_check(MPI_Comm comm, int kind, ucmpi_topo_t **t);
/* malloc'd copy of n ints (at least one slot; a NULL a copies nothing). */
int *ucmpi_topo_ints(const int *a, int n);
/* A communicator over the first nnodes ranks of comm (NULL elsewhere). */
int ucmpi_topo_comm_prefix(ucmpi_comm_t *comm, int nnodes, ucmpi_comm_t **out);

/* Pure helpers (topo_util.c, unit-tested). */
/* Fills the zero entries of dims so the product is nnodes and the values
 * are as close as possible, non-increasing; MPI_ERR_DIMS if impossible. */
int ucmpi_dims_balance(int nnodes, int ndims, int *dims);
void ucmpi_cart_coords(const int *dims, int ndims, int rank, int *coords);
/* Rank of coords (wrapped in periodic dims); -1 when out of range. */
int ucmpi_cart_rank(const int *dims, const int *periods, int ndims,
                    const int *coords);
/* Source and destination of a shift by disp in dimension dir. */
void ucmpi_cart_shift(const int *dims, const int *periods, int ndims,
                      int rank, int dir, int disp, int *src, int *dst);

#endif
