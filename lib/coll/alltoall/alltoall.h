/* Alltoall(v,w) builders: v/w forms come as per-peer blocks (a->sblk,
 * a->rblk), NULL for the uniform form. */
#ifndef UCMPI_COLL_ALLTOALL_H
#define UCMPI_COLL_ALLTOALL_H

#include "coll/xfer.h"

/* A fence every `window` rounds bounds the requests in flight; zero-byte pairs
 * are skipped on both sides; intercomms: one round. */
int ucmpi_alltoall_scattered(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);
/* The same with a window of one: one partner pair per round. */
int ucmpi_alltoall_pairwise(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);
/* Bruck: ceil(log2 n) rounds of packed blocks whose index has bit k set.
 * Intracommunicator, uniform counts; for small blocks. */
int ucmpi_alltoall_bruck(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);

/* Node-aware, uniform blocks: node leaders gather, swap per node pair and
 * deliver (alltoall_hier.c). */
int ucmpi_alltoall_hier(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);

#endif
