/* Linear scatter(v): the root sends every rank its block in one round. */
#include "coll/scatter/scatter.h"

int ucmpi_scatter_linear(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *c = a->comm;
    const ucmpi_xblk_t *blk;
    int rc = MPI_SUCCESS;

    /* every rank gets a message, even an empty block, and it must fill
     * the receive buffer: a root that cannot send (its arguments failed a
     * check) sends empty ones, which end the others' calls in an error */
    if (!ucmpi_xfer_is_root(c, a->root)) {
        if (a->root == MPI_PROC_NULL)
            return MPI_SUCCESS;
        return ucmpi_sched_recv_exact(s, a->rbuf, a->rcount, a->rdt,
                                      a->root);
    }
    blk = a->sblk ? a->sblk
                  : ucmpi_xblk_uniform(s, c->remote_size, a->sbuf, a->scount,
                                       a->sdt);
    if (blk == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < c->remote_size && rc == MPI_SUCCESS; i++) {
        if (!c->is_inter && i == c->rank) {
            if (a->rbuf != MPI_IN_PLACE && ucmpi_xblk_bytes(&blk[i]) > 0)
                rc = ucmpi_sched_copy(s, blk[i].buf, blk[i].count, blk[i].dt,
                                      a->rbuf, a->rcount, a->rdt);
            continue;
        }
        rc = ucmpi_sched_send(s, blk[i].buf, blk[i].count, blk[i].dt, i);
    }
    return rc;
}
