/* Node-aware reduce: each node reduces to its head (the root on the root's
 * node, else its leader), then the heads reduce to the root; one message
 * per node crosses the network.  Non-commutative ops keep rank order only
 * when every node is a block of consecutive ranks (the caller checks).
 * Large commutative reductions take the chain over the ranks grouped by
 * node instead: the vector once per link, pipelined. */
#include "coll/reduce/reduce.h"
#include "coll/coll_hier.h"

int ucmpi_reduce_hier(ucmpi_sched_t *s, ucmpi_comm_t *comm, const void *mine,
                      void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op,
                      int root, size_t chain_min, size_t seg)
{
    const ucmpi_coll_layout_t *l = ucmpi_coll_layout(comm);
    ucmpi_coll_grp_t heads, node;
    int rnode, rc;
    void *part;

    if (l == NULL)
        return MPI_ERR_NO_MEM;
    if (op->commute && (size_t)(count * dt->size) >= chain_min) {
        ucmpi_coll_grp_t all = ucmpi_hier_all(l);
        return ucmpi_reduce_chain(s, mine, rbuf, count, dt, op,
                                  ucmpi_hier_pos(l, root), &all, seg);
    }
    if ((rnode = ucmpi_hier_heads(s, l, root, &heads)) < 0)
        return MPI_ERR_NO_MEM;
    node = ucmpi_hier_node(l);
    /* a head's node result: rbuf at the root, scratch elsewhere (a
     * non-root's rbuf is not significant) */
    part = comm->rank == root ? rbuf
           : heads.rank >= 0  ? ucmpi_coll_tmpbuf(s, count, dt)
                              : rbuf;
    if (part == NULL && heads.rank >= 0)
        return MPI_ERR_NO_MEM;
    if (node.size > 1) {
        int head = l->my_node == rnode
                       ? ucmpi_hier_pos(l, root) - l->node_first[rnode] : 0;
        rc = ucmpi_reduce_tree(s, mine, part, count, dt, op, head, &node, 2);
    } else {
        rc = part == mine ? MPI_SUCCESS
                          : ucmpi_sched_copy(s, mine, count, dt, part, count,
                                             dt);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    if (rc == MPI_SUCCESS && heads.rank >= 0 && heads.size > 1)
        rc = ucmpi_reduce_tree(s, part, part, count, dt, op, rnode, &heads,
                               2);
    return rc;
}
