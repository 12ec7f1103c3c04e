/* MPI-4.1 status queries over arrays (MPI_Request_get_status_any/all/some):
 * like the Test forms, but the requests stay allocated and active. */
#include "p2p/request.h"
#include "p2p/progress_api.h"
#include "p2p/progress.h"
#include "p2p/p2p.h"
#include "core/failure.h"

/* A miss: now and then (failure.h) fail the requests whose peer died or
 * whose comm was revoked; MPI_ERR_PROC_FAILED_PENDING when an MPI_ANY_SOURCE
 * receive is kept pending (*index: which, if not NULL). */
static int poll_check(int count, MPI_Request reqs[], int *index,
                      const char *fn)
{
    int b;

    if (__builtin_expect(!ucmpi_failure_poll_due(), 1) ||
        (b = ucmpi_requests_check_now(count, reqs)) < 0)
        return MPI_SUCCESS;
    if (index != NULL)
        *index = b;
    return ucmpi_p2p_report(reqs[b]->comm, MPI_ERR_PROC_FAILED_PENDING, fn);
}

static int check(int count, MPI_Request reqs[], const char *fn)
{
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (count < 0 || (count > 0 && reqs == NULL))
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "count %d is negative or the array is NULL", count);
    for (int i = 0; i < count; i++)
        if (reqs[i] != MPI_REQUEST_NULL && reqs[i]->magic != UCMPI_MAGIC_REQUEST)
            return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_REQUEST, fn,
                               "request %d is not a valid request", i);
    return MPI_SUCCESS;
}

/* Copies a complete request's status without releasing it. */
static void peek(ucmpi_request_t *r, MPI_Status *st)
{
    if (st == MPI_STATUS_IGNORE)
        return;
    if (ucmpi_request_inactive(r)) {
        *st = ucmpi_empty_status;
        return;
    }
    if (r->ops != NULL && r->ops->on_complete != NULL)
        r->ops->on_complete(r);
    *st = r->status;
}

static bool done(ucmpi_request_t *r)
{
    return ucmpi_request_inactive(r) || ucmpi_request_is_complete(r);
}

#pragma weak MPI_Request_get_status_any = PMPI_Request_get_status_any
int PMPI_Request_get_status_any(int count, MPI_Request reqs[], int *index,
                                int *flag, MPI_Status *status)
{
    int rc = check(count, reqs, "MPI_Request_get_status_any");
    if (rc != MPI_SUCCESS)
        return rc;
    int any_active = 0, n = ucmpi_progress();
    *flag = 0;
    *index = MPI_UNDEFINED;
    for (int i = 0; i < count; i++) {
        if (ucmpi_request_inactive(reqs[i]))
            continue;
        any_active = 1;
        if (ucmpi_request_is_complete(reqs[i])) {
            *flag = 1;
            *index = i;
            peek(reqs[i], status);
            return MPI_SUCCESS;
        }
    }
    if (!any_active) {
        *flag = 1;
        peek(MPI_REQUEST_NULL, status);
        return MPI_SUCCESS;
    }
    ucmpi_progress_poll_miss(n);
    return poll_check(count, reqs, index, "MPI_Request_get_status_any");
}

#pragma weak MPI_Request_get_status_all = PMPI_Request_get_status_all
int PMPI_Request_get_status_all(int count, MPI_Request reqs[], int *flag,
                                MPI_Status statuses[])
{
    int rc = check(count, reqs, "MPI_Request_get_status_all");
    if (rc != MPI_SUCCESS)
        return rc;
    int n = ucmpi_progress();
    *flag = 1;
    for (int i = 0; i < count; i++)
        *flag &= done(reqs[i]);
    if (!*flag) {
        ucmpi_progress_poll_miss(n);
        return poll_check(count, reqs, NULL, "MPI_Request_get_status_all");
    }
    if (statuses != MPI_STATUSES_IGNORE)
        for (int i = 0; i < count; i++)
            peek(reqs[i], &statuses[i]);
    return MPI_SUCCESS;
}

#pragma weak MPI_Request_get_status_some = PMPI_Request_get_status_some
int PMPI_Request_get_status_some(int incount, MPI_Request reqs[],
                                 int *outcount, int indices[],
                                 MPI_Status statuses[])
{
    int rc = check(incount, reqs, "MPI_Request_get_status_some");
    if (rc != MPI_SUCCESS)
        return rc;
    int n = 0, any_active = 0, events = ucmpi_progress();
    for (int i = 0; i < incount; i++) {
        if (ucmpi_request_inactive(reqs[i]))
            continue;
        any_active = 1;
        if (!ucmpi_request_is_complete(reqs[i]))
            continue;
        peek(reqs[i], statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE
                                                      : &statuses[n]);
        indices[n++] = i;
    }
    *outcount = any_active ? n : MPI_UNDEFINED;
    if (any_active && n == 0) {
        ucmpi_progress_poll_miss(events);
        return poll_check(incount, reqs, NULL, "MPI_Request_get_status_some");
    }
    return MPI_SUCCESS;
}
