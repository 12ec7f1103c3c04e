/* The progress engine (lib/p2p/progress.c): one call drives UCX and the
 * registered hooks; waiting loops idle through it. */
#ifndef UCMPI_P2P_PROGRESS_API_H
#define UCMPI_P2P_PROGRESS_API_H

/* Drives UCX and every registered hook once (never blocks); events seen. */
int ucmpi_progress(void);
/* Hooks return the number of events they handled (0 when idle). */
typedef int (*ucmpi_progress_fn_t)(void);
void ucmpi_progress_register(ucmpi_progress_fn_t fn);
void ucmpi_progress_unregister(ucmpi_progress_fn_t fn);
/* Called by waiting loops after a progress call that found nothing: polls,
 * yields or blocks per the wait mode (oversubscription). */
void ucmpi_progress_idle(unsigned spins);
/* Idle turn that yields at once when oversubscribed (lib/p2p/progress.c). */
void ucmpi_progress_yield(void);
/* Turn of a wait only one given rank can end (see
 * ucmpi_progress_handoff in progress.c); counts idle turns in *spins. */
void ucmpi_progress_handoff(int events, unsigned *spins);

/* A waiting loop that called ucmpi_progress_idle ends: the wait timer
 * (p2p_stats.h), then the runtime's report (ucmpi_rt_wait_done). */
#include "core/base.h"
#include "p2p/p2p_stats.h"
static inline void ucmpi_progress_wait_done(void)
{
    if (__builtin_expect(ucmpi_p2p_stats.on, 0))
        ucmpi_p2p_count_wait_end();
    ucmpi_rt_wait_done();
}

#endif
