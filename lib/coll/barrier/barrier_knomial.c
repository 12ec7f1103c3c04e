/* K-nomial barrier: fan-in to member 0 and back out over a radix-k tree;
 * 2 log_k(n) rounds, fewer than dissemination when k > 2. */
#include "coll/barrier/barrier.h"

#define MAX_CHILDREN 256

int ucmpi_barrier_fan(ucmpi_sched_t *s, const ucmpi_coll_grp_t *g, int k,
                      int in)
{
    int children[MAX_CHILDREN];
    int parent = ucmpi_coll_knomial_parent(g->rank, g->size, k);
    int nc = ucmpi_coll_knomial_children(g->rank, g->size, k, children,
                                         MAX_CHILDREN);
    int rc = MPI_SUCCESS;

    for (int i = 0; in && i < nc && rc == MPI_SUCCESS; i++)
        rc = ucmpi_sched_recv(s, NULL, 0, MPI_BYTE,
                              ucmpi_coll_grp_peer(g, children[i]));
    if (!in && parent >= 0)
        rc = ucmpi_sched_recv(s, NULL, 0, MPI_BYTE,
                              ucmpi_coll_grp_peer(g, parent));
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    if (in && parent >= 0 && rc == MPI_SUCCESS)
        rc = ucmpi_sched_send(s, NULL, 0, MPI_BYTE,
                              ucmpi_coll_grp_peer(g, parent));
    for (int i = nc - 1; !in && i >= 0 && rc == MPI_SUCCESS; i--)
        rc = ucmpi_sched_send(s, NULL, 0, MPI_BYTE,
                              ucmpi_coll_grp_peer(g, children[i]));
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    return rc;
}

int ucmpi_barrier_knomial(ucmpi_sched_t *s, const ucmpi_coll_grp_t *g, int k)
{
    int rc = ucmpi_barrier_fan(s, g, k, 1);

    return rc == MPI_SUCCESS ? ucmpi_barrier_fan(s, g, k, 0) : rc;
}
