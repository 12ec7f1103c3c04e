/* RMA endpoints: p2p's peer error-handling mode makes UCX leave out shared
 * memory and cma, so RMA has its own, open while some window exists. */
#include "glue.h"
#include "ucx.h"
#include "ucp_glue/rma.h"

#include <stdio.h>
#include <stdlib.h>

static ucp_ep_h *rma_eps;
static int users;

/* Called from several threads under MPI_THREAD_MULTIPLE. */
ucp_ep_h ucmpi_rma_ep(int r)
{
    void *addr = NULL;
    size_t len = 0;
    ucp_ep_h h = NULL;

    ucmpi_ucx_params.lock();
    if (rma_eps == NULL)
        rma_eps = calloc((size_t)ucmpi_ucx_params.proc_cap, sizeof(*rma_eps));
    if (rma_eps != NULL && rma_eps[r] == NULL &&
        ucmpi_ucx_addr_of(r, &addr, &len) == 0) {
        ucp_ep_params_t ep = {
            .field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS |
                          UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE,
            .address = addr,
            .err_mode = UCP_ERR_HANDLING_MODE_NONE,
        };
        ucs_status_t st = ucp_ep_create(ucmpi_ucx.worker, &ep, &h);
        free(addr);
        if (st == UCS_OK)
            rma_eps[r] = h;
        else
            fprintf(stderr, "ucmpi: rank %d: no RMA endpoint to rank %d: %s\n",
                    ucmpi_ucx_params.world_rank, r, ucs_status_string(st));
    }
    h = rma_eps != NULL ? rma_eps[r] : NULL;
    ucmpi_ucx_params.unlock();
    return h;
}

void *ucmpi_rma_ep_drop(int r, int force)
{
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
                             .flags = force ? UCP_EP_CLOSE_FLAG_FORCE : 0};
    void *q = NULL;

    ucmpi_ucx_params.lock();
    if (rma_eps != NULL && rma_eps[r] != NULL) {
        q = ucp_ep_close_nbx(rma_eps[r], &p);
        rma_eps[r] = NULL;
    }
    ucmpi_ucx_params.unlock();
    return UCS_PTR_IS_PTR(q) ? q : NULL;
}

void ucmpi_rma_eps_retain(void)
{
    users++;
}

void ucmpi_rma_eps_release(void)
{
    if (--users > 0 || rma_eps == NULL)
        return;
    ucp_request_param_t p = {0};
    for (int r = 0; r < ucmpi_ucx_params.proc_cap; r++) {
        if (rma_eps[r] == NULL)
            continue;
        void *q = ucp_ep_close_nbx(rma_eps[r], &p);
        if (UCS_PTR_IS_PTR(q)) {
            while (ucp_request_check_status(q) == UCS_INPROGRESS)
                ucmpi_ucx_params.progress();
            ucp_request_free(q);
        }
        rma_eps[r] = NULL;
    }
    free(rma_eps);
    rma_eps = NULL;
}
