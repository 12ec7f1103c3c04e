/*
 * Shared tail of the data-movement collectives: algorithm lookup, block
 * lists for the v/w forms, argument checks, and running a built schedule
 * as a blocking, nonblocking or persistent operation.
 */
#include "coll/xfer.h"

#include <string.h>

const ucmpi_xfer_alg_t *ucmpi_xfer_forced(const ucmpi_xfer_alg_t *table,
                                          const char *knob)
{
    const char *want = ucmpi_config_str(knob);

    if (want == NULL || want[0] == '\0' || strcmp(want, "auto") == 0)
        return NULL;
    for (const ucmpi_xfer_alg_t *t = table; t->name; t++)
        if (strcmp(t->name, want) == 0)
            return t;
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

static int xfer_blocks(ucmpi_sched_t *s, ucmpi_xfer_args_t *a)
{
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

int ucmpi_xfer_run(const ucmpi_xfer_alg_t *alg, ucmpi_xfer_args_t *a,
                   ucmpi_xfer_mode_t mode, MPI_Request *request,
                   const char *fn)
{
    ucmpi_request_t *req = NULL;
    ucmpi_sched_t *s;
    int rc;

    s = ucmpi_sched_create(a->comm);
    if (s == NULL)
        return ucmpi_err_comm(a->comm, MPI_ERR_NO_MEM, fn,
                              "out of memory for the schedule");
    rc = xfer_blocks(s, a);
    if (rc == MPI_SUCCESS)
        rc = alg->build(s, a);
    if (rc != MPI_SUCCESS) {
        ucmpi_sched_free(s);
        return ucmpi_err_comm(a->comm, rc, fn,
                              "building algorithm %s failed", alg->name);
    }
    switch (mode) {
    case UCMPI_XFER_BLOCKING:
        rc = ucmpi_sched_run_blocking(s);
        break;
    case UCMPI_XFER_NONBLOCKING:
        rc = ucmpi_sched_start(s, 0, &req);
        break;
    case UCMPI_XFER_PERSISTENT:
        rc = ucmpi_sched_start(s, 1, &req);   /* inactive until MPI_Start */
        break;
    }
    if (rc != MPI_SUCCESS)
        return ucmpi_err_comm(a->comm, rc, fn, "algorithm %s failed",
                              alg->name);
    if (request)
        *request = req;
    return MPI_SUCCESS;
}

/* ---- argument checks ---- */

int ucmpi_xfer_check_comm(MPI_Comm comm, const char *fn)
{
    int rc = ucmpi_check_initialized(fn);

    if (rc != MPI_SUCCESS)
        return rc;
    return ucmpi_check_comm(comm, fn);
}

int ucmpi_xfer_check_buf(ucmpi_comm_t *c, const void *buf, MPI_Count count,
                         MPI_Datatype dt, const char *what, const char *fn)
{
    const char *why = "";
    int rc;

    (void)buf;   /* NULL is MPI_BOTTOM: absolute addresses are legal */
    if (count < 0)
        return ucmpi_err_comm(c, MPI_ERR_COUNT, fn, "%s count %lld < 0",
                              what, (long long)count);
    rc = ucmpi_dt_check(dt, 1, &why);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_comm(c, rc, fn, "%s datatype: %s", what, why);
    return MPI_SUCCESS;
}

int ucmpi_xfer_check_counts(ucmpi_comm_t *c, int n, const int *counts,
                            const int *displs, MPI_Datatype dt,
                            const char *what, const char *fn)
{
    const char *why = "";
    int rc;

    if (n > 0 && (counts == NULL || displs == NULL))
        return ucmpi_err_comm(c, MPI_ERR_ARG, fn, "%s counts or "
                              "displacements array is NULL", what);
    for (int i = 0; i < n; i++)
        if (counts[i] < 0)
            return ucmpi_err_comm(c, MPI_ERR_COUNT, fn, "%s count[%d] = %d "
                                  "< 0", what, i, counts[i]);
    rc = ucmpi_dt_check(dt, 1, &why);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_comm(c, rc, fn, "%s datatype: %s", what, why);
    return MPI_SUCCESS;
}

int ucmpi_xfer_check_types(ucmpi_comm_t *c, int n, const int *counts,
                           const int *displs, const MPI_Datatype *dts,
                           const char *what, const char *fn)
{
    const char *why = "";
    int rc;

    if (n > 0 && (counts == NULL || displs == NULL || dts == NULL))
        return ucmpi_err_comm(c, MPI_ERR_ARG, fn, "%s counts, "
                              "displacements or types array is NULL", what);
    for (int i = 0; i < n; i++) {
        if (counts[i] < 0)
            return ucmpi_err_comm(c, MPI_ERR_COUNT, fn, "%s count[%d] = %d "
                                  "< 0", what, i, counts[i]);
        rc = ucmpi_dt_check(dts[i], 1, &why);
        if (rc != MPI_SUCCESS)
            return ucmpi_err_comm(c, rc, fn, "%s datatype[%d]: %s", what, i,
                                  why);
    }
    return MPI_SUCCESS;
}

int ucmpi_xfer_check_root(ucmpi_comm_t *c, int root, const char *fn)
{
    if (c->is_inter) {
        if (root == MPI_ROOT || root == MPI_PROC_NULL ||
            (root >= 0 && root < c->remote_size))
            return MPI_SUCCESS;
        return ucmpi_err_comm(c, MPI_ERR_ROOT, fn, "root %d is not MPI_ROOT, "
                              "MPI_PROC_NULL or a rank of the remote group "
                              "(size %d)", root, c->remote_size);
    }
    if (root < 0 || root >= c->size)
        return ucmpi_err_comm(c, MPI_ERR_ROOT, fn, "root %d out of range "
                              "[0, %d)", root, c->size);
    return MPI_SUCCESS;
}
