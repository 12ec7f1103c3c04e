/* Inline fast paths of the progress engine (lib/p2p/progress.c) for the loops
 * that wait on one operation: their turn is part of every message's latency. */
#ifndef UCMPI_PROGRESS_H
#define UCMPI_PROGRESS_H

#include "core/base.h"
#include "p2p/progress_api.h"
#include "ucp_glue/ucx.h"
#include "p2p/p2p_stats.h"

/* Registered hooks and queued Ssend acknowledgements: while both are 0
 * below MPI_THREAD_MULTIPLE, progress is one UCX progress call. */
extern int ucmpi_progress_num_hooks __attribute__((visibility("hidden")));
extern int ucmpi_p2p_acks_pending __attribute__((visibility("hidden")));
/* 1 in wait mode poll: idle turns only publish "waiting" once. */
extern int ucmpi_progress_polling __attribute__((visibility("hidden")));

/* 1 when test-style calls that found nothing give the core away: the
 * node is oversubscribed (lib/p2p/progress.c, progress_poll.h). */
extern int ucmpi_progress_poll_gate __attribute__((visibility("hidden")));
void ucmpi_progress_poll_idle(int events);

/* A call a program may spin on (MPI_Test*, MPI_Iprobe, ...) found
 * nothing; `events`: what its progress call saw. */
static inline void ucmpi_progress_poll_miss(int events)
{
    if (__builtin_expect(ucmpi_progress_poll_gate, 0))
        ucmpi_progress_poll_idle(events);
}

static inline bool ucmpi_progress_ucx_only(void)
{
    return ucmpi_global.thread_level != MPI_THREAD_MULTIPLE &&
           ucmpi_progress_num_hooks == 0 && ucmpi_p2p_acks_pending == 0;
}

/* ucmpi_progress without its call layer in the usual case. */
static inline int ucmpi_progress_fast(void)
{
    return ucmpi_progress_ucx_only() ? ucmpi_ucx_progress() : ucmpi_progress();
}

/* A waiting loop's step state, kept in registers: whether UCX progress alone
 * does (changes only in a turn with events), whether "waiting" is published. */
typedef struct {
    unsigned spins;   /* turns without events */
    bool fast;        /* ucmpi_progress_ucx_only() */
    bool quiet;       /* polling and "waiting" published, while fast */
} ucmpi_wait_loop_t;

static inline void ucmpi_wait_loop_init(ucmpi_wait_loop_t *l)
{
    l->spins = 0;
    l->fast = ucmpi_progress_ucx_only();
    l->quiet = false;
}

/* After a progress call that saw n events: the idle step when n is 0.
 * Returns the turns without events so far (0 after events). */
static inline unsigned ucmpi_wait_loop_after(ucmpi_wait_loop_t *l, int n)
{
    if (n != 0) {
        l->spins = 0;
        l->fast = ucmpi_progress_ucx_only();
        l->quiet &= l->fast;
        return 0;
    }
    ++l->spins;
    if (!l->quiet) {
        ucmpi_progress_idle(l->spins);
        l->quiet = l->fast && ucmpi_progress_polling &&
                   ucmpi_rt_slot->waiting;
    }
    return l->spins;
}

/* One turn: progress (UCX alone when that is enough), then idle. */
static inline unsigned ucmpi_wait_loop_turn(ucmpi_wait_loop_t *l)
{
    return ucmpi_wait_loop_after(
        l, l->fast ? ucmpi_ucx_progress() : ucmpi_progress());
}

#endif
