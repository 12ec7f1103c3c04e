/* Node-aware allreduce: reduce to node leaders, allreduce among them, bcast in
 * nodes; one member per node crosses the network (groups: coll.h).  Large
 * commutative vectors take the segmented ring over the ranks grouped by
 * node instead: bandwidth-optimal, and it crosses the network twice per
 * node boundary rather than at every step of a scattered ring. */
#include "coll/allreduce/allreduce.h"
#include "coll/bcast/bcast.h"
#include "coll/coll.h"
#include "coll/coll_hier.h"
#include "coll/coll_tune.h"
#include "coll/reduce/reduce.h"

int ucmpi_allreduce_hierarchical(ucmpi_sched_t *s, ucmpi_comm_t *comm,
                                 const void *mine, void *rbuf,
                                 MPI_Count count, MPI_Datatype dt, MPI_Op op)
{
    const ucmpi_coll_layout_t *l = ucmpi_coll_layout(comm);
    ucmpi_coll_grp_t node, leaders;
    int rc;

    if (l == NULL)
        return MPI_ERR_NO_MEM;
    if (op->commute && count >= comm->size &&
        (size_t)(count * dt->size) >=
            ucmpi_thr(UCMPI_THR_ALLREDUCE_RING_MIN_BYTES)) {
        ucmpi_coll_grp_t all = ucmpi_hier_all(l);
        return ucmpi_allreduce_ring_seg(s, mine, rbuf, count, dt, op, &all);
    }
    node.map = l->members + l->node_first[l->my_node];
    node.size = l->node_first[l->my_node + 1] - l->node_first[l->my_node];
    node.rank = l->my_index;
    leaders.map = l->leaders;
    leaders.size = l->nnodes;
    leaders.rank = l->my_node;

    rc = ucmpi_reduce_tree(s, mine, rbuf, count, dt, op, 0, &node, 2);
    if (rc == MPI_SUCCESS && node.rank == 0 && leaders.size > 1)
        rc = ucmpi_allreduce_recdbl(s, rbuf, rbuf, count, dt, op, &leaders);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_bcast_tree(s, rbuf, count, dt, 0, &node, 2);
    return rc;
}
