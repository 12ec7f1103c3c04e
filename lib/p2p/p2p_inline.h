/* The message paths of every nonblocking call, inline in p2p.c and p2p_api.c:
 * a seven-argument call layer is a good part of an Isend's cost. */
#ifndef UCMPI_P2P_INLINE_H
#define UCMPI_P2P_INLINE_H

#include "p2p/pt2pt.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"
#include "p2p/tag.h"
#include "p2p/p2p_cancel.h"
#include "p2p/p2p_stats.h"

/* Fills the p2p block of a request (stack or pool). */
static inline void ucmpi_p2p_describe(ucmpi_request_t *r, const void *buf,
                                      MPI_Count count, MPI_Datatype dt,
                                      int peer, int tag, int sub)
{
    r->p2p.buf = (void *)buf;
    r->p2p.count = count;
    r->p2p.dt = dt;
    r->p2p.peer = peer;
    r->p2p.tag = tag;
    r->p2p.ctx_sub = sub;
}

/* Contiguous data that UCX may take as it is (MPI_DATATYPE_NULL only
 * describes empty MPI_PROC_NULL transfers). */
static inline bool ucmpi_p2p_direct(MPI_Datatype dt, int peer)
{
    return peer != MPI_PROC_NULL && dt != MPI_DATATYPE_NULL && dt->contig;
}

static inline void *ucmpi_p2p_contig_addr(const void *buf, MPI_Datatype dt,
                                          size_t bytes)
{
    return bytes ? (char *)buf + dt->true_lb : NULL;
}

/* Up to this size receives match exactly (UCX's hashed queue), above with the
 * flag-ignoring wildcard (each faster there, docs/tuning.md); same matches. */
#define EXACT_RECV_MAX 64

/* Receive tag and mask from comm rank src (world rank world >= 0) into a
 * buffer of `bytes`. */
static inline void ucmpi_p2p_recv_tag(ucmpi_comm_t *comm, int sub, int src,
                                      int world, int tag, size_t bytes,
                                      uint64_t *t, uint64_t *mask)
{
    if (bytes <= EXACT_RECV_MAX && ucmpi_p2p_sync_by_ucx(world))
        ucmpi_tag_recv_exact(comm->ctx, sub, src, tag, t, mask);
    else
        ucmpi_tag_recv(comm->ctx, sub, src, tag, t, mask);
}

/* Posts r's contiguous send (pending 1); r completes here or in the glue's
 * callback.  Always MPI_SUCCESS (errors surface at completion). */
static inline __attribute__((always_inline)) int
ucmpi_p2p_isend_req(ucmpi_request_t *r, int world, uint64_t tag,
                    const void *buf, size_t len)
{
    ucmpi_ucx_xfer_t x = {.buf = (void *)buf, .len = len, .tag = tag,
                          .peer = world, .op = &r->p2p.op};

    r->p2p.op.done = ucmpi_p2p_send_done;
    ucmpi_p2p_count_send(world, tag, len);
    int rc = ucmpi_ucx_send(&x);
    if (__builtin_expect(rc == 0, 1)) {
        r->p2p.pending = 0;
        ucmpi_request_set_complete(r);
        return MPI_SUCCESS;
    }
    /* MPI_THREAD_MULTIPLE: another thread's progress may complete (and its
     * owner free) r once posted: nothing more to record */
    if (rc == UCMPI_UCX_POSTED)
        return MPI_SUCCESS;
    return ucmpi_p2p_post_failed(r, rc);
}

/* Posts a receive for the pool request r, the usual case (contiguous
 * data) inline; always MPI_SUCCESS (a failed post completes r). */
static inline __attribute__((always_inline)) int
ucmpi_p2p_recv_pooled(ucmpi_request_t *r, uint64_t tag, uint64_t mask)
{
    MPI_Datatype dt = r->p2p.dt;
    size_t len = (size_t)(r->p2p.count * dt->size);
    ucmpi_ucx_xfer_t x = {.buf = ucmpi_p2p_contig_addr(r->p2p.buf, dt, len),
                          .len = len, .tag = tag, .mask = mask,
                          .peer = r->p2p.world_peer, .flags = UCMPI_UCX_OWN,
                          .op = &r->p2p.op, .req_mem = r};

    if (__builtin_expect(!dt->contig, 0)) {
        ucmpi_p2p_post_recv(r, tag, mask, UCMPI_UCX_OWN, NULL);
        return MPI_SUCCESS;
    }
    r->p2p.op.done = ucmpi_p2p_recv_done;
    r->p2p.pending = 1;
    ucmpi_p2p_count_posted();
    int rc = ucmpi_ucx_recv(&x);  /* a failed post ends in recv_done */
    /* done during the post: the message was there (r is not the user's
     * yet, no other thread frees it) */
    if (__builtin_expect(ucmpi_p2p_stats.on && r->p2p.pending == 0, 0) &&
        r->status.MPI_ERROR == MPI_SUCCESS)
        ucmpi_p2p_unexpected(r->comm, r->status.MPI_SOURCE,
                             r->status.MPI_TAG,
                             (size_t)r->status.ucmpi_count);
    return rc;
}

