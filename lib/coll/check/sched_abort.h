/*
 * Collectives whose ranks disagree (an erroneous program: counts or types
 * that differ enough for ranks to choose different algorithms, or a rank
 * whose own arguments failed where it cannot know the others' schedule)
 * end in an error on every rank instead of a hang, at no cost to correct
 * calls:
 *  - a schedule's messages carry its signature (algorithm and shape) in
 *    the tag (lib/p2p/tag.h), so messages of different algorithms never match;
 *  - a schedule that has waited STALL_SEC without progress probes the
 *    collective context for a message of its sequence number with another
 *    signature, or an abort message of that sequence;
 *  - a rank that finds a foreign signature, and a rank whose arguments
 *    failed where it cannot run the others' schedule, send every other
 *    rank an abort message of that sequence, which their probes find.
 * A rank that errs this way discards what is left of the sequence, so a
 * later collective (after the 16-bit sequence wraps) does not take it;
 * abort messages carry the full 32-bit sequence, and stale ones are
 * dropped when found.
 * Lives outside the engine (it calls the UCX glue, which the unit tests'
 * collective mock does not link): the engine calls it through its hook.
 */
#ifndef UCMPI_COLL_SCHED_ABORT_H
#define UCMPI_COLL_SCHED_ABORT_H

#include "coll/sched_impl.h"

/* Seconds without progress before a schedule probes (checked every
 * 1024th idle turn of a waiting loop, so never on the fast path). */
#define UCMPI_COLL_STALL_SEC 0.1

/* Why a rank aborted a collective: it found another signature (or, for
 * its peers, it was told so), its own arguments failed, or a rank its
 * schedule waited for is in MPI_Finalize (lib/core/failure.c). */
enum {
    UCMPI_COLL_ABORT_MISMATCH = 1,
    UCMPI_COLL_ABORT_ARGS = 2,
    UCMPI_COLL_ABORT_FINALIZE = 3,
    /* not an abort: the sender's arguments failed a check, and it takes
     * part anyway (ucmpi_sched_note_local); only a rank in another
     * collective at that number acts on it */
    UCMPI_COLL_ABORT_LOCAL = 4,
    /* not an abort: the sender's schedule has stalled waiting for the
     * receiver (ucmpi_coll_wait_send) */
    UCMPI_COLL_ABORT_WAIT = 5
};

/* Probes for collective seq (signature sig, names for this collective's
 * ids) on comm's collective context (and the caller probes the local
 * comm of an intercomm collective with its own seq too): MPI_SUCCESS when nothing is wrong,
 * else the error class, why (a message naming both sides) filled, and
 * *notify set when the others must be told (a foreign signature found
 * here, not an abort message from another rank).  Under the big lock. */
int ucmpi_coll_stall_probe(ucmpi_comm_t *c, uint32_t seq, unsigned sig,
                           const ucmpi_coll_names_t *names, char *why,
                           size_t n, int *notify);
/* Sends an abort message of seq (reason UCMPI_COLL_ABORT_*) to every
 * other rank of c: the sender's signature and collective id (sched_sig.h:
 * a peer in another collective at this sequence number learns that the
 * ranks are out of step) and, for UCMPI_COLL_ABORT_FINALIZE, the rank of
 * c that is in MPI_Finalize. */
void ucmpi_coll_abort_send(ucmpi_comm_t *c, uint32_t seq, unsigned sig,
                           unsigned coll, int reason, int who);
/* Tells comm rank peer of c that this rank's schedule of seq (signature
 * sig, collective coll) has stalled waiting for it: a peer stalled in
 * another schedule at that number (no message of either reaching the
 * other, e.g. a make-up gather against a 3-rank allreduce) fails and
 * tells the others; one in the same schedule drops it.  Once per stalled
 * run and peer; a peer that never stalls there keeps it until
 * MPI_Finalize drops what is unexpected (a later comm that takes c's
 * context id ignores it: the message carries c's ctx_stamp). */
void ucmpi_coll_wait_send(ucmpi_comm_t *c, uint32_t seq, unsigned sig,
                          unsigned coll, int peer);
/* Discards every message of seq still unexpected on c's collective
 * context (rendezvous senders are answered and return). */
void ucmpi_coll_abort_drain(ucmpi_comm_t *c, uint32_t seq);

/* Notes of a local error (ucmpi_sched_note_local): record records that
 * this rank's arguments failed at collective seq of c (collective id
 * coll) and sends nothing: the ranks are most likely in step, and a
 * program may fail 2^24 collectives in a row.  Once a schedule of this
 * rank on c stalls at seq or shortly after, announce sends the notes
 * recorded for c up to it (once each) to the other ranks: those in
 * another collective at that number wait for this rank, which may be
 * why it stalls.  Under the big lock. */
void ucmpi_coll_note_record(ucmpi_comm_t *c, uint32_t seq, unsigned coll);
void ucmpi_coll_note_announce(ucmpi_comm_t *c, uint32_t seq);

/* Whether comm rank peer of c has sent a message of a p2p collective that
 * this rank has not started yet (the next two sequence numbers of c; not
 * an abort message or a note of a local error, ucmpi_sched_note_local): a
 * rank that waits for peer in a blocking shm collective is then out of
 * step with it (peer left or skipped that collective).  1 and the name of
 * peer's collective in *name, else 0.  Under the big lock. */
int ucmpi_coll_peer_ahead(ucmpi_comm_t *c, int peer, const char **name);
/* Whether comm rank peer of c has sent any message (data, abort, note,
 * stall message) of collective seq + 1 or seq + 2: a peer that ran seq as
 * a blocking call has left it.  1 and the name of the later collective
 * in *name (NULL: not known), else 0.  Under the big lock. */
int ucmpi_coll_peer_left(ucmpi_comm_t *c, uint32_t seq, int peer,
                         const char **name);
/* Whether comm rank peer of c has sent this rank an abort, note or stall
 * message of collective seq - 1 or seq - 2 (not taken: a nonblocking run
 * there may still need it).  Under the big lock. */
int ucmpi_coll_peer_behind(ucmpi_comm_t *c, uint32_t seq, int peer);

/* Discards what is left of collective seq of c (messages sent before
 * the peers learnt of an abort) from the progress loop for DRAIN_SEC.
 * Under the big lock. */
#define DRAIN_SEC 2.0
void ucmpi_coll_drain_later(ucmpi_comm_t *c, uint32_t seq);

/* Cancels a receive of an aborted run. */
void ucmpi_coll_abort_cancel(ucmpi_request_t *r);

#endif
