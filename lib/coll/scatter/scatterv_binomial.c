/* Binomial scatterv (gather.h): subtree byte counts, then own block in place
 * and the packed rest; about 2 ceil(log2 n) rounds. */
#include "coll/gather/gather.h"

static int root_side(ucmpi_sched_t *s, const ucmpi_coll_args_t *a,
                     ucmpi_vtree_t *t)
{
    const ucmpi_xblk_t *b = a->sblk;
    char *tmp, *p;
    int rc = MPI_SUCCESS;

    p = tmp = ucmpi_vtree_root_init(t, b);
    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    /* pack the rests in position order (before the round's sends) */
    for (int q = 1; q < t->n && rc == MPI_SUCCESS; q++) {
        const ucmpi_xblk_t *src = &b[ucmpi_vtree_rank(t, q)];
        if (q & (q - 1)) {   /* not a child of the root */
            rc = ucmpi_sched_copy(s, src->buf, src->count, src->dt, p,
                                  t->bytes[q], MPI_BYTE);
            p += t->bytes[q];
        }
    }
    if (rc == MPI_SUCCESS && a->rbuf != MPI_IN_PLACE)
        rc = ucmpi_sched_copy(s, b[a->rank].buf, b[a->rank].count,
                              b[a->rank].dt, a->rbuf, a->rcount, a->rdt);
    /* largest subtree first: it has the longest way to go */
    for (int i = t->nchild - 1; i >= 0 && rc == MPI_SUCCESS; i--) {
        const ucmpi_vtree_child_t *c = &t->child[i];
        const ucmpi_xblk_t *own = &b[ucmpi_vtree_rank(t, c->pos)];
        int peer = ucmpi_vtree_rank(t, c->pos);
        MPI_Count off = 0;

        for (int q = 1; q < c->pos; q++)
            off += q & (q - 1) ? t->bytes[q] : 0;
        if (c->cnt > 1)
            rc = ucmpi_sched_send(s, t->bytes + c->pos,
                                  (MPI_Count)(c->cnt * sizeof(MPI_Count)),
                                  MPI_BYTE, peer);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_send(s, own->buf, own->count, own->dt, peer);
        if (rc == MPI_SUCCESS && c->cnt > 1)
            rc = ucmpi_sched_send(s, tmp + off,
                                  ucmpi_vtree_sum(t, c->pos + 1,
                                                  c->pos + c->cnt),
                                  MPI_BYTE, peer);
    }
    return rc;
}

static int inner(ucmpi_sched_t *s, const ucmpi_coll_args_t *a,
                 ucmpi_vtree_t *t)
{
    int parent = t->parent;
    int rc = MPI_SUCCESS;

    /* exact: a parent without data (see ucmpi_sched_poison) sends empty
     * messages, and then so does this rank */
    if (t->sub > 1)
        rc = ucmpi_sched_recv_exact(s, t->bytes,
                                    (MPI_Count)(t->sub * sizeof(MPI_Count)),
                                    MPI_BYTE, parent);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_recv_exact(s, a->rbuf, a->rcount, a->rdt, parent);
    if (rc != MPI_SUCCESS || t->sub == 1)
        return rc;
    rc = ucmpi_sched_fence(s);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_call(s, ucmpi_vtree_layout, t);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_recv_dyn(s, &t->buf, &t->buf_len, MPI_BYTE, parent);
    for (int i = t->nchild - 1; i >= 0 && rc == MPI_SUCCESS; i--) {
        const ucmpi_vtree_child_t *c = &t->child[i];
        if (c->cnt > 1)
            rc = ucmpi_sched_send(s, t->bytes + (c->pos - t->pos),
                                  (MPI_Count)(c->cnt * sizeof(MPI_Count)),
                                  MPI_BYTE, ucmpi_vtree_rank(t, c->pos));
    }
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    for (int i = t->nchild - 1; i >= 0 && rc == MPI_SUCCESS; i--) {
        ucmpi_vtree_child_t *c = &t->child[i];
        int peer = ucmpi_vtree_rank(t, c->pos);
        rc = ucmpi_sched_send_dyn(s, &c->own, &c->own_len, MPI_BYTE, peer);
        if (rc == MPI_SUCCESS && c->cnt > 1)
            rc = ucmpi_sched_send_dyn(s, &c->rest, &c->rest_len, MPI_BYTE,
                                      peer);
    }
    return rc;
}

int ucmpi_scatterv_binomial(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_vtree_t *t;

    if (a->comm->is_inter || a->size == 1)
        return ucmpi_scatter_linear(s, a);
    t = ucmpi_vtree_new(s, a->size, a->root, a->rank);
    if (t == NULL)
        return MPI_ERR_NO_MEM;
    return t->pos == 0 ? root_side(s, a, t) : inner(s, a, t);
}
