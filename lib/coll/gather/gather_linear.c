/* Linear gather(v): every rank sends to the root, which receives from all
 * in one round.  Best for small communicators and large blocks, and the
 * intercommunicator form. */
#include "coll/gather/gather.h"

int ucmpi_gather_linear(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *c = a->comm;
    const ucmpi_xblk_t *blk;
    int rc = MPI_SUCCESS;

    /* every rank sends, even an empty block: a root whose arguments
     * failed a check then knows what to drain (gather.c) */
    if (!ucmpi_xfer_is_root(c, a->root)) {
        if (a->root == MPI_PROC_NULL)
            return MPI_SUCCESS;
        return ucmpi_sched_send(s, a->sbuf, a->scount, a->sdt, a->root);
    }
    blk = a->rblk ? a->rblk
                  : ucmpi_xblk_uniform(s, c->remote_size, a->rbuf, a->rcount,
                                       a->rdt);
    if (blk == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < c->remote_size && rc == MPI_SUCCESS; i++) {
        if (!c->is_inter && i == c->rank) {
            if (a->sbuf != MPI_IN_PLACE && ucmpi_xblk_bytes(&blk[i]) > 0)
                rc = ucmpi_sched_copy(s, a->sbuf, a->scount, a->sdt,
                                      blk[i].buf, blk[i].count, blk[i].dt);
            continue;
        }
        /* exact: an erring sender's empty block is an error */
        rc = ucmpi_sched_recv_exact(s, blk[i].buf, blk[i].count, blk[i].dt,
                                    i);
    }
    return rc;
}
