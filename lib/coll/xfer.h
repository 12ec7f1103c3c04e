/*
 * Data-movement collectives (gather, scatter, allgather, alltoall and the
 * neighbor collectives): the argument block every algorithm reads, the
 * per-peer block lists the v/w forms reduce to, algorithm tables and the
 * shared tail of every entry point (blocking / nonblocking / persistent).
 */
#ifndef UCMPI_COLL_XFER_H
#define UCMPI_COLL_XFER_H

#include "core/ucmpi.h"
#include "coll/sched.h"
#include "coll/coll_util.h"
#include "coll/alias.h"
#include "coll/coll_alg.h"

/* (coll_alg.h's table rows; the name stays until the callers move) */
typedef ucmpi_coll_alg_t ucmpi_xfer_alg_t;
typedef ucmpi_coll_build_fn_t ucmpi_xfer_build_fn_t;

/* The algorithm forced by tunable `knob` (e.g. "ALLGATHER_ALGORITHM"),
 * or NULL for automatic selection (unset, "auto", or a name not in the
 * table, reported once on stderr).  Like ucmpi_coll_alg_forced(), for
 * tables that carry their builders. */
const ucmpi_xfer_alg_t *ucmpi_xfer_forced(const ucmpi_xfer_alg_t *table,
                                          const char *knob);
const ucmpi_xfer_alg_t *ucmpi_xfer_by_id(const ucmpi_xfer_alg_t *table,
                                         int id);

/* Signs s with alg and a's root (ucmpi_sched_sign): every schedule
 * built from an algorithm table row, including a failed rank's stand-ins
 * for the others' schedule, is signed so (only alg's own name is known
 * to the mismatch messages). */
void ucmpi_xfer_sign(ucmpi_sched_t *s, const ucmpi_xfer_alg_t *alg,
                     const ucmpi_coll_args_t *a);

/* Tail of every entry point: creates the schedule, builds it with alg,
 * then runs it per mode (request is the user's MPI_Request * for
 * nonblocking and persistent calls).  Reports failures on comm. */
int ucmpi_xfer_run(const ucmpi_xfer_alg_t *alg, ucmpi_coll_args_t *a,
                   int mode, MPI_Request *request,
                   const char *fn);

/* The root's own block failed its check (err, already reported): the
 * other ranks went ahead and may wait for the root's data (scatter) or
 * hold sends to it (gather), so the collective still runs for their
 * blocks (the caller marks the root's own block in place).  Nonblocking
 * forms complete it before returning too (the user may free the buffers
 * once the call failed).  A persistent init hands back a request that
 * runs it on each start and completes in err (ucmpi_coll_persist_failed);
 * otherwise *request becomes MPI_REQUEST_NULL.  Returns err. */
int ucmpi_xfer_run_anyway(const ucmpi_xfer_alg_t *alg, ucmpi_coll_args_t *a,
                          int mode, MPI_Request *request,
                          const char *fn, int err);
/* A rank whose own arguments failed a check (err, already
 * reported) in a collective where everyone sends to and receives from
 * everyone (allgather, alltoall) still runs the others' algorithm alg,
 * built from *a (its receive side must be valid), poisoned: it takes what
 * they send (their rendezvous sends return) and sends them empty
 * messages, which their receives report as MPI_ERR_TRUNCATE instead of
 * waiting for ever or keeping a stale block.  Blocking and nonblocking
 * forms finish it before returning (the caller may reuse its buffers once
 * the call failed); a persistent init hands back a request that does it
 * on each start and completes in err.  Returns err. */
int ucmpi_xfer_run_poisoned(const ucmpi_xfer_alg_t *alg, ucmpi_coll_args_t *a,
                            int mode, MPI_Request *request,
                            int err);
/* (count, dt) passes ucmpi_xfer_check_buf (no report): 1, else 0. */
int ucmpi_xfer_buf_ok(MPI_Count count, MPI_Datatype dt);
/* The blocks of a v/w side (int arrays, or the _c forms' ccounts
 * and cdispls; one type dt, or one per block in dts) pass the checks of
 * ucmpi_xfer_check_counts/_types/_counts_c (no report): 1, else 0.  A
 * rank whose send side failed still serves the others when its receive
 * side is usable. */
int ucmpi_xfer_blocks_ok(int n, const int *counts, const int *displs,
                         const MPI_Count *ccounts, const MPI_Aint *cdispls,
                         MPI_Datatype dt, const MPI_Datatype *dts);

