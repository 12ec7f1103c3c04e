/*
 * Point-to-point data movement on UCP tags.  Contiguous buffers go to UCX
 * as they are; small non-contiguous ones through a packed bounce buffer;
 * large ones stream through a UCX generic datatype driven by the datatype
 * engine's resumable cursor (no full copy).
 */
#include "glue.h"
#include "ucx.h"
#include "tag.h"
#include "p2p/p2p.h"
#include "p2p/p2p_cancel.h"
#include "p2p/progress.h"

#include <stdlib.h>
#include <string.h>

static ucp_datatype_t generic_dt;
static int generic_dt_ready;

/* --- generic datatype callbacks: `buffer` is the request's p2p block --- */
static void *dt_start(void *context, const void *buffer, size_t count)
{
    ucmpi_request_t *req = UCMPI_CONTAINER_OF(buffer, ucmpi_request_t, p2p);
    req->p2p.dt_state = ucmpi_dt_cursor_create(req->p2p.dt, req->p2p.buf,
                                               req->p2p.count);
    return req;
}

static void *dt_start_unpack(void *context, void *buffer, size_t count)
{
    return dt_start(context, buffer, count);
}

static size_t dt_packed_size(void *state)
{
    ucmpi_request_t *req = state;
    return (size_t)(req->p2p.count * req->p2p.dt->size);
}

static size_t dt_pack(void *state, size_t offset, void *dest, size_t max)
{
    ucmpi_request_t *req = state;
    return ucmpi_dt_cursor_pack(req->p2p.dt_state, offset, dest, max);
}

static ucs_status_t dt_unpack(void *state, size_t offset, const void *src,
                              size_t len)
{
    ucmpi_request_t *req = state;
    size_t cap = dt_packed_size(state);

    if (offset >= cap)
        return UCS_ERR_MESSAGE_TRUNCATED;
    if (len > cap - offset)
        len = cap - offset;
    ucmpi_dt_cursor_unpack(req->p2p.dt_state, offset, src, len);
    return UCS_OK;
}

static void dt_finish(void *state)
{
    ucmpi_request_t *req = state;
    ucmpi_dt_cursor_destroy(req->p2p.dt_state);
    req->p2p.dt_state = NULL;
}

static ucp_generic_dt_ops_t generic_ops = {
    .start_pack = dt_start,
    .start_unpack = dt_start_unpack,
    .packed_size = dt_packed_size,
    .pack = dt_pack,
    .unpack = dt_unpack,
    .finish = dt_finish,
};

static ucp_datatype_t get_generic_dt(void)
{
    if (!generic_dt_ready) {
        ucp_dt_create_generic(&generic_ops, NULL, &generic_dt);
        generic_dt_ready = 1;
    }
    return generic_dt;
}


/* --- buffer preparation --- */
enum { BUF_CONTIG, BUF_BOUNCE, BUF_GENERIC };

static int buffer_kind(ucmpi_request_t *req)
{
    MPI_Datatype dt = req->p2p.dt;
    size_t bytes = (size_t)(req->p2p.count * dt->size);

    static long bounce_limit = -1;  /* the tunable, read once */

    if (dt->contig || bytes == 0)
        return BUF_CONTIG;
    if (bounce_limit < 0)
        bounce_limit = ucmpi_config_long("BOUNCE_LIMIT");
    return bytes <= (size_t)bounce_limit ? BUF_BOUNCE : BUF_GENERIC;
}

/* Fills buffer/count/datatype for UCX; 0 or an MPI error class. */
static int prepare(ucmpi_request_t *req, int packing, void **buf,
                   size_t *count, ucp_request_param_t *p)
{
    MPI_Datatype dt = req->p2p.dt;
    size_t bytes = (size_t)(req->p2p.count * dt->size);

    switch (buffer_kind(req)) {
    case BUF_CONTIG:
        *buf = bytes ? (char *)req->p2p.buf + dt->true_lb : NULL;
        *count = bytes;
        return 0;
    case BUF_BOUNCE:
        req->p2p.bounce = malloc(bytes);
        if (req->p2p.bounce == NULL)
            return MPI_ERR_NO_MEM;
        req->p2p.bounce_len = bytes;
        if (packing)
            ucmpi_dt_pack(dt, req->p2p.buf, req->p2p.count, req->p2p.bounce);
        *buf = req->p2p.bounce;
        *count = bytes;
        return 0;
    default:
        p->op_attr_mask |= UCP_OP_ATTR_FIELD_DATATYPE;
        p->datatype = get_generic_dt();
        *buf = &req->p2p;
        *count = 1;
        return 0;
    }
}

