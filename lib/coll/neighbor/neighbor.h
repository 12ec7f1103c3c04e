/* Neighbor collectives over a communicator's topology. */
#ifndef UCMPI_COLL_NEIGHBOR_H
#define UCMPI_COLL_NEIGHBOR_H

#include "coll/xfer.h"

/* One round: receives from every source, sends to every destination (the
 * allgather forms: a->sbuf to all); MPI_PROC_NULL skipped. */
int ucmpi_neighbor_exchange(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);

/* order[i]: the slot to post i-th so that same-peer messages pair up as the
 * standard says (pure, unit-tested). */
void ucmpi_neighbor_recv_order(int indeg, const int *srcs, int cart,
                               int *order);

#endif
