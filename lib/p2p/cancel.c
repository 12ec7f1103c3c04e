/* MPI_Cancel and a status's cancelled flag: receives cancel in UCX, sends are
 * recalled from the receiver (p2p_cancel.c), generalized requests call back. */
#include "p2p/request.h"
#include "p2p/p2p.h"
#include "p2p/p2p_cancel.h"
#include "ucp_glue/ucx.h"

#pragma weak MPI_Cancel = PMPI_Cancel
int PMPI_Cancel(MPI_Request *request)
{
    int rc = ucmpi_check_initialized("MPI_Cancel");
    if (rc == MPI_SUCCESS && (request == NULL || *request == MPI_REQUEST_NULL))
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_REQUEST, "MPI_Cancel",
                           "request is MPI_REQUEST_NULL");
    if (rc == MPI_SUCCESS)
        rc = ucmpi_request_check(*request, "MPI_Cancel");
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_request_t *r = *request;
    if (ucmpi_request_inactive(r))
        return MPI_SUCCESS;
    if (r->ops != NULL)     /* generalized ones learn whether complete */
        return r->ops->cancel != NULL ? r->ops->cancel(r) : MPI_SUCCESS;
    /* a send may still be unmatched: ask the receiver; if it cannot be
     * recalled it completes normally (not cancelled) */
    if (r->kind == UCMPI_REQ_SEND)
        ucmpi_p2p_cancel_send(r);
    else if (r->kind == UCMPI_REQ_RECV && !ucmpi_request_is_complete(r))
        ucmpi_ucx_cancel(&r->p2p.op);
    return MPI_SUCCESS;
}

#pragma weak MPI_Test_cancelled = PMPI_Test_cancelled
int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    if (status == NULL || flag == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG,
                           "MPI_Test_cancelled", "status or flag is NULL");
    *flag = status->ucmpi_cancelled;
    return MPI_SUCCESS;
}

#pragma weak MPI_Status_set_cancelled = PMPI_Status_set_cancelled
int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    if (status == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG,
                           "MPI_Status_set_cancelled", "status is NULL");
    status->ucmpi_cancelled = flag != 0;
    return MPI_SUCCESS;
}
