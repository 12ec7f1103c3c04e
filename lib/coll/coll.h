/* Per-communicator collective state (comm->coll), built lazily, and the
 * hook called when a communicator is destroyed. */
#ifndef UCMPI_COLL_H
#define UCMPI_COLL_H

#include "comm/comm.h"

/* Node layout of a communicator: each node's members form a rank list
 * over the parent's collective context (no new context ids). */
typedef struct {
    int nnodes;
    int my_node;
    int *node_first;          /* nnodes+1 offsets into members */
    int *members;             /* comm ranks grouped by node, ascending */
    int *leaders;             /* lowest comm rank of each node */
    int my_index;             /* my position within my node's members */
    int contiguous;           /* each node is a block of consecutive ranks */
} ucmpi_coll_layout_t;

/* The layout of intracommunicator c (NULL when out of memory). */
const ucmpi_coll_layout_t *ucmpi_coll_layout(ucmpi_comm_t *c);

/* Where comm's shared-memory collective state lives (lib/coll/shm/). */
void **ucmpi_coll_shm_slot(ucmpi_comm_t *c);

/* Frees comm->coll; called by ucmpi_comm_destroy(). */
void ucmpi_coll_comm_destroy(ucmpi_comm_t *c);

#endif
