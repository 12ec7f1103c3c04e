/* UCX services for lib/ (no UCP types): start-up, shutdown, tag messaging. */
#ifndef UCMPI_UCX_H
#define UCMPI_UCX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UCMPI_UCX_HIDDEN __attribute__((visibility("hidden")))
#define UCMPI_UCX_EXPORT __attribute__((visibility("default")))

/* Outcomes of the glue's operations: 0 or the code the layer above chose
 * (params.errors); done callbacks also see UCMPI_UCX_CANCELED. */
enum { UCMPI_UCX_OK, UCMPI_UCX_E_TRUNCATE, UCMPI_UCX_E_NO_MEM,
       UCMPI_UCX_E_PEER, UCMPI_UCX_E_OTHER, UCMPI_UCX_E_INTERN,
       UCMPI_UCX_NCODES };
#define UCMPI_UCX_CANCELED (-1)
#define UCMPI_UCX_POSTED   (-2)   /* UCX holds the operation */

/* What the glue is told at start-up (the job's shape, tunables, and the
 * callbacks of the layers above), kept until ucmpi_ucx_finalize. */
enum { UCMPI_UCX_THREAD_SINGLE, UCMPI_UCX_THREAD_SERIALIZED,
       UCMPI_UCX_THREAD_MULTI };
typedef struct {
    int thread_mode;              /* UCMPI_UCX_THREAD_* */
    int world_size, world_rank;
    /* world ranks [world_size, proc_cap) are processes of other jobs,
     * added with ucmpi_ucx_peer_add (dynamic processes) */
    int proc_cap;
    const int *node_of;           /* world rank -> node; NULL: one node */
    int wakeup;                   /* an event fd to block on */
    long hugepage_min, hugepage_reuse;   /* see hugepage.c; min <= 0: off */
    /* the worker address travels through the runtime's modex */
    int (*publish)(const void *addr, size_t len);
    int (*lookup)(int world, void **addr, size_t *len);  /* malloc'd */
    /* world rank known dead by other means than UCX (its pid) */
    int (*peer_failed)(int world);
    void (*lock)(void);           /* the big lock (MPI_THREAD_MULTIPLE) */
    void (*unlock)(void);
    int (*progress)(void);        /* a turn of the whole engine (waits) */
    int errors[UCMPI_UCX_NCODES];  /* the code returned for each UCMPI_UCX_E_* */
} ucmpi_ucx_params_t;

/* Context + worker, address published (the caller fences). */
int ucmpi_ucx_init(const ucmpi_ucx_params_t *params);
/* Close endpoints (flushing), progressing the worker. */
void ucmpi_ucx_close_eps(void);
void ucmpi_ucx_finalize(void);
/* Hidden (here and below): calls from lib/ go straight, not through the
 * PLT (every message makes several). */
int ucmpi_ucx_progress(void) UCMPI_UCX_HIDDEN;
/* Counters lib/mpit reads (plain increments, no atomics). */
typedef struct {
    uint64_t progress;            /* ucmpi_ucx_progress calls */
    uint64_t sends_now;           /* tagged sends UCX completed at once */
    uint64_t sends_kept;          /* tagged sends UCX kept (rendezvous,
                                     or queued behind others) */
} ucmpi_ucx_stats_t;
extern ucmpi_ucx_stats_t ucmpi_ucx_stats UCMPI_UCX_HIDDEN;
/* Event fd for blocking waits, or -1. */
int ucmpi_ucx_arm(void);
int ucmpi_ucx_efd(void);
UCMPI_UCX_EXPORT const char *ucmpi_ucx_version(void);
UCMPI_UCX_EXPORT void ucmpi_ucx_print_transports(int verbose);
/* UCX reported world rank r unreachable (or ucmpi_ucx_peer_gone did). */
int ucmpi_ucx_peer_failed(int r);
/* World rank r is dead: operations UCX holds for it end with an error. */
void ucmpi_ucx_peer_gone(int r);
/* This worker's address (malloc'd copy), for peers of other jobs. */
int ucmpi_ucx_address(void **addr, size_t *len);
/* Process of another job at world rank r (world_size <= r < proc_cap)
 * reached at addr; its endpoint is made on first use as for the job's. */
