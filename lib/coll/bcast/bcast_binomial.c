/* Tree bcast: receive from the parent, then send to the children, largest
 * subtree first so the deepest branch starts earliest.  log_k(n) rounds. */
#include "coll/bcast/bcast.h"

#define MAX_CHILDREN 256

int ucmpi_bcast_tree(ucmpi_sched_t *s, void *buf, MPI_Count count,
                     MPI_Datatype dt, int root, const ucmpi_coll_grp_t *g,
                     int k)
{
    int n = g->size, v = ucmpi_coll_vrank(g->rank, root, n);
    int children[MAX_CHILDREN];
    int parent = ucmpi_coll_knomial_parent(v, n, k);
    int nc = ucmpi_coll_knomial_children(v, n, k, children, MAX_CHILDREN);
    int rc = MPI_SUCCESS;

    if (parent >= 0) {
        rc = ucmpi_sched_recv_exact(s, buf, count, dt,
            ucmpi_coll_grp_peer(g, ucmpi_coll_rank_of(parent, root, n)));
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    for (int i = nc - 1; i >= 0 && rc == MPI_SUCCESS; i--)
        rc = ucmpi_sched_send(s, buf, count, dt,
            ucmpi_coll_grp_peer(g, ucmpi_coll_rank_of(children[i], root, n)));
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    return rc;
}
