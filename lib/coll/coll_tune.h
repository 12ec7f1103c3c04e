/* Every selection threshold in one table (ucmpi_info prints it; each value's
 * benchmark in docs/tuning.md); a forced algorithm bypasses them. */
#ifndef UCMPI_COLL_TUNE_H
#define UCMPI_COLL_TUNE_H

#include "core/base.h"

#include <stddef.h>

enum {
    UCMPI_THR_ALLREDUCE_RD_MAX_BYTES,
    UCMPI_THR_ALLREDUCE_RING_MIN_BYTES,
    UCMPI_THR_BCAST_SMALL_BYTES,
    UCMPI_THR_BCAST_SA_MIN_RANKS,
    UCMPI_THR_BCAST_CHAIN_MIN_BYTES,
    UCMPI_THR_REDUCE_LINEAR_MAX_RANKS,
    UCMPI_THR_REDUCE_LINEAR_MAX_BYTES,
    UCMPI_THR_REDUCE_CHAIN_MIN_RANKS,
    UCMPI_THR_REDUCE_CHAIN_MIN_BYTES,
    UCMPI_THR_RS_RING_MIN_BYTES,
    UCMPI_THR_GATHER_TREE_MIN_RANKS,
    UCMPI_THR_GATHER_TREE_MAX_TOTAL,
    UCMPI_THR_GATHERV_TREE_MIN_RANKS,
    UCMPI_THR_SCATTER_TREE_MIN_RANKS,
    UCMPI_THR_SCATTER_TREE_MAX_TOTAL,
    UCMPI_THR_SCATTERV_TREE_MIN_RANKS,
    UCMPI_THR_ALLGATHER_LOG_MAX_TOTAL,
    UCMPI_THR_ALLTOALL_BRUCK_MIN_RANKS,
    UCMPI_THR_ALLTOALL_BRUCK_MAX_BLOCK,
    UCMPI_THR_ALLTOALL_PAIRWISE_MIN_BLOCK,
    UCMPI_THR_SHM_BCAST_MAX_2,
    UCMPI_THR_SHM_ALLGATHER_MAX_2,
    UCMPI_THR_SHM_ALLTOALL_MAX_2,
    UCMPI_THR_SHM_ALLTOALL_MAX_4,
    UCMPI_THR_SHM_ALLTOALL_MAX_8,
    UCMPI_THR_SHM_RS_MAX_2,
    UCMPI_THR_SHM_SEG_BUDGET,
    UCMPI_THR_ALLTOALL_HIER_MAX_BLOCK,
    UCMPI_THR_NUM
};

typedef struct {
    const char *name;         /* collective.threshold */
    size_t value;
    const char *desc;
} ucmpi_coll_thr_t;

/* Indexed by UCMPI_THR_*; a row with name NULL ends it.  A tuning file
 * (coll_tune_file.c) may set values at init. */
extern UCMPI_EXPORT ucmpi_coll_thr_t ucmpi_coll_thr[];

static inline size_t ucmpi_thr(int id)
{
    return ucmpi_coll_thr[id].value;
}

/* A threshold on a number of ranks. */
static inline int ucmpi_thr_n(int id)
{
    return (int)ucmpi_coll_thr[id].value;
}

#endif
