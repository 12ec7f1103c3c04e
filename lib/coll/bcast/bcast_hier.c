/* Node-aware bcast: small messages go root -> one head per node (a tree
 * across nodes), then a tree in each node; large ones take the pipelined
 * chain over the ranks grouped by node, which crosses the network once per
 * node and keeps every link busy. */
#include "coll/bcast/bcast.h"
#include "coll/coll_hier.h"

int ucmpi_bcast_hier(ucmpi_sched_t *s, ucmpi_comm_t *comm, void *buf,
                     MPI_Count count, MPI_Datatype dt, int root,
                     size_t chain_min, size_t seg)
{
    const ucmpi_coll_layout_t *l = ucmpi_coll_layout(comm);
    ucmpi_coll_grp_t heads, node;
    int rnode, rc = MPI_SUCCESS;

    if (l == NULL)
        return MPI_ERR_NO_MEM;
    if ((size_t)(count * dt->size) >= chain_min) {
        ucmpi_coll_grp_t all = ucmpi_hier_all(l);
        return ucmpi_bcast_chain(s, buf, count, dt, ucmpi_hier_pos(l, root),
                                 &all, seg);
    }
    if ((rnode = ucmpi_hier_heads(s, l, root, &heads)) < 0)
        return MPI_ERR_NO_MEM;
    node = ucmpi_hier_node(l);
    if (heads.rank >= 0 && heads.size > 1) {
        rc = ucmpi_bcast_tree(s, buf, count, dt, rnode, &heads, 2);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    if (rc == MPI_SUCCESS && node.size > 1)
        rc = ucmpi_bcast_tree(s, buf, count, dt,
                              l->my_node == rnode
                                  ? ucmpi_hier_pos(l, root) -
                                        l->node_first[rnode]
                                  : 0,
                              &node, 2);
    return rc;
}
