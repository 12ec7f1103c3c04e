/* Node-aware barrier: fan-in to each node's leader, a dissemination barrier
 * among the leaders (the only messages across the network), fan-out. */
#include "coll/barrier/barrier.h"
#include "coll/coll_hier.h"

int ucmpi_barrier_hier(ucmpi_sched_t *s, ucmpi_comm_t *comm)
{
    const ucmpi_coll_layout_t *l = ucmpi_coll_layout(comm);
    ucmpi_coll_grp_t node, leaders;
    int rc = MPI_SUCCESS;

    if (l == NULL)
        return MPI_ERR_NO_MEM;
    node = ucmpi_hier_node(l);
    leaders = (ucmpi_coll_grp_t){l->nnodes, l->my_node, l->leaders};
    if (node.size > 1)
        rc = ucmpi_barrier_fan(s, &node, 4, 1);
    if (rc == MPI_SUCCESS && node.rank == 0 && leaders.size > 1)
        rc = ucmpi_barrier_dissemination(s, &leaders);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    if (rc == MPI_SUCCESS && node.size > 1)
        rc = ucmpi_barrier_fan(s, &node, 4, 0);
    return rc;
}
