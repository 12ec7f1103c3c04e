/* Binomial gather: ranks are renumbered relative to the root (vr); vr
 * collects the packed blocks of its subtree [vr, vr + lowbit(vr)) from its
 * children vr + 2^k, then forwards them to its parent vr - lowbit(vr) in
 * one message.  ceil(log2 n) rounds, any n. */
#include "coll/gather/gather.h"

static int lowbit(int v) { return v & -v; }

int ucmpi_gather_binomial(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    int n = a->size, root = a->root, vr = (a->rank - root + n) % n;
    int is_root = vr == 0, sub, rc = MPI_SUCCESS;
    size_t bs = is_root ? (size_t)(a->rcount * a->rdt->size)
                        : (size_t)(a->scount * a->sdt->size);
    char *tmp;

    /* empty blocks still travel up the tree: a rank whose own block is
     * unknown (its count or type failed a check, gather.c) runs the same
     * steps whatever the others' block size */
    if (n == 1)
        return ucmpi_gather_linear(s, a);
    sub = is_root ? n : (lowbit(vr) < n - vr ? lowbit(vr) : n - vr);
    tmp = ucmpi_sched_alloc(s, (size_t)sub * bs);
    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    if (is_root && a->sbuf == MPI_IN_PLACE)
        rc = ucmpi_sched_copy(s, ucmpi_xfer_at(a->rbuf, root, a->rcount,
                                               a->rdt),
                              a->rcount, a->rdt, tmp, bs, MPI_BYTE);
    else
        rc = ucmpi_sched_copy(s, a->sbuf, a->scount, a->sdt, tmp, bs,
                              MPI_BYTE);
    for (int m = 1; m < sub && rc == MPI_SUCCESS; m <<= 1) {
        int cnt = sub - m < m ? sub - m : m;
        /* exact: an erring rank's empty message is an error */
        rc = ucmpi_sched_recv_exact(s, tmp + (size_t)m * bs,
                                    (MPI_Count)cnt * bs, MPI_BYTE,
                                    (vr + m + root) % n);
    }
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!is_root)
        return ucmpi_sched_send(s, tmp, (MPI_Count)sub * bs, MPI_BYTE,
                                (vr - lowbit(vr) + root) % n);
    /* tmp holds ranks root..n-1 then 0..root-1 */
    rc = ucmpi_sched_copy(s, tmp, (MPI_Count)(n - root) * bs, MPI_BYTE,
                          ucmpi_xfer_at(a->rbuf, root, a->rcount, a->rdt),
                          (MPI_Count)(n - root) * a->rcount, a->rdt);
    if (rc == MPI_SUCCESS && root > 0)
        rc = ucmpi_sched_copy(s, tmp + (size_t)(n - root) * bs,
                              (MPI_Count)root * bs, MPI_BYTE, a->rbuf,
                              (MPI_Count)root * a->rcount, a->rdt);
    return rc;
}
