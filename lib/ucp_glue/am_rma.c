/* Active messages of the RMA protocol: registration of the handlers and eager
 * sends of self-contained messages. */
#include "glue.h"
#include "ucp_glue/rma.h"

#include <stdlib.h>

static unsigned am_id(int id)
{
    return id == UCMPI_RMA_MSG_REQUEST ? UCMPI_AM_RMA_ACC : UCMPI_AM_RMA_REPLY;
}

static void rma_am(void *arg, const void *data, size_t len)
{
    ((ucmpi_rma_am_fn_t)arg)(data, len);
}

int ucmpi_rma_am_set_handler(int id, ucmpi_rma_am_fn_t fn)
{
    if (ucmpi_ucx_am_handler(am_id(id), rma_am, (void *)fn) != 0)
        return ucmpi_ucx_err(UCMPI_UCX_E_INTERN);
    return 0;
}

typedef struct {
    void *msg;
    ucmpi_rma_cnt_t *cnt;
} am_send_t;

static void am_done(am_send_t *s, ucs_status_t st)
{
    ucmpi_rma_cnt_sub(s->cnt,
                      st == UCS_OK ? 0 : ucmpi_ucx_err(UCMPI_UCX_E_OTHER));
    free(s->msg);
    free(s);
}

static void am_send_cb(void *req, ucs_status_t st, void *user)
{
    am_done(user, st);
    ucp_request_free(req);
}

int ucmpi_rma_am_send(int peer, int id, void *msg, size_t len,
                      ucmpi_rma_cnt_t *cnt)
{
    ucp_ep_h ep = ucmpi_rma_ep(peer);
    am_send_t *s = malloc(sizeof(*s));
    if (ep == NULL || s == NULL) {
        free(s);
        free(msg);
        return ucmpi_ucx_err(ep == NULL ? UCMPI_UCX_E_OTHER : UCMPI_UCX_E_NO_MEM);
    }
    s->msg = msg;
    s->cnt = cnt;
    ucmpi_rma_cnt_add(cnt);
    ucp_request_param_t p = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK |
                        UCP_OP_ATTR_FIELD_USER_DATA |
                        UCP_OP_ATTR_FIELD_FLAGS,
        .cb.send = am_send_cb,
        .user_data = s,
        .flags = UCP_AM_SEND_FLAG_EAGER,
    };
    ucs_status_ptr_t sp = ucp_am_send_nbx(ep, am_id(id), NULL, 0, msg, len,
                                          &p);
    if (sp == NULL) {
        am_done(s, UCS_OK);
    } else if (UCS_PTR_IS_ERR(sp)) {
        am_done(s, UCS_PTR_STATUS(sp));
        return ucmpi_ucx_err(UCMPI_UCX_E_OTHER);
    }
    return 0;
}
