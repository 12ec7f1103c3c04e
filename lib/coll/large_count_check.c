/* Argument checks of the large-count (_c) data-movement collectives
 * (MPI_Count counts, MPI_Aint displacements). */
#include "coll/xfer.h"

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
