/*
 * The backoff of test-style calls (MPI_Test*, MPI_Iprobe, MPI_Parrived)
 * on a node with more ranks than cores: a program spinning on them must
 * give the core away when they find nothing, or the rank that would end
 * its wait runs only when the poller's slice ends (bench/poll_bench).
 * Pure, for test/unit/progress_poll.c; lib/p2p/progress.c owns the state.
 */
#ifndef UCMPI_PROGRESS_POLL_H
#define UCMPI_PROGRESS_POLL_H

#include <stdbool.h>

/* One test-style call that found nothing; `events`: what its progress
 * call saw (then the rank keeps the core); *misses: empty calls in a row
 * (saturates at `after`).  Whether to give the core away now (after 0:
 * never). */
static inline bool ucmpi_poll_backoff_step(unsigned *misses, unsigned after,
                                           int events)
{
    if (events != 0) {
        *misses = 0;
        return false;
    }
    if (*misses < after)
        ++*misses;
    return after != 0 && *misses >= after;
}

#endif
