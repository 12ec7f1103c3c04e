/* Bruck allgather(v), for small blocks: distance k sends the first min(k, n-k)
 * packed blocks to r-k, appends r+k's; ceil(log2 n) rounds, one unpack. */
#include "coll/allgather/allgather.h"

int ucmpi_allgather_bruck(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    int n = a->size, r = a->rank, rc;
    const ucmpi_xblk_t *b = a->rblk ? a->rblk
                                    : ucmpi_xblk_uniform(s, n, a->rbuf,
                                                         a->rcount, a->rdt);
    size_t *off = ucmpi_sched_alloc(s, sizeof(size_t) * (size_t)(n + 1));
    char *tmp;

    if (b == NULL || off == NULL)
        return MPI_ERR_NO_MEM;
    /* off[j]: packed offset of the block of rank (r + j) % n */
    off[0] = 0;
    for (int j = 0; j < n; j++)
        off[j + 1] = off[j] + ucmpi_xblk_bytes(&b[(r + j) % n]);
    if (off[n] == 0)
        return MPI_SUCCESS;
    tmp = ucmpi_sched_alloc(s, off[n]);
    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    if (a->sbuf == MPI_IN_PLACE)
        rc = ucmpi_sched_copy(s, b[r].buf, b[r].count, b[r].dt, tmp, off[1],
                              MPI_BYTE);
    else
        rc = ucmpi_sched_copy(s, a->sbuf, a->scount, a->sdt, tmp, off[1],
                              MPI_BYTE);
    for (int k = 1; k < n && rc == MPI_SUCCESS; k <<= 1) {
        int cnt = n - k < k ? n - k : k;

        if (off[cnt])
            rc = ucmpi_sched_send(s, tmp, off[cnt], MPI_BYTE, (r - k + n) % n);
        if (rc == MPI_SUCCESS && off[k + cnt] - off[k])
            rc = ucmpi_sched_recv_exact(s, tmp + off[k], off[k + cnt] - off[k],
                                        MPI_BYTE, (r + k) % n);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    if (a->rblk == NULL) {
        /* uniform: ranks r..n-1 then 0..r-1 */
        return rc ? rc : ucmpi_xfer_rotate(s, tmp, off[1], a->rbuf, a->rcount,
                                           a->rdt, n, r, 0);
    }
    for (int j = 1; j < n && rc == MPI_SUCCESS; j++) {
        const ucmpi_xblk_t *d = &b[(r + j) % n];

        if (off[j + 1] - off[j])
            rc = ucmpi_sched_copy(s, tmp + off[j], off[j + 1] - off[j],
                                  MPI_BYTE, d->buf, d->count, d->dt);
    }
    if (rc == MPI_SUCCESS && a->sbuf != MPI_IN_PLACE && off[1])
        rc = ucmpi_sched_copy(s, tmp, off[1], MPI_BYTE, b[r].buf, b[r].count,
                              b[r].dt);
    return rc;
}
