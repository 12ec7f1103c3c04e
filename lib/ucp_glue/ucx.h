/*
 * UCX services for lib/ (no UCP types): start-up, shutdown, tag messaging.
 */
#ifndef UCMPI_UCX_H
#define UCMPI_UCX_H

#include "core/ucmpi.h"

/* What the glue is told at start-up: the job's shape, the tunables it
 * uses, and the services of the layers above it calls back (never by
 * name).  Kept by the glue until ucmpi_ucx_finalize. */
enum { UCMPI_UCX_THREAD_SINGLE, UCMPI_UCX_THREAD_SERIALIZED,
       UCMPI_UCX_THREAD_MULTI };
typedef struct {
    int thread_mode;              /* UCMPI_UCX_THREAD_* */
    int world_size, world_rank;
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
} ucmpi_ucx_params_t;

/* Context + worker, address published (the caller fences). */
int ucmpi_ucx_init(const ucmpi_ucx_params_t *params);
/* After the modex fence: fetch peers' addresses. */
int ucmpi_ucx_wireup(void);
/* Close endpoints (flushing), progressing the worker. */
void ucmpi_ucx_close_eps(void);
void ucmpi_ucx_finalize(void);
/* Hidden (here and below): calls from lib/ go straight, not through the
 * PLT (every message makes several). */
int ucmpi_ucx_progress(void) __attribute__((visibility("hidden")));
/* Event fd for blocking waits, or -1. */
int ucmpi_ucx_arm(void);
int ucmpi_ucx_efd(void);
UCMPI_EXPORT const char *ucmpi_ucx_version(void);
UCMPI_EXPORT void ucmpi_ucx_print_transports(int verbose);
/* UCX reported world rank r unreachable (or ucmpi_ucx_peer_gone did). */
int ucmpi_ucx_peer_failed(int r);
/* World rank r is dead: operations UCX holds for it end with an error. */
void ucmpi_ucx_peer_gone(int r);

/* Tag messaging for lib/p2p*.c.  The request's p2p fields describe the
 * buffer (buf, count, dt); completion sets req->complete and status. */
int ucmpi_ucx_tag_send(ucmpi_request_t *req, int world_dest, uint64_t tag)
    __attribute__((visibility("hidden")));
int ucmpi_ucx_tag_recv(ucmpi_request_t *req, uint64_t tag, uint64_t mask)
    __attribute__((visibility("hidden")));
/* The same for a request from the pool (ucmpi_request_alloc): UCX may keep
 * its request in the room in front of it.  Always MPI_SUCCESS: an error
 * completes the request. */
int ucmpi_ucx_tag_recv_pooled(ucmpi_request_t *req, uint64_t tag,
                              uint64_t mask) __attribute__((visibility("hidden")));
/* Probe: 1 and the envelope when a message matches, else 0.  remove=1
 * takes the message out of matching and stores its handle in *msg. */
int ucmpi_ucx_tag_probe(uint64_t tag, uint64_t mask, int remove,
                        uint64_t *sender_tag, size_t *len, void **msg);
int ucmpi_ucx_msg_recv(ucmpi_request_t *req, void *msg, uint64_t sender_tag,
                       size_t len);
/* Active-message ids, one per protocol, registered by their owners
 * (ucmpi_ucx_am_handler; RMA's in am_rma.c). */
enum {
    UCMPI_AM_RMA_ACC = 1,     /* lib/ucp_glue/rma*.c: target-side accumulate */
    UCMPI_AM_RMA_CTRL = 2,    /* RMA synchronisation messages */
    UCMPI_AM_RMA_REPLY = 3,
    UCMPI_AM_P2P_CANCEL = 4,  /* lib/p2p/p2p_cancel.c: send cancellation */
    UCMPI_AM_P2P_CANCEL_REPLY = 5,
    UCMPI_AM_IDS
};

/* Active messages of the layers above (ids above): the
 * handler runs inside progress and only records (no progress, no sends);
 * ucmpi_ucx_am_send sends a copy of (data, len) eagerly on the endpoint
 * the tagged messages take, so it arrives after those sent before it. */
typedef void (*ucmpi_ucx_am_fn_t)(void *arg, const void *data, size_t len);
int ucmpi_ucx_am_handler(unsigned id, ucmpi_ucx_am_fn_t fn, void *arg);
int ucmpi_ucx_am_send(int world_dest, unsigned id, const void *data,
                      size_t len);
/* Receives a probed message into nothing (cancelled, or left over). */
void ucmpi_ucx_msg_discard(void *msg);
/* Synchronous send cancelled: its acknowledgement will never come. */
void ucmpi_ucx_cancel_ack(ucmpi_request_t *req);
/* One operation of the request finished successfully (tag.c). */
void ucmpi_ucx_op_done(ucmpi_request_t *req);
int ucmpi_ucx_cancel(ucmpi_request_t *req);
/* A send still held by UCX for a peer known dead ends with
 * MPI_ERR_PROC_FAILED (call under the big lock). */
void ucmpi_ucx_send_abandon(ucmpi_request_t *req);
/* Direct paths for contiguous buffers (see tag.c): blocking send and
 * receive without a ucmpi request, and a nonblocking send that needs one
 * only when UCX does not complete it at once. */
/* ucmpi_ucx_send_contig reports its errors through comm's handler as
 * call fn when fn is not NULL (the entry point's tail call). */
int ucmpi_ucx_send_contig(int world_dest, uint64_t tag, const void *buf,
                          size_t len, MPI_Comm comm, const char *fn)
    __attribute__((visibility("hidden")));
int ucmpi_ucx_isend_contig(ucmpi_request_t *req, int world_dest,
                           uint64_t tag, const void *buf, size_t len,
                           void **ucx_req) __attribute__((visibility("hidden")));
int ucmpi_ucx_isend_req(ucmpi_request_t *req, int world_dest, uint64_t tag,
                        const void *buf, size_t len) __attribute__((visibility("hidden")));
int ucmpi_ucx_recv_contig(void *buf, size_t len, uint64_t tag, uint64_t mask,
                          int world_peer, uint64_t *sender_tag,
                          size_t *length) __attribute__((visibility("hidden")));
/* MPI_Recv's usual case, from its entry point's tail call (direct.c). */
int ucmpi_ucx_recv_user(void *buf, MPI_Count count, MPI_Datatype dt, int src,
                        int tag, MPI_Comm comm, MPI_Status *st)
    __attribute__((visibility("hidden")));
/* Fire-and-forget send of a copy of (buf, len) (tag_aside.c); and the
 * receive of a message probed out with ucmpi_ucx_tag_probe(remove=1)
 * into (buf, len), waited for on the spot (small eager messages only):
 * 0, or -1 when it failed (e.g. longer than len). */
int ucmpi_ucx_send_copy(int world_dest, uint64_t tag, const void *buf,
                        size_t len);
int ucmpi_ucx_msg_take(void *msg, void *buf, size_t len);
/* Zero-byte fire-and-forget send (synchronous-send acknowledgement). */
int ucmpi_ucx_send_ack(int world_dest, uint64_t tag);

#endif