/* A blocking allgather/alltoall (shm kind `kind`, nbytes per rank
 * as the shm path counts them) on a comm with a shm segment that does
 * not take the shm path (more bytes than its automatic limit, e.g. with
 * tiny tuned buffers) while another rank's may (sizes differing between
 * ranks): it takes the shm number the others' call takes, marked invalid
 * (a shm-path reader reports MPI_ERR_TRUNCATE), records its bytes (with
 * k) and checks that every rank voted alike; else MPI_ERR_TRUNCATE,
 * reported.  MPI_SUCCESS: every rank voted with nbytes (all run the p2p
 * schedules); UCMPI_SHM_FALLBACK: no segment.  One flag round, off the
 * shm path.  Sizes whose shm path is chunked are not covered (a chunked
 * reader goes on past an invalid number).  Flags: QUIET, a rank whose
 * arguments failed (already reported): a mismatch is returned, not
 * reported; LOST, such a rank with no usable receive side (its size
 * unknown): the others report MPI_ERR_OTHER. */
enum { UCMPI_XFER_VOTE_QUIET = 1, UCMPI_XFER_VOTE_LOST = 2 };
int ucmpi_xfer_shm_vote(ucmpi_comm_t *comm, int kind, size_t nbytes,
                        int flags, const char *fn);

/* A blocking allgather/alltoall rank whose arguments failed (reported),
 * with a usable receive side of nbytes: takes the shm numbers of the
 * others' call, by `skip` (their shm path) or a quiet vote (theirs left
 * it).  1: that ended the call for this rank; 0: on to the p2p schedule,
 * poisoned. */
typedef int (*ucmpi_xfer_shm_skip_fn)(ucmpi_comm_t *comm, size_t nbytes,
                                      const char *fn);
int ucmpi_xfer_failed_shm(ucmpi_comm_t *comm, int kind, size_t nbytes,
                          MPI_Count count, ucmpi_xfer_shm_skip_fn skip,
                          const char *fn);

/* Turns the v/w arrays of *a into a->sblk/a->rblk (scratch of s); done
 * by ucmpi_xfer_run() before the builder runs. */
int ucmpi_xfer_prepare(ucmpi_sched_t *s, ucmpi_coll_args_t *a);

/* Block list helpers: uniform blocks of count x dt every `stride` elements
 * (of dt's extent) at buf; v blocks from MPI counts/displacements. */
ucmpi_xblk_t *ucmpi_xblk_uniform(ucmpi_sched_t *s, int n, const void *buf,
                                 MPI_Count count, MPI_Datatype dt);
ucmpi_xblk_t *ucmpi_xblk_v(ucmpi_sched_t *s, int n, const void *buf,
                           const int *counts, const int *displs,
                           MPI_Datatype dt);
/* Large-count blocks (large_count.c): displacements in elements of dt,
 * or in bytes when dts (one type per block) is given. */
ucmpi_xblk_t *ucmpi_xblk_c(ucmpi_sched_t *s, int n, const void *buf,
                           const MPI_Count *counts, const MPI_Aint *displs,
                           MPI_Datatype dt, const MPI_Datatype *dts);
/* Checks of large-count arrays (and of dt, or of each of dts if given). */
int ucmpi_xfer_check_counts_c(ucmpi_comm_t *c, int n, const MPI_Count *counts,
                              const MPI_Aint *displs, MPI_Datatype dt,
                              const MPI_Datatype *dts, const char *what,
                              const char *fn);
/* Address of element block i (count elements each) of buf. */
static inline char *ucmpi_xfer_at(const void *buf, MPI_Count i,
                                  MPI_Count count, MPI_Datatype dt)
{
    return (char *)buf + i * count * dt->extent;
}

/* Argument checks shared by the entry points; each returns MPI_SUCCESS or
 * the code from ucmpi_error().  `what` names the argument in messages. */
int ucmpi_xfer_check_comm(MPI_Comm comm, const char *fn);
int ucmpi_xfer_check_buf(ucmpi_comm_t *c, const void *buf, MPI_Count count,
                         MPI_Datatype dt, const char *what, const char *fn);
int ucmpi_xfer_check_counts(ucmpi_comm_t *c, int n, const int *counts,
                            const int *displs, MPI_Datatype dt,
                            const char *what, const char *fn);
int ucmpi_xfer_check_types(ucmpi_comm_t *c, int n, const int *counts,
                           const int *displs, const MPI_Datatype *dts,
                           const char *what, const char *fn);
/* The block a rank sends itself must have the size it receives:
 * MPI_ERR_TRUNCATE when it sends more, MPI_ERR_COUNT when less. */
int ucmpi_xfer_check_match(ucmpi_comm_t *c, MPI_Count scount,
                           MPI_Datatype sdt, MPI_Count rcount,
                           MPI_Datatype rdt, const char *what,
                           const char *fn);
int ucmpi_xfer_check_root(ucmpi_comm_t *c, int root, const char *fn);
/* Is this rank the root side of a rooted collective (intercomm: MPI_ROOT,
 * intracomm: rank == root)?  Inert ranks (MPI_PROC_NULL) do nothing. */
static inline bool ucmpi_xfer_is_root(const ucmpi_comm_t *c, int root)
{
    return c->is_inter ? root == MPI_ROOT : root == c->rank;
}

#endif
