/* Binomial gatherv (gather.h): subtree sizes first, then own block and rest
 * up; 2 ceil(log2 n) rounds instead of n-1 messages into the root. */
#include "coll/gather/gather.h"

static int root_side(ucmpi_sched_t *s, const ucmpi_coll_args_t *a,
                     ucmpi_vtree_t *t)
{
    const ucmpi_xblk_t *b = a->rblk;
    char *tmp, *p;
    int rc = MPI_SUCCESS;

    p = tmp = ucmpi_vtree_root_init(t, b);
    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    if (a->sbuf != MPI_IN_PLACE)
        rc = ucmpi_sched_copy(s, a->sbuf, a->scount, a->sdt, b[a->rank].buf,
                              b[a->rank].count, b[a->rank].dt);
    for (int i = 0; i < t->nchild && rc == MPI_SUCCESS; i++) {
        const ucmpi_vtree_child_t *c = &t->child[i];
        const ucmpi_xblk_t *own = &b[ucmpi_vtree_rank(t, c->pos)];
        MPI_Count rest = ucmpi_vtree_sum(t, c->pos + 1, c->pos + c->cnt);

        rc = ucmpi_sched_recv(s, own->buf, own->count, own->dt,
                              ucmpi_vtree_rank(t, c->pos));
        if (rc == MPI_SUCCESS && c->cnt > 1)
            rc = ucmpi_sched_recv(s, p, rest, MPI_BYTE,
                                  ucmpi_vtree_rank(t, c->pos));
        p += rest;
    }
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    /* unpack the rests: positions other than 0 and the children, in order */
    p = tmp;
    for (int i = 0; i < t->nchild && rc == MPI_SUCCESS; i++) {
        const ucmpi_vtree_child_t *c = &t->child[i];
        for (int q = c->pos + 1; q < c->pos + c->cnt && rc == MPI_SUCCESS;
             q++) {
            const ucmpi_xblk_t *d = &b[ucmpi_vtree_rank(t, q)];
            rc = ucmpi_sched_copy(s, p, t->bytes[q], MPI_BYTE, d->buf,
                                  d->count, d->dt);
            p += t->bytes[q];
        }
    }
    return rc;
}

static int inner(ucmpi_sched_t *s, const ucmpi_coll_args_t *a,
                 ucmpi_vtree_t *t)
{
    int parent = t->parent;
    int tell = parent != t->root;   /* the root knows */
    int rc = MPI_SUCCESS;

    t->bytes[0] = a->scount * a->sdt->size;
    for (int i = 0; i < t->nchild && rc == MPI_SUCCESS; i++) {
        const ucmpi_vtree_child_t *c = &t->child[i];
        rc = ucmpi_sched_recv(s, t->bytes + (c->pos - t->pos),
                              (MPI_Count)(c->cnt * sizeof(MPI_Count)),
                              MPI_BYTE, ucmpi_vtree_rank(t, c->pos));
    }
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    if (rc == MPI_SUCCESS && t->nchild > 0)
        rc = ucmpi_sched_call(s, ucmpi_vtree_layout, t);
    for (int i = 0; i < t->nchild && rc == MPI_SUCCESS; i++) {
        ucmpi_vtree_child_t *c = &t->child[i];
        int peer = ucmpi_vtree_rank(t, c->pos);
        rc = ucmpi_sched_recv_dyn(s, &c->own, &c->own_len, MPI_BYTE, peer);
        if (rc == MPI_SUCCESS && c->cnt > 1)
            rc = ucmpi_sched_recv_dyn(s, &c->rest, &c->rest_len, MPI_BYTE,
                                      peer);
    }
    if (rc == MPI_SUCCESS && tell)
        rc = ucmpi_sched_send(s, t->bytes,
                              (MPI_Count)(t->sub * sizeof(MPI_Count)),
                              MPI_BYTE, parent);
    if (rc == MPI_SUCCESS && t->nchild > 0)   /* a leaf has all it sends */
        rc = ucmpi_sched_fence(s);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_send(s, a->sbuf, a->scount, a->sdt, parent);
    if (rc == MPI_SUCCESS && t->sub > 1)
        rc = ucmpi_sched_send_dyn(s, &t->buf, &t->buf_len, MPI_BYTE, parent);
    return rc;
}

int ucmpi_gatherv_binomial(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_vtree_t *t;

    if (a->comm->is_inter || a->size == 1)
        return ucmpi_gather_linear(s, a);
    t = ucmpi_vtree_new(s, a->size, a->root, a->rank);
    if (t == NULL)
        return MPI_ERR_NO_MEM;
    return t->pos == 0 ? root_side(s, a, t) : inner(s, a, t);
}
