/*
 * The one progress engine: drives the UCX worker, sends queued protocol
 * messages and runs every registered hook (collective schedules, RMA,
 * generalized requests).  Waiting loops call ucmpi_progress() and, when it
 * found nothing, ucmpi_progress_idle(), which yields the core to other
 * ranks when the node is oversubscribed.
 *
 * ucmpi_progress() sits in every waiting loop, so its fast path (single
 * threaded, no acknowledgement queued, no hook) is one UCX progress call.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_OR */
#include "ucmpi.h"
#include "ucmpi_rt.h"
#include "p2p.h"
#include "progress.h"
#include "ucp_glue/ucx.h"

#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_HOOKS 16
#define CPUS_KEY "ucmpi.cpus"

static ucmpi_progress_fn_t hooks[MAX_HOOKS];
int ucmpi_progress_num_hooks;     /* read inline by lib/progress.h */
static int in_hooks;              /* hooks may wait: no re-entry */

enum { WAIT_POLL, WAIT_YIELD, WAIT_BLOCK };
static int wait_mode = WAIT_POLL;
int ucmpi_progress_polling = 1;   /* wait_mode == WAIT_POLL */

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
    ucmpi_rt_waiting();
    if (wait_mode == WAIT_POLL || spins < 64)
        return;
    if (wait_mode == WAIT_YIELD || ucmpi_progress_num_hooks > 0) {
        sched_yield();
        return;
    }
    /* block: sleep on the worker's event fd (bounded, so hooks and
     * shared-memory transports without events still move) */
    ucmpi_lock();
    int armed = ucmpi_ucx_arm() == 0;
    ucmpi_unlock();
    if (armed) {
        struct pollfd p = {.fd = ucmpi_ucx_efd(), .events = POLLIN};
        poll(&p, 1, 1);
    }
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

/* Cores the ranks of this node may use: the union of their affinity masks
 * (a rank bound to one core must not conclude that the node has one), or
 * the online CPUs when a mask is missing. */
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

/* Chooses the wait mode from UCMPI_WAIT_MODE: auto yields when this node
 * runs more ranks than its ranks have cores. */
void ucmpi_progress_init(void)
{
    const char *m = ucmpi_config_str("WAIT_MODE");

    if (strcmp(m, "poll") == 0)
        wait_mode = WAIT_POLL;
    else if (strcmp(m, "yield") == 0)
        wait_mode = WAIT_YIELD;
    else if (strcmp(m, "block") == 0)
        wait_mode = ucmpi_ucx_efd() >= 0 ? WAIT_BLOCK : WAIT_YIELD;
    else
        wait_mode = ucmpi_global.local_size > node_cores() ? WAIT_YIELD
                                                           : WAIT_POLL;
    ucmpi_progress_polling = wait_mode == WAIT_POLL;
}