/* Starts a receive described in r (pooled: r is from the request pool). */
static inline __attribute__((always_inline)) int
ucmpi_p2p_start_recv_inline(ucmpi_request_t *r, ucmpi_comm_t *comm,
                            bool pooled)
{
    uint64_t tag, mask;
    int rc;

    if (r->p2p.peer == MPI_PROC_NULL) {
        ucmpi_p2p_set_proc_null(r);
        return MPI_SUCCESS;
    }
    if (r->p2p.peer >= 0) {
        r->p2p.world_peer = ucmpi_comm_peer_world(comm, r->p2p.peer);
        ucmpi_p2p_recv_tag(comm, r->p2p.ctx_sub, r->p2p.peer, r->p2p.world_peer,
                 r->p2p.tag, (size_t)(r->p2p.count * r->p2p.dt->size), &tag,
                 &mask);
    } else {
        ucmpi_tag_recv(comm->ctx, r->p2p.ctx_sub, r->p2p.peer, r->p2p.tag,
                       &tag, &mask);
    }
    /* messages a send cancellation took out of UCX come first */
    int how = ucmpi_p2p_recv_enter(1);
    if (ucmpi_p2p_stash_n != 0 && ucmpi_p2p_stash_recv(r, tag, mask)) {
        ucmpi_p2p_recv_exit(how);
        return r->status.MPI_ERROR;
    }
    rc = pooled ? ucmpi_p2p_recv_pooled(r, tag, mask)
                : ucmpi_p2p_post_recv(r, tag, mask, 0, NULL);
    ucmpi_p2p_recv_exit(how);
    return rc;
}

/* User standard/ready contiguous send: own request (MPI_Cancel works after UCX
 * completed), set up before posting as another thread may run the callback. */
static inline __attribute__((always_inline)) int
ucmpi_p2p_isend_post(ucmpi_request_t *r, const void *buf, MPI_Count count,
                     MPI_Datatype dt, int dest, int tag, ucmpi_comm_t *comm)
{
    size_t bytes = (size_t)(count * dt->size);

    ucmpi_p2p_describe(r, buf, count, dt, dest, tag, UCMPI_CTX_P2P);
    if (!dt->predefined)
        ucmpi_dt_retain(dt);
    r->p2p.mode = UCMPI_SEND_STANDARD;
    r->p2p.world_peer = ucmpi_comm_peer_world(comm, dest);
    ucmpi_p2p_number_send(r);
    r->p2p.pending = 1;
    return ucmpi_p2p_isend_req(
        r, r->p2p.world_peer,
        ucmpi_tag_make(comm->ctx, UCMPI_CTX_P2P, comm->rank, tag),
        ucmpi_p2p_contig_addr(buf, dt, bytes), bytes);
}

/* Pops a request without a call (no stack frame); the caller made sure of a
 * predefined type, a pooled request and a level below MPI_THREAD_MULTIPLE. */
static inline ucmpi_request_t *ucmpi_p2p_pop_fast(int kind, ucmpi_comm_t *c)
{
    ucmpi_request_t *r = ucmpi_request_pool;

    ucmpi_request_pool = r->next_free;
    ucmpi_request_zero(r);
    r->magic = UCMPI_MAGIC_REQUEST;
    r->kind = (uint8_t)kind;
    r->status.MPI_SOURCE = MPI_ANY_SOURCE;
    r->status.MPI_TAG = MPI_ANY_TAG;
    r->comm = c;
    c->refcount++;
    return r;
}

static inline __attribute__((always_inline)) int
ucmpi_p2p_isend_leaf(ucmpi_request_t *r, const void *buf, MPI_Count count,
                     MPI_Datatype dt, int dest, int tag, ucmpi_comm_t *comm)
{
    size_t bytes = (size_t)(count * dt->size);
    int world = ucmpi_comm_peer_world(comm, dest);

    ucmpi_p2p_describe(r, buf, count, dt, dest, tag, UCMPI_CTX_P2P);
    r->p2p.mode = UCMPI_SEND_STANDARD;
    r->p2p.world_peer = world;
    r->p2p.seq = ++ucmpi_p2p_peer_seq[world];   /* ucmpi_p2p_number_send */
    r->p2p.pending = 1;
    return ucmpi_p2p_isend_req(
        r, r->p2p.world_peer,
        ucmpi_tag_make(comm->ctx, UCMPI_CTX_P2P, comm->rank, tag),
        ucmpi_p2p_contig_addr(buf, dt, bytes), bytes);
}

/* The same on a new request *req: -1 without one, else MPI_SUCCESS or the
 * error of a failed post (the request has it too). */
