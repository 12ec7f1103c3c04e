/* Ring reduce-scatter (commutative, bandwidth-optimal): step k passes block
 * r-k-1's partial right and folds into r-k-2's from the left. */
#include "coll/reduce_scatter/reduce_scatter.h"
#include "coll/allreduce/allreduce.h"

int ucmpi_rs_ring(ucmpi_sched_t *s, const void *in, void *rbuf,
                  const MPI_Count *counts, MPI_Datatype dt, MPI_Op op,
                  const ucmpi_coll_grp_t *g)
{
    int n = g->size, r = g->rank, rc;
    int right = ucmpi_coll_grp_peer(g, ucmpi_coll_ring_right(r, n));
    int left = ucmpi_coll_grp_peer(g, ucmpi_coll_ring_left(r, n));
    MPI_Count *displs = ucmpi_sched_alloc(s, (n + 1) * sizeof(MPI_Count));
    MPI_Count total, maxc = 0;
    void *acc, *tmp;

    if (displs == NULL)
        return MPI_ERR_NO_MEM;
    total = ucmpi_rs_displs(counts, n, displs);
    for (int i = 0; i < n; i++)
        maxc = counts[i] > maxc ? counts[i] : maxc;
    acc = ucmpi_coll_tmpbuf(s, total, dt);
    tmp = ucmpi_coll_tmpbuf(s, maxc, dt);
    if (acc == NULL || tmp == NULL)
        return MPI_ERR_NO_MEM;
    rc = ucmpi_sched_copy(s, in, total, dt, acc, total, dt);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    for (int k = 0; k < n - 1 && rc == MPI_SUCCESS; k++) {
        int sb = (r - k - 1 + 2 * n) % n, rb = (r - k - 2 + 2 * n) % n;
        rc = ucmpi_allreduce_xchg(s, ucmpi_coll_at(acc, displs[sb], dt),
                                  counts[sb], tmp, counts[rb], dt, right, left);
        if (rc == MPI_SUCCESS)   /* runs before the next step's send */
            rc = ucmpi_sched_reduce(s, tmp, ucmpi_coll_at(acc, displs[rb], dt),
                                    counts[rb], dt, op);
    }
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_copy(s, ucmpi_coll_at(acc, displs[r], dt), counts[r],
                              dt, rbuf, counts[r], dt);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    return rc;
}