int ucmpi_ucx_mpi_error(ucs_status_t st)
{
    switch (st) {
    case UCS_OK:
        return MPI_SUCCESS;
    case UCS_ERR_MESSAGE_TRUNCATED:
        return MPI_ERR_TRUNCATE;
    case UCS_ERR_NO_MEMORY:
        return MPI_ERR_NO_MEM;
    case UCS_ERR_UNREACHABLE:
    case UCS_ERR_CONNECTION_RESET:
    case UCS_ERR_ENDPOINT_TIMEOUT:
        return MPI_ERR_PROC_FAILED;
    default:
        return MPI_ERR_OTHER;
    }
}

/* One UCX operation of the request finished (Ssend has two). */
static void op_done(ucmpi_request_t *req, ucs_status_t st)
{
    if (st != UCS_OK && req->status.MPI_ERROR == MPI_SUCCESS &&
        req->p2p.world_peer >= 0 && ucmpi_peer_failed(req->p2p.world_peer))
        req->status.MPI_ERROR = MPI_ERR_PROC_FAILED;   /* e.g. its shm is gone */
    else if (st == UCS_ERR_CANCELED && req->status.MPI_ERROR == MPI_SUCCESS)
        req->status.ucmpi_cancelled = 1;   /* else: failed peer, see failure.c */
    else if (st != UCS_OK && req->status.MPI_ERROR == MPI_SUCCESS)
        req->status.MPI_ERROR = ucmpi_ucx_mpi_error(st);
    if (--req->p2p.pending == 0) {
        if (req->p2p.bounce != NULL) {
            free(req->p2p.bounce);
            req->p2p.bounce = NULL;
        }
        ucmpi_request_set_complete(req);
    }
}

void ucmpi_ucx_op_done(ucmpi_request_t *req)
{
    op_done(req, UCS_OK);
}

/* A send UCX still holds for a dead peer (a rendezvous waiting for the
 * receiver) would never complete: UCX 1.13 neither cancels sends nor
 * purges them when an endpoint without error handling is closed.  It ends
 * now with MPI_ERR_PROC_FAILED, and the request stays out of the pool for
 * good (ucmpi_request_held_ops): UCX may still call back with it. */
void ucmpi_ucx_send_abandon(ucmpi_request_t *req)
{
    if (ucmpi_request_is_complete(req) || req->ops != NULL)
        return;
    req->status.MPI_ERROR = MPI_ERR_PROC_FAILED;
    if (req->p2p.ack_req != NULL)            /* Ssend: ack_cb runs now */
        ucp_request_cancel(ucmpi_ucx.worker, req->p2p.ack_req);
    if (ucmpi_request_is_complete(req))
        return;
    req->ops = &ucmpi_request_held_ops;
    req->p2p.pending = 0;                    /* a late callback changes nothing */
    ucmpi_request_set_complete(req);
}

static void send_cb(void *ucx_req, ucs_status_t st, void *user_data)
{
    ucmpi_request_t *req = user_data;

    if (req->p2p.ucx_req == ucx_req)
        req->p2p.ucx_req = NULL;
    ucp_request_free(ucx_req);
    op_done(req, st);
}

/* Ack receive of a synchronous send: not cancellable, no data. */
static void ack_cb(void *ucx_req, ucs_status_t st,
                   const ucp_tag_recv_info_t *info, void *user_data)
{
    ucmpi_request_t *req = user_data;

    req->p2p.ack_req = NULL;   /* a cancelled send no longer waits for it */
    ucp_request_free(ucx_req);
    op_done(req, st);
}

static void finish_post(ucmpi_request_t *req, void *ret, int is_main)
{
    if (ret == NULL)
        op_done(req, UCS_OK);
    else if (UCS_PTR_IS_ERR(ret))
        op_done(req, UCS_PTR_STATUS(ret));
    else if (is_main)
        req->p2p.ucx_req = ret;
}

