/* Ring allgather(v): in round i every rank passes block (rank - i) to its
 * right neighbour and takes block (rank - i - 1) from its left one.
 * Bandwidth-optimal, n-1 rounds; data moves straight between user
 * buffers. */
#include "coll/allgather/allgather.h"

int ucmpi_allgather_ring(ucmpi_sched_t *s, const ucmpi_xfer_args_t *a)
{
    int n = a->size, r = a->rank, right = (r + 1) % n, left = (r + n - 1) % n;
    const ucmpi_xblk_t *b = a->rblk ? a->rblk
                                    : ucmpi_xblk_uniform(s, n, a->rbuf,
                                                         a->rcount, a->rdt);
    int rc;

    if (b == NULL)
        return MPI_ERR_NO_MEM;
    /* the copy runs before the round's first send is posted */
    rc = ucmpi_allgather_own(s, a, &b[r]);
    for (int i = 0; i < n - 1 && rc == MPI_SUCCESS; i++) {
        const ucmpi_xblk_t *out = &b[(r - i + n) % n];
        const ucmpi_xblk_t *in = &b[(r - i - 1 + 2 * n) % n];

        if (ucmpi_xblk_bytes(out))
            rc = ucmpi_sched_send(s, out->buf, out->count, out->dt, right);
        if (rc == MPI_SUCCESS && ucmpi_xblk_bytes(in))
            rc = ucmpi_sched_recv(s, in->buf, in->count, in->dt, left);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    return rc;
}
