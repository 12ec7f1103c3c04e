/* Reduce_scatter(_block) algorithms: `in` is the whole vector (rbuf in
 * place), member i gets counts[i] elements in rbuf. */
#ifndef UCMPI_COLL_REDUCE_SCATTER_H
#define UCMPI_COLL_REDUCE_SCATTER_H

#include "coll/coll_util.h"
#include "coll/shm/shm.h"

enum { UCMPI_RS_RECURSIVE_HALVING, UCMPI_RS_RING, UCMPI_RS_PAIRWISE,
       UCMPI_RS_RING_SEGMENTED, UCMPI_RS_SHM };

/* Commutative ops. */
int ucmpi_rs_recursive_halving(ucmpi_sched_t *s, const void *in, void *rbuf,
                               const MPI_Count *counts, MPI_Datatype dt,
                               MPI_Op op, const ucmpi_coll_grp_t *g);
/* Commutative ops. */
int ucmpi_rs_ring(ucmpi_sched_t *s, const void *in, void *rbuf,
                  const MPI_Count *counts, MPI_Datatype dt, MPI_Op op,
                  const ucmpi_coll_grp_t *g);
/* Commutative ops: the ring in pipelined segments (ALLREDUCE_SEGMENT), no
 * copy of the input. */
int ucmpi_rs_ring_seg(ucmpi_sched_t *s, const void *in, void *rbuf,
                      const MPI_Count *counts, MPI_Datatype dt, MPI_Op op,
                      const ucmpi_coll_grp_t *g);
/* Its rounds; whole = 1 (allreduce): rbuf holds the vector, member r ends with
 * block r+1, and empty segments move too, so exact receives see a mismatch. */
int ucmpi_rs_ring_seg_rounds(ucmpi_sched_t *s, const void *in, void *rbuf,
                             const MPI_Count *counts, const MPI_Count *displs,
                             MPI_Datatype dt, MPI_Op op,
                             const ucmpi_coll_grp_t *g, int whole);
/* Any op (rank order kept). */
int ucmpi_rs_pairwise(ucmpi_sched_t *s, const void *in, void *rbuf,
                      const MPI_Count *counts, MPI_Datatype dt, MPI_Op op,
                      const ucmpi_coll_grp_t *g);
int ucmpi_rs_inter(ucmpi_sched_t *s, ucmpi_comm_t *comm, ucmpi_comm_t *local,
                   const void *sbuf, void *rbuf, const MPI_Count *counts,
                   MPI_Datatype dt, MPI_Op op);

/* prefix sums of counts: displs[i], returns the total */
MPI_Count ucmpi_rs_displs(const MPI_Count *counts, int n, MPI_Count *displs);

#endif
