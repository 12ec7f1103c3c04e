/* Intercommunicator bcast: the root (MPI_ROOT) sends to rank 0 of the
 * remote group, which broadcasts over its local communicator. */
#include "coll/bcast/bcast.h"

int ucmpi_bcast_inter(ucmpi_sched_t *s, ucmpi_comm_t *comm,
                      ucmpi_comm_t *local, void *buf, MPI_Count count,
                      MPI_Datatype dt, int root)
{
    ucmpi_coll_grp_t lg;
    int rc = MPI_SUCCESS;

    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    /* both groups sign with the root's rank in its group: a group that
     * names another root never takes the root's messages */
    ucmpi_sched_shape(s, (unsigned)(root == MPI_ROOT ? comm->rank : root));
    if (root == MPI_ROOT)
        return ucmpi_sched_send(s, buf, count, dt, 0);
    lg = ucmpi_coll_grp_comm(local);
    if (lg.rank == 0) {
        rc = ucmpi_sched_recv_exact(s, buf, count, dt, root);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_set_comm(s, local);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_bcast_tree(s, buf, count, dt, 0, &lg, 2);
    return rc;
}
