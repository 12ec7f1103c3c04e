/* Star barrier: all send the root a zero-byte message and wait for its reply;
 * each first message goes to the root, as the count-0 rule needs. */
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
