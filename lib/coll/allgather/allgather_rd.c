/* Recursive-doubling allgather for any n: ranks p+i fold into i (p = pof2)
 * and get the result back; log2(p) + 2 rounds, in the receive buffer. */
#include "coll/allgather/allgather.h"

/* Blocks [lo, hi) of the receive buffer as one run of rcount x rdt. */
static int run_op(ucmpi_sched_t *s, const ucmpi_coll_args_t *a, int send,
                  int lo, int hi, int peer)
{
    char *p = ucmpi_xfer_at(a->rbuf, lo, a->rcount, a->rdt);
    MPI_Count cnt = (MPI_Count)(hi - lo) * a->rcount;

    if (hi <= lo)
        return MPI_SUCCESS;
    return send ? ucmpi_sched_send(s, p, cnt, a->rdt, peer)
                : ucmpi_sched_recv_exact(s, p, cnt, a->rdt, peer);
}

/* The blocks a group [base, base+m) of ranks < p holds: its own range and
 * the folded range of its partners above p. */
static int group_op(ucmpi_sched_t *s, const ucmpi_coll_args_t *a, int send,
                    int base, int m, int p, int extra, int peer)
{
    int rc = run_op(s, a, send, base, base + m, peer);
    int ehi = base + m < extra ? base + m : extra;

    if (rc == MPI_SUCCESS)
        rc = run_op(s, a, send, base + p, ehi + p, peer);
    return rc;
}

int ucmpi_allgather_recursive_doubling(ucmpi_sched_t *s,
                                       const ucmpi_coll_args_t *a)
{
    int n = a->size, r = a->rank, p = ucmpi_coll_pof2_floor(n), extra, rc;
    ucmpi_xblk_t mine = {ucmpi_xfer_at(a->rbuf, r, a->rcount, a->rdt),
                         a->rcount, a->rdt};

    if (a->rcount * a->rdt->size == 0)
        return MPI_SUCCESS;
    extra = n - p;
    rc = ucmpi_allgather_own(s, a, &mine);   /* runs before round-0 sends */
    if (rc != MPI_SUCCESS)
        return rc;
    if (r >= p) {
        rc = run_op(s, a, 1, r, r + 1, r - p);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
        return rc ? rc : run_op(s, a, 0, 0, n, r - p);
    }
    if (r < extra) {
        rc = run_op(s, a, 0, r + p, r + p + 1, r + p);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    for (int m = 1; m < p && rc == MPI_SUCCESS; m <<= 1) {
        int peer = r ^ m, base = r & ~(m - 1), pbase = peer & ~(m - 1);

        rc = group_op(s, a, 1, base, m, p, extra, peer);
        if (rc == MPI_SUCCESS)
            rc = group_op(s, a, 0, pbase, m, p, extra, peer);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    if (rc == MPI_SUCCESS && r < extra)
        rc = run_op(s, a, 1, 0, n, r + p);
    return rc;
}