int ucmpi_ucx_peer_add(int r, const void *addr, size_t len);
/* Another job's process r is no longer used: its endpoints close (flushed,
 * unless force or UCX found it unreachable) and its address is forgotten,
 * so r can name another process.  Progresses until the closes are done. */
int ucmpi_ucx_peer_remove(int r, int force);
/* World rank r's worker address (malloc'd copy): 0, or -1 if unknown. */
int ucmpi_ucx_peer_address(int r, void **addr, size_t *len);


/* A tagged op in flight, embedded by its owner; done runs once in progress or
 * a cancel (no progress/sends there): 0, UCMPI_UCX_CANCELED or an error. */
typedef struct ucmpi_ucx_op ucmpi_ucx_op_t;
typedef void (*ucmpi_ucx_done_fn_t)(ucmpi_ucx_op_t *op, int status,
                                    uint64_t sender_tag, size_t length);
struct ucmpi_ucx_op {
    ucmpi_ucx_done_fn_t done;     /* NULL: a ucmpi_ucx_wait_t, see below */
    void *ucx_req;                /* UCX's handle while it holds the op */
};
/* A blocking call's operation: without done the glue stores the outcome
 * here (status stays UCMPI_UCX_POSTED until then). */
typedef struct {
    ucmpi_ucx_op_t op;
    volatile int status;
    uint64_t sender_tag;
    size_t length;
} ucmpi_ucx_wait_t;

/* Bytes in front of a caller's request memory (UCMPI_UCX_OWN) where UCX
 * may keep its request (UCX 1.13 needs 272; checked at start-up). */
#define UCMPI_UCX_REQ_ROOM 320

enum {
    UCMPI_UCX_SYNC = 1,       /* send: done once a receive matched it */
    UCMPI_UCX_FAST = 2,       /* the caller waits at once (blocking send) */
    UCMPI_UCX_OWN = 4,        /* UCX's request in the room before req_mem */
    UCMPI_UCX_GENERIC = 8,    /* buf is an object the dt ops stream */
    UCMPI_UCX_MSG = 16,       /* receive the probed message msg */
    UCMPI_UCX_COPY = 32,      /* send a copy of buf (no op: fire and forget) */
};
/* A tagged send or receive.  Without op a send is fire-and-forget and a
 * receive (UCMPI_UCX_MSG, small eager messages) waits on the spot. */
typedef struct {
    void *buf;
    size_t len;                   /* bytes; a receive's capacity */
    uint64_t tag, mask;           /* mask: receives only */
    int peer;                     /* world rank; a receive's may be -1 */
    unsigned flags;               /* UCMPI_UCX_* above */
    ucmpi_ucx_op_t *op;
    void *req_mem;                /* UCMPI_UCX_OWN */
    void *msg;                    /* UCMPI_UCX_MSG */
} ucmpi_ucx_xfer_t;

/* Send: 0 done at once (no done call), UCMPI_UCX_POSTED, or an error (nothing
 * started).  Receive: 0 once posted; a failed post ends via done or returns. */
int ucmpi_ucx_send_op(int peer, uint64_t tag, const void *buf, size_t len,
                      ucmpi_ucx_op_t *op) UCMPI_UCX_HIDDEN;
int ucmpi_ucx_send_any(const ucmpi_ucx_xfer_t *x) UCMPI_UCX_HIDDEN;
int ucmpi_ucx_recv_op(void *buf, size_t len, uint64_t tag, uint64_t mask,
                      ucmpi_ucx_op_t *op, void *req_mem, int peer)
    UCMPI_UCX_HIDDEN;
int ucmpi_ucx_recv_any(const ucmpi_ucx_xfer_t *x) UCMPI_UCX_HIDDEN;

static inline int ucmpi_ucx_send(const ucmpi_ucx_xfer_t *x)
{
    if ((x->flags & ~UCMPI_UCX_FAST) == 0 && x->op != NULL)
        return ucmpi_ucx_send_op(x->peer, x->tag, x->buf, x->len, x->op);
    ucmpi_ucx_xfer_t c = *x;      /* x itself may then live in registers */
    return ucmpi_ucx_send_any(&c);
}

