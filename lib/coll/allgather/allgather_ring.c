/* Ring allgather(v): n-1 rounds between user buffers; round 0 copies the own
 * block in after posting its send, overlapping the peer's receive. */
#include "coll/allgather/allgather.h"

int ucmpi_allgather_ring(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    int n = a->size, r = a->rank, right = (r + 1) % n, left = (r + n - 1) % n;
    const ucmpi_xblk_t *b = a->rblk ? a->rblk
                                    : ucmpi_xblk_uniform(s, n, a->rbuf,
                                                         a->rcount, a->rdt);
    ucmpi_xblk_t own;
    int rc = MPI_SUCCESS;

    if (b == NULL)
        return MPI_ERR_NO_MEM;
    own = b[r];
    if (a->sbuf != MPI_IN_PLACE)
        own = (ucmpi_xblk_t){(char *)a->sbuf, a->scount, a->sdt};
    for (int i = 0; i < n - 1 && rc == MPI_SUCCESS; i++) {
        const ucmpi_xblk_t *out = i == 0 ? &own : &b[(r - i + n) % n];
        const ucmpi_xblk_t *in = &b[(r - i - 1 + 2 * n) % n];

        if (ucmpi_xblk_bytes(in))
            rc = ucmpi_sched_recv_exact(s, in->buf, in->count, in->dt, left);
        if (rc == MPI_SUCCESS && ucmpi_xblk_bytes(out))
            rc = ucmpi_sched_send(s, out->buf, out->count, out->dt, right);
        if (rc == MPI_SUCCESS && i == 0)
            rc = ucmpi_allgather_own(s, a, &b[r]);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    if (rc == MPI_SUCCESS && n == 1)
        rc = ucmpi_allgather_own(s, a, &b[r]);
    return rc;
}
