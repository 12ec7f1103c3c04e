/*
 * Shared tail of the data-movement collectives: algorithm lookup, block
 * lists for the v/w forms, argument checks, and running a built schedule
 * as a blocking, nonblocking or persistent operation.
 */
#include "coll/xfer.h"

#include <stdio.h>
#include <string.h>

const ucmpi_xfer_alg_t *ucmpi_xfer_forced(const ucmpi_xfer_alg_t *table,
                                          const char *knob)
{
    static char warned[64];
    const char *want = ucmpi_coll_knob(knob);

    if (want == NULL || want[0] == '\0' || strcmp(want, "auto") == 0)
        return NULL;
    for (const ucmpi_xfer_alg_t *t = table; t->name; t++)
        if (strcmp(t->name, want) == 0)
            return t;
    if (strncmp(warned, knob, sizeof(warned) - 1) != 0) {
        fprintf(stderr, "ucmpi: UCMPI_%s=%s is not an algorithm; using "
                "automatic selection\n", knob, want);
        snprintf(warned, sizeof(warned), "%s", knob);
    }
    return NULL;
}

const ucmpi_xfer_alg_t *ucmpi_xfer_by_id(const ucmpi_xfer_alg_t *table,
                                         int id)
{
    for (const ucmpi_xfer_alg_t *t = table; t->name; t++)
        if (t->id == id)
            return t;
    return table;
}

ucmpi_xblk_t *ucmpi_xblk_uniform(ucmpi_sched_t *s, int n, const void *buf,
                                 MPI_Count count, MPI_Datatype dt)
{
    ucmpi_xblk_t *b = ucmpi_sched_alloc(s, sizeof(*b) * (size_t)(n ? n : 1));

    for (int i = 0; b && i < n; i++) {
        b[i].buf = ucmpi_xfer_at(buf, i, count, dt);
        b[i].count = count;
        b[i].dt = dt;
    }
    return b;
}

ucmpi_xblk_t *ucmpi_xblk_v(ucmpi_sched_t *s, int n, const void *buf,
                           const int *counts, const int *displs,
                           MPI_Datatype dt)
{
    ucmpi_xblk_t *b = ucmpi_sched_alloc(s, sizeof(*b) * (size_t)(n ? n : 1));

    for (int i = 0; b && i < n; i++) {
        b[i].buf = (char *)buf + (MPI_Aint)displs[i] * dt->extent;
        b[i].count = counts[i];
        b[i].dt = dt;
    }
    return b;
}

/* alltoallw: byte displacements, a type per peer */
static ucmpi_xblk_t *xblk_w(ucmpi_sched_t *s, int n, const void *buf,
                            const int *counts, const int *displs,
                            const MPI_Aint *adispls, const MPI_Datatype *dts)
{
    ucmpi_xblk_t *b = ucmpi_sched_alloc(s, sizeof(*b) * (size_t)(n ? n : 1));

    for (int i = 0; b && i < n; i++) {
        b[i].buf = (char *)buf + (adispls ? adispls[i] : displs[i]);
        b[i].count = counts[i];
        b[i].dt = dts[i];
    }
    return b;
}

