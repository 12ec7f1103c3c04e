/* Shared tail of the data-movement collectives: block lists and running
 * a built schedule (blocking, nonblocking, persistent, or served). */
#include "coll/xfer.h"

#include <stdio.h>
#include <string.h>

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

int ucmpi_xfer_rotate(ucmpi_sched_t *s, char *tmp, size_t bs, void *buf,
                      MPI_Count count, MPI_Datatype dt, int n, int r,
                      int pack)
{
    char *hi = ucmpi_xfer_at(buf, r, count, dt);
    char *lo = tmp + (size_t)(n - r) * bs;    /* where blocks 0.. go */
    MPI_Count m = n - r, b = (MPI_Count)bs;
    int rc = pack ? ucmpi_sched_copy(s, hi, m * count, dt, tmp, m * b,
                                     MPI_BYTE)
                  : ucmpi_sched_copy(s, tmp, m * b, MPI_BYTE, hi, m * count,
                                     dt);

    if (rc != MPI_SUCCESS || r == 0)
        return rc;
    return pack ? ucmpi_sched_copy(s, buf, r * count, dt, lo, r * b, MPI_BYTE)
                : ucmpi_sched_copy(s, lo, r * b, MPI_BYTE, buf, r * count, dt);
}

/* v and w blocks (int or _c arrays): displacements in extents of dt, or in
 * bytes with a type per block (dts: the w forms). */
static ucmpi_xblk_t *xblk_side(ucmpi_sched_t *s, int n, const void *buf,
                               const int *counts, const MPI_Count *ccounts,
                               const int *displs, const MPI_Aint *adispls,
                               MPI_Datatype dt, const MPI_Datatype *dts)
{
    ucmpi_xblk_t *b = ucmpi_sched_alloc(s, sizeof(*b) * (size_t)(n ? n : 1));

    for (int i = 0; b && i < n; i++) {
        MPI_Aint d = adispls ? adispls[i] : displs[i];

        b[i].buf = (char *)buf + (dts ? d : d * dt->extent);
        b[i].count = ccounts ? ccounts[i] : counts[i];
        b[i].dt = dts ? dts[i] : dt;
    }
    return b;
}

int ucmpi_xfer_prepare(ucmpi_sched_t *s, ucmpi_coll_args_t *a)
{
    if ((a->scounts || a->scounts_c) && a->sbuf != MPI_IN_PLACE) {
        a->sblk = xblk_side(s, a->nsblk, a->sbuf, a->scounts, a->scounts_c,
                            a->sdispls, a->scounts_c ? a->sdispls_c
                                                     : a->sadispls,
                            a->sdt, a->sdts);
        if (a->sblk == NULL)
            return MPI_ERR_NO_MEM;
    }
    if (a->rcounts || a->rcounts_c) {
        a->rblk = xblk_side(s, a->nrblk, a->rbuf, a->rcounts, a->rcounts_c,
                            a->rdispls, a->rcounts_c ? a->rdispls_c
                                                     : a->radispls,
                            a->rdt, a->rdts);
        if (a->rblk == NULL)
            return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

void ucmpi_xfer_sign(ucmpi_sched_t *s, const ucmpi_coll_alg_t *alg,
                     const ucmpi_coll_args_t *a)
{
    /* the root is the shape, so ranks naming different roots never match
     * (intercomm: the root's rank in its group) */
    int root = a->root == MPI_ROOT ? a->comm->rank
               : a->root == MPI_PROC_NULL ? 0 : a->root;

    ucmpi_sched_sign(s, alg, sizeof(*alg), 1, alg->id, (unsigned)root);
}

/* A new schedule for alg's steps over *a, signed; *rc the build's result.
 * NULL: out of memory. */
static ucmpi_sched_t *xfer_build(const ucmpi_coll_alg_t *alg,
                                 ucmpi_coll_args_t *a, int *rc)
{
    ucmpi_sched_t *s = ucmpi_sched_create(a->comm);

    if (s == NULL)
        return NULL;
    ucmpi_xfer_sign(s, alg, a);
    *rc = ucmpi_xfer_prepare(s, a);
    if (*rc == MPI_SUCCESS)
        *rc = alg->build(s, a);
    return s;
}

int ucmpi_xfer_run(const ucmpi_coll_alg_t *alg, ucmpi_coll_args_t *a,
                   int mode, MPI_Request *request)
{
    const char *fn = ucmpi_call_name();
    /* uniform forms depend on their arguments only (the v/w arrays and
     * neighbor lists would have to be compared by value) */
    int reuse = a->scounts == NULL && a->rcounts == NULL &&
                a->scounts_c == NULL && a->rcounts_c == NULL &&
                a->sdts == NULL && a->rdts == NULL && a->srcs == NULL &&
                a->dsts == NULL && a->indeg == 0 && a->outdeg == 0 &&
                !a->cart;
    ucmpi_sched_key_t key = {alg, 0, a->root, a->sbuf, a->rbuf, a->scount,
                             a->rcount, a->sdt, a->rdt, MPI_OP_NULL, NULL, 0};
    ucmpi_sched_t *s = reuse ? ucmpi_coll_cached(a->comm, mode, &key) : NULL;
    int rc;

    if (s != NULL)
        return ucmpi_coll_run(a->comm, s, MPI_SUCCESS, mode, request);
    if ((s = xfer_build(alg, a, &rc)) == NULL)
        return ucmpi_err_comm(a->comm, MPI_ERR_NO_MEM, fn,
                              "out of memory for the schedule");
    return ucmpi_coll_run_new(a->comm, s, rc, mode, request,
                              reuse ? &key : NULL);
}

int ucmpi_xfer_run_failed(const ucmpi_coll_alg_t *alg, ucmpi_coll_args_t *a,
                          int err, int poison)
{
    ucmpi_sched_t *s;
    int rc;

    if (a->mode != UCMPI_COLL_BLOCKING && a->req != NULL)
        *a->req = MPI_REQUEST_NULL;
    if (!poison && a->mode != UCMPI_COLL_PERSISTENT) {
        /* the same schedule and tag as the nonblocking form; its own
         * failures (truncation) are reported on comm too */
        (void)ucmpi_xfer_run(alg, a, UCMPI_COLL_BLOCKING, NULL);
        return err;
    }
    if ((s = xfer_build(alg, a, &rc)) == NULL)
        return ucmpi_coll_skip(a->comm, err, -1, 0, 0);
    if (poison)
        ucmpi_sched_poison(s);
    if (a->mode == UCMPI_COLL_PERSISTENT)   /* each start serves them */
        return ucmpi_coll_persist_failed(s, rc, a->req, err);
    if (rc != MPI_SUCCESS) {
        ucmpi_sched_free(s);      /* its tag is taken: still in step */
        return err;
    }
    (void)ucmpi_sched_run_blocking(s);   /* its truncations are not news */
    return err;
}
