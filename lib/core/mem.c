/* MPI_Alloc_mem / MPI_Free_mem: plain heap memory, since windows register
 * whatever memory they are given with UCX. */
#include "core/errhandler.h"

#include <stdlib.h>

#pragma weak MPI_Alloc_mem = PMPI_Alloc_mem
int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    int rc = ucmpi_check_initialized("MPI_Alloc_mem");
    if (rc != MPI_SUCCESS)
        return rc;
    if (size < 0 || baseptr == NULL)
        return ucmpi_err_comm(&ucmpi_comm_world, MPI_ERR_ARG, "MPI_Alloc_mem",
                              "size %ld is negative or baseptr is NULL",
                              (long)size);
    void *p = malloc(size > 0 ? (size_t)size : 1);
    if (p == NULL)
        return ucmpi_err_comm(&ucmpi_comm_world, MPI_ERR_NO_MEM,
                              "MPI_Alloc_mem", "cannot allocate %ld bytes",
                              (long)size);
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}

#pragma weak MPI_Free_mem = PMPI_Free_mem
int PMPI_Free_mem(void *base)
{
    int rc = ucmpi_check_initialized("MPI_Free_mem");
    if (rc == MPI_SUCCESS)
        free(base);
    return rc;
}
