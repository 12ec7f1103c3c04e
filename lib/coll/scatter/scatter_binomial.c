/* Binomial scatter: ranks relative to the root (vr); the root packs the
 * blocks in vr order, each vr receives the packed blocks of its subtree
 * [vr, vr + lowbit(vr)) from its parent and hands the upper halves on to
 * its children vr + 2^k, largest first.  ceil(log2 n) rounds, any n. */
#include "coll/scatter/scatter.h"

static int lowbit(int v) { return v & -v; }

int ucmpi_scatter_binomial(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    int n = a->size, root = a->root, vr = (a->rank - root + n) % n;
    int is_root = vr == 0, sub, top, rc;
    size_t bs = is_root ? (size_t)(a->scount * a->sdt->size)
                        : (size_t)(a->rcount * a->rdt->size);
    char *tmp;

    /* empty blocks still travel down the tree: a root that cannot send
     * (ucmpi_sched_poison) reaches every rank the same way whether the
     * others' blocks are empty or not */
    if (n == 1)
        return ucmpi_scatter_linear(s, a);
    sub = is_root ? n : (lowbit(vr) < n - vr ? lowbit(vr) : n - vr);
    tmp = ucmpi_sched_alloc(s, (size_t)sub * bs);
    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    if (is_root) {
        /* vr order: ranks root..n-1, then 0..root-1 */
        rc = ucmpi_sched_copy(s, ucmpi_xfer_at(a->sbuf, root, a->scount,
                                               a->sdt),
                              (MPI_Count)(n - root) * a->scount, a->sdt, tmp,
                              (MPI_Count)(n - root) * bs, MPI_BYTE);
        if (rc == MPI_SUCCESS && root > 0)
            rc = ucmpi_sched_copy(s, a->sbuf, (MPI_Count)root * a->scount,
                                  a->sdt, tmp + (size_t)(n - root) * bs,
                                  (MPI_Count)root * bs, MPI_BYTE);
    } else {
        /* exact: see ucmpi_sched_poison */
        rc = ucmpi_sched_recv_exact(s, tmp, (MPI_Count)sub * bs, MPI_BYTE,
                                    (vr - lowbit(vr) + root) % n);
    }
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    for (top = 1; top < sub; top <<= 1)
        ;
    for (int m = top >> 1; m >= 1 && rc == MPI_SUCCESS; m >>= 1) {
        if (m >= sub)
            continue;
        int cnt = sub - m < m ? sub - m : m;
        rc = ucmpi_sched_send(s, tmp + (size_t)m * bs, (MPI_Count)cnt * bs,
                              MPI_BYTE, (vr + m + root) % n);
    }
    if (rc == MPI_SUCCESS && !(is_root && a->rbuf == MPI_IN_PLACE))
        rc = ucmpi_sched_copy(s, tmp, bs, MPI_BYTE, a->rbuf, a->rcount,
                              a->rdt);
    return rc;
}
