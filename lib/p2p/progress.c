/* The one progress engine: UCX worker, queued protocol messages, registered
 * hooks.  Fast path (one thread, nothing queued, no hook): one UCX call. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_OR */
#include "p2p/progress_api.h"
#include "core/config.h"
#include "ucmpi_rt.h"
#include "p2p/p2p.h"
#include "p2p/progress.h"
#include "p2p/progress_poll.h"
#include "p2p/p2p_stats.h"
#include "ucp_glue/ucx.h"

#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define MAX_HOOKS 16
#define CPUS_KEY "ucmpi.cpus"
/* Longest sleep of an idle rank in wait mode block (bench/oversub). */
#define BLOCK_SLEEP_NS 100000L
/* Idle turns before blocking: 64 polls, then 64 yields, which hand the
 * core to another rank at less cost than a sleep. */
#define BLOCK_AFTER 128
/* Idle turns between yields of wait mode poll on an oversubscribed node. */
#define POLL_YIELD_EVERY 64

static ucmpi_progress_fn_t hooks[MAX_HOOKS];
int ucmpi_progress_num_hooks;     /* read inline by lib/p2p/progress.h */
static int in_hooks;              /* hooks may wait: no re-entry */

enum { WAIT_POLL, WAIT_YIELD, WAIT_BLOCK };
static int wait_mode = WAIT_POLL;
int ucmpi_progress_polling = 1;   /* wait_mode == WAIT_POLL */
static int oversubscribed;        /* more ranks on this node than cores */
/* Test-style calls that found nothing give the core away (progress.h) */
int ucmpi_progress_poll_gate;
/* per thread: each polling thread counts its own empty calls */
static _Thread_local unsigned poll_misses;
static unsigned poll_yield_after;

void ucmpi_progress_register(ucmpi_progress_fn_t fn)
{
    ucmpi_lock();
    if (ucmpi_progress_num_hooks < MAX_HOOKS)
        hooks[ucmpi_progress_num_hooks++] = fn;
    ucmpi_unlock();
}

void ucmpi_progress_unregister(ucmpi_progress_fn_t fn)
{
    ucmpi_lock();
    for (int i = 0; i < ucmpi_progress_num_hooks; i++) {
        if (hooks[i] == fn) {
            memmove(&hooks[i], &hooks[i + 1],
                    sizeof(hooks[0]) * (size_t)(ucmpi_progress_num_hooks - i - 1));
            ucmpi_progress_num_hooks--;
            break;
        }
    }
    ucmpi_unlock();
}

static int run_hooks(void)
{
    int events = 0;

    in_hooks = 1;
    for (int i = 0; i < ucmpi_progress_num_hooks; i++)
        events += hooks[i]();
    in_hooks = 0;
    return events;
}

int ucmpi_progress(void)
{
    int events;

    if (__builtin_expect(ucmpi_global.thread_level == MPI_THREAD_MULTIPLE, 0)) {
        ucmpi_lock();
        events = ucmpi_ucx_progress() + ucmpi_p2p_send_queued_acks();
        if (ucmpi_progress_num_hooks > 0 && !in_hooks)
            events += run_hooks();
        ucmpi_unlock();
        return events;
    }
    events = ucmpi_ucx_progress();
    if (__builtin_expect(ucmpi_p2p_acks_pending != 0, 0))
        events += ucmpi_p2p_send_queued_acks();
    if (ucmpi_progress_num_hooks > 0 && !in_hooks)
        events += run_hooks();
    return events;
}

