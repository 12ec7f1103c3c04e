/* MPI_Allreduce algorithms.  Builders take `mine` (the contribution, may
 * equal rbuf for MPI_IN_PLACE) and leave the result in rbuf. */
#ifndef UCMPI_COLL_ALLREDUCE_H
#define UCMPI_COLL_ALLREDUCE_H

#include "coll/coll_alg.h"
#include "coll/shm/shm.h"

enum { UCMPI_ALLREDUCE_RECURSIVE_DOUBLING, UCMPI_ALLREDUCE_RABENSEIFNER,
       UCMPI_ALLREDUCE_RING, UCMPI_ALLREDUCE_REDUCE_BCAST,
       UCMPI_ALLREDUCE_HIERARCHICAL, UCMPI_ALLREDUCE_RING_SEGMENTED,
       UCMPI_ALLREDUCE_SHM };

/* Any op (rank order kept), any n: log2(n) exchanges of the whole vector. */
int ucmpi_allreduce_recdbl(ucmpi_sched_t *s, const void *mine, void *rbuf,
                           MPI_Count count, MPI_Datatype dt, MPI_Op op,
                           const ucmpi_coll_grp_t *g);
/* Commutative ops: recursive-halving reduce-scatter + recursive-doubling
 * allgather. */
int ucmpi_allreduce_rabenseifner(ucmpi_sched_t *s, const void *mine,
                                 void *rbuf, MPI_Count count,
                                 MPI_Datatype dt, MPI_Op op,
                                 const ucmpi_coll_grp_t *g);
/* Commutative ops: ring reduce-scatter + ring allgather. */
int ucmpi_allreduce_ring(ucmpi_sched_t *s, const void *mine, void *rbuf,
                         MPI_Count count, MPI_Datatype dt, MPI_Op op,
                         const ucmpi_coll_grp_t *g);
/* Commutative ops: ring in pipelined segments (tunable ALLREDUCE_SEGMENT),
 * no temporary of the vector's size. */
int ucmpi_allreduce_ring_seg(ucmpi_sched_t *s, const void *mine, void *rbuf,
                             MPI_Count count, MPI_Datatype dt, MPI_Op op,
                             const ucmpi_coll_grp_t *g);
/* Any op: binomial reduce to member 0 + binomial bcast. */
int ucmpi_allreduce_reduce_bcast(ucmpi_sched_t *s, const void *mine,
                                 void *rbuf, MPI_Count count,
                                 MPI_Datatype dt, MPI_Op op,
                                 const ucmpi_coll_grp_t *g);
/* Node-aware: reduce inside each node, allreduce among node leaders,
 * bcast inside each node (commutative ops or rank-contiguous nodes). */
int ucmpi_allreduce_hierarchical(ucmpi_sched_t *s, ucmpi_comm_t *comm,
                                 const void *mine, void *rbuf,
                                 MPI_Count count, MPI_Datatype dt, MPI_Op op);
int ucmpi_allreduce_inter(ucmpi_sched_t *s, ucmpi_comm_t *comm,
                          ucmpi_comm_t *local, const void *sbuf, void *rbuf,
                          MPI_Count count, MPI_Datatype dt, MPI_Op op);

/* A blocking reduction (kind UCMPI_SHM_ALLREDUCE or
 * _REDUCE_SCATTER, nbytes per rank) on a comm with a shm segment that
 * does not take the shm path (count 0, or more than the automatic shm
 * limit, e.g. with tiny tuned buffers) while another rank's call may
 * (counts differing between ranks): it takes the shm number the others'
 * call starts with, records its bytes there and checks every rank's, as
 * the shm reductions do (ucmpi_coll_shm_check_sizes), so a mismatch ends
 * the call on every rank in MPI_ERR_TRUNCATE instead of leaving some
 * waiting in the segment and others on p2p.  MPI_SUCCESS: every rank
 * passed nbytes; UCMPI_SHM_FALLBACK: no segment (nothing taken).  One
 * flag round, off the shm path. */
int ucmpi_reduction_shm_vote(ucmpi_comm_t *comm, int kind, size_t nbytes);

/* The blocking shm path of allreduce and reduce_scatter (kind), count
 * elements of a->rdt in all: their shm row where it takes the bytes,
 * else the vote above.  UCMPI_SHM_FALLBACK: on to the schedules; else
 * the call's result.  Inline, so that the row's build is a direct call. */
static inline int ucmpi_reduction_shm(const ucmpi_coll_alg_t *row,
                                      const ucmpi_coll_args_t *a, int kind,
                                      MPI_Count count)
{
    size_t nbytes = (size_t)(count * a->rdt->size);
    int rc;

    if (count > 0 && ucmpi_coll_shm_wanted(a->comm, kind, nbytes)) {
        if ((rc = row->build(NULL, a)) != UCMPI_SHM_FALLBACK)
            return rc;
    } else if ((rc = ucmpi_reduction_shm_vote(a->comm, kind, nbytes)) !=
               UCMPI_SHM_FALLBACK) {
        if (rc != MPI_SUCCESS || count == 0)
            return rc;          /* all passed 0: done */
    }
    return UCMPI_SHM_FALLBACK;
}

#endif
