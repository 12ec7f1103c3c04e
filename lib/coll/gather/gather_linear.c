/* Linear gather(v) and scatter(v) in one round: small comms, large blocks,
 * and the intercommunicator form. */
#include "coll/gather/gather.h"

/* A message even for an empty block: a failed root knows what to drain, or
 * its empty ones fail the others' exact receives. */
static int rooted_linear(ucmpi_sched_t *s, const ucmpi_coll_args_t *a,
                         int gather)
{
    ucmpi_comm_t *c = a->comm;
    ucmpi_xblk_t own = gather ? (ucmpi_xblk_t){(char *)a->sbuf, a->scount,
                                               a->sdt}
                              : (ucmpi_xblk_t){a->rbuf, a->rcount, a->rdt};
    const ucmpi_xblk_t *blk = gather ? a->rblk : a->sblk;
    int rc = MPI_SUCCESS;

    if (!ucmpi_xfer_is_root(c, a->root))
        return a->root == MPI_PROC_NULL
                   ? MPI_SUCCESS : ucmpi_xblk_move(s, &own, gather, a->root);
    if (blk == NULL)
        blk = gather ? ucmpi_xblk_uniform(s, c->remote_size, a->rbuf,
                                          a->rcount, a->rdt)
                     : ucmpi_xblk_uniform(s, c->remote_size, a->sbuf,
                                          a->scount, a->sdt);
    if (blk == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < c->remote_size && rc == MPI_SUCCESS; i++) {
        const ucmpi_xblk_t *b = &blk[i];

        if (c->is_inter || i != c->rank)
            rc = ucmpi_xblk_move(s, b, !gather, i);
        else if (own.buf != MPI_IN_PLACE && ucmpi_xblk_bytes(b) > 0)
            rc = gather ? ucmpi_sched_copy(s, own.buf, own.count, own.dt,
                                           b->buf, b->count, b->dt)
                        : ucmpi_sched_copy(s, b->buf, b->count, b->dt,
                                           own.buf, own.count, own.dt);
    }
    return rc;
}

int ucmpi_gather_linear(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return rooted_linear(s, a, 1);
}

int ucmpi_scatter_linear(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return rooted_linear(s, a, 0);
}
