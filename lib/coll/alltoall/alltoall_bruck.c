/* Bruck alltoall: round k sends the blocks with bit k set to r+k; ceil(log2 n)
 * rounds of about n/2 blocks, latency-optimal for small blocks. */
#include "coll/alltoall/alltoall.h"

int ucmpi_alltoall_bruck(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    int n = a->size, r = a->rank, rc;
    size_t bs = (size_t)(a->rcount * a->rdt->size);
    const void *src = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    MPI_Count scount = a->sbuf == MPI_IN_PLACE ? a->rcount : a->scount;
    MPI_Datatype sdt = a->sbuf == MPI_IN_PLACE ? a->rdt : a->sdt;
    char *tmp, *stmp, *rtmp;

    if (bs == 0)
        return MPI_SUCCESS;
    tmp = ucmpi_sched_alloc(s, (size_t)n * bs);
    stmp = ucmpi_sched_alloc(s, (size_t)(n / 2 + 1) * bs);
    rtmp = ucmpi_sched_alloc(s, (size_t)(n / 2 + 1) * bs);
    if (tmp == NULL || stmp == NULL || rtmp == NULL)
        return MPI_ERR_NO_MEM;
    rc = ucmpi_xfer_rotate(s, tmp, bs, (void *)src, scount, sdt, n, r, 1);
    /* local steps of a round run in order before its sends are posted:
     * unpack round k/2, pack round k, then send (sched.h) */
    for (int k = 1; k < n && rc == MPI_SUCCESS; k <<= 1) {
        int j = 0;

        for (int i = k; i < n && rc == MPI_SUCCESS; i++)
            if (i & k)
                rc = ucmpi_sched_copy(s, tmp + (size_t)i * bs, bs, MPI_BYTE,
                                      stmp + (size_t)j++ * bs, bs, MPI_BYTE);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_send(s, stmp, (MPI_Count)j * bs, MPI_BYTE,
                                  (r + k) % n);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_recv_exact(s, rtmp, (MPI_Count)j * bs, MPI_BYTE,
                                        (r - k + n) % n);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
        j = 0;
        for (int i = k; i < n && rc == MPI_SUCCESS; i++)
            if (i & k)
                rc = ucmpi_sched_copy(s, rtmp + (size_t)j++ * bs, bs,
                                      MPI_BYTE, tmp + (size_t)i * bs, bs,
                                      MPI_BYTE);
    }
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        rc = ucmpi_sched_copy(s, tmp + (size_t)i * bs, bs, MPI_BYTE,
                              ucmpi_xfer_at(a->rbuf, (r - i + n) % n,
                                            a->rcount, a->rdt),
                              a->rcount, a->rdt);
    return rc;
}