static int post_ack_recv(ucmpi_request_t *req, uint64_t tag)
{
    ucp_request_param_t p = {0};
    uint64_t rtag, mask;

    ucmpi_tag_recv(req->comm->ctx, UCMPI_CTX_ACK, req->p2p.peer,
                   ucmpi_tag_tag(tag), &rtag, &mask);
    p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
    p.cb.recv = ack_cb;
    p.user_data = req;
    void *ret = ucp_tag_recv_nbx(ucmpi_ucx.worker, NULL, 0, rtag, mask, &p);
    if (UCS_PTR_IS_ERR(ret))
        return ucmpi_ucx_mpi_error(UCS_PTR_STATUS(ret));
    if (ret == NULL)
        op_done(req, UCS_OK);      /* completed at once: no callback */
    else
        req->p2p.ack_req = ret;
    return MPI_SUCCESS;
}

int ucmpi_ucx_tag_send(ucmpi_request_t *req, int world_dest, uint64_t tag)
{
    ucp_request_param_t p = {0};
    ucp_ep_h ep = ucmpi_ucx_ep(world_dest);
    void *buf;
    size_t count;
    int rc;

    if (ep == NULL || ucmpi_ucx_peer_dead(world_dest))
        return MPI_ERR_PROC_FAILED;
    p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
    p.cb.send = send_cb;
    p.user_data = req;
    rc = prepare(req, 1, &buf, &count, &p);
    if (rc != 0)
        return rc;
    if (count >= ucmpi_ucx_hugepage_min &&
        !(p.op_attr_mask & UCP_OP_ATTR_FIELD_DATATYPE))   /* contiguous */
        ucmpi_ucx_hugepage_send(world_dest, buf, count);
    req->p2p.pending = 1;
    if (ucmpi_tag_is_sync(tag) && ucmpi_p2p_sync_by_ucx(world_dest)) {
        /* on-node: UCX acknowledges the match itself (see lib/p2p/tag.h) */
        finish_post(req, ucp_tag_send_sync_nbx(ep, buf, count,
                                               tag & ~UCMPI_TAG_SYNC, &p), 1);
        return MPI_SUCCESS;
    }
    if (ucmpi_tag_is_sync(tag)) {
        req->p2p.pending = 2;
        rc = post_ack_recv(req, tag);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    finish_post(req, ucp_tag_send_nbx(ep, buf, count, tag, &p), 1);
    return MPI_SUCCESS;
}

/* --- receives --- */
static void recv_complete(ucmpi_request_t *req, ucs_status_t st,
                          const ucp_tag_recv_info_t *info);

static inline __attribute__((always_inline)) void
recv_done(ucmpi_request_t *req, ucs_status_t st,
          const ucp_tag_recv_info_t *info)
{
    req->p2p.ucx_req = NULL;
    /* the usual message inline: whole (UCX reports a contiguous buffer's
     * truncation) and filling the buffer or of a byte type (nothing for
     * ucmpi_dt_partial to find), no unpacking, no acknowledgement, the
     * request's only operation (~25 instructions less per receive) */
    MPI_Datatype dt = req->p2p.dt;
    if (__builtin_expect(st == UCS_OK && req->p2p.pending == 1 &&
                         dt->contig && req->p2p.bounce == NULL &&
                         (dt->size == 1 ||
                          info->length == (size_t)(req->p2p.count * dt->size)) &&
                         !ucmpi_tag_is_sync(info->sender_tag), 1)) {
        req->status.MPI_SOURCE = ucmpi_tag_src(info->sender_tag);
        req->status.MPI_TAG = ucmpi_tag_tag(info->sender_tag);
        req->status.ucmpi_count = (MPI_Count)info->length;
        req->p2p.pending = 0;
        ucmpi_request_set_complete(req);
    } else {
        recv_complete(req, st, info);   /* info lives in ucx_req */
    }
}

static void recv_cb(void *ucx_req, ucs_status_t st,
                    const ucp_tag_recv_info_t *info, void *user_data)
{
    recv_done(user_data, st, info);
    ucp_request_free(ucx_req);
}

/* A receive whose UCX request lives in front of the ucmpi request (a pool
 * request, UCMPI_REQ_UCX_ROOM): nothing to free.  UCX still writes its
 * flags there after this returns, so the request may not be reused before
 * the progress call ends: true below MPI_THREAD_MULTIPLE, the only case
 * that posts such receives. */
static void recv_cb_own(void *ucx_req, ucs_status_t st,
                        const ucp_tag_recv_info_t *info, void *user_data)
{
    recv_done(ucx_req, st, info);
}

void ucmpi_p2p_queue_ack(ucmpi_request_t *req, uint64_t sender_tag);

static void recv_complete(ucmpi_request_t *req, ucs_status_t st,
                          const ucp_tag_recv_info_t *info)
{
    size_t cap = (size_t)(req->p2p.count * req->p2p.dt->size);
    size_t got = info->length < cap ? info->length : cap;

    if (st == UCS_OK || st == UCS_ERR_MESSAGE_TRUNCATED) {
        req->status.MPI_SOURCE = ucmpi_tag_src(info->sender_tag);
        req->status.MPI_TAG = ucmpi_tag_tag(info->sender_tag);
        req->status.ucmpi_count = (MPI_Count)got;
        if (info->length > cap)
            st = UCS_ERR_MESSAGE_TRUNCATED;
        else if (got < cap && ucmpi_dt_partial(req->p2p.dt, got) &&
                 req->status.MPI_ERROR == MPI_SUCCESS)
            req->status.MPI_ERROR = MPI_ERR_TYPE;   /* signatures differ */
        if (req->p2p.bounce != NULL)
            ucmpi_dt_unpack(req->p2p.dt, req->p2p.buf, req->p2p.count,
                            req->p2p.bounce, got);
        if (ucmpi_tag_is_sync(info->sender_tag) &&
            req->p2p.mode != UCMPI_RECV_ACKED)
            ucmpi_p2p_queue_ack(req, info->sender_tag);
    }
    op_done(req, st);
}

/* UCX 1.13 does not always fill recv_info on immediate completion (seen:
 * garbage lengths for small eager messages), so receives never complete
 * immediately: the callback always reports the envelope. */
static void recv_params(ucmpi_request_t *req, ucp_request_param_t *p)
{
    p->op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK |
                      UCP_OP_ATTR_FIELD_USER_DATA |
                      UCP_OP_ATTR_FLAG_NO_IMM_CMPL;
    p->cb.recv = recv_cb;
    p->user_data = req;
}

static void finish_recv_post(ucmpi_request_t *req, void *ret)
{
    if (UCS_PTR_IS_ERR(ret))
        op_done(req, UCS_PTR_STATUS(ret));
    else if (!ucmpi_request_is_complete(req))
        req->p2p.ucx_req = ret;   /* the callback has not run yet */
}

static inline __attribute__((always_inline)) int
tag_recv(ucmpi_request_t *req, uint64_t tag, uint64_t mask, int own)
{
    ucp_request_param_t p;        /* UCX reads only what op_attr_mask names */
    void *buf;
    size_t count;
    int rc;

    recv_params(req, &p);
    if (own) {                    /* UCX's request in front of ours */
        p.op_attr_mask |= UCP_OP_ATTR_FIELD_REQUEST;
        p.request = req;
        p.cb.recv = recv_cb_own;
    }
    if (req->p2p.dt->contig) {    /* the usual case, without prepare() */
        count = (size_t)(req->p2p.count * req->p2p.dt->size);
        buf = count ? (char *)req->p2p.buf + req->p2p.dt->true_lb : NULL;
        if (__builtin_expect(count >= ucmpi_ucx_hugepage_min, 0))
            ucmpi_ucx_hugepage_recv(req->p2p.world_peer, buf, count);
    } else if ((rc = prepare(req, 0, &buf, &count, &p)) != 0) {
        return rc;
    }
    req->p2p.pending = 1;
    if (own) {
        /* UCX's handle is known before posting (the callback clears it,
         * even at once): nothing but req is needed after the call */
        req->p2p.ucx_req = req;
        void *ret = ucp_tag_recv_nbx(ucmpi_ucx.worker, buf, count, tag, mask,
                                     &p);
        if (__builtin_expect(UCS_PTR_IS_ERR(ret), 0)) {
            req->p2p.ucx_req = NULL;
            op_done(req, UCS_PTR_STATUS(ret));
        }
        return MPI_SUCCESS;
    }
    finish_recv_post(req, ucp_tag_recv_nbx(ucmpi_ucx.worker, buf, count, tag,
                                           mask, &p));
    return MPI_SUCCESS;
}

int ucmpi_ucx_tag_recv(ucmpi_request_t *req, uint64_t tag, uint64_t mask)
{
    return tag_recv(req, tag, mask, 0);
}

/* ucmpi_ucx_tag_recv_pooled's other cases, out of line (see below). */
static __attribute__((noinline)) int
tag_recv_pooled_slow(ucmpi_request_t *req, uint64_t tag, uint64_t mask)
{
    int rc;

    if (ucmpi_ucx.multi_thread || ucmpi_ucx.req_size > UCMPI_REQ_UCX_ROOM)
        rc = tag_recv(req, tag, mask, 0);
    else
        rc = tag_recv(req, tag, mask, 1);
    if (__builtin_expect(rc != MPI_SUCCESS, 0)) {   /* no bounce buffer */
        req->status.MPI_ERROR = rc;
        ucmpi_request_set_complete(req);
    }
    return MPI_SUCCESS;
}

/* The usual case (contiguous data, below MPI_THREAD_MULTIPLE) alone in its
 * function: only req lives across the UCX call, so one register to save
 * instead of five. */
int ucmpi_ucx_tag_recv_pooled(ucmpi_request_t *req, uint64_t tag,
                              uint64_t mask)
{
    ucp_request_param_t p;        /* UCX reads only what op_attr_mask names */
    MPI_Datatype dt = req->p2p.dt;

    if (__builtin_expect(ucmpi_ucx.multi_thread || !dt->contig ||
                         ucmpi_ucx.req_size > UCMPI_REQ_UCX_ROOM, 0))
        return tag_recv_pooled_slow(req, tag, mask);
    p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_REQUEST |
                     UCP_OP_ATTR_FLAG_NO_IMM_CMPL;   /* see recv_params */
    p.cb.recv = recv_cb_own;
    p.request = req;
    size_t count = (size_t)(req->p2p.count * dt->size);
    void *buf = count ? (char *)req->p2p.buf + dt->true_lb : NULL;
    req->p2p.pending = 1;
    req->p2p.ucx_req = req;       /* as in tag_recv */
    void *ret = ucp_tag_recv_nbx(ucmpi_ucx.worker, buf, count, tag, mask, &p);
    if (__builtin_expect(UCS_PTR_IS_ERR(ret), 0)) {
        req->p2p.ucx_req = NULL;
        op_done(req, UCS_PTR_STATUS(ret));
    }
    return MPI_SUCCESS;
}

int ucmpi_ucx_tag_probe(uint64_t tag, uint64_t mask, int remove,
                        uint64_t *sender_tag, size_t *len, void **msg)
{
    ucp_tag_recv_info_t info;
    ucp_tag_message_h m = ucp_tag_probe_nb(ucmpi_ucx.worker, tag, mask,
                                           remove, &info);
    if (m == NULL)
        return 0;
    *sender_tag = info.sender_tag;
    *len = info.length;
    if (msg != NULL)
        *msg = m;
    return 1;
}

int ucmpi_ucx_msg_recv(ucmpi_request_t *req, void *msg, uint64_t sender_tag,
                       size_t len)
{
    ucp_request_param_t p = {0};
    void *buf;
    size_t count;
    int rc;

    recv_params(req, &p);
    rc = prepare(req, 0, &buf, &count, &p);
    if (rc != 0)
        return rc;
    req->p2p.pending = 1;
    finish_recv_post(req, ucp_tag_msg_recv_nbx(ucmpi_ucx.worker, buf, count,
                                               msg, &p));
    return MPI_SUCCESS;
}

int ucmpi_ucx_cancel(ucmpi_request_t *req)
{
    if (req->p2p.ucx_req != NULL)
        ucp_request_cancel(ucmpi_ucx.worker, req->p2p.ucx_req);
    return MPI_SUCCESS;
}

int ucmpi_ucx_send_ack(int world_dest, uint64_t tag)
{
    ucp_request_param_t p = {0};
    ucp_ep_h ep = ucmpi_ucx_ep(world_dest);

    if (ep == NULL)
        return MPI_ERR_PROC_FAILED;
    void *ret = ucp_tag_send_nbx(ep, NULL, 0, tag, &p);
    if (UCS_PTR_IS_PTR(ret))
        ucp_request_free(ret);   /* released by UCX when it completes */
    else if (UCS_PTR_IS_ERR(ret))
        return ucmpi_ucx_mpi_error(UCS_PTR_STATUS(ret));
    return MPI_SUCCESS;
}

/* --- nonblocking sends of contiguous data (blocking ones: direct.c) --- */

/* Nonblocking send of a contiguous buffer for req: 1 when UCX kept the
 * operation (*ucx_req) and will call back (so single-threaded callers may
 * set req up after this returns), 0 when done at once, else -(MPI error). */
int ucmpi_ucx_isend_contig(ucmpi_request_t *req, int world_dest,
                           uint64_t tag, const void *buf, size_t len,
                           void **ucx_req)
{
    ucp_request_param_t p;        /* UCX reads only what op_attr_mask names */
    ucp_ep_h ep = ucmpi_ucx_ep(world_dest);

    p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
    p.cb.send = send_cb;
    p.user_data = req;
    if (__builtin_expect(ep == NULL || ucmpi_ucx_peer_dead(world_dest), 0))
        return -MPI_ERR_PROC_FAILED;
    if (__builtin_expect(len >= ucmpi_ucx_hugepage_min, 0))
        ucmpi_ucx_hugepage_send(world_dest, buf, len);
    void *ret = ucp_tag_send_nbx(ep, buf, len, tag, &p);
    if (__builtin_expect(ret == NULL, 1))
        return 0;
    if (UCS_PTR_IS_ERR(ret))
        return -ucmpi_ucx_mpi_error(UCS_PTR_STATUS(ret));
    /* callbacks run only inside progress: the caller sets up req first */
    *ucx_req = ret;
    return 1;
}

/* A send that failed to post: req completes with the error. */
static __attribute__((noinline)) int isend_req_failed(ucmpi_request_t *req,
                                                      int rc)
{
    req->p2p.pending = 0;
    req->status.MPI_ERROR = rc;
    ucmpi_request_set_complete(req);
    return MPI_SUCCESS;
}

/* Posts req's send; the request completes here when UCX is done at once. */
static inline __attribute__((always_inline)) int
isend_req_post(ucmpi_request_t *req, ucp_ep_h ep, uint64_t tag,
               const void *buf, size_t len)
{
    ucp_request_param_t p;        /* UCX reads only what op_attr_mask names */

    p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
    p.cb.send = send_cb;
    p.user_data = req;
    void *ret = ucp_tag_send_nbx(ep, buf, len, tag, &p);
    if (__builtin_expect(ret == NULL, 1)) {
        req->p2p.pending = 0;
        ucmpi_request_set_complete(req);
        return MPI_SUCCESS;
    }
    /* MPI_THREAD_MULTIPLE: another thread's progress may complete (and its
     * owner free) req from now on: nothing more to record */
    if (!UCS_PTR_IS_ERR(ret))
        return MPI_SUCCESS;
    return isend_req_failed(req, ucmpi_ucx_mpi_error(UCS_PTR_STATUS(ret)));
}

/* ucmpi_ucx_isend_req's other cases: a new endpoint, a dead peer, a send
 * large enough for the huge-page hook. */
static __attribute__((noinline)) int
isend_req_slow(ucmpi_request_t *req, int world_dest, uint64_t tag,
               const void *buf, size_t len)
{
    ucp_ep_h ep = ucmpi_ucx_ep(world_dest);

    if (ep == NULL || ucmpi_ucx_peer_dead(world_dest))
        return isend_req_failed(req, MPI_ERR_PROC_FAILED);
    if (len >= ucmpi_ucx_hugepage_min)
        ucmpi_ucx_hugepage_send(world_dest, buf, len);   /* as isend_contig */
    return isend_req_post(req, ep, tag, buf, len);
}

/* Nonblocking send of a contiguous buffer for req, set up with pending 1:
 * the request completes here (at once, or with a failed post's error) or
 * in send_cb.  Always MPI_SUCCESS, so that MPI_Isend can end with a tail
 * call to it (errors surface at completion).  The usual case alone keeps
 * only req across the UCX call (one register to save, not six). */
int ucmpi_ucx_isend_req(ucmpi_request_t *req, int world_dest, uint64_t tag,
                        const void *buf, size_t len)
{
    ucp_ep_h ep = __atomic_load_n(&ucmpi_ucx.eps[world_dest],
                                  __ATOMIC_ACQUIRE);

    if (__builtin_expect(ep == NULL || ucmpi_ucx_peer_dead(world_dest) ||
                         len >= ucmpi_ucx_hugepage_min, 0))
        return isend_req_slow(req, world_dest, tag, buf, len);
    return isend_req_post(req, ep, tag, buf, len);
}
