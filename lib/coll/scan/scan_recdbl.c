/* Recursive-doubling scan: swap partials with rank ^ 2^k; a partner below
 * joins our prefix (left), one above only the partial (right). */
#include "coll/scan/scan.h"

int ucmpi_scan_recdbl(ucmpi_sched_t *s, const void *mine, void *rbuf,
                      MPI_Count count, MPI_Datatype dt, MPI_Op op,
                      const ucmpi_coll_grp_t *g, int exclusive)
{
    int n = g->size, me = g->rank, have_prefix = !exclusive;
    void *partial = ucmpi_coll_tmpbuf(s, count, dt);
    void *tmp = ucmpi_coll_tmpbuf(s, count, dt);
    int rc;

    if (partial == NULL || tmp == NULL)
        return MPI_ERR_NO_MEM;
    rc = ucmpi_sched_copy(s, mine, count, dt, partial, count, dt);
    if (rc == MPI_SUCCESS && !exclusive && mine != rbuf)
        rc = ucmpi_sched_copy(s, mine, count, dt, rbuf, count, dt);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    for (int mask = 1; mask < n && rc == MPI_SUCCESS; mask <<= 1) {
        int dst = me ^ mask;
        if (dst >= n)
            continue;
        rc = ucmpi_sched_send(s, partial, count, dt, ucmpi_coll_grp_peer(g, dst));
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_recv(s, tmp, count, dt, ucmpi_coll_grp_peer(g, dst));
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
        if (rc != MPI_SUCCESS)
            break;
        if (dst < me) {
            rc = ucmpi_sched_reduce(s, tmp, partial, count, dt, op);
            if (rc == MPI_SUCCESS && have_prefix)
                rc = ucmpi_sched_reduce(s, tmp, rbuf, count, dt, op);
            else if (rc == MPI_SUCCESS)
                rc = ucmpi_sched_copy(s, tmp, count, dt, rbuf, count, dt);
            have_prefix = 1;
        } else if (op->commute) {
            rc = ucmpi_sched_reduce(s, tmp, partial, count, dt, op);
        } else {
            rc = ucmpi_sched_reduce(s, partial, tmp, count, dt, op);
            if (rc == MPI_SUCCESS)
                rc = ucmpi_sched_copy(s, tmp, count, dt, partial, count, dt);
        }
        /* tmp is received into again next step: finish using it first */
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    return rc;
}
