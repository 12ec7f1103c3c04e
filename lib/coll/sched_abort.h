/*
 * Collectives whose ranks disagree (an erroneous program: counts or types
 * that differ enough for ranks to choose different algorithms, or a rank
 * whose own arguments failed where it cannot know the others' schedule)
 * end in an error on every rank instead of a hang, at no cost to correct
 * calls:
 *  - a schedule's messages carry its signature (algorithm and shape) in
 *    the tag (lib/tag.h), so messages of different algorithms never match;
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
 * Lives outside the engine's core files (it calls the UCX glue, which the
 * unit tests' collective mock does not link): the engine calls it through
 * weak references.
 */
#ifndef UCMPI_COLL_SCHED_ABORT_H
#define UCMPI_COLL_SCHED_ABORT_H

#include "ucmpi.h"

/* Seconds without progress before a schedule probes (checked every
 * 1024th idle turn of a waiting loop, so never on the fast path). */
#define UCMPI_COLL_STALL_SEC 0.1

enum { UCMPI_COLL_ABORT_MISMATCH = 1, UCMPI_COLL_ABORT_ARGS = 2 };

/* What a schedule's signature says, for the messages: its collective
 * (sched_sig.h), its algorithm id, and the rows of its algorithm table,
 * each starting with {int id; const char *name; ...} (tab NULL: a
 * schedule signed by its collective only). */
typedef struct {
    const void *tab;
    size_t row;
    int n;
    unsigned coll;
    int alg;
} ucmpi_coll_names_t;

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
 * other rank of c. */
void ucmpi_coll_abort_send(ucmpi_comm_t *c, uint32_t seq, unsigned sig,
                           int reason);
/* Discards every message of seq still unexpected on c's collective
 * context (rendezvous senders are answered and return). */
void ucmpi_coll_abort_drain(ucmpi_comm_t *c, uint32_t seq);

/* Cancels a receive of an aborted run. */
void ucmpi_coll_abort_cancel(ucmpi_request_t *r);

#endif
