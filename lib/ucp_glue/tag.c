/* Tagged messages on UCP: the glue's one send and one receive; non-contiguous
 * data streams through a UCX generic datatype run by the registered dt ops. */
#include "glue.h"
#include "ucx.h"

#include <stdlib.h>
#include <string.h>

static ucp_datatype_t generic_dt;
static ucmpi_ucx_dt_ops_t dt_ops;

/* --- generic datatype: UCX's callbacks on the registered ops --- */
static void *dt_start(void *context, const void *buffer, size_t count)
{
    return dt_ops.start((void *)buffer);
}

static void *dt_start_unpack(void *context, void *buffer, size_t count)
{
    return dt_ops.start(buffer);
}

static ucs_status_t dt_unpack(void *state, size_t offset, const void *src,
                              size_t len)
{
    return dt_ops.unpack(state, offset, src, len) == 0
               ? UCS_OK : UCS_ERR_MESSAGE_TRUNCATED;
}

void ucmpi_ucx_set_dt_ops(const ucmpi_ucx_dt_ops_t *ops)
{
    static const ucp_generic_dt_ops_t generic_ops = {
        .start_pack = dt_start,
        .start_unpack = dt_start_unpack,
        .unpack = dt_unpack,
    };
    ucp_generic_dt_ops_t g = generic_ops;

    dt_ops = *ops;
    g.packed_size = ops->size;
    g.pack = ops->pack;
    g.finish = ops->finish;
    if (generic_dt == 0)
        ucp_dt_create_generic(&g, NULL, &generic_dt);
}

int ucmpi_ucx_code(ucs_status_t st)
{
    switch (st) {
    case UCS_OK:
        return 0;
    case UCS_ERR_CANCELED:
        return UCMPI_UCX_CANCELED;
    case UCS_ERR_MESSAGE_TRUNCATED:
        return ucmpi_ucx_err(UCMPI_UCX_E_TRUNCATE);
    case UCS_ERR_NO_MEMORY:
        return ucmpi_ucx_err(UCMPI_UCX_E_NO_MEM);
    case UCS_ERR_UNREACHABLE:
    case UCS_ERR_CONNECTION_RESET:
    case UCS_ERR_ENDPOINT_TIMEOUT:
        return ucmpi_ucx_err(UCMPI_UCX_E_PEER);
    default:
        return ucmpi_ucx_err(UCMPI_UCX_E_OTHER);
    }
}

static inline int code(ucs_status_t st)
{
    return __builtin_expect(st == UCS_OK, 1) ? 0 : ucmpi_ucx_code(st);
}

/* --- sends --- */
static void send_cb(void *ucx_req, ucs_status_t st, void *user_data)
{
    ucmpi_ucx_op_t *op = user_data;

    if (op->ucx_req == ucx_req)
        op->ucx_req = NULL;
    ucp_request_free(ucx_req);
    op->done(op, code(st), 0, 0);
}

static void copy_sent_cb(void *ucx_req, ucs_status_t st, void *copy)
{
    free(copy);
    ucp_request_free(ucx_req);
}

/* After the post: fire-and-forget is released (copy freed here or in its cb);
 * a kept one goes in its op (not THREAD_MULTI with a cb: op may be gone). */
static int send_posted(const ucmpi_ucx_xfer_t *x, void *ret, void *copy)
{
    ucmpi_ucx_op_t *op = x->op;

    if (UCS_PTR_IS_PTR(ret)) {
        ucmpi_ucx_stats.sends_kept++;
        if (op == NULL) {
            if (copy == NULL)
                ucp_request_free(ret);
            return 0;
        }
        if (op->done == NULL || !ucmpi_ucx.multi_thread)
            op->ucx_req = ret;
        return UCMPI_UCX_POSTED;
    }
    free(copy);
    if (ret == NULL)
        ucmpi_ucx_stats.sends_now++;
    return ret == NULL ? 0 : ucmpi_ucx_code(UCS_PTR_STATUS(ret));
}

