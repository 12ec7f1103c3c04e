/* Argument checks shared by the entry points; each reports through the
 * communicator's handler with the call name, the argument and its value. */
#include "core/check.h"
#include "p2p/pt2pt.h"
#include "datatype/datatype.h"

int ucmpi_check_count(ucmpi_comm_t *comm, MPI_Count count, const char *fn)
{
    if (count >= 0)
        return MPI_SUCCESS;
    return ucmpi_err_comm(comm, MPI_ERR_COUNT, fn, "count %lld is negative",
                          (long long)count);
}

int ucmpi_check_dt(ucmpi_comm_t *comm, MPI_Datatype dt, const char *fn)
{
    const char *why = "";
    int rc = ucmpi_dt_check(dt, 1, &why);

    if (rc == MPI_SUCCESS)
        return rc;
    return ucmpi_err_comm(comm, rc, fn, "datatype: %s", why);
}

int ucmpi_check_buf(ucmpi_comm_t *comm, const void *buf, MPI_Count count,
                    MPI_Datatype dt, const char *fn)
{
    int rc = ucmpi_check_count(comm, count, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_dt(comm, dt, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    /* NULL is MPI_BOTTOM: legal with absolute addresses in a derived type,
     * so only a predefined type with data makes it an error */
    if (buf == NULL && count > 0 && dt->predefined && dt->size > 0)
        return ucmpi_err_comm(comm, MPI_ERR_BUFFER, fn,
                              "buffer is NULL with count %lld",
                              (long long)count);
    return MPI_SUCCESS;
}

int ucmpi_check_rank(ucmpi_comm_t *comm, int rank, int allow_any,
                     const char *fn)
{
    if ((rank >= 0 && rank < comm->remote_size) || rank == MPI_PROC_NULL ||
        (allow_any && rank == MPI_ANY_SOURCE))
        return MPI_SUCCESS;
    return ucmpi_err_comm(comm, MPI_ERR_RANK, fn,
                          "rank %d is out of range (communicator %s has %d "
                          "%sranks)", rank, comm->name, comm->remote_size,
                          comm->is_inter ? "remote " : "");
}

int ucmpi_check_tag(ucmpi_comm_t *comm, int tag, int allow_any,
                    const char *fn)
{
    if ((tag >= 0 && tag <= UCMPI_TAG_MAX) ||
        (allow_any && tag == MPI_ANY_TAG))
        return MPI_SUCCESS;
    return ucmpi_err_comm(comm, MPI_ERR_TAG, fn,
                          "tag %d is out of range (0..%d%s)", tag,
                          UCMPI_TAG_MAX, allow_any ? " or MPI_ANY_TAG" : "");
}
