/* MPI_Finalize completes requests the user freed while active, before endpoints
 * close (a peer may still need us): docs/architecture.md, "core: finalize". */
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
    ucmpi_progress_wait_done();
}

/* Drops what is still unexpected; also after a finalize a dead rank cut
 * short, which may leave the survivors' last messages to each other. */
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
