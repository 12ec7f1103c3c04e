/* Pairwise reduce-scatter: step i sends to r+i, receives from r-i; commutative
 * ops fold on arrival, others keep all and combine in rank order. */
#include "coll/reduce_scatter/reduce_scatter.h"
#include "coll/allreduce/allreduce.h"
#include "coll/reduce/reduce.h"

int ucmpi_rs_pairwise(ucmpi_sched_t *s, const void *in, void *rbuf,
                      const MPI_Count *counts, MPI_Datatype dt, MPI_Op op,
                      const ucmpi_coll_grp_t *g)
{
    int n = g->size, r = g->rank, commute = op->commute, rc;
    MPI_Count *displs = ucmpi_sched_alloc(s, (n + 1) * sizeof(MPI_Count));
    MPI_Count c = counts[r];
    const void **x = ucmpi_sched_alloc(s, n * sizeof(*x));
    void *acc = ucmpi_coll_tmpbuf(s, c, dt), *tmp = NULL;

    if (displs == NULL || x == NULL || acc == NULL)
        return MPI_ERR_NO_MEM;
    ucmpi_rs_displs(counts, n, displs);
    x[r] = ucmpi_coll_at(in, displs[r], dt);
    rc = commute ? ucmpi_sched_copy(s, x[r], c, dt, acc, c, dt) : MPI_SUCCESS;
    for (int i = 1; i < n && rc == MPI_SUCCESS; i++) {
        int dst = (r + i) % n, src = (r - i + n) % n;
        if (!commute || tmp == NULL)
            tmp = ucmpi_coll_tmpbuf(s, c, dt);
        if (tmp == NULL)
            return MPI_ERR_NO_MEM;
        x[src] = tmp;
        rc = ucmpi_allreduce_xchg(s, ucmpi_coll_at(in, displs[dst], dt),
                                  counts[dst], tmp, c, dt,
                                  ucmpi_coll_grp_peer(g, dst),
                                  ucmpi_coll_grp_peer(g, src));
        if (rc == MPI_SUCCESS && commute)
            rc = ucmpi_sched_reduce(s, tmp, acc, c, dt, op);
    }
    if (rc == MPI_SUCCESS)
        rc = commute ? ucmpi_sched_copy(s, acc, c, dt, rbuf, c, dt)
                     : ucmpi_reduce_ordered(s, x, n, acc, rbuf, c, dt, op);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    return rc;
}
