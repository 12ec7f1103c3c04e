/*
 * ucmpi's MPI extensions: User-Level Failure Mitigation (ULFM), the MPI
 * Forum fault-tolerance working group's interface as Open MPI 5 and MPICH
 * name it.  Programs test one of:
 *   MPIX_ULFM                  ucmpi's and the ULFM proposal's name
 *   OMPI_HAVE_MPI_EXT_FTMPI    what programs written for Open MPI test
 *   MPIX_FT                    (also defined: 1)
 * Run them with `mpiexec --with-ft ulfm` (or --disable-auto-cleanup): then a
 * failed process ends only itself and the survivors use the calls below.
 * Intracommunicators only.  docs/architecture.md, "Fault tolerance (ULFM)".
 */
#ifndef UCMPI_MPI_EXT_H
#define UCMPI_MPI_EXT_H

#include <mpi.h>

#define MPIX_ULFM 1
#define MPIX_FT 1
#define OMPI_HAVE_MPI_EXT_FTMPI 1
#define OMPI_HAVE_MPI_EXT 1

/* error classes (mpi.h also names them MPI_ERR_*) */
#define MPIX_ERR_PROC_FAILED          MPI_ERR_PROC_FAILED
#define MPIX_ERR_PROC_FAILED_PENDING  MPI_ERR_PROC_FAILED_PENDING
#define MPIX_ERR_REVOKED              MPI_ERR_REVOKED

#ifdef __cplusplus
extern "C" {
#endif

/* Every pending and later operation on comm fails with MPIX_ERR_REVOKED on
 * every member (agree and shrink excepted). */
int MPIX_Comm_revoke(MPI_Comm comm);
int PMPIX_Comm_revoke(MPI_Comm comm);
int MPIX_Comm_is_revoked(MPI_Comm comm, int *flag);
int PMPIX_Comm_is_revoked(MPI_Comm comm, int *flag);
/* The group of comm's members known failed here, in the order found. */
int MPIX_Comm_get_failed(MPI_Comm comm, MPI_Group *failedgrp);
int PMPIX_Comm_get_failed(MPI_Comm comm, MPI_Group *failedgrp);
/* Acknowledges the first num_to_ack of them (ANY_SOURCE receives and agree
 * then no longer report those). */
int MPIX_Comm_ack_failed(MPI_Comm comm, int num_to_ack, int *num_acked);
int PMPIX_Comm_ack_failed(MPI_Comm comm, int num_to_ack, int *num_acked);
/* The older pair: acknowledge all known failures; the acknowledged group. */
int MPIX_Comm_failure_ack(MPI_Comm comm);
int PMPIX_Comm_failure_ack(MPI_Comm comm);
int MPIX_Comm_failure_get_acked(MPI_Comm comm, MPI_Group *failedgrp);
int PMPIX_Comm_failure_get_acked(MPI_Comm comm, MPI_Group *failedgrp);
/* Fault-tolerant consensus: *flag becomes the AND over the survivors' flags,
 * the same on all of them. */
int MPIX_Comm_agree(MPI_Comm comm, int *flag);
int PMPIX_Comm_agree(MPI_Comm comm, int *flag);
int MPIX_Comm_iagree(MPI_Comm comm, int *flag, MPI_Request *request);
int PMPIX_Comm_iagree(MPI_Comm comm, int *flag, MPI_Request *request);
/* A new communicator of comm's survivors (works on a revoked comm). */
int MPIX_Comm_shrink(MPI_Comm comm, MPI_Comm *newcomm);
int PMPIX_Comm_shrink(MPI_Comm comm, MPI_Comm *newcomm);

#ifdef __cplusplus
}
#endif

#endif /* UCMPI_MPI_EXT_H */
