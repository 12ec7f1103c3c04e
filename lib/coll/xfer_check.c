/* Argument checks shared by the data-movement collectives' entry points
 * (see coll/xfer.h). */
#include "coll/xfer.h"
#include "coll/shm/shm.h"

int ucmpi_xfer_check_comm(MPI_Comm comm, const char *fn)
{
    return ucmpi_coll_check_comm(comm);
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
    return ucmpi_coll_check_root(c, root);
}

int ucmpi_xfer_check_match(ucmpi_comm_t *c, MPI_Count scount,
                           MPI_Datatype sdt, MPI_Count rcount,
                           MPI_Datatype rdt, const char *what,
                           const char *fn)
{
    long long sb = (long long)(scount * sdt->size);
    long long rb = (long long)(rcount * rdt->size);

    if (sb == rb)
        return MPI_SUCCESS;
    return ucmpi_err_comm(c, sb > rb ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT, fn,
                          "%s: this rank sends %lld bytes to itself but "
                          "receives %lld (type signatures must match)", what,
                          sb, rb);
}

int ucmpi_xfer_buf_ok(MPI_Count count, MPI_Datatype dt)
{
    const char *why;

    return count >= 0 && ucmpi_dt_check(dt, 1, &why) == MPI_SUCCESS;
}

int ucmpi_xfer_blocks_ok(int n, const int *counts, const int *displs,
                         const MPI_Count *ccounts, const MPI_Aint *cdispls,
                         MPI_Datatype dt, const MPI_Datatype *dts)
{
    const char *why;

    if (n > 0 && ((counts == NULL && ccounts == NULL) ||
                  (counts ? displs == NULL : cdispls == NULL)))
        return 0;
    if (n > 0 && dts == NULL && dt == MPI_DATATYPE_NULL)
        return 0;
    for (int i = 0; i < n; i++) {
        if ((counts ? counts[i] : ccounts[i]) < 0)
            return 0;
        if (dts && ucmpi_dt_check(dts[i], 1, &why) != MPI_SUCCESS)
            return 0;
    }
    return dts != NULL || ucmpi_dt_check(dt, 1, &why) == MPI_SUCCESS;
}

int ucmpi_xfer_run_poisoned(const ucmpi_xfer_alg_t *alg, ucmpi_coll_args_t *a,
                            int mode, MPI_Request *request,
                            int err)
{
    ucmpi_sched_t *s;
    int rc;

    if (mode != UCMPI_COLL_BLOCKING && request != NULL)
        *request = MPI_REQUEST_NULL;
    if ((s = ucmpi_sched_create(a->comm)) == NULL)
        return ucmpi_coll_skip(a->comm, err, -1, 0, 0);
    ucmpi_xfer_sign(s, alg, a);
    rc = ucmpi_xfer_prepare(s, a);
    if (rc == MPI_SUCCESS)
        rc = alg->build(s, a);
    ucmpi_sched_poison(s);
    if (mode == UCMPI_COLL_PERSISTENT)
        return ucmpi_coll_persist_failed(s, rc, request, err);
    if (rc != MPI_SUCCESS) {
        ucmpi_sched_free(s);      /* its tag is taken: still in step */
        return err;
    }
    (void)ucmpi_sched_run_blocking(s);   /* its truncations are not news */
    return err;
}

int ucmpi_xfer_failed_shm(ucmpi_comm_t *comm, int kind, size_t nbytes,
                          MPI_Count count, ucmpi_xfer_shm_skip_fn skip,
                          const char *fn)
{
    int vote;

    if (count > 0 && ucmpi_coll_shm_wanted(comm, kind, nbytes))
        return skip(comm, nbytes, fn) != UCMPI_SHM_FALLBACK;
    vote = ucmpi_xfer_shm_vote(comm, kind, nbytes, UCMPI_XFER_VOTE_QUIET, fn);
    if (vote == UCMPI_SHM_FALLBACK)
        return 0;
    /* the others voted too: on to p2p if all alike */
    return vote != MPI_SUCCESS || count == 0;
}