static inline __attribute__((always_inline)) int
ucmpi_p2p_isend_user(const void *buf, MPI_Count count, MPI_Datatype dt,
                     int dest, int tag, ucmpi_comm_t *comm,
                     ucmpi_request_t **req)
{
    ucmpi_request_t *r = ucmpi_request_alloc_fast(UCMPI_REQ_SEND, comm);

    if (r == NULL)
        return -1;
    *req = r;
    ucmpi_p2p_isend_post(r, buf, count, dt, dest, tag, comm);
    /* complete now only at once (no other thread knows r yet) */
    return ucmpi_request_is_complete(r) ? r->status.MPI_ERROR : MPI_SUCCESS;
}

/* MPI_Irecv's usual case on a new pool request r, the stash empty; ends in a
 * tail call to the glue (always MPI_SUCCESS). */
static inline __attribute__((always_inline)) int
ucmpi_p2p_irecv_leaf(ucmpi_request_t *r, void *buf, MPI_Count count,
                     MPI_Datatype dt, int src, int tag, ucmpi_comm_t *comm)
{
    uint64_t t, mask;

    ucmpi_p2p_describe(r, buf, count, dt, src, tag, UCMPI_CTX_P2P);
    r->p2p.world_peer = -1;
    if (src >= 0) {
        r->p2p.world_peer = ucmpi_comm_peer_world(comm, src);
        ucmpi_p2p_recv_tag(comm, UCMPI_CTX_P2P, src, r->p2p.world_peer, tag,
                           (size_t)(count * dt->size), &t, &mask);
    } else {
        ucmpi_tag_recv(comm->ctx, UCMPI_CTX_P2P, src, tag, &t, &mask);
    }
    return ucmpi_p2p_recv_pooled(r, t, mask);
}

/* ucmpi_irecv (the user's MPI_Irecv inlines it). */
static inline __attribute__((always_inline)) int
ucmpi_p2p_irecv_inline(void *buf, MPI_Count count, MPI_Datatype dt, int src,
                       int tag, ucmpi_comm_t *comm, int ctx_sub,
                       ucmpi_request_t **req)
{
    ucmpi_request_t *r = ucmpi_request_alloc_fast(UCMPI_REQ_RECV, comm);

    *req = r;
    if (r == NULL)
        return MPI_ERR_NO_MEM;
    dt = ucmpi_p2p_dt(dt);        /* an empty MPI_DATATYPE_NULL buffer */
    ucmpi_p2p_describe(r, buf, count, dt, src, tag, ctx_sub);
    if (!dt->predefined)
        ucmpi_dt_retain(dt);
    return ucmpi_p2p_start_recv_inline(r, comm, true);
}

/* A blocking send's parameters and what its rare outcomes need, in one
 * object: nothing is kept in registers across the glue's call. */
typedef struct {
    ucmpi_ucx_wait_t w;
    ucmpi_comm_t *comm;
    const char *fn;
    int world;
} ucmpi_p2p_send_frame_t;
/* After a blocking send UCX kept (or failed to post): waits, reports. */
int ucmpi_p2p_send_contig_end(ucmpi_p2p_send_frame_t *f, int st)
    __attribute__((visibility("hidden")));

/* Blocking send of a contiguous buffer to world rank world, without a
 * request; errors through comm's handler as call fn unless fn is NULL. */
static inline __attribute__((always_inline)) int
ucmpi_p2p_send_contig(int world, uint64_t tag, const void *buf, size_t len,
                      ucmpi_comm_t *comm, const char *fn)
{
    ucmpi_p2p_send_frame_t f;
    ucmpi_ucx_xfer_t x = {.buf = (void *)buf, .len = len, .tag = tag,
                          .peer = world, .flags = UCMPI_UCX_FAST,
                          .op = &f.w.op};

    f.w.op.done = NULL;
    f.comm = comm;
    f.fn = fn;
    f.world = world;
    ucmpi_p2p_count_send(world, tag, len);
    int rc = ucmpi_ucx_send(&x);
    if (__builtin_expect(rc == 0, 1))
        return MPI_SUCCESS;
    return ucmpi_p2p_send_contig_end(&f, rc);
}

/* Blocking standard/ready send of contiguous data to rank dest >= 0
 * without a request; errors to comm's handler as call fn unless NULL. */
static inline __attribute__((always_inline)) int
ucmpi_p2p_send_direct(const void *buf, MPI_Count count, MPI_Datatype dt,
                      int dest, int tag, ucmpi_comm_t *comm, int ctx_sub,
                      const char *fn)
{
    size_t bytes = (size_t)(count * dt->size);
    int world = ucmpi_comm_peer_world(comm, dest);

    if (ctx_sub == UCMPI_CTX_P2P)     /* earlier sends to the peer are */
        ucmpi_p2p_next_seq(world);    /* no longer cancellable */
    return ucmpi_p2p_send_contig(
        world, ucmpi_tag_make(comm->ctx, ctx_sub, comm->rank, tag),
        ucmpi_p2p_contig_addr(buf, dt, bytes), bytes, comm, fn);
}

#endif
