/* Point-to-point internals shared by the files of lib/p2p. */
#ifndef UCMPI_P2P_H
#define UCMPI_P2P_H

#include "p2p/pt2pt.h"
#include "datatype/datatype.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Bytes in front of every pool request (never of a stack or schedule
 * request) where UCX may keep its request of a receive (UCMPI_UCX_OWN). */
#define UCMPI_REQ_UCX_ROOM UCMPI_UCX_REQ_ROOM

/* Takes (or drops) a p2p-private mutex, needed only under THREAD_MULTIPLE. */
static inline void ucmpi_p2p_mt_lock(pthread_mutex_t *m, bool take)
{
    if (ucmpi_global.thread_level != MPI_THREAD_MULTIPLE)
        return;
    if (take)
        pthread_mutex_lock(m);
    else
        pthread_mutex_unlock(m);
}

/* Uninitialised pool entries (fast send path), ucmpi_request_alloc's init, and
 * the shared request of sends done at once (complete, empty, never freed). */
ucmpi_request_t *ucmpi_request_get_raw(void);
/* (hidden: the paths of every message reach it without the GOT) */
extern ucmpi_request_t *ucmpi_request_pool __attribute__((visibility("hidden"))); /* the free list */
/* Zeroes a request in 64-byte pieces, which gcc turns into vector stores
 * (a plain memset became `rep stos`). */
static inline void ucmpi_request_zero(ucmpi_request_t *r)
{
    char *p = (char *)r;
    size_t off = 0;

    for (; off + 64 <= sizeof(*r); off += 64)
        memset(p + off, 0, 64);
    memset(p + off, 0, sizeof(*r) - off);
}
void ucmpi_request_put_raw(ucmpi_request_t *r);
extern ucmpi_request_t ucmpi_request_send_done;

/* Makes a pool entry a fresh request of `kind` holding a reference on comm
 * (inline: it is on every message's path). */
static inline void ucmpi_request_init(ucmpi_request_t *r, int kind,
                                      ucmpi_comm_t *comm)
{
    ucmpi_request_zero(r);
    r->magic = UCMPI_MAGIC_REQUEST;
    r->kind = (uint8_t)kind;
    r->status.MPI_SOURCE = MPI_ANY_SOURCE;
    r->status.MPI_TAG = MPI_ANY_TAG;
    r->p2p.world_peer = -1;
    if (comm != NULL) {
        r->comm = comm;
        if (ucmpi_global.thread_level == MPI_THREAD_MULTIPLE)
            __atomic_add_fetch(&comm->refcount, 1, __ATOMIC_RELAXED);
        else
            comm->refcount++;
    }
}

/* ucmpi_request_alloc without the call: single-threaded levels pop the
 * pool's head here (MPI_THREAD_MULTIPLE takes the pool's lock there). */
static inline ucmpi_request_t *ucmpi_request_alloc_fast(int kind,
                                                        ucmpi_comm_t *comm)
{
    ucmpi_request_t *r = ucmpi_request_pool;

    if (__builtin_expect(r == NULL ||
                         ucmpi_global.thread_level == MPI_THREAD_MULTIPLE, 0))
        return ucmpi_request_alloc(kind, comm);
    ucmpi_request_pool = r->next_free;
    ucmpi_request_init(r, kind, comm);
    return r;
}

/* Inline ucmpi_request_free of the usual request (no ops, predefined type, a
 * comm with other references); the shared completed send has no comm. */
static inline void ucmpi_request_free_fast(ucmpi_request_t *r)
{
    ucmpi_comm_t *c = r->comm;

    if (__builtin_expect(r->ops != NULL || c == NULL || c->refcount < 2 ||
                         (r->p2p.dt != NULL && !r->p2p.dt->predefined) ||
                         ucmpi_global.thread_level == MPI_THREAD_MULTIPLE, 0)) {
        ucmpi_request_free(r);
        return;
    }
    c->refcount--;
    r->magic = UCMPI_MAGIC_FREED;
    r->next_free = ucmpi_request_pool;
    ucmpi_request_pool = r;
}

/* p2p.mode of a receive of a message matched by MPI_(I)mprobe: the
 * synchronous sender was acknowledged then, not again at the receive. */
#define UCMPI_RECV_ACKED (-1)

/* World rank w is on this node: no UCX error handling (endpoint.c), so Ssend
 * uses UCX's own sync send, no tag flag; both ends decide from the node map. */
static inline bool ucmpi_p2p_peer_local(int w)
{
    const int *node = ucmpi_global.node_of;
    return node != NULL && node[w] == node[ucmpi_global.world_rank];
}

/* Keep the tag-flag protocol of synchronous sends for on-node peers too
 * (UCMPI_SYNC_FLAG_ALWAYS=1, read at start-up; see lib/p2p/tag.h). */
extern bool ucmpi_p2p_sync_flag_always;
static inline bool ucmpi_p2p_sync_by_ucx(int w)
{
    return ucmpi_p2p_peer_local(w) && !ucmpi_p2p_sync_flag_always;
}

int ucmpi_send_mode(const void *buf, MPI_Count count, MPI_Datatype dt,
                    int dest, int tag, ucmpi_comm_t *comm, int ctx_sub,
                    int mode);
int ucmpi_p2p_start_send(ucmpi_request_t *r, ucmpi_comm_t *comm, int mode);
int ucmpi_p2p_start_recv(ucmpi_request_t *r, ucmpi_comm_t *comm);
void ucmpi_p2p_set_proc_null(ucmpi_request_t *r);
void ucmpi_p2p_queue_ack(ucmpi_request_t *req, uint64_t sender_tag);
/* The same for a blocking receive without a request (takes the lock). */
void ucmpi_p2p_queue_sync_ack(ucmpi_comm_t *c, uint64_t sender_tag);
/* Synchronous-send acknowledgements queued by receive completions; the
 * progress engine sends them (never from inside a UCX callback). */
