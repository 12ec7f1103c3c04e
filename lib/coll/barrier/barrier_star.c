/* Star barrier: every other member sends the root a zero-byte message and
 * waits for one from it, in one round.  Each member's first message goes
 * to the root: the shape the count-0 rule needs (coll_util.h). */
#include "coll/barrier/barrier.h"

int ucmpi_barrier_star(ucmpi_sched_t *s, const ucmpi_coll_grp_t *g,
                       int root)
{
    int rc = MPI_SUCCESS;

    if (g->rank != root) {
        rc = ucmpi_sched_recv(s, NULL, 0, MPI_BYTE,
                              ucmpi_coll_grp_peer(g, root));
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_send(s, NULL, 0, MPI_BYTE,
                                  ucmpi_coll_grp_peer(g, root));
        return rc;
    }
    for (int i = 0; i < g->size && rc == MPI_SUCCESS; i++)
        if (i != root)
            rc = ucmpi_sched_recv(s, NULL, 0, MPI_BYTE,
                                  ucmpi_coll_grp_peer(g, i));
    for (int i = 0; i < g->size && rc == MPI_SUCCESS; i++)
        if (i != root)
            rc = ucmpi_sched_send(s, NULL, 0, MPI_BYTE,
                                  ucmpi_coll_grp_peer(g, i));
    return rc;
}
