/* The collective driver: see coll_drv.h. */
#include "coll/coll_drv.h"

static const ucmpi_coll_check_hook_t *check_hook;

void ucmpi_coll_check_register(const ucmpi_coll_check_hook_t *h)
{
    check_hook = h;
}

/* UCMPI_COLL_CHECK: the ranks agree on the call first. */
static int call_checked(const ucmpi_coll_desc_t *d, ucmpi_coll_args_t *a,
                        const ucmpi_coll_check_hook_t *h)
{
    ucmpi_coll_check_args_t r = {0};
    int rc;

    d->record(a, &r);
    rc = h->begin(a->comm, a->mode, &r);
    if (rc == MPI_SUCCESS) {
        rc = d->start(a);
        h->end(a->comm);
    }
    return rc;
}

int ucmpi_coll_call(const ucmpi_coll_desc_t *d, ucmpi_coll_args_t *a,
                    int mode, MPI_Request *req, const char *name)
{
    const char *outer = ucmpi_call_enter(name);
    const ucmpi_coll_check_hook_t *h = check_hook;
    int rc = ucmpi_coll_check_comm(a->comm, name);

    if (rc == MPI_SUCCESS)
        rc = ucmpi_coll_check_req(a->comm, mode, req, name);
    if (rc == MPI_SUCCESS && d->check != NULL)
        rc = d->check(a);
    if (rc == MPI_SUCCESS) {
        a->mode = mode;
        a->req = req;
        a->rank = a->comm->rank;
        a->size = a->comm->size;
        if (__builtin_expect(h != NULL && *h->state != 0, 0) &&
            d->record != NULL)
            rc = call_checked(d, a, h);
        else
            rc = d->start(a);
    }
    ucmpi_call_leave(outer);
    return rc;
}
