/* The point-to-point counters (p2p_stats.h): sized at start-up, kept after
 * MPI_Finalize (MPI_T works then too), freed when the library unloads. */
#include "p2p/p2p_stats.h"
#include "core/base.h"
#include "core/hooks.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

ucmpi_p2p_stats_t ucmpi_p2p_stats;

static void stats_init(void *rc)
{
    unsigned n = (unsigned)ucmpi_global.world_size;
    ucmpi_p2p_peer_stats_t *p = calloc(n ? n : 1, sizeof(*p));
    ucmpi_p2p_ctx_stats_t *c = calloc(UCMPI_P2P_STATS_CTXS, sizeof(*c));

    if (p == NULL || c == NULL) {
        free(p);
        free(c);
        *(int *)rc = -1;
        return;
    }
    int on = ucmpi_p2p_stats.on;  /* MPI_T may be up already */

    free(ucmpi_p2p_stats.peer);   /* a session re-initialising */
    free(ucmpi_p2p_stats.ctx);
    memset(&ucmpi_p2p_stats, 0, sizeof(ucmpi_p2p_stats));
    ucmpi_p2p_stats.on = on;
    ucmpi_p2p_stats.peer = p;
    ucmpi_p2p_stats.ctx = c;
    ucmpi_p2p_stats.npeers = n;
}

__attribute__((constructor)) static void stats_hooks(void)
{
    ucmpi_hook_add(UCMPI_HOOK_INIT, 0, stats_init);
}

__attribute__((destructor)) static void stats_free(void)
{
    free(ucmpi_p2p_stats.peer);
    free(ucmpi_p2p_stats.ctx);
    ucmpi_p2p_stats.peer = NULL;
    ucmpi_p2p_stats.ctx = NULL;
    ucmpi_p2p_stats.npeers = 0;
}

void ucmpi_p2p_unexpected(struct ucmpi_comm_s *c, int src, int tag,
                          size_t len)
{
    ucmpi_p2p_stats.unexpected++;
    if (ucmpi_p2p_stats.on_unexpected != NULL)
        ucmpi_p2p_stats.on_unexpected(c, src, tag, len);
}

void ucmpi_p2p_wait_open(void)
{
    ucmpi_p2p_stats.wait_slot = ucmpi_p2p_wait_slot();
    ucmpi_p2p_stats.wait_from = ucmpi_stats_ticks();
    ucmpi_p2p_stats.wait_open = 1;
}

uint64_t *ucmpi_p2p_wait_slot(void)
{
    ucmpi_p2p_stats_t *s = &ucmpi_p2p_stats;
    const char *fn = ucmpi_rt_call ? ucmpi_rt_call : "?";
    int i;

    for (i = 0; i < UCMPI_P2P_WAIT_CALLS - 1; i++)
        if (s->wait_call[i] == fn || s->wait_call[i] == NULL)
            break;                /* the last slot takes the rest */
    s->wait_call[i] = i < UCMPI_P2P_WAIT_CALLS - 1 ? fn : "other";
    return &s->wait_call_ticks[i];
}

uint64_t ucmpi_stats_clock_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Measured once over 20 ms (x86-64); nanoseconds elsewhere. */
double ucmpi_stats_tick_rate(void)
{
#if defined(__x86_64__)
    static double rate;

    if (rate == 0) {
        struct timespec d = {0, 20000000};
        uint64_t c0 = ucmpi_stats_clock_ns(), t0 = ucmpi_stats_ticks();

        nanosleep(&d, NULL);
        uint64_t c1 = ucmpi_stats_clock_ns(), t1 = ucmpi_stats_ticks();
        rate = (double)(t1 - t0) * 1e9 / (double)(c1 - c0 ? c1 - c0 : 1);
    }
    return rate;
#else
    return 1e9;
#endif
}
