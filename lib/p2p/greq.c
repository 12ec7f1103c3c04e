/* Generalized requests: the application completes them; query runs when the
 * status is reported, free when the request is released. */
#include "p2p/request.h"

#include <stdlib.h>

typedef struct {
    MPI_Grequest_query_function *query;
    MPI_Grequest_free_function *free_fn;
    MPI_Grequest_cancel_function *cancel;
    void *extra;
} greq_t;

static int greq_cancel(ucmpi_request_t *r)
{
    greq_t *g = r->ext;
    int rc = g->cancel ? g->cancel(g->extra, ucmpi_request_is_complete(r)) : 0;
    return rc;
}

static int greq_query(ucmpi_request_t *r)
{
    greq_t *g = r->ext;
    if (g->query != NULL)
        r->status.MPI_ERROR = g->query(g->extra, &r->status);
    return r->status.MPI_ERROR;
}

static void greq_destroy(ucmpi_request_t *r)
{
    greq_t *g = r->ext;
    if (g->free_fn != NULL)
        g->free_fn(g->extra);
    free(g);
    r->ext = NULL;
}

static const ucmpi_request_ops_t greq_ops = {
    .cancel = greq_cancel,
    .on_complete = greq_query,
    .destroy = greq_destroy,
};

#pragma weak MPI_Grequest_start = PMPI_Grequest_start
int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn,
                        MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn,
                        void *extra_state, MPI_Request *request)
{
    int rc = ucmpi_check_initialized("MPI_Grequest_start");
    if (rc != MPI_SUCCESS)
        return rc;
    if (request == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG,
                           "MPI_Grequest_start", "request is NULL");
    greq_t *g = malloc(sizeof(*g));
    ucmpi_request_t *r = g ? ucmpi_request_alloc(UCMPI_REQ_GREQ, NULL) : NULL;
    if (r == NULL) {
        free(g);
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_NO_MEM,
                           "MPI_Grequest_start", "out of memory");
    }
    *g = (greq_t){query_fn, free_fn, cancel_fn, extra_state};
    r->ext = g;
    r->ops = &greq_ops;
    *request = r;
    return MPI_SUCCESS;
}

#pragma weak MPI_Grequest_complete = PMPI_Grequest_complete
int PMPI_Grequest_complete(MPI_Request request)
{
    if (request == MPI_REQUEST_NULL || request->magic != UCMPI_MAGIC_REQUEST ||
        request->kind != UCMPI_REQ_GREQ)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_REQUEST,
                           "MPI_Grequest_complete",
                           "not a generalized request (%p)", (void *)request);
    ucmpi_request_set_complete(request);
    return MPI_SUCCESS;
}

#pragma weak MPI_Status_set_source = PMPI_Status_set_source
int PMPI_Status_set_source(MPI_Status *status, int source)
{
    if (status == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG,
                           "MPI_Status_set_source", "status is NULL");
    status->MPI_SOURCE = source;
    return MPI_SUCCESS;
}

#pragma weak MPI_Status_set_tag = PMPI_Status_set_tag
int PMPI_Status_set_tag(MPI_Status *status, int tag)
{
    if (status == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG,
                           "MPI_Status_set_tag", "status is NULL");
    status->MPI_TAG = tag;
    return MPI_SUCCESS;
}

#pragma weak MPI_Status_set_error = PMPI_Status_set_error
int PMPI_Status_set_error(MPI_Status *status, int err)
{
    if (status == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG,
                           "MPI_Status_set_error", "status is NULL");
    status->MPI_ERROR = err;
    return MPI_SUCCESS;
}

#pragma weak MPI_Status_get_source = PMPI_Status_get_source
int PMPI_Status_get_source(const MPI_Status *status, int *source)
{
    if (status == NULL || source == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG,
                           "MPI_Status_get_source", "status or source is NULL");
    *source = status->MPI_SOURCE;
    return MPI_SUCCESS;
}

#pragma weak MPI_Status_get_tag = PMPI_Status_get_tag
int PMPI_Status_get_tag(const MPI_Status *status, int *tag)
{
    if (status == NULL || tag == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG,
                           "MPI_Status_get_tag", "status or tag is NULL");
    *tag = status->MPI_TAG;
    return MPI_SUCCESS;
}

#pragma weak MPI_Status_get_error = PMPI_Status_get_error
int PMPI_Status_get_error(const MPI_Status *status, int *err)
{
    if (status == NULL || err == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG,
                           "MPI_Status_get_error", "status or err is NULL");
    *err = status->MPI_ERROR;
    return MPI_SUCCESS;
}
