/* Point-to-point counters that lib/mpit reads (MPI_T performance variables,
 * the profile).  Plain per-process increments, no atomics: under
 * MPI_THREAD_MULTIPLE threads communicating at once may lose counts.  Single
 * increments always run; the rest only while `on` (MPI_T initialised, or the
 * profile asked for), which costs the message paths one test when off. */
#ifndef UCMPI_P2P_STATS_H
#define UCMPI_P2P_STATS_H

#include "ucp_glue/tag.h"

#include <stddef.h>
#include <stdint.h>

struct ucmpi_comm_s;

/* Messages and bytes to and from one world rank (p2p and collectives). */
typedef struct {
    uint64_t sent_msgs, sent_bytes, recv_msgs, recv_bytes;
} ucmpi_p2p_peer_stats_t;

/* Per communicator, by context id (a freed comm's id taken again adds to
 * its row): messages and bytes sent (from the message tag), collective
 * calls and bytes (lib/coll).  A row per possible id (2 MiB, touched
 * pages only): no bounds test on the send path. */
#define UCMPI_P2P_STATS_CTXS (UCMPI_TAG_MAX_CTX + 1)
typedef struct {
    uint64_t sent_msgs, sent_bytes, coll_calls, coll_bytes;
} ucmpi_p2p_ctx_stats_t;

/* Message sizes by power of two: bin b holds sizes in [2^(b-1), 2^b)
 * (bin 0: empty messages); a bin for every size_t, so no bounds test. */
#define UCMPI_P2P_SIZE_BINS 65

typedef struct {
    int on;                   /* count per peer, sizes, wait time */
    ucmpi_p2p_peer_stats_t *peer;   /* [npeers] */
    ucmpi_p2p_ctx_stats_t *ctx;     /* [UCMPI_P2P_STATS_CTXS] */
    unsigned npeers;
    uint64_t recvs_posted, recvs_ended;   /* level = posted - ended */
    uint64_t posted_hwm;                  /* highest level seen */
    uint64_t unexpected;      /* receives whose message was already there */
    uint64_t wait_ticks;      /* time blocked in waits (ucmpi_stats_ticks) */
    uint64_t wait_from;       /* the open wait's first idle turn */
    int wait_open;            /* a wait idled and has not ended yet */
    /* wait_ticks by the MPI call that waited (its name pointer) */
#define UCMPI_P2P_WAIT_CALLS 24
    const char *wait_call[UCMPI_P2P_WAIT_CALLS];
    uint64_t wait_call_ticks[UCMPI_P2P_WAIT_CALLS];
    uint64_t *wait_slot;      /* the current wait's entry of the above */
    uint64_t size_hist[UCMPI_P2P_SIZE_BINS];   /* sent messages by size */
    /* set by lib/mpit while someone listens: a receive found its message
     * already there (comm, source and tag in comm, bytes) */
    void (*on_unexpected)(struct ucmpi_comm_s *c, int src, int tag,
                          size_t len);
} ucmpi_p2p_stats_t;

extern ucmpi_p2p_stats_t ucmpi_p2p_stats __attribute__((visibility("hidden")));

static inline unsigned ucmpi_p2p_size_bin(size_t len)
{
    return len ? 64u - (unsigned)__builtin_clzll(len) : 0;
}

static inline ucmpi_p2p_ctx_stats_t *ucmpi_p2p_ctx_row(uint32_t ctx)
{
    return &ucmpi_p2p_stats.ctx[ctx];
}

/* A message of len bytes with UCP tag `tag` leaves for world rank world. */
static inline void ucmpi_p2p_count_send(int world, uint64_t tag, size_t len)
{
    ucmpi_p2p_stats_t *s = &ucmpi_p2p_stats;

    if (__builtin_expect(!s->on, 1))
        return;
    if (__builtin_expect((unsigned)world < s->npeers, 1)) {
        s->peer[world].sent_msgs++;
        s->peer[world].sent_bytes += len;
    }
    ucmpi_p2p_ctx_stats_t *c = ucmpi_p2p_ctx_row(ucmpi_tag_ctx(tag));
    c->sent_msgs++;
    c->sent_bytes += len;
    s->size_hist[ucmpi_p2p_size_bin(len)]++;
}

/* A message of len bytes arrived from world rank world (< 0: unknown). */
static inline void ucmpi_p2p_count_recv(int world, size_t len)
{
    ucmpi_p2p_stats_t *s = &ucmpi_p2p_stats;

    if (__builtin_expect(!s->on, 1))
        return;
    if (__builtin_expect((unsigned)world < s->npeers, 1)) {
        s->peer[world].recv_msgs++;
        s->peer[world].recv_bytes += len;
    }
}

/* A receive is posted (the posted-receive level and its high-water mark). */
static inline void ucmpi_p2p_count_posted(void)
{
    ucmpi_p2p_stats_t *s = &ucmpi_p2p_stats;

    s->recvs_posted++;
    if (__builtin_expect(s->on, 0) &&
        s->recvs_posted - s->recvs_ended > s->posted_hwm)
        s->posted_hwm = s->recvs_posted - s->recvs_ended;
}

static inline void ucmpi_p2p_count_ended(void)
{
    ucmpi_p2p_stats.recvs_ended++;
}

/* A receive posted on c matched a message that had already arrived. */
void ucmpi_p2p_unexpected(struct ucmpi_comm_s *c, int src, int tag,
                          size_t len) __attribute__((noinline));

/* A cheap monotonic tick (the TSC on x86-64, else nanoseconds) and its
 * rate in ticks/s. */
uint64_t ucmpi_stats_clock_ns(void);
static inline uint64_t ucmpi_stats_ticks(void)
{
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();   /* ~20 cycles, no system call */
#else
    return ucmpi_stats_clock_ns();
#endif
}
double ucmpi_stats_tick_rate(void);

/* The wait_call_ticks entry of the MPI call now waiting. */
uint64_t *ucmpi_p2p_wait_slot(void);

/* Wait time: from a wait's first idle turn to its end (one stamp each,
 * not one per turn; turns that found work in between count too). */
void ucmpi_p2p_wait_open(void) __attribute__((noinline));

/* A waiting loop's idle turn. */
static inline void ucmpi_p2p_count_idle(void)
{
    if (__builtin_expect(!ucmpi_p2p_stats.on, 1))
        return;
    if (!ucmpi_p2p_stats.wait_open)
        ucmpi_p2p_wait_open();
}

/* A waiting loop ended (ucmpi_progress_wait_done). */
static inline void ucmpi_p2p_count_wait_end(void)
{
    ucmpi_p2p_stats_t *s = &ucmpi_p2p_stats;

    if (__builtin_expect(!s->wait_open, 1))
        return;
    uint64_t dt = ucmpi_stats_ticks() - s->wait_from;
    s->wait_open = 0;
    s->wait_ticks += dt;
    *s->wait_slot += dt;
}

#endif