int ucmpi_xfer_prepare(ucmpi_sched_t *s, ucmpi_coll_args_t *a)
{
    if (a->scounts_c && a->sbuf != MPI_IN_PLACE) {
        a->sblk = ucmpi_xblk_c(s, a->nsblk, a->sbuf, a->scounts_c,
                               a->sdispls_c, a->sdt, a->sdts);
        if (a->sblk == NULL)
            return MPI_ERR_NO_MEM;
    }
    if (a->rcounts_c) {
        a->rblk = ucmpi_xblk_c(s, a->nrblk, a->rbuf, a->rcounts_c,
                               a->rdispls_c, a->rdt, a->rdts);
        if (a->rblk == NULL)
            return MPI_ERR_NO_MEM;
    }
    if (a->scounts && a->sbuf != MPI_IN_PLACE) {
        a->sblk = a->sdts ? xblk_w(s, a->nsblk, a->sbuf, a->scounts,
                                   a->sdispls, a->sadispls, a->sdts)
                          : ucmpi_xblk_v(s, a->nsblk, a->sbuf, a->scounts,
                                         a->sdispls, a->sdt);
        if (a->sblk == NULL)
            return MPI_ERR_NO_MEM;
    }
    if (a->rcounts) {
        a->rblk = a->rdts ? xblk_w(s, a->nrblk, a->rbuf, a->rcounts,
                                   a->rdispls, a->radispls, a->rdts)
                          : ucmpi_xblk_v(s, a->nrblk, a->rbuf, a->rcounts,
                                         a->rdispls, a->rdt);
        if (a->rblk == NULL)
            return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

void ucmpi_xfer_sign(ucmpi_sched_t *s, const ucmpi_xfer_alg_t *alg,
                     const ucmpi_coll_args_t *a)
{
    /* the root is the shape: ranks that name different roots never take
     * each other's messages (on an intercomm both groups name the root's
     * rank in its group; MPI_PROC_NULL ranks exchange nothing) */
    int root = a->root == MPI_ROOT ? a->comm->rank
               : a->root == MPI_PROC_NULL ? 0 : a->root;

    ucmpi_sched_sign(s, alg, sizeof(*alg), 1, alg->id, (unsigned)root);
}

int ucmpi_xfer_run(const ucmpi_xfer_alg_t *alg, ucmpi_coll_args_t *a,
                   int mode, MPI_Request *request,
                   const char *fn)
{
    /* uniform forms depend on their arguments only (the v/w arrays and
     * neighbor lists would have to be compared by value) */
    int reuse = a->scounts == NULL && a->rcounts == NULL &&
                a->scounts_c == NULL && a->rcounts_c == NULL &&
                a->sdts == NULL && a->rdts == NULL && a->srcs == NULL &&
                a->dsts == NULL && a->indeg == 0 && a->outdeg == 0 &&
                !a->cart;
    ucmpi_sched_key_t key = {alg, 0, a->root, a->sbuf, a->rbuf, a->scount,
                             a->rcount, a->sdt, a->rdt, MPI_OP_NULL, NULL, 0};
    ucmpi_sched_t *s = reuse ? ucmpi_coll_cached(a->comm, (int)mode, &key)
                             : NULL;
    int rc;

    if (s != NULL)
        return ucmpi_coll_run(a->comm, s, MPI_SUCCESS, (int)mode, request);
    s = ucmpi_sched_create(a->comm);
    if (s == NULL)
        return ucmpi_err_comm(a->comm, MPI_ERR_NO_MEM, fn,
                              "out of memory for the schedule");
    ucmpi_xfer_sign(s, alg, a);
    rc = ucmpi_xfer_prepare(s, a);
    if (rc == MPI_SUCCESS)
        rc = alg->build(s, a);
    return ucmpi_coll_run_new(a->comm, s, rc, (int)mode, request,
                              reuse ? &key : NULL);
}

int ucmpi_xfer_run_anyway(const ucmpi_xfer_alg_t *alg, ucmpi_coll_args_t *a,
                          int mode, MPI_Request *request,
                          const char *fn, int err)
{
    ucmpi_sched_t *s;

    if (request != NULL)
        *request = MPI_REQUEST_NULL;
    if (mode == UCMPI_COLL_PERSISTENT) {
        /* each start of the request it hands back serves the others */
        if ((s = ucmpi_sched_create(a->comm)) == NULL)
            return ucmpi_coll_skip(a->comm, err, -1, 0, 0);
        ucmpi_xfer_sign(s, alg, a);
        int rc = ucmpi_xfer_prepare(s, a);
        if (rc == MPI_SUCCESS)
            rc = alg->build(s, a);
        return ucmpi_coll_persist_failed(s, rc, request, err);
    }
    /* the same schedule and tag as the nonblocking form; its own failures
     * (truncation) are reported on comm too */
    (void)ucmpi_xfer_run(alg, a, UCMPI_COLL_BLOCKING, NULL, fn);
    return err;
}
