/* MPI_Reduce algorithms: root indexes the group view; mine is never
 * MPI_IN_PLACE (an in-place root passes rbuf). */
#ifndef UCMPI_COLL_REDUCE_H
#define UCMPI_COLL_REDUCE_H

#include "coll/coll_util.h"
#include "coll/shm/shm.h"

enum { UCMPI_REDUCE_BINOMIAL, UCMPI_REDUCE_LINEAR, UCMPI_REDUCE_SHM,
       UCMPI_REDUCE_CHAIN, UCMPI_REDUCE_HIERARCHICAL };

/* Radix-k tree (k = 2: binomial).  Non-commutative ops reduce over the
 * tree rooted at member 0 in rank order, then member 0 sends to root. */
int ucmpi_reduce_tree(ucmpi_sched_t *s, const void *mine, void *rbuf,
                      MPI_Count count, MPI_Datatype dt, MPI_Op op, int root,
                      const ucmpi_coll_grp_t *g, int k);
/* Pipelined chain in segments of about seg_bytes (reduce_chain.c). */
int ucmpi_reduce_chain(ucmpi_sched_t *s, const void *mine, void *rbuf,
                       MPI_Count count, MPI_Datatype dt, MPI_Op op, int root,
                       const ucmpi_coll_grp_t *g, size_t seg_bytes);
/* Node-aware (reduce_hier.c): nodes to their heads, heads to root; from
 * chain_min bytes (commutative ops) the chain grouped by node. */
int ucmpi_reduce_hier(ucmpi_sched_t *s, ucmpi_comm_t *comm, const void *mine,
                      void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op,
                      int root, size_t chain_min, size_t seg);
/* Root receives everything and reduces in rank order. */
int ucmpi_reduce_linear(ucmpi_sched_t *s, const void *mine, void *rbuf,
                        MPI_Count count, MPI_Datatype dt, MPI_Op op,
                        int root, const ucmpi_coll_grp_t *g);
/* out = x[0] op x[1] op ... op x[n-1] (rank order), through scratch acc;
 * out may alias an x[i]. */
int ucmpi_reduce_ordered(ucmpi_sched_t *s, const void *const *x, int n,
                         void *acc, void *out, MPI_Count count,
                         MPI_Datatype dt, MPI_Op op);
int ucmpi_reduce_inter(ucmpi_sched_t *s, ucmpi_comm_t *comm,
                       ucmpi_comm_t *local, const void *sbuf, void *rbuf,
                       MPI_Count count, MPI_Datatype dt, MPI_Op op,
                       int root);

#endif
