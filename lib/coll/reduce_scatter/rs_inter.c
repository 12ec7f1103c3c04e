/* Intercommunicator reduce-scatter: reduce to local rank 0, leaders swap,
 * each scatters the other group's result locally. */
#include "coll/reduce_scatter/reduce_scatter.h"
#include "coll/reduce/reduce.h"

int ucmpi_rs_inter(ucmpi_sched_t *s, ucmpi_comm_t *comm, ucmpi_comm_t *local,
                   const void *sbuf, void *rbuf, const MPI_Count *counts,
                   MPI_Datatype dt, MPI_Op op)
{
    ucmpi_coll_grp_t lg = ucmpi_coll_grp_comm(local);
    int n = lg.size;
    MPI_Count *displs = ucmpi_sched_alloc(s, (n + 1) * sizeof(MPI_Count));
    MPI_Count total;
    void *mine = NULL, *theirs = NULL;
    int rc;

    if (displs == NULL)
        return MPI_ERR_NO_MEM;
    total = ucmpi_rs_displs(counts, n, displs);
    if (lg.rank == 0) {
        mine = ucmpi_coll_tmpbuf(s, total, dt);
        theirs = ucmpi_coll_tmpbuf(s, total, dt);
        if (mine == NULL || theirs == NULL)
            return MPI_ERR_NO_MEM;
    }
    rc = ucmpi_sched_set_comm(s, local);
    if (rc == MPI_SUCCESS && total > 0)
        rc = ucmpi_reduce_tree(s, sbuf, mine, total, dt, op, 0, &lg, 2);
    if (rc == MPI_SUCCESS && lg.rank == 0) {
        ucmpi_sched_set_comm(s, comm);
        rc = ucmpi_sched_send(s, mine, total, dt, 0);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_recv(s, theirs, total, dt, 0);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
        ucmpi_sched_set_comm(s, local);
        for (int i = 1; i < n && rc == MPI_SUCCESS; i++)
            rc = ucmpi_sched_send(s, ucmpi_coll_at(theirs, displs[i], dt),
                                  counts[i], dt, i);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_copy(s, theirs, counts[0], dt, rbuf, counts[0],
                                  dt);
    } else if (rc == MPI_SUCCESS) {
        rc = ucmpi_sched_recv(s, rbuf, counts[lg.rank], dt, 0);
    }
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    return rc;
}
