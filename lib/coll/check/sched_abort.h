/* Disagreeing ranks end in an error, not a hang, at no cost to correct calls
 * (docs/architecture.md: stalled schedules); via sched_impl.h's hook. */
#ifndef UCMPI_COLL_SCHED_ABORT_H
#define UCMPI_COLL_SCHED_ABORT_H

#include "coll/sched_impl.h"

#include <time.h>

static inline double ucmpi_coll_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Seconds without progress before a schedule probes (off the fast path). */
#define UCMPI_COLL_STALL_SEC 0.1

/* Why a rank aborted: another signature, its own arguments, or a rank
 * its schedule waited for is in MPI_Finalize. */
enum {
    UCMPI_COLL_ABORT_MISMATCH = 1,
    UCMPI_COLL_ABORT_ARGS = 2,
    UCMPI_COLL_ABORT_FINALIZE = 3,
    /* not aborts: a failed sender taking part anyway, or one stalled waiting
     * for the receiver (ucmpi_coll_wait_send) */
    UCMPI_COLL_ABORT_LOCAL = 4,
    UCMPI_COLL_ABORT_WAIT = 5
};

/* Probes c's collective context for seq (big lock): MPI_SUCCESS or the class,
 * with why and *notify (tell the others: a foreign signature here). */
int ucmpi_coll_stall_probe(ucmpi_comm_t *c, uint32_t seq, unsigned sig,
                           const ucmpi_coll_names_t *names, char *why,
                           size_t n, int *notify);
/* Sends every other rank of c an abort message of seq: the sender's
 * signature and collective, and for FINALIZE the rank in MPI_Finalize. */
void ucmpi_coll_abort_send(ucmpi_comm_t *c, uint32_t seq, unsigned sig,
                           unsigned coll, int reason, int who);
/* Tells peer (once a run) our seq stalled on it: a peer stalled in another
 * schedule at that number fails and tells the others; the same drops it. */
void ucmpi_coll_wait_send(ucmpi_comm_t *c, uint32_t seq, unsigned sig,
                          unsigned coll, int peer);
/* Discards every unexpected message of seq on c's collective context. */
void ucmpi_coll_abort_drain(ucmpi_comm_t *c, uint32_t seq);

/* Once a schedule on c stalls at or after a recorded local error
 * (ucmpi_sched_note_local), sends its note once.  Under the big lock. */
void ucmpi_coll_note_announce(ucmpi_comm_t *c, uint32_t seq);

/* Whether peer sent a message of a p2p collective this rank has not
 * started (the next two numbers; not aborts or notes): name in *name. */
int ucmpi_coll_peer_ahead(ucmpi_comm_t *c, int peer, const char **name);
/* Whether peer sent any message of seq + 1 or seq + 2 (it left seq). */
int ucmpi_coll_peer_left(ucmpi_comm_t *c, uint32_t seq, int peer,
                         const char **name);
/* Whether peer sent an abort, note or stall message of seq - 1 or - 2. */
int ucmpi_coll_peer_behind(ucmpi_comm_t *c, uint32_t seq, int peer);

/* Discards what is left of seq on c from the progress loop for DRAIN_SEC. */
#define DRAIN_SEC 2.0
void ucmpi_coll_drain_later(ucmpi_comm_t *c, uint32_t seq);

/* Cancels a receive of an aborted run. */
void ucmpi_coll_abort_cancel(ucmpi_request_t *r);

#endif