extern int ucmpi_p2p_acks_pending;
int ucmpi_p2p_send_queued_acks(void);
/* The usual arguments of a send (recv: also wildcards) in one predicted
 * branch; anything else goes to the full checks, which name the bad one. */
static inline bool ucmpi_p2p_args_ok(const void *buf, MPI_Count count,
                                     MPI_Datatype dt, int peer, int tag,
                                     MPI_Comm comm, bool recv)
{
    return ucmpi_global.initialized && !ucmpi_global.finalized &&
           comm != MPI_COMM_NULL && comm->magic == UCMPI_MAGIC_COMM &&
           !comm->revoked && dt != MPI_DATATYPE_NULL && dt->magic == UCMPI_MAGIC_DATATYPE &&
           dt->committed && count >= 0 && (buf != NULL || count == 0) &&
           ((unsigned)peer < (unsigned)comm->remote_size ||
            (recv && peer == MPI_ANY_SOURCE)) &&
           ((unsigned)tag <= UCMPI_TAG_MAX || (recv && tag == MPI_ANY_TAG));
}

int ucmpi_p2p_check_send(const void *buf, MPI_Count count, MPI_Datatype dt,
                         int dest, int tag, MPI_Comm comm, const char *fn);
/* Count 0 with MPI_DATATYPE_NULL passes (MPI-4.1 leaves an empty transfer's
 * type free); ucmpi_p2p_dt then gives the paths below MPI_BYTE instead. */
int ucmpi_p2p_check_buf(MPI_Comm comm, const void *buf, MPI_Count count,
                        MPI_Datatype dt, const char *fn);
static inline MPI_Datatype ucmpi_p2p_dt(MPI_Datatype dt)
{
    return dt == MPI_DATATYPE_NULL ? MPI_BYTE : dt;
}
int ucmpi_p2p_check_recv(const void *buf, MPI_Count count, MPI_Datatype dt,
                         int src, int tag, MPI_Comm comm, const char *fn);
int ucmpi_p2p_report(MPI_Comm comm, int rc, const char *fn);
/* Buffered send: copy into the attached buffer and start (MPI_ERR_BUFFER if it
 * does not fit); `user` (Ibsend, Bsend_init) or NULL can then cancel it. */
int ucmpi_bsend_start(const void *buf, MPI_Count count, MPI_Datatype dt,
                      int dest, int tag, ucmpi_comm_t *comm,
                      ucmpi_request_t *user, const char *fn);

/* MPI_SUCCESS for MPI_REQUEST_NULL or a live request, else reports
 * MPI_ERR_REQUEST as call fn (lib/p2p/wait.c). */
int ucmpi_request_check(ucmpi_request_t *r, const char *fn);
/* Fails the requests whose peer died or whose comm was revoked (slow paths:
 * waiting loops now and then, test-style calls at failure.h's poll); the
 * index of the first MPI_ANY_SOURCE receive kept pending, else -1. */
int ucmpi_requests_check_now(int count, MPI_Request reqs[]);

/* Requests on the UCX glue (lib/p2p/xfer.c).  The post functions return
 * MPI_SUCCESS or the error the request completed with. */
void ucmpi_p2p_xfer_init(void);
int ucmpi_p2p_post_send(ucmpi_request_t *req, int world, uint64_t tag);
int ucmpi_p2p_post_recv(ucmpi_request_t *req, uint64_t tag, uint64_t mask,
                        unsigned flags, void *msg);
int ucmpi_p2p_post_failed(ucmpi_request_t *req, int rc);
/* An operation of req ended (0, UCMPI_UCX_CANCELED or an error class);
 * the glue's done callbacks of sends and receives. */
void ucmpi_p2p_op_done(ucmpi_request_t *req, int st);
void ucmpi_p2p_send_done(ucmpi_ucx_op_t *op, int st, uint64_t t, size_t n)
    __attribute__((visibility("hidden")));
void ucmpi_p2p_recv_done(ucmpi_ucx_op_t *op, int st, uint64_t t, size_t n)
    __attribute__((visibility("hidden")));
void ucmpi_p2p_send_abandon(ucmpi_request_t *req);
/* r is a user MPI_ANY_SOURCE receive that ULFM keeps pending: a failure in
 * its comm is not acknowledged (waiting calls report
 * MPI_ERR_PROC_FAILED_PENDING and leave it).  Slow paths only. */
bool ucmpi_p2p_anysrc_blocked(ucmpi_request_t *r);
/* A blocking call's check of its request now and then: a dead peer, a
 * revoked comm, or an MPI_ANY_SOURCE receive blocked by a failure
 * (MPI_ERR_PROC_FAILED: a blocking receive is not left pending). */
void ucmpi_p2p_check_blocking(ucmpi_request_t *r);
/* Blocking request-less receives: direct, and MPI_Recv's usual case (reports
 * as ucmpi_rt_call); the send, ucmpi_p2p_send_contig, is in p2p_inline.h. */
int ucmpi_p2p_recv_direct(void *buf, MPI_Count count, MPI_Datatype dt,
                          int src, int tag, ucmpi_comm_t *comm, int ctx_sub,
                          MPI_Status *st);
int ucmpi_p2p_recv_user(void *buf, MPI_Count count, MPI_Datatype dt, int src,
                        int tag, MPI_Comm comm, MPI_Status *st)
    __attribute__((visibility("hidden")));

#endif