/* Every send (see ucmpi_ucx_send). */
int ucmpi_ucx_send_any(const ucmpi_ucx_xfer_t *x)
{
    ucp_request_param_t p = {0};
    ucp_ep_h ep = ucmpi_ucx_ep(x->peer);
    void *buf = x->buf, *copy = NULL, *ret;
    size_t len = x->len;

    if (ep == NULL || ucmpi_ucx_peer_dead(x->peer))
        return ucmpi_ucx_err(UCMPI_UCX_E_PEER);
    if (x->flags & UCMPI_UCX_COPY) {
        if ((copy = malloc(len ? len : 1)) == NULL)
            return ucmpi_ucx_err(UCMPI_UCX_E_NO_MEM);
        buf = memcpy(copy, buf, len);
        p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK |
                         UCP_OP_ATTR_FIELD_USER_DATA;
        p.cb.send = copy_sent_cb;
        p.user_data = copy;
    } else if (x->op != NULL && x->op->done != NULL) {
        p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK |
                         UCP_OP_ATTR_FIELD_USER_DATA;
        p.cb.send = send_cb;
        p.user_data = x->op;
    } else if (x->flags & UCMPI_UCX_FAST) {
        p.op_attr_mask = UCP_OP_ATTR_FLAG_FAST_CMPL;
    }
    if (x->flags & UCMPI_UCX_GENERIC) {
        p.op_attr_mask |= UCP_OP_ATTR_FIELD_DATATYPE;
        p.datatype = generic_dt;
        len = 1;
    } else if (len >= ucmpi_ucx_hugepage_min) {
        ucmpi_ucx_hugepage_send(x->peer, buf, len);
    }
    if (x->flags & UCMPI_UCX_SYNC)
        ret = ucp_tag_send_sync_nbx(ep, buf, len, x->tag, &p);
    else
        ret = ucp_tag_send_nbx(ep, buf, len, x->tag, &p);
    return send_posted(x, ret, copy);
}

static __attribute__((noinline)) int
send_op_slow(int peer, uint64_t tag, const void *buf, size_t len,
             ucmpi_ucx_op_t *op)
{
    ucmpi_ucx_xfer_t x = {.buf = (void *)buf, .len = len, .tag = tag,
                          .peer = peer, .op = op,
                          .flags = op->done == NULL ? UCMPI_UCX_FAST : 0};
    return ucmpi_ucx_send_any(&x);
}

/* The usual send alone (op, contiguous, endpoint, no huge pages).  Blocking (no
 * done): FAST_CMPL like Open MPI, eager up to UCX_RNDV_SEND_NBR_THRESH. */
int ucmpi_ucx_send_op(int peer, uint64_t tag, const void *buf, size_t len,
                      ucmpi_ucx_op_t *op)
{
    ucp_request_param_t p;        /* UCX reads only what op_attr_mask names */
    ucp_ep_h ep = __atomic_load_n(&ucmpi_ucx.eps[peer], __ATOMIC_ACQUIRE);

    if (__builtin_expect(ep == NULL || ucmpi_ucx_peer_dead(peer) ||
                         len >= ucmpi_ucx_hugepage_min, 0))
        return send_op_slow(peer, tag, buf, len, op);
    if (op->done != NULL) {
        p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK |
                         UCP_OP_ATTR_FIELD_USER_DATA;
        p.cb.send = send_cb;
        p.user_data = op;
    } else {
        p.op_attr_mask = UCP_OP_ATTR_FLAG_FAST_CMPL;
    }
    void *ret = ucp_tag_send_nbx(ep, buf, len, tag, &p);
    if (__builtin_expect(ret == NULL, 1)) {
        ucmpi_ucx_stats.sends_now++;
        return 0;
    }
    if (UCS_PTR_IS_ERR(ret))
        return ucmpi_ucx_code(UCS_PTR_STATUS(ret));
    ucmpi_ucx_stats.sends_kept++;
    if (op->done == NULL || !ucmpi_ucx.multi_thread)   /* see send_posted */
        op->ucx_req = ret;
    return UCMPI_UCX_POSTED;
}

