/* MPI_Bcast algorithms.  `root` is a member index of the group view. */
#ifndef UCMPI_COLL_BCAST_H
#define UCMPI_COLL_BCAST_H

#include "coll/coll_util.h"
#include "coll/shm/shm.h"

enum { UCMPI_BCAST_BINOMIAL, UCMPI_BCAST_SCATTER_ALLGATHER,
       UCMPI_BCAST_CHAIN, UCMPI_BCAST_SHM, UCMPI_BCAST_HIERARCHICAL };

/* Radix-k tree (k = 2: binomial). */
int ucmpi_bcast_tree(ucmpi_sched_t *s, void *buf, MPI_Count count,
                     MPI_Datatype dt, int root, const ucmpi_coll_grp_t *g,
                     int k);
/* Binomial scatter of n blocks, then ring allgather (van de Geijn). */
int ucmpi_bcast_scatter_allgather(ucmpi_sched_t *s, void *buf,
                                  MPI_Count count, MPI_Datatype dt, int root,
                                  const ucmpi_coll_grp_t *g);
/* Pipelined chain root -> root+1 -> ... in segments of `seg` bytes. */
int ucmpi_bcast_chain(ucmpi_sched_t *s, void *buf, MPI_Count count,
                      MPI_Datatype dt, int root, const ucmpi_coll_grp_t *g,
                      size_t seg);
/* Node-aware (bcast_hier.c): heads then nodes below chain_min bytes, else
 * the chain (segments of seg bytes) over the ranks grouped by node. */
int ucmpi_bcast_hier(ucmpi_sched_t *s, ucmpi_comm_t *comm, void *buf,
                     MPI_Count count, MPI_Datatype dt, int root,
                     size_t chain_min, size_t seg);
/* Intercommunicator bcast (root is MPI_ROOT, MPI_PROC_NULL or remote). */
int ucmpi_bcast_inter(ucmpi_sched_t *s, ucmpi_comm_t *comm,
                      ucmpi_comm_t *local, void *buf, MPI_Count count,
                      MPI_Datatype dt, int root);

#endif
