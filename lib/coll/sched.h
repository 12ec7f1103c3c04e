/*
 * Collective schedules: an algorithm adds send, receive, reduce and copy
 * steps; ucmpi_sched_fence() separates rounds (a step starts only after
 * every step of the previous rounds completed).  One engine runs every
 * schedule: blocking = build + start + wait, nonblocking = build + start,
 * persistent = build once, start many times.
 *
 * When a round starts, its steps start in the order they were added:
 * sends and receives are posted, local steps (reduce, copy) run to
 * completion on the spot, so a send added after a reduce in the same round
 * sends the reduced data.  A receive's data is usable only in a later
 * round.  Messages
 * between two ranks of one schedule share the schedule's tag and match in
 * posting order, so builders must post them in the same order on both sides.
 */
#ifndef UCMPI_COLL_SCHED_H
#define UCMPI_COLL_SCHED_H

#include "p2p/request.h"
#include "datatype/datatype.h"
#include "coll/op.h"

typedef struct ucmpi_sched ucmpi_sched_t;

/* A schedule over comm's collective context.  Takes the next collective
 * sequence number of comm, which all members take in the same order.
 * NULL when out of memory. */
ucmpi_sched_t *ucmpi_sched_create(ucmpi_comm_t *comm);

/* The communicator the schedule was created on. */
ucmpi_comm_t *ucmpi_sched_comm(const ucmpi_sched_t *s);

/* Steps.  Ranks are comm ranks (remote group for intercomms). */
int ucmpi_sched_send(ucmpi_sched_t *s, const void *buf, MPI_Count count,
                     MPI_Datatype dt, int peer);
int ucmpi_sched_recv(ucmpi_sched_t *s, void *buf, MPI_Count count,
                     MPI_Datatype dt, int peer);
/* A receive whose message must fill buf: a shorter one (a root that could
 * not send its data, e.g. scatter) ends the collective in MPI_ERR_TRUNCATE
 * once its other steps are done. */
int ucmpi_sched_recv_exact(ucmpi_sched_t *s, void *buf, MPI_Count count,
                           MPI_Datatype dt, int peer);
/* Runs s as if it had had a short exact receive: no local steps, every
 * send empty (a scatter root whose send arguments failed a check: the
 * others' exact receives fail instead of waiting or taking garbage). */
void ucmpi_sched_poison(ucmpi_sched_t *s);
/* Every run of s ends in err, whatever its steps did (the persistent
 * request of a rank whose arguments failed a check: each start serves the
 * others and reports the error again; truncations of its drains are
 * not news). */
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
/* Intercommunicator collectives: subsequent send/recv steps go over
 * `comm` (e.g. the local intracommunicator) instead, with a tag taken from
 * it the first time; pass the schedule's own comm to switch back. */
int ucmpi_sched_set_comm(ucmpi_sched_t *s, ucmpi_comm_t *comm);

/* Run: returns a request (kind UCMPI_REQ_COLL, retaining the comm)
 * completed when the schedule is done; waiting on/freeing it frees the
 * schedule.  persistent=1 keeps the schedule for MPI_Start (ops->start);
 * the request is then returned inactive and not started. */
int ucmpi_sched_start(ucmpi_sched_t *s, int persistent,
                      ucmpi_request_t **req);
/* Build + start + wait: runs s to completion and frees it. */
int ucmpi_sched_run_blocking(ucmpi_sched_t *s);
/* Frees a schedule that was never started (e.g. on a build error). */
void ucmpi_sched_free(ucmpi_sched_t *s);
/* A waiting loop's check of a collective request, now and then:
 * in-flight receives from dead peers fail (see lib/core/failure.c), and
 * the check machinery looks at a stalled run. */
void ucmpi_sched_check_peers(ucmpi_request_t *req);

/* Reuse (the cache lives in coll_comm.c).  A built schedule depends only on its call's
 * arguments, so a later call with the same ones runs it again with fresh
 * tags (the next sequence numbers, as a new build would take). */
void ucmpi_sched_renew_tags(ucmpi_sched_t *s);
/* Running, or its nonblocking request not yet freed. */
int ucmpi_sched_busy(const ucmpi_sched_t *s);
/* Bytes the schedule holds (object, scratch, step and request arrays). */
size_t ucmpi_sched_footprint(const ucmpi_sched_t *s);
/* slot != NULL: a cache owns s, and ucmpi_sched_free() only marks it idle;
 * the cache frees it with ucmpi_sched_destroy(). */
void ucmpi_sched_set_cache(ucmpi_sched_t *s, void *slot);
void ucmpi_sched_destroy(ucmpi_sched_t *s);

/* Everything a schedule builder reads from its call (besides the comm):
 * two calls with equal keys build the same schedule.  `coll` tells the
 * collectives apart (any address unique to one, e.g. its algorithm
 * table); counts[0..ncounts) are compared by value. */
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

/* The idle schedule cached on comm for key, its tags renewed; NULL if
 * none. */
ucmpi_sched_t *ucmpi_sched_cache_get(ucmpi_comm_t *comm,
                                     const ucmpi_sched_key_t *key);
/* Offers freshly built s for later calls with key (it may decline: large
 * schedules, all slots busy).  Call before running s. */
void ucmpi_sched_cache_put(ucmpi_comm_t *comm, const ucmpi_sched_key_t *key,
                           ucmpi_sched_t *s);
/* Frees every cached schedule of comm (none may be running). */
void ucmpi_sched_cache_destroy(void *cache);

/* Introspection for unit tests: number of steps and rounds. */
int ucmpi_sched_num_steps(const ucmpi_sched_t *s);
int ucmpi_sched_num_rounds(const ucmpi_sched_t *s);

/* Run-time steps, for algorithms whose message sizes only the schedule
 * itself learns (the gatherv/scatterv trees exchange counts first).
 * A call is a local step: fn(arg) runs when its round starts, in order
 * with the round's other local steps, and may set the values behind the
 * _dyn steps of later rounds; its non-MPI_SUCCESS return fails the
 * schedule.  A _dyn send/recv reads its buffer (*bufp) and count
 * (*countp) when it is posted.  Memory a call needs may come from
 * ucmpi_sched_alloc() (released with the schedule). */
int ucmpi_sched_call(ucmpi_sched_t *s, int (*fn)(void *arg), void *arg);
int ucmpi_sched_send_dyn(ucmpi_sched_t *s, void *const *bufp,
                         const MPI_Count *countp, MPI_Datatype dt, int peer);
int ucmpi_sched_recv_dyn(ucmpi_sched_t *s, void *const *bufp,
                         const MPI_Count *countp, MPI_Datatype dt, int peer);

/* Signatures and aborts (lib/coll/check), which builders call too. */
#include "coll/check/check.h"

#endif