int ucmpi_ucx_wait_test(ucmpi_ucx_wait_t *w)
{
    ucs_status_t st = ucp_request_check_status(w->op.ucx_req);

    if (st == UCS_INPROGRESS)
        return UCMPI_UCX_POSTED;
    ucp_request_free(w->op.ucx_req);
    w->op.ucx_req = NULL;
    return w->status = code(st);
}

void ucmpi_ucx_forget(ucmpi_ucx_op_t *op)
{
    if (op->ucx_req != NULL)
        ucp_request_free(op->ucx_req);
    op->ucx_req = NULL;
}

/* --- receives --- */
/* UCX's request in its own memory: freed here, after the envelope was
 * read (it lives there). */
static void recv_cb(void *ucx_req, ucs_status_t st,
                    const ucp_tag_recv_info_t *info, void *user_data)
{
    ucmpi_ucx_op_t *op = user_data;
    uint64_t tag = info->sender_tag;
    size_t len = info->length;

    op->ucx_req = NULL;
    ucp_request_free(ucx_req);
    op->done(op, code(st), tag, len);
}

/* UCX's request in the caller's room: nothing to free (UCX writes there after
 * return: fine below UCMPI_UCX_THREAD_MULTI, the only case posting these). */
static void recv_cb_own(void *ucx_req, ucs_status_t st,
                        const ucp_tag_recv_info_t *info, void *user_data)
{
    ucmpi_ucx_op_t *op = user_data;

    op->ucx_req = NULL;
    op->done(op, code(st), info->sender_tag, info->length);
}

/* A blocking call's receive: the outcome into its wait, status last (the
 * waiter may leave once it changed). */
static void recv_cb_wait(void *ucx_req, ucs_status_t st,
                         const ucp_tag_recv_info_t *info, void *user_data)
{
    ucmpi_ucx_wait_t *w = user_data;

    w->sender_tag = info->sender_tag;
    w->length = info->length;
    w->op.ucx_req = NULL;
    __atomic_store_n(&w->status, code(st), __ATOMIC_RELEASE);
}

static void recv_cb_wait_free(void *ucx_req, ucs_status_t st,
                              const ucp_tag_recv_info_t *info, void *w)
{
    recv_cb_wait(ucx_req, st, info, w);
    ucp_request_free(ucx_req);
}

static void taken_cb(void *ucx_req, ucs_status_t st,
                     const ucp_tag_recv_info_t *info, void *user_data)
{
    *(int *)user_data = st == UCS_OK ? 1 : -1;
}

/* A probed small eager message into a caller's buffer: its data is
 * already here. */
static int take_wait(void *ret, int *taken)
{
    if (ret == NULL)
        return 0;
    while (!*taken)
        ucp_worker_progress(ucmpi_ucx.worker);
    ucp_request_free(ret);
    return *taken > 0 ? 0 : ucmpi_ucx_err(UCMPI_UCX_E_OTHER);
}

static __attribute__((noinline)) int recv_failed(ucmpi_ucx_op_t *op,
                                                  ucs_status_t st)
{
    if (op == NULL)
        return ucmpi_ucx_code(st);
    op->ucx_req = NULL;
    if (op->done == NULL)
        return ucmpi_ucx_code(st);
    op->done(op, ucmpi_ucx_code(st), 0, 0);
    return 0;
}

/* Every receive (see ucmpi_ucx_recv).  UCX does not always fill recv_info
 * on immediate completion, so receives never complete immediately. */
