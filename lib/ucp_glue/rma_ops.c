/* One-sided transfers over UCP: put, get, atomics, flush.  Every operation
 * reports its local completion on a ucmpi_rma_cnt_t. */
#include "glue.h"
#include "ucp_glue/rma.h"

#include <stdlib.h>

ucp_rkey_h ucmpi_rma_rkey_ucp(ucmpi_rma_rkey_t *rkey);

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

static int put_get(bool get, int peer, void *buf, size_t len,
                   uint64_t raddr, ucmpi_rma_rkey_t *rkey,
                   ucmpi_rma_cnt_t *cnt)
{
    ucp_ep_h ep = ucmpi_rma_ep(peer);
    if (ep == NULL || rkey == NULL)
        return ucmpi_ucx_err(UCMPI_UCX_E_OTHER);
    ucp_request_param_t p = op_param(cnt);
    ucp_rkey_h rk = ucmpi_rma_rkey_ucp(rkey);
    ucmpi_rma_cnt_add(cnt);
    return finish(get ? ucp_get_nbx(ep, buf, len, raddr, rk, &p)
                      : ucp_put_nbx(ep, buf, len, raddr, rk, &p), cnt);
}

int ucmpi_rma_put(int peer, const void *buf, size_t len, uint64_t raddr,
                  ucmpi_rma_rkey_t *rkey, ucmpi_rma_cnt_t *cnt)
{
    return put_get(false, peer, (void *)buf, len, raddr, rkey, cnt);
}

int ucmpi_rma_get(int peer, void *buf, size_t len, uint64_t raddr,
                  ucmpi_rma_rkey_t *rkey, ucmpi_rma_cnt_t *cnt)
{
    return put_get(true, peer, buf, len, raddr, rkey, cnt);
}

int ucmpi_rma_fetch_add(int peer, const uint64_t *value, uint64_t *result,
                        uint64_t raddr, ucmpi_rma_rkey_t *rkey,
                        ucmpi_rma_cnt_t *cnt)
{
    ucp_ep_h ep = ucmpi_rma_ep(peer);
    if (ep == NULL || rkey == NULL)
        return ucmpi_ucx_err(UCMPI_UCX_E_OTHER);
    ucp_request_param_t p = op_param(cnt);
    p.op_attr_mask |= UCP_OP_ATTR_FIELD_DATATYPE |
                      UCP_OP_ATTR_FIELD_REPLY_BUFFER;
    p.datatype = ucp_dt_make_contig(8);
    p.reply_buffer = result;
    ucmpi_rma_cnt_add(cnt);
    return finish(ucp_atomic_op_nbx(ep, UCP_ATOMIC_OP_ADD, value, 1, raddr,
                                    ucmpi_rma_rkey_ucp(rkey), &p), cnt);
}

int ucmpi_rma_flush(int peer, ucmpi_rma_cnt_t *cnt)
{
    ucp_request_param_t p = op_param(cnt);
    ucp_ep_h ep = NULL;

    if (peer >= 0 && (ep = ucmpi_rma_ep(peer)) == NULL)
        return ucmpi_ucx_err(UCMPI_UCX_E_OTHER);
    ucmpi_rma_cnt_add(cnt);
    return finish(ep == NULL ? ucp_worker_flush_nbx(ucmpi_ucx.worker, &p)
                             : ucp_ep_flush_nbx(ep, &p), cnt);
}
