/* Large-count (MPI-4 "_c") forms of the data-movement collectives: their
 * count arrays are MPI_Count and their displacements MPI_Aint, so the
 * block lists and the argument checks read those instead of int arrays
 * (see ucmpi_xfer_args_t's *_c fields). */
#include "coll/xfer.h"

ucmpi_xblk_t *ucmpi_xblk_c(ucmpi_sched_t *s, int n, const void *buf,
                           const MPI_Count *counts, const MPI_Aint *displs,
                           MPI_Datatype dt, const MPI_Datatype *dts)
{
    ucmpi_xblk_t *b = ucmpi_sched_alloc(s, sizeof(*b) * (size_t)(n ? n : 1));

    for (int i = 0; b && i < n; i++) {
        /* v forms: displacements in elements; w forms: in bytes */
        b[i].buf = (char *)buf + (dts ? displs[i] : displs[i] * dt->extent);
        b[i].count = counts[i];
        b[i].dt = dts ? dts[i] : dt;
    }
    return b;
}

int ucmpi_xfer_check_counts_c(ucmpi_comm_t *c, int n, const MPI_Count *counts,
                              const MPI_Aint *displs, MPI_Datatype dt,
                              const MPI_Datatype *dts, const char *what,
                              const char *fn)
{
    const char *why = "";
    int rc;

    if (n > 0 && (counts == NULL || displs == NULL))
        return ucmpi_err_comm(c, MPI_ERR_ARG, fn, "%s counts or "
                              "displacements array is NULL", what);
    if (n > 0 && dt == MPI_DATATYPE_NULL && dts == NULL)
        return ucmpi_err_comm(c, MPI_ERR_ARG, fn, "%s types array is NULL",
                              what);
    for (int i = 0; i < n; i++) {
        if (counts[i] < 0)
            return ucmpi_err_comm(c, MPI_ERR_COUNT, fn, "%s count[%d] = %lld "
                                  "< 0", what, i, (long long)counts[i]);
        if (dts && (rc = ucmpi_dt_check(dts[i], 1, &why)) != MPI_SUCCESS)
            return ucmpi_err_comm(c, rc, fn, "%s datatype[%d]: %s", what, i,
                                  why);
    }
    if (dts == NULL && (rc = ucmpi_dt_check(dt, 1, &why)) != MPI_SUCCESS)
        return ucmpi_err_comm(c, rc, fn, "%s datatype: %s", what, why);
    return MPI_SUCCESS;
}
