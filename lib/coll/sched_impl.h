/* The schedule object of sched_build.c, sched.c and check/ (which the engine
 * calls only through ucmpi_sched_hook_t). */
#ifndef UCMPI_COLL_SCHED_IMPL_H
#define UCMPI_COLL_SCHED_IMPL_H

#include "coll/sched.h"

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
    /* run-time steps: a call's function, or a _dyn transfer's count */
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

/* What a signature names for mismatch messages: collective, algorithm id and
 * table (rows start {int id; const char *name}; NULL: collective only). */
typedef struct {
    const void *tab;
    size_t row;
    int n;
    unsigned coll;
    int alg;
    int unsigned_alg;         /* alg names what runs, the signature not */
} ucmpi_coll_names_t;

/* The check machinery's state of one schedule (lib/coll/check). */
typedef struct ucmpi_sched_chk ucmpi_sched_chk_t;

struct ucmpi_sched {
    ucmpi_comm_t *comm;       /* the collective's communicator */
    int tag;                  /* sequence and signature (lib/p2p/tag.h) */
    uint32_t seq;             /* the whole sequence number */
    unsigned sig;             /* ucmpi_sched_sign; 0: unsigned */
    unsigned shape;           /* its shape (ucmpi_sched_shape keeps alg) */
    ucmpi_coll_names_t names; /* for the messages of a mismatch */
    ucmpi_sched_chk_t *chk;   /* NULL until the check machinery needs it */
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
    uint8_t hooked;           /* the hook acts on s (runs, frees) */
    uint8_t wait_hook;        /* this run: the hook says when a blocking
                               * caller stops waiting (give_up) */
    ucmpi_request_t *req;     /* nonblocking/persistent: the user's */
    ucmpi_sched_t *prev, *next;   /* active list */
    scratch_t *scratch;
    size_t scratch_bytes;     /* malloc'd scratch (beyond the arena) */
    size_t arena_used;
    void *cache;              /* the cache slot owning s (coll_comm.c) */

    /* small schedules live in the object: one allocation per collective */
    step_t inl_steps[SCHED_INLINE_STEPS];
    int inl_ends[SCHED_INLINE_ROUNDS];
    ucmpi_request_t inl_rq[SCHED_INLINE_STEPS];
    _Alignas(16) char arena[SCHED_ARENA_BYTES];
};

static inline int ucmpi_sched_step_is_xfer(const step_t *st)
{
    return st->kind == STEP_SEND || st->kind == STEP_RECV;
}

/* --- engine (sched.c), for lib/coll/check --- */

/* Closes the last round and sizes the request array. */
int ucmpi_sched_prepare(ucmpi_sched_t *s);
/* Starts a run of s in the background, on the active list (under the big
 * lock). */
void ucmpi_sched_kick(ucmpi_sched_t *s);
/* Completes a schedule's user request with err. */
void ucmpi_sched_complete_req(ucmpi_request_t *req, int err);
/* The schedule behind a user's request, or NULL. */
ucmpi_sched_t *ucmpi_sched_of_req(const ucmpi_request_t *req);

/* --- the hook: the check machinery plugs in here --- */

/* For erring programs: run/held/release(s, 0) while s->hooked, give_up while
 * s->wait_hook, release(s, 1) while s->chk; NULL (unit tests): no signing. */
typedef struct {
    /* a new schedule: sign it by its collective */
    void (*create)(ucmpi_sched_t *s);
    /* s starts while a check of its call waits (comm->coll.check_gate) */
    void (*take)(ucmpi_sched_t *s);
    /* a run of s begins (after the engine's reset) */
    void (*run)(ucmpi_sched_t *s);
    /* before s's first round: 1 while s may not post yet */
    int (*held)(ucmpi_sched_t *s);
    /* a wait on s idled a while (blocking: the caller's own run) */
    void (*stalled)(ucmpi_sched_t *s, int blocking);
    /* 1 once a blocking caller may return while s still runs */
    int (*give_up)(ucmpi_sched_t *s);
    /* s's arguments failed a check on this rank, and it runs anyway */
    void (*failed)(ucmpi_sched_t *s);
    /* s is freed (destroy: for good, else back to its cache) */
    void (*release)(ucmpi_sched_t *s, int destroy);
} ucmpi_sched_hook_t;
extern const ucmpi_sched_hook_t *ucmpi_sched_hook;

#endif
