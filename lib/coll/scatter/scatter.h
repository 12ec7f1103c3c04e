/* Scatter and scatterv algorithms (schedule builders). */
#ifndef UCMPI_COLL_SCATTER_H
#define UCMPI_COLL_SCATTER_H

#include "coll/xfer.h"

/* Root sends to every rank in one round; scatterv (a->sblk) and
 * intercommunicators too. */
int ucmpi_scatter_linear(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);
/* Binomial tree relative to root; each subtree gets its packed blocks in
 * one message.  Intracommunicator, uniform counts. */
int ucmpi_scatter_binomial(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);

extern const ucmpi_coll_alg_t ucmpi_scatter_algs[];

#endif
