/*
 * One-sided transfers over UCP: put, get, atomics, flush.  Every
 * operation reports its local completion on a ucmpi_rma_cnt_t.
 */
#include "glue.h"
#include "ucp_glue/rma.h"

#include <stdlib.h>

ucp_ep_h ucmpi_rma_ep(int r);

ucp_rkey_h ucmpi_rma_rkey_ucp(ucmpi_rma_rkey_t *rkey);

static void cnt_add(ucmpi_rma_cnt_t *c)
{
    ucmpi_rma_cnt_add(c);
}

static void cnt_done(ucmpi_rma_cnt_t *c, ucs_status_t st)
{
    ucmpi_rma_cnt_sub(c, st == UCS_OK ? 0 : ucmpi_ucx_err(UCMPI_UCX_E_OTHER));
}

static void op_cb(void *req, ucs_status_t st, void *user)
{
    cnt_done(user, st);
    ucp_request_free(req);
}

/* Common tail of every nbx call: account for immediate completion. */
static int finish(ucs_status_ptr_t sp, ucmpi_rma_cnt_t *cnt)
{
    if (sp == NULL) {
        cnt_done(cnt, UCS_OK);
        return 0;
    }
    if (UCS_PTR_IS_ERR(sp)) {
        cnt_done(cnt, UCS_PTR_STATUS(sp));
        return ucmpi_ucx_err(UCMPI_UCX_E_OTHER);
    }
    return 0;
}

static ucp_request_param_t op_param(ucmpi_rma_cnt_t *cnt)
{
    ucp_request_param_t p = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK |
                        UCP_OP_ATTR_FIELD_USER_DATA,
        .cb.send = op_cb,
        .user_data = cnt,
    };
    return p;
}

int ucmpi_rma_put(int peer, const void *buf, size_t len, uint64_t raddr,
                  ucmpi_rma_rkey_t *rkey, ucmpi_rma_cnt_t *cnt)
{
    ucp_ep_h ep = ucmpi_rma_ep(peer);
    if (ep == NULL || rkey == NULL)
        return ucmpi_ucx_err(UCMPI_UCX_E_OTHER);
    ucp_request_param_t p = op_param(cnt);
    cnt_add(cnt);
    return finish(ucp_put_nbx(ep, buf, len, raddr, ucmpi_rma_rkey_ucp(rkey),
                              &p), cnt);
}

int ucmpi_rma_get(int peer, void *buf, size_t len, uint64_t raddr,
                  ucmpi_rma_rkey_t *rkey, ucmpi_rma_cnt_t *cnt)
{
    ucp_ep_h ep = ucmpi_rma_ep(peer);
    if (ep == NULL || rkey == NULL)
        return ucmpi_ucx_err(UCMPI_UCX_E_OTHER);
    ucp_request_param_t p = op_param(cnt);
    cnt_add(cnt);
    return finish(ucp_get_nbx(ep, buf, len, raddr, ucmpi_rma_rkey_ucp(rkey),
                              &p), cnt);
}

static const ucp_atomic_op_t aop_ucp[] = {
    [UCMPI_RMA_AOP_ADD] = UCP_ATOMIC_OP_ADD,
    [UCMPI_RMA_AOP_SWAP] = UCP_ATOMIC_OP_SWAP,
    [UCMPI_RMA_AOP_CSWAP] = UCP_ATOMIC_OP_CSWAP,
    [UCMPI_RMA_AOP_AND] = UCP_ATOMIC_OP_AND,
    [UCMPI_RMA_AOP_OR] = UCP_ATOMIC_OP_OR,
    [UCMPI_RMA_AOP_XOR] = UCP_ATOMIC_OP_XOR,
};

int ucmpi_rma_atomic(int peer, int aop, size_t size, const void *value,
                     void *result, uint64_t raddr, ucmpi_rma_rkey_t *rkey,
                     ucmpi_rma_cnt_t *cnt)
{
    ucp_ep_h ep = ucmpi_rma_ep(peer);
    if (ep == NULL || rkey == NULL || (size != 4 && size != 8))
        return ucmpi_ucx_err(UCMPI_UCX_E_OTHER);
    ucp_request_param_t p = op_param(cnt);
    p.op_attr_mask |= UCP_OP_ATTR_FIELD_DATATYPE;
    p.datatype = ucp_dt_make_contig(size);
    if (result != NULL) {
        p.op_attr_mask |= UCP_OP_ATTR_FIELD_REPLY_BUFFER;
        p.reply_buffer = result;
    }
    cnt_add(cnt);
    return finish(ucp_atomic_op_nbx(ep, aop_ucp[aop], value, 1, raddr,
                                    ucmpi_rma_rkey_ucp(rkey), &p), cnt);
}

int ucmpi_rma_flush(int peer, ucmpi_rma_cnt_t *cnt)
{
    ucp_request_param_t p = op_param(cnt);
    ucp_ep_h ep = NULL;

    if (peer >= 0 && (ep = ucmpi_rma_ep(peer)) == NULL)
        return ucmpi_ucx_err(UCMPI_UCX_E_OTHER);
    cnt_add(cnt);
    return finish(ep == NULL ? ucp_worker_flush_nbx(ucmpi_ucx.worker, &p)
                             : ucp_ep_flush_nbx(ep, &p), cnt);
}
