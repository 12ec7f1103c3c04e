/* Ring allreduce (commutative): ring reduce-scatter then ring allgather; each
 * member moves 2(n-1)/n of the vector whatever n (bandwidth-optimal). */
#include "coll/allreduce/allreduce.h"

int ucmpi_allreduce_ring(ucmpi_sched_t *s, const void *mine, void *rbuf,
                         MPI_Count count, MPI_Datatype dt, MPI_Op op,
                         const ucmpi_coll_grp_t *g)
{
    int n = g->size, r = g->rank, rc = MPI_SUCCESS;
    int right = ucmpi_coll_grp_peer(g, ucmpi_coll_ring_right(r, n));
    int left = ucmpi_coll_grp_peer(g, ucmpi_coll_ring_left(r, n));
    MPI_Count soff, scnt, roff, rcnt;
    void *tmp = ucmpi_coll_tmpbuf(s, count / n + 1, dt);

    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    if (mine != rbuf)
        rc = ucmpi_sched_copy(s, mine, count, dt, rbuf, count, dt);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    for (int k = 0; k < n - 1 && rc == MPI_SUCCESS; k++) {
        ucmpi_coll_block(count, n, (r - k + n) % n, &soff, &scnt);
        ucmpi_coll_block(count, n, (r - k - 1 + 2 * n) % n, &roff, &rcnt);
        rc = ucmpi_allreduce_xchg(s, ucmpi_coll_at(rbuf, soff, dt), scnt, tmp,
                                  rcnt, dt, right, left);
        if (rc == MPI_SUCCESS)   /* runs before the next step's send */
            rc = ucmpi_sched_reduce(s, tmp, ucmpi_coll_at(rbuf, roff, dt),
                                    rcnt, dt, op);
    }
    for (int k = 0; k < n - 1 && rc == MPI_SUCCESS; k++) {
        ucmpi_coll_block(count, n, (r + 1 - k + n) % n, &soff, &scnt);
        ucmpi_coll_block(count, n, (r - k + n) % n, &roff, &rcnt);
        rc = ucmpi_allreduce_xchg(s, ucmpi_coll_at(rbuf, soff, dt), scnt,
                                  ucmpi_coll_at(rbuf, roff, dt), rcnt, dt,
                                  right, left);
    }
    return rc;
}
