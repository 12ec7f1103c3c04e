/* A neighbor collective in one round; where both cartesian neighbours of a
 * dimension are one rank, its receives post swapped (2d gets the + send). */
#include "coll/neighbor/neighbor.h"

void ucmpi_neighbor_recv_order(int indeg, const int *srcs, int cart,
                               int *order)
{
    for (int i = 0; i < indeg; i++)
        order[i] = i;
    if (!cart)
        return;
    for (int d = 0; 2 * d + 1 < indeg; d++)
        if (srcs[2 * d] == srcs[2 * d + 1] && srcs[2 * d] != MPI_PROC_NULL) {
            order[2 * d] = 2 * d + 1;
            order[2 * d + 1] = 2 * d;
        }
}

int ucmpi_neighbor_exchange(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    int *order = ucmpi_sched_alloc(s, sizeof(int) *
                                          (size_t)(a->indeg ? a->indeg : 1));
    const ucmpi_xblk_t *rb = a->rblk, *sb = a->sblk;
    int rc = MPI_SUCCESS;

    /* uniform forms: blocks of rcount (scount) one after another; the
     * allgather forms (nsblk == 0) send sbuf itself to everyone */
    if (rb == NULL)
        rb = ucmpi_xblk_uniform(s, a->indeg, a->rbuf, a->rcount, a->rdt);
    if (sb == NULL && a->nsblk > 0)
        sb = ucmpi_xblk_uniform(s, a->outdeg, a->sbuf, a->scount, a->sdt);
    if (order == NULL || rb == NULL || (a->nsblk > 0 && sb == NULL))
        return MPI_ERR_NO_MEM;
    ucmpi_neighbor_recv_order(a->indeg, a->srcs, a->cart, order);
    for (int k = 0; k < a->indeg && rc == MPI_SUCCESS; k++) {
        int i = order[k];
        const ucmpi_xblk_t *b = &rb[i];

        if (a->srcs[i] != MPI_PROC_NULL && ucmpi_xblk_bytes(b))
            rc = ucmpi_sched_recv(s, b->buf, b->count, b->dt, a->srcs[i]);
    }
    for (int i = 0; i < a->outdeg && rc == MPI_SUCCESS; i++) {
        ucmpi_xblk_t b = sb ? sb[i]
                                 : (ucmpi_xblk_t){(char *)a->sbuf, a->scount,
                                                  a->sdt};

        if (a->dsts[i] != MPI_PROC_NULL && ucmpi_xblk_bytes(&b))
            rc = ucmpi_sched_send(s, b.buf, b.count, b.dt, a->dsts[i]);
    }
    return rc;
}
