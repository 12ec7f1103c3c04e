/* Point-to-point requests on the glue: transfer and completion (status,
 * truncation, bounce buffers, Ssend acks); request-less MPI_Send/Recv paths. */
#include "core/failure.h"
#include "p2p/request.h"
#include "p2p/progress_api.h"
#include "datatype/datatype.h"
#include "core/config.h"
#include "p2p/p2p.h"
#include "p2p/p2p_inline.h"
#include "p2p/progress.h"
#include "p2p/tag.h"
#include "p2p/p2p_stats.h"

/* --- datatype streaming (UCMPI_UCX_GENERIC): the object is the request --- */
static void *dt_start(void *obj)
{
    ucmpi_request_t *req = obj;

    req->p2p.dt_state = ucmpi_dt_cursor_create(req->p2p.dt, req->p2p.buf,
                                               req->p2p.count);
    return req;
}

static size_t dt_size(void *state)
{
    ucmpi_request_t *req = state;
    return (size_t)(req->p2p.count * req->p2p.dt->size);
}

static size_t dt_pack(void *state, size_t offset, void *dst, size_t max)
{
    ucmpi_request_t *req = state;
    return ucmpi_dt_cursor_pack(req->p2p.dt_state, offset, dst, max);
}

static int dt_unpack(void *state, size_t offset, const void *src, size_t len)
{
    ucmpi_request_t *req = state;
    size_t cap = dt_size(state);

    if (offset >= cap)
        return -1;
    ucmpi_dt_cursor_unpack(req->p2p.dt_state, offset, src,
                           len < cap - offset ? len : cap - offset);
    return 0;
}

static void dt_finish(void *state)
{
    ucmpi_request_t *req = state;

    ucmpi_dt_cursor_destroy(req->p2p.dt_state);
    req->p2p.dt_state = NULL;
}

void ucmpi_p2p_xfer_init(void)
{
    static const ucmpi_ucx_dt_ops_t ops = {
        dt_start, dt_size, dt_pack, dt_unpack, dt_finish,
    };
    ucmpi_ucx_set_dt_ops(&ops);
}

/* --- completion --- */
/* One operation of the request ended (Ssend has two): st is 0,
 * UCMPI_UCX_CANCELED or an MPI error class. */
void ucmpi_p2p_op_done(ucmpi_request_t *req, int st)
{
    int *err = &req->status.MPI_ERROR;

    if (st != 0 && *err == MPI_SUCCESS && req->p2p.world_peer >= 0 &&
        ucmpi_peer_failed(req->p2p.world_peer))
        *err = MPI_ERR_PROC_FAILED;   /* e.g. its shared memory is gone */
    else if (st == UCMPI_UCX_CANCELED && *err == MPI_SUCCESS)
        req->status.ucmpi_cancelled = 1;   /* else: failed peer, see failure.c */
    else if (st != 0 && *err == MPI_SUCCESS)
        *err = st;
    if (--req->p2p.pending == 0) {
        free(req->p2p.bounce);
        req->p2p.bounce = NULL;
        ucmpi_request_set_complete(req);
    }
}

void ucmpi_p2p_send_done(ucmpi_ucx_op_t *op, int st, uint64_t t, size_t n)
{
    ucmpi_p2p_op_done(UCMPI_CONTAINER_OF(op, ucmpi_request_t, p2p.op), st);
}

static void ack_done(ucmpi_ucx_op_t *op, int st, uint64_t t, size_t n)
{
    ucmpi_p2p_op_done(UCMPI_CONTAINER_OF(op, ucmpi_request_t, p2p.ack_op), st);
}

/* A matched receive of length bytes from the peer in req's status. */
static inline void count_recv(const ucmpi_request_t *req, size_t length)
{
    int w = req->p2p.world_peer;

    if (__builtin_expect(!ucmpi_p2p_stats.on, 1))
        return;
    if (w < 0)
        w = ucmpi_comm_peer_world(req->comm, req->status.MPI_SOURCE);
    ucmpi_p2p_count_recv(w, length);
}

