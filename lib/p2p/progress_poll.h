/* Backoff of test-style calls when ranks outnumber cores: a spinning poller
 * yields or the rank it waits for runs late (bench/poll_bench).  Pure. */
#ifndef UCMPI_PROGRESS_POLL_H
#define UCMPI_PROGRESS_POLL_H

#include <stdbool.h>

/* A test-style call found nothing (events: its progress saw some, keep the
 * core); *misses saturates at `after`.  Yield now? (after 0: never). */
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
