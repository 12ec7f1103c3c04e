/* Intercommunicator allreduce: reduce to local rank 0, leaders swap, each
 * group broadcasts the other's result. */
#include "coll/allreduce/allreduce.h"
#include "coll/bcast/bcast.h"
#include "coll/reduce/reduce.h"

int ucmpi_allreduce_inter(ucmpi_sched_t *s, ucmpi_comm_t *comm,
                          ucmpi_comm_t *local, const void *sbuf, void *rbuf,
                          MPI_Count count, MPI_Datatype dt, MPI_Op op)
{
    ucmpi_coll_grp_t lg = ucmpi_coll_grp_comm(local);
    void *tmp = NULL;
    int rc;

    if (lg.rank == 0 && (tmp = ucmpi_coll_tmpbuf(s, count, dt)) == NULL)
        return MPI_ERR_NO_MEM;
    rc = ucmpi_sched_set_comm(s, local);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_reduce_tree(s, sbuf, tmp, count, dt, op, 0, &lg, 2);
    if (rc == MPI_SUCCESS && lg.rank == 0) {
        ucmpi_sched_set_comm(s, comm);
        rc = ucmpi_allreduce_xchg(s, tmp, count, rbuf, count, dt, 0, 0);
        ucmpi_sched_set_comm(s, local);
    }
    if (rc == MPI_SUCCESS)
        rc = ucmpi_bcast_tree(s, rbuf, count, dt, 0, &lg, 2);
    return rc;
}
