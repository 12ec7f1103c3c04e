/* Dissemination barrier: round i signals member + 2^i, waits for member - 2^i;
 * ceil(log2 n) rounds for any n, after which all heard from all. */
#include "coll/barrier/barrier.h"

int ucmpi_barrier_dissemination(ucmpi_sched_t *s, const ucmpi_coll_grp_t *g)
{
    int n = g->size, me = g->rank, rc = MPI_SUCCESS;

    for (int d = 1; d < n && rc == MPI_SUCCESS; d *= 2) {
        int to = (me + d) % n, from = (me - d + n) % n;
        rc = ucmpi_sched_recv(s, NULL, 0, MPI_BYTE, ucmpi_coll_grp_peer(g, from));
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_send(s, NULL, 0, MPI_BYTE, ucmpi_coll_grp_peer(g, to));
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    return rc;
}
