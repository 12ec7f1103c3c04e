/* The collective driver: see coll_drv.h. */
#include "coll/coll_drv.h"

const ucmpi_coll_check_hook_t *ucmpi_coll_check_hook;

void ucmpi_coll_check_register(const ucmpi_coll_check_hook_t *h)
{
    ucmpi_coll_check_hook = h;
}

/* UCMPI_COLL_CHECK: the ranks agree on the call first (a rank whose
 * request argument is bad still takes part, for the others). */
int ucmpi_coll_call_checked(const ucmpi_coll_desc_t *d, ucmpi_coll_args_t *a,
                            const ucmpi_coll_check_hook_t *h,
                            const char *name)
{
    ucmpi_coll_check_args_t r = {0};
    int rc;

    d->record(a, &r);
    rc = h->begin(a->comm, a->mode, &r);
    if (rc == MPI_SUCCESS) {
        rc = ucmpi_coll_check_req(a->comm, a->mode, a->req);
        if (rc == MPI_SUCCESS)    /* (the first call of all comes here) */
            rc = __builtin_expect(ucmpi_coll_stats.on, 0)
                     ? ucmpi_coll_start_counted(d->start, a)
                     : d->start(a);
        h->end(a->comm);
    }
    return rc;
}
