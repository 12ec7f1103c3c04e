/* Segmented ring allreduce (large, commutative): rs_ring_seg.c's pipeline in
 * rbuf, no vector-sized temporary, then ring allgather (same bits on all). */
#include "coll/allreduce/allreduce.h"
#include "coll/reduce_scatter/reduce_scatter.h"

/* Member r holds block r+1 reduced: in step k it receives block r-k and
 * sends block r+1-k. */
static int allgather(ucmpi_sched_t *s, const ucmpi_coll_grp_t *g,
                     void *rbuf, const MPI_Count *counts,
                     const MPI_Count *displs, MPI_Datatype dt)
{
    int n = g->size, r = g->rank, rc = MPI_SUCCESS;
    int right = ucmpi_coll_grp_peer(g, ucmpi_coll_ring_right(r, n));
    int left = ucmpi_coll_grp_peer(g, ucmpi_coll_ring_left(r, n));

    for (int k = 0; k < n - 1 && rc == MPI_SUCCESS; k++) {
        int sb = (r + 1 - k + n) % n, rb = (r - k + n) % n;
        rc = ucmpi_sched_recv_exact(s, ucmpi_coll_at(rbuf, displs[rb], dt),
                                    counts[rb], dt, left);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_send(s, ucmpi_coll_at(rbuf, displs[sb], dt),
                                  counts[sb], dt, right);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    return rc;
}

int ucmpi_allreduce_ring_seg(ucmpi_sched_t *s, const void *mine, void *rbuf,
                             MPI_Count count, MPI_Datatype dt, MPI_Op op,
                             const ucmpi_coll_grp_t *g)
{
    int n = g->size, rc;
    /* n block counts, then their n+1 displacements */
    MPI_Count *c = ucmpi_sched_alloc(s, (2 * (size_t)n + 1) * sizeof(*c));
    MPI_Count off;

    if (c == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++)
        ucmpi_coll_block(count, n, i, &off, &c[i]);
    ucmpi_rs_displs(c, n, c + n);
    rc = ucmpi_rs_ring_seg_rounds(s, mine, rbuf, c, c + n, dt, op, g, 1);
    return rc == MPI_SUCCESS ? allgather(s, g, rbuf, c, c + n, dt) : rc;
}