static inline int ucmpi_ucx_recv(const ucmpi_ucx_xfer_t *x)
{
    if (x->flags == UCMPI_UCX_OWN && x->op != NULL)
        return ucmpi_ucx_recv_op(x->buf, x->len, x->tag, x->mask, x->op,
                                 x->req_mem, x->peer);
    ucmpi_ucx_xfer_t c = *x;
    return ucmpi_ucx_recv_any(&c);
}
/* A blocking send's outcome (its wait is polled, as UCX may still hold
 * it after the waiter gave up): UCMPI_UCX_POSTED while UCX holds it. */
int ucmpi_ucx_wait_test(ucmpi_ucx_wait_t *w) UCMPI_UCX_HIDDEN;
/* Stop waiting for a send to a dead peer: UCX releases it when it can. */
void ucmpi_ucx_forget(ucmpi_ucx_op_t *op);
/* Ends the op with UCMPI_UCX_CANCELED unless it already matched. */
void ucmpi_ucx_cancel(ucmpi_ucx_op_t *op);
/* Streaming of non-contiguous data (UCMPI_UCX_GENERIC): obj is the
 * xfer's buf; registered by the layer above before its first such xfer. */
typedef struct {
    void *(*start)(void *obj);
    size_t (*size)(void *state);
    size_t (*pack)(void *state, size_t offset, void *dst, size_t max);
    /* 0, or -1 past the end of the buffer */
    int (*unpack)(void *state, size_t offset, const void *src, size_t len);
    void (*finish)(void *state);
} ucmpi_ucx_dt_ops_t;
void ucmpi_ucx_set_dt_ops(const ucmpi_ucx_dt_ops_t *ops);
/* Probe: 1 and the envelope when a message matches, else 0.  remove=1
 * takes the message out of matching and stores its handle in *msg. */
int ucmpi_ucx_tag_probe(uint64_t tag, uint64_t mask, int remove,
                        uint64_t *sender_tag, size_t *len, void **msg);
/* Receives a probed message into nothing (cancelled, or left over). */
void ucmpi_ucx_msg_discard(void *msg);

/* Fire-and-forget send of a copy of (buf, len), a zero-byte one (sync ack);
 * receive of a probed small eager message, waited on the spot (0 or error). */
static inline int ucmpi_ucx_send_copy(int world_dest, uint64_t tag,
                                      const void *buf, size_t len)
{
    ucmpi_ucx_xfer_t x = {.buf = (void *)buf, .len = len, .tag = tag,
                          .peer = world_dest, .flags = UCMPI_UCX_COPY};
    return ucmpi_ucx_send(&x);
}
static inline int ucmpi_ucx_send_ack(int world_dest, uint64_t tag)
{
    ucmpi_ucx_xfer_t x = {.tag = tag, .peer = world_dest};
    return ucmpi_ucx_send(&x);
}
static inline int ucmpi_ucx_msg_take(void *msg, void *buf, size_t len)
{
    ucmpi_ucx_xfer_t x = {.buf = buf, .len = len, .peer = -1,
                          .flags = UCMPI_UCX_MSG, .msg = msg};
    return ucmpi_ucx_recv(&x);
}

/* Active-message ids, one per protocol, registered by their owners
 * (ucmpi_ucx_am_handler; RMA's in am_rma.c). */
enum {
    UCMPI_AM_RMA_ACC = 1,     /* lib/ucp_glue/rma*.c: target-side accumulate */
    UCMPI_AM_RMA_CTRL = 2,    /* RMA synchronisation messages */
    UCMPI_AM_RMA_REPLY = 3,
    UCMPI_AM_P2P_CANCEL = 4,  /* lib/p2p/p2p_cancel.c: send cancellation */
    UCMPI_AM_P2P_CANCEL_REPLY = 5,
    UCMPI_AM_ULFM = 6,        /* lib/comm/ulfm*.c: revoke notices, agreement */
    UCMPI_AM_IDS
};

/* Layers' active messages: the handler runs inside progress, only recording;
 * sends go eagerly on the tagged endpoint, after the messages sent before. */
typedef void (*ucmpi_ucx_am_fn_t)(void *arg, const void *data, size_t len);
int ucmpi_ucx_am_handler(unsigned id, ucmpi_ucx_am_fn_t fn, void *arg);
int ucmpi_ucx_am_send(int world_dest, unsigned id, const void *data,
                      size_t len);

#endif
