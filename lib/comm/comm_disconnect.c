/* MPI_Comm_disconnect: traffic is matched beforehand, so each process waits for
 * its own pending operations (freed requests, bsends), then frees the comm. */
#include "p2p/request.h"
#include "p2p/progress_api.h"
#include "core/call.h"
#include "p2p/bsend.h"
#include "comm/comm_internal.h"

static int pending_on(ucmpi_comm_t *c)
{
    return ucmpi_orphans_pending_on(c, -1, 0) +
           ucmpi_orphans_pending_on(c, UCMPI_REQ_RECV, 0) +
           ucmpi_bsend_pending_on(c);
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
    return PMPI_Comm_free(comm);
}