void ucmpi_progress_idle(unsigned spins)
{
    ucmpi_p2p_count_idle();
    ucmpi_rt_waiting();
    if (wait_mode == WAIT_POLL) {
        /* forced on an oversubscribed node: a poller that never yields
         * keeps the rank it waits for off this core for a whole slice */
        if (oversubscribed && spins % POLL_YIELD_EVERY == 0)
            sched_yield();
        return;
    }
    if (spins < 64)
        return;
    if (wait_mode == WAIT_YIELD || spins < BLOCK_AFTER) {
        sched_yield();
        return;
    }
    /* block: sleep on the worker's event fd at most BLOCK_SLEEP_NS (hooks
     * and shared-memory collectives signal no event) */
    ucmpi_lock();
    int armed = ucmpi_progress_num_hooks > 0 || ucmpi_ucx_arm() == 0;
    ucmpi_unlock();
    if (armed) {
        struct pollfd p = {.fd = ucmpi_ucx_efd(), .events = POLLIN};
        struct timespec ts = {0, BLOCK_SLEEP_NS};
        ppoll(&p, 1, &ts, NULL);
    }
}

/* An idle turn of a wait that the awaited rank ends: oversubscribed, yield at
 * once (spinning first only delays that rank). */
void ucmpi_progress_yield(void)
{
    ucmpi_rt_waiting();
    if (wait_mode != WAIT_POLL)
        sched_yield();
}

/* A turn of a wait only one given rank can end (ticket lock, RMA completion):
 * oversubscribed, yield each turn (poll mode too), or a grant costs a slice. */
void ucmpi_progress_handoff(int events, unsigned *spins)
{
    if (events == 0)
        ++*spins;
    if (oversubscribed) {
        ucmpi_rt_waiting();
        sched_yield();
    } else if (events == 0) {
        ucmpi_progress_idle(*spins);
    }
}

/* After a test-style call found nothing, on an oversubscribed node: the
 * backoff of lib/p2p/progress_poll.h (ucmpi_progress_poll_miss). */
void ucmpi_progress_poll_idle(int events)
{
    if (ucmpi_poll_backoff_step(&poll_misses, poll_yield_after, events))
        sched_yield();
}

/* Publishes the CPUs this process may run on (before the start-up fence),
 * so that every rank can count the cores its node's ranks share. */
int ucmpi_progress_publish(void)
{
    cpu_set_t set;

    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return 0;                 /* unknown: progress_init falls back */
    return ucmpi_rt_put(CPUS_KEY, &set, sizeof(set));
}

/* Cores the ranks of this node may use: the union of their affinity
 * masks, or the online CPUs when a mask is missing. */
static long node_cores(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t all;

    CPU_ZERO(&all);
    for (int i = 0; i < ucmpi_global.local_size; i++) {
        void *v = NULL;
        size_t len = 0;
        int peer = ucmpi_global.local_peers ? ucmpi_global.local_peers[i]
                                            : ucmpi_global.world_rank;
        if (ucmpi_rt_get(peer, CPUS_KEY, &v, &len) != 0 ||
            len != sizeof(cpu_set_t)) {
            free(v);
            return online;
        }
        CPU_OR(&all, &all, (cpu_set_t *)v);
        free(v);
    }
    return CPU_COUNT(&all) > 0 ? CPU_COUNT(&all) : online;
}

/* UCMPI_WAIT_MODE: auto yields when ranks outnumber cores (block stays opt-in:
 * it slows RMA over TCP, docs/tuning.md). */
void ucmpi_progress_init(void)
{
    const char *m = ucmpi_config_str("WAIT_MODE");

    oversubscribed = ucmpi_global.local_size > node_cores();
    if (strcmp(m, "poll") == 0)
        wait_mode = WAIT_POLL;
    else if (strcmp(m, "yield") == 0)
        wait_mode = WAIT_YIELD;
    else if (strcmp(m, "block") == 0)
        wait_mode = ucmpi_ucx_efd() >= 0 ? WAIT_BLOCK : WAIT_YIELD;
    else
        wait_mode = oversubscribed ? WAIT_YIELD : WAIT_POLL;
    ucmpi_progress_polling = wait_mode == WAIT_POLL;
    long after = ucmpi_config_long("POLL_YIELD_AFTER");
    poll_yield_after = after > 0 ? (unsigned)after : 0;
    ucmpi_progress_poll_gate = oversubscribed && poll_yield_after != 0;
    /* sleeps of tens of microseconds, not plus the default 50 us slack */
    if (wait_mode == WAIT_BLOCK)
        prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
}
