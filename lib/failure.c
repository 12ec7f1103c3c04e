/*
 * Failed peers: a rank blocked on a receive from a process that died gets
 * MPI_ERR_PROC_FAILED instead of hanging.  UCX reports unreachable peers
 * on endpoints it has; on this node a dead process is also seen directly
 * (its pid, published in the modex, no longer exists), which is quicker
 * than transport keepalives.
 */
#include "ucmpi.h"
#include "ucmpi_rt.h"
#include "ucp_glue/ucx.h"
#include "coll/sched.h"
#include "p2p_cancel.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PID_KEY "ucmpi.pid"

static pid_t *peer_pid;        /* world rank -> pid (0: unknown) */

int ucmpi_failure_init(void)
{
    int32_t pid = (int32_t)getpid();
    /* allocated here, not on first use: waits of several threads look up
     * peers concurrently (MPI_THREAD_MULTIPLE) and would race on it */
    peer_pid = calloc((size_t)ucmpi_global.world_size, sizeof(pid_t));
    if (peer_pid == NULL)
        return -1;
    return ucmpi_rt_put(PID_KEY, &pid, sizeof(pid));
}

void ucmpi_failure_finalize(void)
{
    free(peer_pid);
    peer_pid = NULL;
}

static pid_t pid_of(int r)
{
    if (peer_pid == NULL)      /* after finalize */
        return 0;
    if (peer_pid[r] == 0) {
        void *v = NULL;
        size_t len = 0;
        if (ucmpi_rt_get(r, PID_KEY, &v, &len) == 0 && len == sizeof(int32_t))
            peer_pid[r] = (pid_t)*(int32_t *)v;
        free(v);
    }
    return peer_pid[r];
}

/* World rank r is known to be gone. */
int ucmpi_peer_failed(int r)
{
    if (ucmpi_ucx_peer_failed(r))
        return 1;
    if (ucmpi_global.node_of == NULL ||
        ucmpi_global.node_of[r] != ucmpi_global.node_of[ucmpi_global.world_rank])
        return 0;
    pid_t pid = pid_of(r);
    return pid > 0 && kill(pid, 0) != 0 && errno == ESRCH;
}

/* Called from waiting loops now and then: a receive from or a send to a
 * dead peer fails with MPI_ERR_PROC_FAILED (the UCX receive is cancelled,
 * a send UCX still holds is abandoned: ucmpi_ucx_send_abandon). */
void ucmpi_request_check_peer(ucmpi_request_t *r)
{
    if (r->kind == UCMPI_REQ_COLL) {
        ucmpi_sched_check_peers(r);
        return;
    }
    if (r->kind == UCMPI_REQ_SEND) {
        ucmpi_p2p_cancel_check_peer(r);
        /* a send UCX still holds for a dead peer (rendezvous) */
        if (r->p2p.world_peer >= 0 && !ucmpi_request_is_complete(r) &&
            ucmpi_peer_failed(r->p2p.world_peer)) {
            ucmpi_ucx_peer_gone(r->p2p.world_peer);
            ucmpi_lock();
            ucmpi_ucx_send_abandon(r);
            ucmpi_unlock();
        }
        return;
    }
    if (r->kind != UCMPI_REQ_RECV || r->p2p.world_peer < 0 ||
        ucmpi_request_is_complete(r) || !ucmpi_peer_failed(r->p2p.world_peer))
        return;
    ucmpi_lock();
    if (!ucmpi_request_is_complete(r)) {
        r->status.MPI_ERROR = MPI_ERR_PROC_FAILED;
        ucmpi_ucx_cancel(r);
    }
    ucmpi_unlock();
}