static __attribute__((noinline)) void
recv_complete(ucmpi_request_t *req, int st, uint64_t stag, size_t length)
{
    size_t cap = (size_t)(req->p2p.count * req->p2p.dt->size);
    size_t got = length < cap ? length : cap;

    ucmpi_p2p_count_ended();
    if (st == 0 || st == MPI_ERR_TRUNCATE) {
        req->status.MPI_SOURCE = ucmpi_tag_src(stag);
        count_recv(req, length);
        req->status.MPI_TAG = ucmpi_tag_tag(stag);
        req->status.ucmpi_count = (MPI_Count)got;
        if (length > cap)
            st = MPI_ERR_TRUNCATE;
        else if (got < cap && ucmpi_dt_partial(req->p2p.dt, got) &&
                 req->status.MPI_ERROR == MPI_SUCCESS)
            req->status.MPI_ERROR = MPI_ERR_TYPE;   /* signatures differ */
        if (req->p2p.bounce != NULL)
            ucmpi_dt_unpack(req->p2p.dt, req->p2p.buf, req->p2p.count,
                            req->p2p.bounce, got);
        if (ucmpi_tag_is_sync(stag) && req->p2p.mode != UCMPI_RECV_ACKED)
            ucmpi_p2p_queue_ack(req, stag);
    }
    ucmpi_p2p_op_done(req, st);
}

/* The usual message inline: whole, filling the buffer or of a byte type,
 * no unpacking, no acknowledgement, the request's only operation. */
void ucmpi_p2p_recv_done(ucmpi_ucx_op_t *op, int st, uint64_t stag,
                         size_t length)
{
    ucmpi_request_t *req = UCMPI_CONTAINER_OF(op, ucmpi_request_t, p2p.op);
    MPI_Datatype dt = req->p2p.dt;

    if (__builtin_expect(st == 0 && req->p2p.pending == 1 && dt->contig &&
                         req->p2p.bounce == NULL &&
                         (dt->size == 1 ||
                          length == (size_t)(req->p2p.count * dt->size)) &&
                         !ucmpi_tag_is_sync(stag), 1)) {
        req->status.MPI_SOURCE = ucmpi_tag_src(stag);
        req->status.MPI_TAG = ucmpi_tag_tag(stag);
        req->status.ucmpi_count = (MPI_Count)length;
        req->p2p.pending = 0;
        ucmpi_p2p_count_ended();
        count_recv(req, length);
        ucmpi_request_set_complete(req);
    } else {
        recv_complete(req, st, stag, length);
    }
}

/* A transfer that failed to post: its operation ends with the error. */
int ucmpi_p2p_post_failed(ucmpi_request_t *req, int rc)
{
    req->p2p.pending = 1;
    ucmpi_p2p_op_done(req, rc);
    return MPI_SUCCESS;
}

/* --- posting --- */
/* The request's data for x: contiguous as it is, small non-contiguous
 * data through a bounce buffer, large data streamed.  MPI_ERR_NO_MEM. */
static int prepare(ucmpi_request_t *req, int packing, ucmpi_ucx_xfer_t *x)
{
    static long bounce_limit = -1;  /* the tunable, read once */
    MPI_Datatype dt = req->p2p.dt;
    size_t bytes = (size_t)(req->p2p.count * dt->size);

    x->len = bytes;
    if (dt->contig || bytes == 0) {
        x->buf = ucmpi_p2p_contig_addr(req->p2p.buf, dt, bytes);
        return 0;
    }
    if (bounce_limit < 0)
        bounce_limit = ucmpi_config_long("BOUNCE_LIMIT");
    if (bytes > (size_t)bounce_limit) {
        x->flags |= UCMPI_UCX_GENERIC;
        x->buf = req;
        return 0;
    }
    if ((x->buf = req->p2p.bounce = malloc(bytes)) == NULL)
        return MPI_ERR_NO_MEM;
    if (packing)
        ucmpi_dt_pack(dt, req->p2p.buf, req->p2p.count, req->p2p.bounce);
    return 0;
}

/* The acknowledgement of a send flagged synchronous (lib/p2p/tag.h):
 * not cancellable, no data. */