int ucmpi_ucx_recv_any(const ucmpi_ucx_xfer_t *x)
{
    ucp_request_param_t p;
    ucmpi_ucx_op_t *op = x->op;
    bool own = (x->flags & UCMPI_UCX_OWN) && ucmpi_ucx.own_ok;
    void *buf = x->buf, *ret;
    size_t len = x->len;
    int taken = 0;

    p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA |
                     UCP_OP_ATTR_FLAG_NO_IMM_CMPL;
    p.user_data = op;
    if (op == NULL) {
        p.op_attr_mask &= ~UCP_OP_ATTR_FLAG_NO_IMM_CMPL;
        p.cb.recv = taken_cb;
        p.user_data = &taken;
    } else if (op->done == NULL) {
        p.cb.recv = own ? recv_cb_wait : recv_cb_wait_free;
    } else {
        p.cb.recv = own ? recv_cb_own : recv_cb;
    }
    if (own) {
        p.op_attr_mask |= UCP_OP_ATTR_FIELD_REQUEST;
        p.request = x->req_mem;
    }
    if (x->flags & UCMPI_UCX_GENERIC) {
        p.op_attr_mask |= UCP_OP_ATTR_FIELD_DATATYPE;
        p.datatype = generic_dt;
        len = 1;
    } else if (len >= ucmpi_ucx_hugepage_min) {
        ucmpi_ucx_hugepage_recv(x->peer, buf, len);
    }
    /* known before posting when in the room, else a mark the callback
     * clears: set to UCX's handle after the post unless it ran */
    if (op != NULL)
        op->ucx_req = own ? x->req_mem : (void *)op;
    if (x->flags & UCMPI_UCX_MSG)
        ret = ucp_tag_msg_recv_nbx(ucmpi_ucx.worker, buf, len, x->msg, &p);
    else
        ret = ucp_tag_recv_nbx(ucmpi_ucx.worker, buf, len, x->tag, x->mask,
                               &p);
    if (UCS_PTR_IS_ERR(ret))
        return recv_failed(op, UCS_PTR_STATUS(ret));
    if (op == NULL)
        return take_wait(ret, &taken);
    __atomic_compare_exchange_n(&op->ucx_req, &(void *){op}, ret, false,
                                __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return 0;
}

static __attribute__((noinline)) int
recv_op_slow(void *buf, size_t len, uint64_t tag, uint64_t mask,
             ucmpi_ucx_op_t *op, void *req_mem, int peer)
{
    ucmpi_ucx_xfer_t x = {.buf = buf, .len = len, .tag = tag, .mask = mask,
                          .peer = peer, .flags = UCMPI_UCX_OWN, .op = op,
                          .req_mem = req_mem};
    return ucmpi_ucx_recv_any(&x);
}

/* The usual receive alone (contiguous, below the huge-page size, UCX's
 * request in the op's room, below UCMPI_UCX_THREAD_MULTI). */
int ucmpi_ucx_recv_op(void *buf, size_t len, uint64_t tag, uint64_t mask,
                      ucmpi_ucx_op_t *op, void *req_mem, int peer)
{
    ucp_request_param_t p;        /* UCX reads only what op_attr_mask names */

    if (__builtin_expect(!ucmpi_ucx.own_ok || len >= ucmpi_ucx_hugepage_min,
                         0))
        return recv_op_slow(buf, len, tag, mask, op, req_mem, peer);
    p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA |
                     UCP_OP_ATTR_FIELD_REQUEST | UCP_OP_ATTR_FLAG_NO_IMM_CMPL;
    p.cb.recv = op->done != NULL ? recv_cb_own : recv_cb_wait;
    p.user_data = op;
    p.request = req_mem;
    op->ucx_req = req_mem;        /* the callback clears it, even at once */
    void *ret = ucp_tag_recv_nbx(ucmpi_ucx.worker, buf, len, tag, mask, &p);
    if (__builtin_expect(UCS_PTR_IS_ERR(ret), 0))
        return recv_failed(op, UCS_PTR_STATUS(ret));
    return 0;
}

void ucmpi_ucx_cancel(ucmpi_ucx_op_t *op)
{
    void *r = op->ucx_req;

    if (r != NULL && r != (void *)op)
        ucp_request_cancel(ucmpi_ucx.worker, r);
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
