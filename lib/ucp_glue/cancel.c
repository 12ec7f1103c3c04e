/*
 * UCX side of send cancellation (protocol in lib/p2p/p2p_cancel.h): the two
 * active messages, sent on the same endpoint as the tagged data so that a
 * cancel request is processed after the message it names arrived, and the
 * drop of a cancelled message.
 */
#include "glue.h"
#include "ucx.h"
#include "p2p/p2p_cancel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ucs_status_t am_cb(void *arg, const void *header, size_t hlen,
                          void *data, size_t len,
                          const ucp_am_recv_param_t *param)
{
    ucmpi_cancel_msg_t m;

    if (len != sizeof(m) || (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV))
        return UCS_OK;   /* not ours: senders force eager */
    memcpy(&m, data, sizeof(m));
    if (arg != NULL)
        ucmpi_p2p_cancel_replied(&m);
    else
        ucmpi_p2p_cancel_arrived(&m);
    return UCS_OK;
}

static int set_handler(unsigned id, void *arg)
{
    ucp_am_handler_param_t p = {
        .field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID |
                      UCP_AM_HANDLER_PARAM_FIELD_CB |
                      UCP_AM_HANDLER_PARAM_FIELD_ARG |
                      UCP_AM_HANDLER_PARAM_FIELD_FLAGS,
        .id = id,
        .cb = am_cb,
        .arg = arg,
        .flags = UCP_AM_FLAG_WHOLE_MSG,
    };
    return ucp_worker_set_am_recv_handler(ucmpi_ucx.worker, &p) == UCS_OK
               ? 0 : -1;
}

int ucmpi_ucx_cancel_init(void)
{
    if (set_handler(UCMPI_AM_P2P_CANCEL, NULL) != 0 ||
        set_handler(UCMPI_AM_P2P_CANCEL_REPLY, (void *)1) != 0)
        return -1;
    return ucmpi_p2p_cancel_init();
}

static void sent_cb(void *req, ucs_status_t st, void *user)
{
    free(user);
    ucp_request_free(req);
}

int ucmpi_ucx_cancel_msg(int world_dest, int reply,
                         const ucmpi_cancel_msg_t *m)
{
    ucp_ep_h ep = ucmpi_ucx_ep(world_dest);
    ucmpi_cancel_msg_t *copy = malloc(sizeof(*copy));

    if (ep == NULL || copy == NULL) {
        free(copy);
        return MPI_ERR_OTHER;
    }
    *copy = *m;
    ucp_request_param_t p = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK |
                        UCP_OP_ATTR_FIELD_USER_DATA |
                        UCP_OP_ATTR_FIELD_FLAGS,
        .cb.send = sent_cb,
        .user_data = copy,
        .flags = UCP_AM_SEND_FLAG_EAGER,
    };
    void *ret = ucp_am_send_nbx(ep, reply ? UCMPI_AM_P2P_CANCEL_REPLY : UCMPI_AM_P2P_CANCEL, NULL,
                                0, copy, sizeof(*copy), &p);
    if (UCS_PTR_IS_PTR(ret))
        return MPI_SUCCESS;          /* sent_cb frees the copy */
    free(copy);
    return UCS_PTR_IS_ERR(ret) ? MPI_ERR_OTHER : MPI_SUCCESS;
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

void ucmpi_ucx_cancel_ack(ucmpi_request_t *req)
{
    if (req->p2p.ack_req != NULL)
        ucp_request_cancel(ucmpi_ucx.worker, req->p2p.ack_req);
}
