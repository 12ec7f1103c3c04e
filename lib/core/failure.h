/* Failed and finalizing peers (lib/core/failure.c). */
#ifndef UCMPI_CORE_FAILURE_H
#define UCMPI_CORE_FAILURE_H

#include "core/base.h"

/* World rank r is known to have failed. */
int ucmpi_peer_failed(int r);
/* Another job's process at world rank r (>= world_size) has pid `pid`
 * (on this node: its death is then seen as the job's). */
void ucmpi_peer_set_pid(int r, int pid);
/* World rank r's pid when known (this node), else 0. */
int ucmpi_peer_pid(int r);
/* World rank r is known to be in MPI_Finalize (asked by stalled waiting loops:
 * the first call for r sends the question; slow paths only). */
int ucmpi_peer_finalized(int r);
/* MPI_Finalize: the job's barrier, answering those questions from its
 * start (0, or -1 when a peer failed); stop answering (end). */
int ucmpi_fin_barrier(void);
void ucmpi_fin_end(void);
/* After the last fence (every process flushed its endpoints): drops the
 * answers that came after this process's barrier. */
void ucmpi_fin_drop(void);

#endif
