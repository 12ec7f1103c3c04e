/*
 * The one progress engine: drives the UCX worker, sends queued protocol
 * messages and runs every registered hook (collective schedules, RMA,
 * generalized requests).  Waiting loops call ucmpi_progress() and, when it
 * found nothing, ucmpi_progress_idle(), which yields the core to other
 * ranks when the node is oversubscribed.
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include "ucmpi.h"
#include "ucp_glue/ucx.h"

#include <poll.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#define MAX_HOOKS 16

static ucmpi_progress_fn_t hooks[MAX_HOOKS];
static int num_hooks;
static int in_hooks;              /* hooks may wait: no re-entry */

enum { WAIT_POLL, WAIT_YIELD, WAIT_BLOCK };
static int wait_mode = WAIT_POLL;

int ucmpi_p2p_send_queued_acks(void);

void ucmpi_progress_register(ucmpi_progress_fn_t fn)
{
    ucmpi_lock();
    if (num_hooks < MAX_HOOKS)
        hooks[num_hooks++] = fn;
    ucmpi_unlock();
}

void ucmpi_progress_unregister(ucmpi_progress_fn_t fn)
{
    ucmpi_lock();
    for (int i = 0; i < num_hooks; i++) {
        if (hooks[i] == fn) {
            memmove(&hooks[i], &hooks[i + 1],
                    sizeof(hooks[0]) * (size_t)(num_hooks - i - 1));
            num_hooks--;
            break;
        }
    }
    ucmpi_unlock();
}

int ucmpi_progress(void)
{
    int events;

    ucmpi_lock();
    events = ucmpi_ucx_progress();
    events += ucmpi_p2p_send_queued_acks();
    if (!in_hooks) {
        in_hooks = 1;
        for (int i = 0; i < num_hooks; i++)
            events += hooks[i]();
        in_hooks = 0;
    }
    ucmpi_unlock();
    return events;
}

void ucmpi_progress_idle(unsigned spins)
{
    ucmpi_rt_waiting();
    if (wait_mode == WAIT_POLL || spins < 64)
        return;
    if (wait_mode == WAIT_YIELD || num_hooks > 0) {
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

/* Chooses the wait mode from UCMPI_WAIT_MODE: auto yields when this node
 * runs more ranks than it has cores. */
void ucmpi_progress_init(void)
{
    const char *m = ucmpi_config_str("WAIT_MODE");
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t set;

    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0 &&
        CPU_COUNT(&set) < cores)
        cores = CPU_COUNT(&set);
    if (strcmp(m, "poll") == 0)
        wait_mode = WAIT_POLL;
    else if (strcmp(m, "yield") == 0)
        wait_mode = WAIT_YIELD;
    else if (strcmp(m, "block") == 0)
        wait_mode = ucmpi_ucx_efd() >= 0 ? WAIT_BLOCK : WAIT_YIELD;
    else
        wait_mode = ucmpi_global.local_size > cores ? WAIT_YIELD : WAIT_POLL;
}
