/* The collective driver: see coll_drv.h. */
#include "coll/coll_drv.h"

static const ucmpi_coll_check_hook_t *check_hook;

void ucmpi_coll_check_register(const ucmpi_coll_check_hook_t *h)
{
    check_hook = h;
}

static int call_start(const ucmpi_coll_desc_t *d, ucmpi_coll_args_t *a,
                      const char *name)
{
    int rc = ucmpi_coll_check_req(a->comm, a->mode, a->req, name);

    return rc == MPI_SUCCESS ? d->start(a) : rc;
}

/* UCMPI_COLL_CHECK: the ranks agree on the call first (a rank whose
 * request argument is bad still takes part, for the others). */
static int call_checked(const ucmpi_coll_desc_t *d, ucmpi_coll_args_t *a,
                        const ucmpi_coll_check_hook_t *h, const char *name)
{
    ucmpi_coll_check_args_t r = {0};
    int rc;

    d->record(a, &r);
    rc = h->begin(a->comm, a->mode, &r);
    if (rc == MPI_SUCCESS) {
        rc = call_start(d, a, name);
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

    if (rc == MPI_SUCCESS) {
        a->mode = mode;
        a->req = req;
        a->rank = a->comm->rank;
        a->size = a->comm->size;
        if (d->check != NULL)
            rc = d->check(a);
    }
    if (rc == MPI_SUCCESS) {
        if (__builtin_expect(h != NULL && *h->state != 0, 0) &&
            d->record != NULL)
            rc = call_checked(d, a, h, name);
        else
            rc = call_start(d, a, name);
    }
    ucmpi_call_leave(outer);
    return rc;
}