static int post_ack_recv(ucmpi_request_t *req, uint64_t tag)
{
    ucmpi_ucx_xfer_t x = {.peer = req->p2p.world_peer,
                          .op = &req->p2p.ack_op};

    ucmpi_tag_recv(req->comm->ctx, UCMPI_CTX_ACK, req->p2p.peer,
                   ucmpi_tag_tag(tag), &x.tag, &x.mask);
    req->p2p.ack_op.done = ack_done;
    return ucmpi_ucx_recv(&x);    /* a failed post ends through ack_done */
}

/* Posts the send described in req (any mode, any data) to world rank
 * world; MPI_SUCCESS, or the error req completed with. */
int ucmpi_p2p_post_send(ucmpi_request_t *req, int world, uint64_t tag)
{
    ucmpi_ucx_xfer_t x = {.tag = tag, .peer = world, .op = &req->p2p.op};
    bool flagged = ucmpi_tag_is_sync(tag) && !ucmpi_p2p_sync_by_ucx(world);
    int rc;

    req->p2p.op.done = ucmpi_p2p_send_done;
    if ((rc = prepare(req, 1, &x)) != 0)
        return rc;
    if (ucmpi_tag_is_sync(tag) && !flagged) {
        /* on-node: UCX acknowledges the match itself (see lib/p2p/tag.h) */
        x.flags |= UCMPI_UCX_SYNC;
        x.tag &= ~UCMPI_TAG_SYNC;
    }
    req->p2p.pending = flagged ? 2 : 1;
    ucmpi_p2p_count_send(world, x.tag, x.len);
    rc = ucmpi_ucx_send(&x);
    if (rc > 0) {                 /* nothing started */
        ucmpi_p2p_post_failed(req, rc);
        return rc;
    }
    if (flagged)
        post_ack_recv(req, tag);
    if (rc == 0)
        ucmpi_p2p_op_done(req, 0);
    return MPI_SUCCESS;
}

/* Posts req's receive (UCMPI_UCX_OWN: UCX's request in the room in front of a
 * pool request; UCMPI_UCX_MSG: probed msg).  MPI_SUCCESS or req's error. */
int ucmpi_p2p_post_recv(ucmpi_request_t *req, uint64_t tag, uint64_t mask,
                        unsigned flags, void *msg)
{
    ucmpi_ucx_xfer_t x = {.tag = tag, .mask = mask,
                          .peer = req->p2p.world_peer, .flags = flags,
                          .op = &req->p2p.op, .req_mem = req, .msg = msg};
    int rc;

    req->p2p.op.done = ucmpi_p2p_recv_done;
    req->p2p.pending = 1;
    if ((rc = prepare(req, 0, &x)) == 0) {
        ucmpi_p2p_count_posted();
        return ucmpi_ucx_recv(&x);    /* a failed post ends in recv_done */
    }
    ucmpi_p2p_op_done(req, rc);
    return rc;
}

/* UCX neither cancels nor purges a send to a dead peer: end it now with
 * MPI_ERR_PROC_FAILED, out of the pool for good (UCX may still call back). */
void ucmpi_p2p_send_abandon(ucmpi_request_t *req)
{
    if (ucmpi_request_is_complete(req) || req->ops != NULL)
        return;
    req->status.MPI_ERROR = MPI_ERR_PROC_FAILED;
    ucmpi_ucx_cancel(&req->p2p.ack_op);      /* Ssend: ack_done runs now */
    if (ucmpi_request_is_complete(req))
        return;
    req->ops = &ucmpi_request_held_ops;
    req->p2p.pending = 0;                    /* a late callback changes nothing */
    ucmpi_request_set_complete(req);
}

/* --- blocking contiguous transfers without a request --- */

/* A blocking send UCX kept (or failed to post): wait, leaving it to UCX once
 * the peer is dead.  Errors go to comm's handler as call fn (unless NULL). */
