/* Large-count (MPI-4 "_c") forms of the data-movement collectives: their
 * count arrays are MPI_Count and their displacements MPI_Aint, so the
 * block lists read those instead of int arrays (see ucmpi_coll_args_t's
 * *_c fields; the checks are in large_count_check.c). */
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

