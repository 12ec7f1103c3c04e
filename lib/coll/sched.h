/* Collective schedules: steps in rounds split by ucmpi_sched_fence(); messages
 * match in posting order, so both sides post alike (docs/architecture.md). */
#ifndef UCMPI_COLL_SCHED_H
#define UCMPI_COLL_SCHED_H

#include "p2p/request.h"
#include "datatype/datatype.h"
#include "coll/op.h"

typedef struct ucmpi_sched ucmpi_sched_t;

/* A schedule over comm's collective context, with the next sequence
 * number of comm; NULL when out of memory. */
ucmpi_sched_t *ucmpi_sched_create(ucmpi_comm_t *comm);

/* The communicator the schedule was created on. */
ucmpi_comm_t *ucmpi_sched_comm(const ucmpi_sched_t *s);

/* Steps.  Ranks are comm ranks (remote group for intercomms). */
int ucmpi_sched_send(ucmpi_sched_t *s, const void *buf, MPI_Count count,
                     MPI_Datatype dt, int peer);
int ucmpi_sched_recv(ucmpi_sched_t *s, void *buf, MPI_Count count,
                     MPI_Datatype dt, int peer);
/* A receive that must be filled: a shorter message ends the collective
 * in MPI_ERR_TRUNCATE once its other steps are done. */
int ucmpi_sched_recv_exact(ucmpi_sched_t *s, void *buf, MPI_Count count,
                           MPI_Datatype dt, int peer);
/* Runs s as after a short exact receive: no local steps, empty sends (a
 * root whose arguments failed: the others' exact receives fail). */
void ucmpi_sched_poison(ucmpi_sched_t *s);
/* Every run of s ends in err (a failed rank's persistent request). */
void ucmpi_sched_fail(ucmpi_sched_t *s, int err);
/* s's sequence number (ucmpi_sched_create). */
uint32_t ucmpi_sched_seq(const ucmpi_sched_t *s);
/* inout[i] = in[i] op inout[i] (in is the left operand: rank order). */
int ucmpi_sched_reduce(ucmpi_sched_t *s, const void *in, void *inout,
                       MPI_Count count, MPI_Datatype dt, MPI_Op op);
/* Copies the type signature of (src, scount, sdt) into (dst, rcount, rdt);
 * the packed sizes must agree (the smaller one is copied). */
int ucmpi_sched_copy(ucmpi_sched_t *s, const void *src, MPI_Count scount,
                     MPI_Datatype sdt, void *dst, MPI_Count rcount,
                     MPI_Datatype rdt);
/* Round boundary (a no-op after an empty round). */
int ucmpi_sched_fence(ucmpi_sched_t *s);
/* Scratch memory released with the schedule (16-byte aligned); NULL when
 * out of memory. */
void *ucmpi_sched_alloc(ucmpi_sched_t *s, size_t bytes);
/* Intercomms: later transfers go over `comm` (the schedule's own comm
 * switches back). */
int ucmpi_sched_set_comm(ucmpi_sched_t *s, ucmpi_comm_t *comm);

/* A UCMPI_REQ_COLL request completed when s is done (freeing it frees
 * s); persistent: kept for MPI_Start, returned inactive. */
int ucmpi_sched_start(ucmpi_sched_t *s, int persistent,
                      ucmpi_request_t **req);
/* Build + start + wait: runs s to completion and frees it. */
int ucmpi_sched_run_blocking(ucmpi_sched_t *s);
/* Frees a schedule that was never started (e.g. on a build error). */
void ucmpi_sched_free(ucmpi_sched_t *s);
/* A waiting loop's occasional check: receives from dead peers fail and
 * the check machinery looks at a stalled run. */
void ucmpi_sched_check_peers(ucmpi_request_t *req);

/* Reuse (coll_comm.c): a schedule depends only on its call's arguments,
 * so a later equal call runs it again with the next sequence numbers. */
void ucmpi_sched_renew_tags(ucmpi_sched_t *s);
/* Running, or its nonblocking request not yet freed. */
int ucmpi_sched_busy(const ucmpi_sched_t *s);
/* Bytes the schedule holds (object, scratch, step and request arrays). */
size_t ucmpi_sched_footprint(const ucmpi_sched_t *s);
/* slot != NULL: a cache owns s (ucmpi_sched_free marks it idle). */
void ucmpi_sched_set_cache(ucmpi_sched_t *s, void *slot);
void ucmpi_sched_destroy(ucmpi_sched_t *s);

/* Everything a builder reads from its call: equal keys, equal schedules.
 * `coll`: an address unique to the collective; counts compared by value. */
typedef struct {
    const void *coll;
    int alg, root;
    const void *sbuf;
    const void *rbuf;
    MPI_Count scount, rcount;
    MPI_Datatype sdt, rdt;
    MPI_Op op;
    const int *counts;
    int ncounts;
} ucmpi_sched_key_t;

/* The idle schedule cached on comm for key, tags renewed; NULL if none. */
ucmpi_sched_t *ucmpi_sched_cache_get(ucmpi_comm_t *comm,
                                     const ucmpi_sched_key_t *key);
/* Offers freshly built s for later calls (may decline); before running. */
void ucmpi_sched_cache_put(ucmpi_comm_t *comm, const ucmpi_sched_key_t *key,
                           ucmpi_sched_t *s);

/* Introspection for unit tests. */
int ucmpi_sched_num_rounds(const ucmpi_sched_t *s);

/* Run-time steps (e.g. gatherv trees): fn(arg) runs as a local step and may
 * set what later _dyn steps read when posted; its error fails the schedule. */
int ucmpi_sched_call(ucmpi_sched_t *s, int (*fn)(void *arg), void *arg);
int ucmpi_sched_send_dyn(ucmpi_sched_t *s, void *const *bufp,
                         const MPI_Count *countp, MPI_Datatype dt, int peer);
int ucmpi_sched_recv_dyn(ucmpi_sched_t *s, void *const *bufp,
                         const MPI_Count *countp, MPI_Datatype dt, int peer);

/* Signatures and aborts (lib/coll/check), which builders call too. */
#include "coll/check/check.h"

#endif
