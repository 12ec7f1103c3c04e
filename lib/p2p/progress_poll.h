/*
 * The backoff of test-style calls (MPI_Test*, MPI_Iprobe, MPI_Parrived,
 * ...) on a node with more ranks than cores.  A program that spins on
 * them waits in its own loop, where the wait mode cannot reach: unless
 * such a call gives the core away when it finds nothing, the rank that
 * would end the wait runs only when the poller's time slice ends
 * (bench/poll_bench shows it).  Pure, for test/unit/progress_poll.c; the
 * progress engine (lib/p2p/progress.c) owns the state.
 */
#ifndef UCMPI_PROGRESS_POLL_H
#define UCMPI_PROGRESS_POLL_H

#include <stdbool.h>

/* One test-style call that found nothing complete; `events`: what its
 * progress call saw (events mean this rank has work: it keeps the core);
 * *misses: empty calls in a row so far (saturates at `after`).  Returns
 * whether to give the core away now: from `after` empty calls in a row
 * on (0: never). */
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
