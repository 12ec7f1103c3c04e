/*
 * MPI_Finalize and requests the user freed while still active
 * (MPI_Request_free).  The standard has MPI_Finalize complete them; they
 * must be complete before endpoints close, because a peer may still need
 * this process (a rendezvous receive fetches the data, a synchronous send
 * waits for its acknowledgement): closing first hung MPICH's pt2pt/rqfree
 * about one run in twenty.
 *  1. Freed sends, collectives and RMA requests complete: their peers are
 *     bound to take part, and they progress in their own MPI calls or here.
 *  2. A barrier of the job's processes: after it, every message of the job
 *     has been sent (each process did step 1 and its own waits).
 *  3. Freed receives complete.  One still unmatched once nothing has moved
 *     for a while will never be matched (the program is erroneous): it is
 *     cancelled rather than hanging.
 *  4. Unexpected messages that nobody will receive are dropped, so UCX
 *     does not warn about them when the worker goes.
 */
#include "core/failure.h"
#include "p2p/request.h"
#include "p2p/progress_api.h"
#include "comm/comm_internal.h"
#include "p2p/p2p_cancel.h"
#include "ucp_glue/ucx.h"

/* Quiet time after which a freed receive counts as never matched. */
#define UNMATCHED_QUIET_SEC 0.05

/* Progress until no freed request of `kind` is in flight; for receives,
 * give up on (cancel) the unmatched ones after a quiet spell. */
static void drain(int kind)
{
    double last_event = PMPI_Wtime();
    unsigned spins = 0;
    int cancelled = 0;

    while (ucmpi_orphans_pending(kind, 0) > 0) {
        if (ucmpi_progress() > 0) {
            last_event = PMPI_Wtime();
            spins = 0;
            continue;
        }
        ucmpi_progress_idle(++spins);
        if (kind == UCMPI_REQ_RECV && !cancelled &&
            PMPI_Wtime() - last_event > UNMATCHED_QUIET_SEC) {
            ucmpi_orphans_pending(kind, 1);
            cancelled = 1;
        }
    }
    ucmpi_rt_wait_done();
}

/* Drops what is still unexpected (probed out of UCX, received into
 * nothing).  Also after a finalize that a dead rank cut short: the
 * survivors' last messages to each other may be left over. */
void ucmpi_finalize_drop_unexpected(void)
{
    uint64_t tag;
    size_t len;
    void *msg;

    ucmpi_lock();
    while (ucmpi_ucx_tag_probe(0, 0, 1, &tag, &len, &msg))
        ucmpi_ucx_msg_discard(msg);
    ucmpi_unlock();
    ucmpi_progress();
}

void ucmpi_finalize_orphans(void)
{
    drain(-1);
    /* (not over MPI_COMM_WORLD's collective sequence, which an erroneous
     * program may have left out of step: lib/core/failure.c) */
    if (ucmpi_fin_barrier() != 0)
        return;               /* a peer failed: nothing more to wait for */
    drain(UCMPI_REQ_RECV);
    ucmpi_finalize_drop_unexpected();
}
