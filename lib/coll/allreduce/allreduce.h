/* MPI_Allreduce algorithms.  Builders take `mine` (the contribution, may
 * equal rbuf for MPI_IN_PLACE) and leave the result in rbuf. */
#ifndef UCMPI_COLL_ALLREDUCE_H
#define UCMPI_COLL_ALLREDUCE_H

#include "coll/coll_alg.h"
#include "coll/shm/shm.h"
#include "coll/alias.h"
#include "core/check.h"

enum { UCMPI_ALLREDUCE_RECURSIVE_DOUBLING, UCMPI_ALLREDUCE_RABENSEIFNER,
       UCMPI_ALLREDUCE_RING, UCMPI_ALLREDUCE_REDUCE_BCAST,
       UCMPI_ALLREDUCE_HIERARCHICAL, UCMPI_ALLREDUCE_RING_SEGMENTED,
       UCMPI_ALLREDUCE_SHM };

/* Any op (rank order kept), any n: log2(n) exchanges of the whole vector. */
int ucmpi_allreduce_recdbl(ucmpi_sched_t *s, const void *mine, void *rbuf,
                           MPI_Count count, MPI_Datatype dt, MPI_Op op,
                           const ucmpi_coll_grp_t *g);
/* The non-power-of-two fold: in goes to buf, 2i sends it to 2i+1, which
 * reduces via tmp; back at the end.  No messages past member 2*rem. */
int ucmpi_allreduce_fold(ucmpi_sched_t *s, const ucmpi_coll_grp_t *g,
                         int rem, const void *in, void *buf, void *tmp,
                         MPI_Count count, MPI_Datatype dt, MPI_Op op);
int ucmpi_allreduce_unfold(ucmpi_sched_t *s, const ucmpi_coll_grp_t *g,
                           int rem, const void *sbuf, MPI_Count scount,
                           void *rbuf, MPI_Count rcount, MPI_Datatype dt);
/* A step of a schedule: sends sbuf to `to`, receives exactly rbuf from
 * `from`, then waits for both. */
int ucmpi_allreduce_xchg(ucmpi_sched_t *s, const void *sbuf, MPI_Count scount,
                         void *rbuf, MPI_Count rcount, MPI_Datatype dt,
                         int to, int from);
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
/* One rank (allreduce, reduce): its contribution is the result. */
int ucmpi_allreduce_self(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);
/* The checks of an allreduce or scan, reported as fn; inline: the smallest
 * calls run them every time. */
static inline int ucmpi_allreduce_check(const ucmpi_coll_args_t *a,
                                        const char *fn)
{
    ucmpi_comm_t *comm = a->comm;
    MPI_Count count = a->rcount;
    MPI_Datatype dt = a->rdt;
    int rc = ucmpi_check_count(comm, count, fn);

    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_dt(comm, dt, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_coll_check_op(comm, a->op, dt);
    if (rc != MPI_SUCCESS)
        return rc;
    if (a->rbuf == MPI_IN_PLACE ||
        (a->sbuf == MPI_IN_PLACE && comm->is_inter))
        return ucmpi_err_comm(comm, MPI_ERR_BUFFER, fn,
                              "MPI_IN_PLACE is only allowed as the send "
                              "buffer of an intracommunicator call");
    if (a->sbuf == MPI_IN_PLACE)
        return MPI_SUCCESS;
    return ucmpi_coll_check_alias1(comm, a->sbuf, count, dt, a->rbuf, count,
                                   dt, fn);
}
/* What UCMPI_COLL_CHECK compares of an allreduce (and of a scan). */
void ucmpi_allreduce_record(const ucmpi_coll_args_t *a,
                            ucmpi_coll_check_args_t *r);
int ucmpi_allreduce_inter(ucmpi_sched_t *s, ucmpi_comm_t *comm,
                          ucmpi_comm_t *local, const void *sbuf, void *rbuf,
                          MPI_Count count, MPI_Datatype dt, MPI_Op op);

/* A blocking reduction that leaves the shm path records its bytes under the
 * others' number, so a mismatch fails all (docs/architecture: shm vote). */
int ucmpi_reduction_shm_vote(ucmpi_comm_t *comm, int kind, size_t nbytes);

/* Blocking allreduce/reduce_scatter: the shm row, else the vote; inline so
 * the row's build is a direct call.  UCMPI_SHM_FALLBACK: on to schedules. */
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
