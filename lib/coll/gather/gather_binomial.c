/* Binomial gather/scatter: vr's subtree travels packed with vr - lowbit(vr);
 * empty blocks travel too, so a failed (poisoned) rank runs the same steps. */
#include "coll/gather/gather.h"

static int lowbit(int v) { return v & -v; }

static int rooted_binomial(ucmpi_sched_t *s, const ucmpi_coll_args_t *a,
                           int gather)
{
    int n = a->size, root = a->root, vr = (a->rank - root + n) % n;
    int is_root = vr == 0, parent = (vr - lowbit(vr) + root) % n;
    int sub = is_root ? n : (lowbit(vr) < n - vr ? lowbit(vr) : n - vr);
    int nch = 0, rc;
    /* the root's side at the root, the own block elsewhere */
    size_t bs = is_root == gather ? (size_t)(a->rcount * a->rdt->size)
                                  : (size_t)(a->scount * a->sdt->size);
    char *tmp;

    if (n == 1)
        return gather ? ucmpi_gather_linear(s, a) : ucmpi_scatter_linear(s, a);
    tmp = ucmpi_sched_alloc(s, (size_t)sub * bs);
    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    while ((1 << nch) < sub)
        nch++;
    if (gather && is_root && a->sbuf == MPI_IN_PLACE)
        rc = ucmpi_sched_copy(s, ucmpi_xfer_at(a->rbuf, root, a->rcount,
                                               a->rdt),
                              a->rcount, a->rdt, tmp, bs, MPI_BYTE);
    else if (gather)
        rc = ucmpi_sched_copy(s, a->sbuf, a->scount, a->sdt, tmp, bs,
                              MPI_BYTE);
    else if (is_root)   /* vr order: ranks root..n-1, then 0..root-1 */
        rc = ucmpi_xfer_rotate(s, tmp, bs, (void *)a->sbuf, a->scount,
                               a->sdt, n, root, 1);
    else                /* exact: see ucmpi_sched_poison */
        rc = ucmpi_sched_recv_exact(s, tmp, (MPI_Count)sub * bs, MPI_BYTE,
                                    parent);
    if (rc == MPI_SUCCESS && !gather)
        rc = ucmpi_sched_fence(s);
    for (int i = 0; i < nch && rc == MPI_SUCCESS; i++) {
        int m = 1 << (gather ? i : nch - 1 - i);
        ucmpi_xblk_t b = {tmp + (size_t)m * bs,
                          (MPI_Count)(sub - m < m ? sub - m : m) * bs,
                          MPI_BYTE};

        /* exact: an erring rank's empty message is an error */
        rc = ucmpi_xblk_move(s, &b, !gather, (vr + m + root) % n);
    }
    if (rc == MPI_SUCCESS && gather)
        rc = ucmpi_sched_fence(s);
    if (rc != MPI_SUCCESS || (!gather && is_root && a->rbuf == MPI_IN_PLACE))
        return rc;
    if (!gather)
        return ucmpi_sched_copy(s, tmp, bs, MPI_BYTE, a->rbuf, a->rcount,
                                a->rdt);
    if (!is_root)
        return ucmpi_sched_send(s, tmp, (MPI_Count)sub * bs, MPI_BYTE,
                                parent);
    return ucmpi_xfer_rotate(s, tmp, bs, a->rbuf, a->rcount, a->rdt, n, root,
                             0);
}

int ucmpi_gather_binomial(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return rooted_binomial(s, a, 1);
}

int ucmpi_scatter_binomial(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return rooted_binomial(s, a, 0);
}
