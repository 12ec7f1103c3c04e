/* MPI_Comm_disconnect: traffic is matched beforehand, so each process waits for
 * its own pending operations (freed requests, bsends); a barrier of both
 * groups then says everyone is done, the comm is freed, and the other jobs'
 * processes no communicator names any more are let go (endpoints closed). */
#include "p2p/request.h"
#include "p2p/progress_api.h"
#include "core/call.h"
#include "p2p/bsend.h"
#include "comm/comm_internal.h"
#include "comm/dpm.h"

static int pending_on(ucmpi_comm_t *c)
{
    return ucmpi_orphans_pending_on(c, -1, 0) +
           ucmpi_orphans_pending_on(c, UCMPI_REQ_RECV, 0) +
           ucmpi_bsend_pending_on(c);
}

/* Nobody closes an endpoint while a member of either group still uses it:
 * local barrier, then the roots swap and tell their group. */
static int both_groups_done(ucmpi_comm_t *c)
{
    ucmpi_cc_t cc;
    int mine = 0, theirs = 0, rc;

    if (!c->is_inter) {
        ucmpi_cc_init(&cc, c);
        return ucmpi_cc_barrier(&cc);
    }
    ucmpi_cc_init(&cc, c->local_comm);
    rc = ucmpi_cc_barrier(&cc);
    ucmpi_cc_link_t l = {c, UCMPI_CTX_COLL, ucmpi_comm_next_coll_tag(c), 0, 0};
    ucmpi_cc_init(&cc, c->local_comm);
    int rc2 = ucmpi_cc_swap_bcast(&cc, &l, &mine, sizeof(mine), &theirs,
                                  sizeof(theirs));
    return rc != MPI_SUCCESS ? rc : rc2;
}

#pragma weak MPI_Comm_disconnect = PMPI_Comm_disconnect
int PMPI_Comm_disconnect(MPI_Comm *comm)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Comm_disconnect");
    int rc = ucmpi_comm_check_freeable(comm,
                                       "disconnected");
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_comm_t *c = *comm;
    unsigned spins = 0;
    while (pending_on(c) > 0) {
        if (ucmpi_progress() == 0)
            ucmpi_progress_idle(++spins);
        else
            spins = 0;
    }
    ucmpi_progress_wait_done();
    /* a revoked comm carries nothing more (ULFM): just free it */
    rc = c->revoked ? MPI_SUCCESS : both_groups_done(c);
    if (rc != MPI_SUCCESS)     /* a failed process: disconnected anyway */
        rc = ucmpi_err_comm(c, rc, fn, "a process of the communicator "
                            "failed; it is disconnected all the same");
    int frc = PMPI_Comm_free(comm);
    ucmpi_dpm_sweep();
    return rc != MPI_SUCCESS ? rc : frc;
}
