/*
 * The schedule object, shared by the builder (sched_build.c: steps,
 * rounds, scratch, signatures, destroy), the engine (sched.c: running
 * rounds, the active list) and what a run does when it cannot finish
 * (sched_stall.c: stall checks, aborts, drains).  Private to those files.
 */
#ifndef UCMPI_COLL_SCHED_IMPL_H
#define UCMPI_COLL_SCHED_IMPL_H

#include "coll/sched.h"
#include "coll/sched_abort.h"

#include <stddef.h>
#include <stdint.h>

enum { STEP_SEND, STEP_RECV, STEP_REDUCE, STEP_COPY, STEP_CALL };

typedef struct {
    uint8_t kind;
    uint8_t alt;              /* over the alternate comm (intercomms) */
    uint8_t inflight;         /* run state: posted and not yet reaped */
    uint8_t exact;            /* recv: a shorter message is an error */
    int peer;
    const void *src;          /* send buffer, reduce `in`, copy source */
    void *dst;                /* recv buffer, reduce `inout`, copy target */
    MPI_Count count, rcount;
    MPI_Datatype dt, rdt;
    MPI_Op op;
    /* run-time steps (see ucmpi_sched_call): a call's function, or the
     * count of a send/recv whose buffer is *src / *dst (bufp) */
    int (*fn)(void *);
    const MPI_Count *countp;
} step_t;

#define SCHED_INLINE_STEPS 16
#define SCHED_INLINE_ROUNDS 16
#define SCHED_ARENA_BYTES 1024

typedef union scratch {
    union scratch *next;
    max_align_t align;
} scratch_t;

struct ucmpi_sched {
    ucmpi_comm_t *comm;       /* the collective's communicator */
    int tag;                  /* sequence and signature (lib/p2p/tag.h) */
    uint32_t seq;             /* the whole sequence number */
    unsigned sig;             /* ucmpi_sched_sign; 0: unsigned */
    unsigned shape;           /* its shape (ucmpi_sched_shape keeps alg) */
    ucmpi_coll_names_t names; /* for the messages of a mismatch */
    /* stall probe: progress seen at stall_t0 (see sched_abort.h) */
    unsigned stall_fp;
    double stall_t0;
    int fin_seen;             /* a peer it waits for is in MPI_Finalize */
    int left_seen;            /* stall checks that saw a peer ahead */
    unsigned stall_checks;    /* of this run (answer_behind) */
    char *why;                /* a user's request's abort: why (malloc'd) */
    int wait_told;            /* its peers know it stalled (sched_abort.h) */
    double drain_until;       /* a drain task (drain_later) until then */
    double held_until;        /* aborted: wait for held sends until then */
    ucmpi_comm_t *alt_comm;   /* second comm (intercomm collectives) */
    int alt_tag;
    uint32_t alt_seq;         /* alt_comm's whole sequence number */
    int cur_alt;              /* steps being added go over alt_comm */

    step_t *steps;
    int nsteps, cap;
    int *ends;                /* ends[r]: one past the last step of round r */
    int nrounds, rcap;
    ucmpi_request_t *rq;      /* per step: the transfer's request */
    int rq_cap;

    /* run state */
    int next_round;           /* next round to post */
    int pbeg, pend;           /* steps of the round in flight */
    int npending;
    int err;
    int late_err;             /* a short exact receive: reported at the end */
    int fail_err;             /* ucmpi_sched_fail: every run ends in it */
    uint8_t running, orphaned, persistent, poisoned;
    uint8_t lost;             /* a peer died this run (pass_on_loss) */
    uint8_t aborted;          /* this run found the ranks disagree */
    int doomed;               /* a persistent s that aborted: its error */
    ucmpi_request_t *req;     /* nonblocking/persistent: the user's */
    ucmpi_sched_t *prev, *next;   /* active list */
    scratch_t *scratch;
    size_t scratch_bytes;     /* malloc'd scratch (beyond the arena) */
    size_t arena_used;
    void *cache;              /* the cache slot owning s (sched_cache.c) */
    ucmpi_sched_t *gate;      /* runs first, must pass (coll_check.h) */
    uint8_t is_gate;          /* s is some schedule's gate */

    /* Small schedules (every latency-bound collective) live entirely in
     * the schedule object: one allocation per collective. */
    step_t inl_steps[SCHED_INLINE_STEPS];
    int inl_ends[SCHED_INLINE_ROUNDS];
    ucmpi_request_t inl_rq[SCHED_INLINE_STEPS];
    _Alignas(16) char arena[SCHED_ARENA_BYTES];
};

/* A zeroed schedule of comm with its inline arrays, no tag yet. */
ucmpi_sched_t *ucmpi_sched_alloc_bare(ucmpi_comm_t *comm);

static inline int ucmpi_sched_step_is_xfer(const step_t *st)
{
    return st->kind == STEP_SEND || st->kind == STEP_RECV;
}

/* --- engine (sched.c), for sched_stall.c --- */

/* Puts s on the active list (under the big lock). */
void ucmpi_sched_activate(ucmpi_sched_t *s);
/* Completes a schedule's user request with err. */
void ucmpi_sched_complete_req(ucmpi_request_t *req, int err);
/* The schedule behind a user's request, or NULL (not a schedule's, or
 * its run detached: ucmpi_sched_detach). */
ucmpi_sched_t *ucmpi_sched_of_req(const ucmpi_request_t *req);

/* --- stall handling (sched_stall.c), off the engine's fast path --- */

/* A waiting loop's idle check of s: transfers to dead peers fail; a run
 * stalled for UCMPI_COLL_STALL_SEC probes and may abort. */
void ucmpi_sched_stall_tick(ucmpi_sched_t *s);
/* The stall checks of the runs on the active list from head on. */
void ucmpi_sched_poll_stalls(ucmpi_sched_t *head);
/* An aborted s: its caller has waited long enough for its held sends. */
int ucmpi_sched_hold_expired(const ucmpi_sched_t *s);
/* s finishes orphaned on the active list (its caller returns now). */
void ucmpi_sched_detach(ucmpi_sched_t *s);
/* A start of a persistent s that aborted before (s->doomed). */
void ucmpi_sched_abort_rerun(ucmpi_sched_t *s);
/* One turn of a drain task (s->drain_until != 0); clears s->running at
 * its end. */
int ucmpi_sched_drain_step(ucmpi_sched_t *s);

#endif
