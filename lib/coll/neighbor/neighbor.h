/* Neighbor collectives over a communicator's topology. */
#ifndef UCMPI_COLL_NEIGHBOR_H
#define UCMPI_COLL_NEIGHBOR_H

#include "coll/xfer.h"

/* One round: a receive from every source (a->rblk, a->indeg entries) and
 * a send to every destination (a->sblk, or a->sbuf/scount/sdt to all for
 * the allgather forms).  MPI_PROC_NULL neighbours are skipped. */
int ucmpi_neighbor_exchange(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);

/* Order in which receives must be posted so that same-peer messages pair
 * up as the standard says (pure, for unit tests): order[i] is the slot
 * to post i-th. */
void ucmpi_neighbor_recv_order(int indeg, const int *srcs, int cart,
                               int *order);

#endif
