/* One-sided counters that lib/mpit reads: plain per-process increments. */
#ifndef UCMPI_RMA_STATS_H
#define UCMPI_RMA_STATS_H

#include <stdint.h>

enum { UCMPI_RMA_STAT_PUT, UCMPI_RMA_STAT_GET, UCMPI_RMA_STAT_ACC,
       UCMPI_RMA_STAT_ATOMIC, UCMPI_RMA_STAT_OPS };
enum { UCMPI_RMA_STAT_FENCE, UCMPI_RMA_STAT_PSCW, UCMPI_RMA_STAT_LOCK,
       UCMPI_RMA_STAT_FLUSH, UCMPI_RMA_STAT_SYNCS };

typedef struct {
    uint64_t ops[UCMPI_RMA_STAT_OPS];      /* calls, by kind above */
    uint64_t syncs[UCMPI_RMA_STAT_SYNCS];  /* synchronisation calls */
} ucmpi_rma_stats_t;

extern ucmpi_rma_stats_t ucmpi_rma_stats __attribute__((visibility("hidden")));

#endif
