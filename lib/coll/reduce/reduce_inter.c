/* Intercommunicator reduce: the non-root group reduces to its local rank
 * 0, which sends the result to the root (MPI_ROOT) of the other group. */
#include "coll/reduce/reduce.h"

int ucmpi_reduce_inter(ucmpi_sched_t *s, ucmpi_comm_t *comm,
                       ucmpi_comm_t *local, const void *sbuf, void *rbuf,
                       MPI_Count count, MPI_Datatype dt, MPI_Op op,
                       int root)
{
    ucmpi_coll_grp_t lg;
    void *tmp = NULL;
    int rc;

    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    /* both groups sign with the root's rank in its group: a group that
     * names another root never takes the root's messages */
    ucmpi_sched_shape(s, (unsigned)(root == MPI_ROOT ? comm->rank : root));
    if (root == MPI_ROOT) {
        rc = ucmpi_sched_recv(s, rbuf, count, dt, 0);
        return rc == MPI_SUCCESS ? ucmpi_sched_fence(s) : rc;
    }
    lg = ucmpi_coll_grp_comm(local);
    if (lg.rank == 0 && (tmp = ucmpi_coll_tmpbuf(s, count, dt)) == NULL)
        return MPI_ERR_NO_MEM;
    rc = ucmpi_sched_set_comm(s, local);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_reduce_tree(s, sbuf, tmp, count, dt, op, 0, &lg, 2);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_set_comm(s, comm);
    if (rc == MPI_SUCCESS && lg.rank == 0) {
        rc = ucmpi_sched_send(s, tmp, count, dt, root);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    return rc;
}
