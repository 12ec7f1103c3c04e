/* Argument checks shared by every entry point (lib/core/check.c). */
#ifndef UCMPI_CORE_CHECK_H
#define UCMPI_CORE_CHECK_H

#include "comm/comm.h"

/* Each returns MPI_SUCCESS or the code from ucmpi_error() on comm. */
int ucmpi_check_count(ucmpi_comm_t *comm, MPI_Count count, const char *fn);
int ucmpi_check_dt(ucmpi_comm_t *comm, MPI_Datatype dt, const char *fn);
int ucmpi_check_buf(ucmpi_comm_t *comm, const void *buf, MPI_Count count,
                    MPI_Datatype dt, const char *fn);
/* rank in [0, remote_size) or, if allowed, MPI_PROC_NULL/MPI_ANY_SOURCE */
int ucmpi_check_rank(ucmpi_comm_t *comm, int rank, int allow_any,
                     const char *fn);
int ucmpi_check_tag(ucmpi_comm_t *comm, int tag, int allow_any,
                    const char *fn);

#endif
