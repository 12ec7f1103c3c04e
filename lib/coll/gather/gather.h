/* Gather and gatherv algorithms (schedule builders). */
#ifndef UCMPI_COLL_GATHER_H
#define UCMPI_COLL_GATHER_H

#include "coll/xfer.h"

/* Root receives from every rank at once; works for gatherv (a->rblk) and
 * intercommunicators. */
int ucmpi_gather_linear(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);
/* Binomial tree over ranks relative to root; subtrees forward packed
 * blocks.  Intracommunicator, uniform counts. */
int ucmpi_gather_binomial(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);

extern const ucmpi_coll_alg_t ucmpi_gather_algs[];

#endif