int ucmpi_p2p_send_contig_end(ucmpi_p2p_send_frame_t *f, int st)
{
    int world = f->world, dead = 0;
    ucmpi_wait_loop_t l;

    ucmpi_wait_loop_init(&l);
    while (st == UCMPI_UCX_POSTED &&
           (st = ucmpi_ucx_wait_test(&f->w)) == UCMPI_UCX_POSTED) {
        unsigned spins = ucmpi_wait_loop_turn(&l);
        if (spins % 1024 == 0 && spins != 0 && ucmpi_peer_failed(world)) {
            ucmpi_ucx_peer_gone(world);   /* see ucmpi_p2p_send_abandon */
            ucmpi_ucx_forget(&f->w.op);
            dead = 1;
            st = MPI_ERR_PROC_FAILED;
        } else if (spins % 1024 == 0 && spins != 0 &&
                   (st = ucmpi_failure_comm_check(f->comm, 0)) != 0) {
            ucmpi_ucx_forget(&f->w.op);   /* revoked: UCX may finish it */
            break;
        } else {
            st = UCMPI_UCX_POSTED;
        }
    }
    ucmpi_progress_wait_done();
    if (st != 0 && st != MPI_ERR_REVOKED && (dead || ucmpi_peer_failed(world)))
        st = MPI_ERR_PROC_FAILED;     /* e.g. its shared memory is gone */
    return f->fn != NULL ? ucmpi_p2p_report(f->comm, st, f->fn) : st;
}

/* Waits for a blocking receive the glue's callback fills, status last; once
 * world_peer >= 0 is dead the receive is cancelled and *dead says so (1);
 * when comm's fault tolerance ends it (revoked, or an MPI_ANY_SOURCE receive
 * while a failure is not acknowledged: failure.h), *dead is that error. */
static inline __attribute__((always_inline)) int
wait_recv(ucmpi_ucx_wait_t *w, int world_peer, ucmpi_comm_t *comm, int *dead)
{
    ucmpi_wait_loop_t l;
    int st;

    ucmpi_wait_loop_init(&l);
    while ((st = __atomic_load_n(&w->status, __ATOMIC_ACQUIRE)) ==
           UCMPI_UCX_POSTED) {
        int n = l.fast ? ucmpi_ucx_progress() : ucmpi_progress();
        /* done: leave before the loop's bookkeeping (the path from the
         * callback to the caller is part of every message's latency) */
        if (__atomic_load_n(&w->status, __ATOMIC_ACQUIRE) != UCMPI_UCX_POSTED)
            continue;
        unsigned spins = ucmpi_wait_loop_after(&l, n);
        if (spins % 1024 == 0 && spins != 0 && !*dead) {
            if (world_peer >= 0 && ucmpi_peer_failed(world_peer))
                *dead = 1;
            else
                *dead = ucmpi_failure_comm_check(comm, world_peer < 0);
            if (*dead)
                ucmpi_ucx_cancel(&w->op);
        }
    }
    ucmpi_progress_wait_done();
    return st;
}

/* Blocking contiguous receive with UCX's request in this frame (no pool);
 * the caller made sure the stash is empty and may post without the lock.
 * counting: feed p2p_stats.h (a copy of its own, off the usual path). */
