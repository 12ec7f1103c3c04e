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

#include "core/ucmpi.h"

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
/* Signs s with its algorithm (id alg of the table tab: n rows of row
 * bytes, each starting like ucmpi_coll_alg_t) and shape (anything else
 * that changes which messages the ranks exchange, e.g. a segment count):
 * ranks that chose differently then never match each other's messages,
 * and a stalled run finds out and fails on every rank instead of hanging
 * (sched_abort.h).  Intracomms only; unsigned schedules still take abort
 * messages. */
void ucmpi_sched_sign(ucmpi_sched_t *s, const void *tab, size_t row, int n,
                      int alg, unsigned shape);
/* Signs s as an empty collective (ucmpi_coll_run_empty): it meets only
 * ranks whose data is 0 bytes too. */
void ucmpi_sched_sign_empty(ucmpi_sched_t *s);
/* Changes the shape of a signed s (a builder that learns it late). */
void ucmpi_sched_shape(ucmpi_sched_t *s, unsigned shape);
/* A rank whose arguments failed where it cannot know the others'
 * schedule for collective seq of comm: tells every other rank (an abort
 * message their stalled schedules find) and discards what they send it
 * for that collective for a while (sched_abort.h). */
void ucmpi_sched_abort_peers(ucmpi_comm_t *comm, uint32_t seq);
/* A rank whose arguments failed a check but that takes part in
 * collective seq of comm anyway (a background drain, empty messages, a
 * failed persistent request, a skipped number) tells the others once one
 * of its schedules on comm stalls shortly after: one that waits in
 * another collective at that number (a program that expected the failed
 * call to consume nothing) then fails instead of waiting for ever; the
 * ranks of this collective ignore it (sched_abort.h).  No messages
 * otherwise. */
void ucmpi_sched_note_local(ucmpi_comm_t *comm, uint32_t seq);
/* The collective argument check (coll_check.h): gate g, a built
 * schedule of the check, is handed to the next schedule s of its comm
 * that ucmpi_sched_start starts (through comm->coll.check_gate).  s
 * then posts nothing before g has passed, runs g again at each start,
 * and ends in g's error and reason if g fails; s owns g.  arm prepares
 * g (MPI_SUCCESS or the error); release runs a g that no schedule took
 * in the background (for the other ranks), and frees it. */
int ucmpi_sched_gate_arm(ucmpi_sched_t *g);
void ucmpi_sched_gate_release(ucmpi_sched_t *g);
/* The reason s fails (a request's, or a gate's: ucmpi_sched_req_why). */
void ucmpi_sched_set_why(ucmpi_sched_t *s, const char *why);
/* s's sequence number (ucmpi_sched_create). */
uint32_t ucmpi_sched_seq(const ucmpi_sched_t *s);
/* Why the last run that found the ranks disagreeing failed (once; NULL
 * when there is no news). */
const char *ucmpi_sched_abort_why(void);
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
/* The reason a completed collective request failed, as the blocking
 * call's error message gives it, prefixed by the call that started it
 * ("MPI_Ibcast: ..."), into buf: 1, or 0 when req is not a failed
 * schedule's (read it before the request is freed). */
int ucmpi_sched_req_why(ucmpi_request_t *req, char *buf, size_t n);
/* What a collective that failed in err without an abort says (no peer
 * told why): blocking calls and ucmpi_sched_req_why alike. */
const char *ucmpi_sched_plain_why(int err);
/* Fails in-flight receives from dead peers (see lib/core/failure.c). */
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

#endif
