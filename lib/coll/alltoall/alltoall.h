/* Alltoall, alltoallv and alltoallw algorithms (schedule builders).  The
 * v/w forms arrive as per-peer block lists (a->sblk, a->rblk); the
 * uniform form leaves them NULL. */
#ifndef UCMPI_COLL_ALLTOALL_H
#define UCMPI_COLL_ALLTOALL_H

#include "coll/xfer.h"

/* Round k pairs rank r with r+k (send) and r-k (recv); a fence every
 * `window` rounds bounds the requests in flight.  Zero-byte pairs are
 * skipped on both sides.  Intercommunicators: one round, no window. */
int ucmpi_alltoall_scattered(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);
/* The same with a window of one: one partner pair per round. */
int ucmpi_alltoall_pairwise(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);
/* Bruck: ceil(log2 n) rounds of packed blocks whose index has bit k set.
 * Intracommunicator, uniform counts; for small blocks. */
int ucmpi_alltoall_bruck(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);

#endif
