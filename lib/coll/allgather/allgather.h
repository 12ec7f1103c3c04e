/* Allgather and allgatherv algorithms (schedule builders).  Builders that
 * take a->rblk == NULL use uniform blocks of rcount x rdt. */
#ifndef UCMPI_COLL_ALLGATHER_H
#define UCMPI_COLL_ALLGATHER_H

#include "coll/xfer.h"

/* n-1 rounds around the ring, straight into the receive buffer (v too). */
int ucmpi_allgather_ring(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);
/* ceil(log2 n) rounds of doubling packed prefixes (v too). */
int ucmpi_allgather_bruck(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);
/* Recursive doubling among the largest power of two, the others folded in
 * before and served after.  Uniform counts. */
int ucmpi_allgather_recursive_doubling(ucmpi_sched_t *s,
                                       const ucmpi_coll_args_t *a);
/* Everyone sends to everyone in one round (v too; intercommunicators). */
int ucmpi_allgather_linear(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);

/* Node-aware: blocks packed at node leaders, swapped between leaders,
 * broadcast in each node (v too; allgather_hier.c). */
int ucmpi_allgather_hier(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);

/* Own block into the receive buffer (skipped for MPI_IN_PLACE). */
static inline int ucmpi_allgather_own(ucmpi_sched_t *s,
                                      const ucmpi_coll_args_t *a,
                                      const ucmpi_xblk_t *mine)
{
    if (a->sbuf == MPI_IN_PLACE || ucmpi_xblk_bytes(mine) == 0)
        return MPI_SUCCESS;
    return ucmpi_sched_copy(s, a->sbuf, a->scount, a->sdt, mine->buf,
                            mine->count, mine->dt);
}

#endif
