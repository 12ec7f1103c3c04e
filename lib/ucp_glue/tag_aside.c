/*
 * Small tagged messages outside any request (lib/coll/sched_abort.c, the
 * collective abort protocol): a fire-and-forget send of a copied payload,
 * and the receive of a message probed out of matching into a caller's
 * buffer.  Error paths only.
 */
#include "glue.h"
#include "ucx.h"

#include <stdlib.h>
#include <string.h>

static void copy_sent_cb(void *req, ucs_status_t st, void *copy)
{
    (void)st;
    free(copy);
    ucp_request_free(req);
}

int ucmpi_ucx_send_copy(int world_dest, uint64_t tag, const void *buf,
                        size_t len)
{
    ucp_ep_h ep = ucmpi_ucx_ep(world_dest);
    void *copy = malloc(len ? len : 1);
    ucp_request_param_t p = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK |
                        UCP_OP_ATTR_FIELD_USER_DATA,
        .cb.send = copy_sent_cb,
        .user_data = copy,
    };

    if (copy == NULL)
        return MPI_ERR_NO_MEM;
    if (ep == NULL || ucmpi_ucx_peer_dead(world_dest)) {
        free(copy);
        return MPI_ERR_PROC_FAILED;
    }
    memcpy(copy, buf, len);
    void *ret = ucp_tag_send_nbx(ep, copy, len, tag, &p);
    if (UCS_PTR_IS_PTR(ret))
        return MPI_SUCCESS;          /* copy_sent_cb frees the copy */
    free(copy);
    return UCS_PTR_IS_ERR(ret) ? ucmpi_ucx_mpi_error(UCS_PTR_STATUS(ret))
                               : MPI_SUCCESS;
}

static void taken_cb(void *req, ucs_status_t st,
                     const ucp_tag_recv_info_t *info, void *user)
{
    (void)req;
    (void)info;
    *(int *)user = st == UCS_OK ? 1 : -1;
}

int ucmpi_ucx_msg_take(void *msg, void *buf, size_t len)
{
    int done = 0;
    ucp_request_param_t p = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK |
                        UCP_OP_ATTR_FIELD_USER_DATA,
        .cb.recv = taken_cb,
        .user_data = &done,
    };
    void *ret = ucp_tag_msg_recv_nbx(ucmpi_ucx.worker, buf, len, msg, &p);

    if (UCS_PTR_IS_ERR(ret))
        return -1;
    if (ret == NULL)
        return 0;
    /* a small eager message: its data is already here */
    while (!done)
        ucp_worker_progress(ucmpi_ucx.worker);
    ucp_request_free(ret);
    return done > 0 ? 0 : -1;
}