static inline __attribute__((always_inline)) int
recv_contig_x(void *buf, MPI_Count count, MPI_Datatype dt, int src, int tag,
              ucmpi_comm_t *comm, int ctx_sub, MPI_Status *st,
              const bool counting)
{
    size_t cap = (size_t)(count * dt->size);
    int world = src >= 0 ? ucmpi_comm_peer_world(comm, src) : -1;
    char req_mem[UCMPI_UCX_REQ_ROOM] __attribute__((aligned(16)));
    ucmpi_ucx_wait_t w;
    ucmpi_ucx_xfer_t x;
    int dead = 0, rc;

    if (world >= 0)
        ucmpi_p2p_recv_tag(comm, ctx_sub, src, world, tag, cap, &x.tag,
                           &x.mask);
    else
        ucmpi_tag_recv(comm->ctx, ctx_sub, src, tag, &x.tag, &x.mask);
    x.buf = ucmpi_p2p_contig_addr(buf, dt, cap);
    x.len = cap;
    x.peer = world;
    x.flags = UCMPI_UCX_OWN;
    x.op = &w.op;
    x.req_mem = req_mem + sizeof(req_mem);
    w.op.done = NULL;
    w.status = UCMPI_UCX_POSTED;
    if (counting)
        ucmpi_p2p_count_posted();
    rc = ucmpi_ucx_recv(&x);
    bool posted = rc == 0;
    if (counting && posted && w.status != UCMPI_UCX_POSTED)
        ucmpi_p2p_unexpected(comm, ucmpi_tag_src(w.sender_tag),
                             ucmpi_tag_tag(w.sender_tag), w.length);
    if (posted) {
        int s = wait_recv(&w, world, comm, &dead);
        if (__builtin_expect(s == 0, 1) || s == MPI_ERR_TRUNCATE)
            rc = w.length > cap ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
        else
            /* a blocking MPI_ANY_SOURCE receive is not left pending */
            rc = dead == 1 || dead == MPI_ERR_PROC_FAILED_PENDING
                     ? MPI_ERR_PROC_FAILED : dead ? dead : s;
    }
    /* as the request path (recv_complete): a truncated message matched;
     * one ending inside an element of dt means the signatures differ */
    bool matched = posted && (rc == MPI_SUCCESS || rc == MPI_ERR_TRUNCATE);
    size_t len = matched ? w.length : 0;

    if (counting)
        ucmpi_p2p_count_ended();
    if (counting && matched)
        ucmpi_p2p_count_recv(world >= 0 ? world
                             : ucmpi_comm_peer_world(comm,
                                   ucmpi_tag_src(w.sender_tag)), len);

    if (matched && __builtin_expect(ucmpi_tag_is_sync(w.sender_tag), 0))
        ucmpi_p2p_queue_sync_ack(comm, w.sender_tag);
    if (__builtin_expect(rc == MPI_SUCCESS && len < cap, 0) &&
        ucmpi_dt_partial(dt, len))
        rc = MPI_ERR_TYPE;
    if (st != MPI_STATUS_IGNORE) {
        *st = ucmpi_empty_status;
        if (matched) {
            st->MPI_SOURCE = ucmpi_tag_src(w.sender_tag);
            st->MPI_TAG = ucmpi_tag_tag(w.sender_tag);
            st->ucmpi_count = (MPI_Count)(len < cap ? len : cap);
        }
        st->MPI_ERROR = rc;
    }
    return rc;
}

static __attribute__((noinline)) int
recv_contig_counted(void *buf, MPI_Count count, MPI_Datatype dt, int src,
                    int tag, ucmpi_comm_t *comm, int ctx_sub, MPI_Status *st)
{
    return recv_contig_x(buf, count, dt, src, tag, comm, ctx_sub, st, true);
}

static inline __attribute__((always_inline)) int
recv_contig(void *buf, MPI_Count count, MPI_Datatype dt, int src, int tag,
            ucmpi_comm_t *comm, int ctx_sub, MPI_Status *st)
{
    if (__builtin_expect(ucmpi_p2p_stats.on, 0))
        return recv_contig_counted(buf, count, dt, src, tag, comm, ctx_sub,
                                   st);
    return recv_contig_x(buf, count, dt, src, tag, comm, ctx_sub, st, false);
}

int ucmpi_p2p_recv_direct(void *buf, MPI_Count count, MPI_Datatype dt,
                          int src, int tag, ucmpi_comm_t *comm, int ctx_sub,
                          MPI_Status *st)
{
    return recv_contig(buf, count, dt, src, tag, comm, ctx_sub, st);
}

/* MPI_Recv's usual case in one frame, from the post to the status; errors
 * are reported as the call the entry point published. */
int ucmpi_p2p_recv_user(void *buf, MPI_Count count, MPI_Datatype dt, int src,
                        int tag, MPI_Comm comm, MPI_Status *st)
{
    int rc = recv_contig(buf, count, dt, src, tag, comm, UCMPI_CTX_P2P, st);

    return __builtin_expect(rc == MPI_SUCCESS, 1)
               ? rc : ucmpi_p2p_report(comm, rc, ucmpi_rt_call);
}
