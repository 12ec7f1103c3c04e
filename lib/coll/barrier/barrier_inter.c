/* Intercommunicator barrier: local fan-in, the leaders (local rank 0) swap a
 * signal, local fan-out, so nobody leaves before both groups entered. */
#include "coll/barrier/barrier.h"

int ucmpi_barrier_inter(ucmpi_sched_t *s, ucmpi_comm_t *comm,
                        ucmpi_comm_t *local)
{
    ucmpi_coll_grp_t lg = ucmpi_coll_grp_comm(local);
    int rc = ucmpi_sched_set_comm(s, local);

    if (rc == MPI_SUCCESS)
        rc = ucmpi_barrier_fan(s, &lg, 2, 1);
    if (rc == MPI_SUCCESS && lg.rank == 0) {
        ucmpi_sched_set_comm(s, comm);
        rc = ucmpi_sched_send(s, NULL, 0, MPI_BYTE, 0);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_recv(s, NULL, 0, MPI_BYTE, 0);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
        ucmpi_sched_set_comm(s, local);
    }
    if (rc == MPI_SUCCESS)
        rc = ucmpi_barrier_fan(s, &lg, 2, 0);
    return rc;
}
