/*
 * The message paths every nonblocking call takes, inline in both the
 * internal API (lib/p2p/p2p.c) and the entry points (lib/p2p/p2p_api.c): a call
 * layer with seven arguments is a good part of an Isend's own cost.
 */
#ifndef UCMPI_P2P_INLINE_H
#define UCMPI_P2P_INLINE_H

#include "core/ucmpi.h"
#include "p2p/p2p.h"
#include "p2p/tag.h"
#include "p2p/p2p_cancel.h"
#include "ucp_glue/ucx.h"

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

/* Receive buffers up to this size match exactly (UCX's hashed expected
 * queue) when the sender never flags its tag: 80 fewer instructions a
 * message, 3-4% lower 8-64 B latency.  Larger ones keep the flag-ignoring
 * wildcard match, which measured 2-7% faster from 128 B to 4 KiB (the hash
 * buckets are two more cache lines, evicted by the data copies).  Both
 * forms match the same messages, and UCX keeps their order. */
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
    rc = pooled ? ucmpi_ucx_tag_recv_pooled(r, tag, mask)
                : ucmpi_ucx_tag_recv(r, tag, mask);
    ucmpi_p2p_recv_exit(how);
    if (rc != MPI_SUCCESS) {
        r->status.MPI_ERROR = rc;
        ucmpi_request_set_complete(r);
    }
    return rc;
}

/* User standard/ready send of contiguous data (UCMPI_CTX_P2P): a request
 * of its own, which MPI_Cancel may use even after UCX completed the send
 * (lib/p2p/p2p_cancel.h), set up before posting (MPI_THREAD_MULTIPLE: another
 * thread's progress may run the callback at once). */
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
    return ucmpi_ucx_isend_req(
        r, r->p2p.world_peer,
        ucmpi_tag_make(comm->ctx, UCMPI_CTX_P2P, comm->rank, tag),
        ucmpi_p2p_contig_addr(buf, dt, bytes), bytes);
}

/* The entry points' usual cases below do no call but the last (a jump),
 * so they need no stack frame: the caller made sure of a predefined type,
 * a request in the pool and a level below MPI_THREAD_MULTIPLE, which
 * leaves out ucmpi_dt_retain, the pool's growth and the locked paths. */
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
    return ucmpi_ucx_isend_req(
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

/* MPI_Irecv's usual case on a new pool request r (see above): contiguous
 * or not, from a rank or MPI_ANY_SOURCE, with the stash empty; ends in a
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
    return ucmpi_ucx_tag_recv_pooled(r, t, mask);
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

/* Blocking standard/ready send of contiguous data to rank dest >= 0: no
 * request (UCX completes it at once, or the glue waits for it).  Errors
 * go through comm's handler as call fn unless fn is NULL. */
static inline __attribute__((always_inline)) int
ucmpi_p2p_send_direct(const void *buf, MPI_Count count, MPI_Datatype dt,
                      int dest, int tag, ucmpi_comm_t *comm, int ctx_sub,
                      const char *fn)
{
    size_t bytes = (size_t)(count * dt->size);
    int world = ucmpi_comm_peer_world(comm, dest);

    if (ctx_sub == UCMPI_CTX_P2P)     /* earlier sends to the peer are */
        ucmpi_p2p_next_seq(world);    /* no longer cancellable */
    return ucmpi_ucx_send_contig(
        world, ucmpi_tag_make(comm->ctx, ctx_sub, comm->rank, tag),
        ucmpi_p2p_contig_addr(buf, dt, bytes), bytes, comm, fn);
}

/* Blocking receive of contiguous data straight on a UCX request (the
 * caller made sure the stash is empty and may post without the lock). */
static inline __attribute__((always_inline)) int
ucmpi_p2p_recv_direct(void *buf, MPI_Count count, MPI_Datatype dt, int src,
                      int tag, ucmpi_comm_t *comm, int ctx_sub, MPI_Status *st)
{
    size_t cap = (size_t)(count * dt->size), len = 0;
    uint64_t t, mask, stag = 0;
    int world = src >= 0 ? ucmpi_comm_peer_world(comm, src) : -1;

    if (world >= 0)
        ucmpi_p2p_recv_tag(comm, ctx_sub, src, world, tag, cap, &t, &mask);
    else
        ucmpi_tag_recv(comm->ctx, ctx_sub, src, tag, &t, &mask);
    int rc = ucmpi_ucx_recv_contig(ucmpi_p2p_contig_addr(buf, dt, cap), cap,
                                   t, mask, world, &stag, &len);
    bool matched = rc == MPI_SUCCESS || rc == MPI_ERR_TRUNCATE;

    if (matched && __builtin_expect(ucmpi_tag_is_sync(stag), 0))
        ucmpi_p2p_queue_sync_ack(comm, stag);
    /* as the request path (recv_complete): a message ending inside an
     * element of dt means the type signatures differ */
    if (__builtin_expect(rc == MPI_SUCCESS && len < cap, 0) &&
        ucmpi_dt_partial(dt, len))
        rc = MPI_ERR_TYPE;
    if (st != MPI_STATUS_IGNORE) {
        *st = ucmpi_empty_status;
        if (matched) {
            st->MPI_SOURCE = ucmpi_tag_src(stag);
            st->MPI_TAG = ucmpi_tag_tag(stag);
            st->ucmpi_count = (MPI_Count)(len < cap ? len : cap);
        }
        st->MPI_ERROR = rc;
    }
    return rc;
}

#endif
