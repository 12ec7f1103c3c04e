/* Active messages for the layers above (send cancel), eager on the tagged
 * data's endpoint (a cancel after its message); dropping probed messages. */
#include "glue.h"
#include "ucx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    ucmpi_ucx_am_fn_t fn;
    void *arg;
} am_handler_t;

static am_handler_t handlers[UCMPI_AM_IDS];

static ucs_status_t am_cb(void *arg, const void *header, size_t hlen,
                          void *data, size_t len,
                          const ucp_am_recv_param_t *param)
{
    const am_handler_t *h = arg;

    if (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV)  /* senders force eager */
        fprintf(stderr, "ucmpi: active message %u arrived as rendezvous\n",
                (unsigned)(h - handlers));
    else
        h->fn(h->arg, data, len);
    return UCS_OK;
}

int ucmpi_ucx_am_handler(unsigned id, ucmpi_ucx_am_fn_t fn, void *arg)
{
    ucp_am_handler_param_t p = {
        .field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID |
                      UCP_AM_HANDLER_PARAM_FIELD_CB |
                      UCP_AM_HANDLER_PARAM_FIELD_ARG |
                      UCP_AM_HANDLER_PARAM_FIELD_FLAGS,
        .id = id,
        .cb = am_cb,
        .arg = &handlers[id],
        .flags = UCP_AM_FLAG_WHOLE_MSG,
    };

    if (id >= UCMPI_AM_IDS)
        return -1;
    handlers[id] = (am_handler_t){fn, arg};
    return ucp_worker_set_am_recv_handler(ucmpi_ucx.worker, &p) == UCS_OK
               ? 0 : -1;
}

static void sent_cb(void *req, ucs_status_t st, void *user)
{
    free(user);
    ucp_request_free(req);
}

int ucmpi_ucx_am_send(int world_dest, unsigned id, const void *data,
                      size_t len)
{
    ucp_ep_h ep = ucmpi_ucx_ep(world_dest);
    void *copy = malloc(len ? len : 1);

    if (ep == NULL || copy == NULL) {
        free(copy);
        return ucmpi_ucx_err(UCMPI_UCX_E_OTHER);
    }
    memcpy(copy, data, len);
    ucp_request_param_t p = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK |
                        UCP_OP_ATTR_FIELD_USER_DATA |
                        UCP_OP_ATTR_FIELD_FLAGS,
        .cb.send = sent_cb,
        .user_data = copy,
        .flags = UCP_AM_SEND_FLAG_EAGER,
    };
    void *ret = ucp_am_send_nbx(ep, id, NULL, 0, copy, len, &p);
    if (UCS_PTR_IS_PTR(ret))
        return 0;          /* sent_cb frees the copy */
    free(copy);
    return UCS_PTR_IS_ERR(ret) ? ucmpi_ucx_err(UCMPI_UCX_E_OTHER) : 0;
}

static void dropped_cb(void *req, ucs_status_t st,
                       const ucp_tag_recv_info_t *info, void *user)
{
    ucp_request_free(req);
}

/* A zero-length receive: UCX discards an eager payload as truncated and
 * answers a rendezvous without moving its data. */
void ucmpi_ucx_msg_discard(void *msg)
{
    ucp_request_param_t p = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK,
        .cb.recv = dropped_cb,
    };
    ucp_tag_msg_recv_nbx(ucmpi_ucx.worker, NULL, 0, msg, &p);
}
