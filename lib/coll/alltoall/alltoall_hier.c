/* Node-aware alltoall (uniform blocks, for small ones): members send their
 * whole send buffer to the node leader; leader A packs, for each node B,
 * the blocks its members send to B's members and swaps that with B's leader
 * (one message per pair of nodes across the network); then it gathers each
 * member's n received blocks in source order and sends them in one message.
 * A leader holds 4 x (its node's ranks) x n blocks of scratch. */
#include "coll/alltoall/alltoall.h"
#include "coll/coll_hier.h"

typedef struct {
    const ucmpi_coll_layout_t *l;
    int n, A;                     /* comm size, ranks on my node */
    size_t bs;                    /* bytes per block */
    char *g;                      /* [A][n] blocks my members send */
    char *in;                     /* per node j: [size j][A] blocks for us */
    size_t *in_off;               /* where node j's part starts in `in` */
} a2a_hier_t;

static int nsize(const ucmpi_coll_layout_t *l, int k)
{
    return l->node_first[k + 1] - l->node_first[k];
}

/* Node j's part of what my members send: [A][size j] blocks, packed into
 * out (or, for my own node, straight into `in`). */
static int a2a_pack_for(ucmpi_sched_t *s, const a2a_hier_t *h, int j,
                        char *out)
{
    const ucmpi_coll_layout_t *l = h->l;
    int bj = nsize(l, j), rc = MPI_SUCCESS;

    for (int i = 0; i < h->A && rc == MPI_SUCCESS; i++)
        for (int t = 0; t < bj && rc == MPI_SUCCESS; t++) {
            int d = l->members[l->node_first[j] + t];
            rc = ucmpi_sched_copy(s, h->g + ((size_t)i * h->n + d) * h->bs,
                                  (MPI_Count)h->bs, MPI_BYTE,
                                  out + ((size_t)i * bj + t) * h->bs,
                                  (MPI_Count)h->bs, MPI_BYTE);
        }
    return rc;
}

static int a2a_swap(ucmpi_sched_t *s, a2a_hier_t *h)
{
    const ucmpi_coll_layout_t *l = h->l;
    int nn = l->nnodes, k = l->my_node, rc;
    char *out;

    rc = a2a_pack_for(s, h, k, h->in + h->in_off[k]);
    for (int d = 1; d < nn && rc == MPI_SUCCESS; d++) {
        int to = (k + d) % nn, from = (k - d + nn) % nn;
        size_t olen = (size_t)h->A * (size_t)nsize(l, to) * h->bs;

        if ((out = ucmpi_sched_alloc(s, olen)) == NULL)
            return MPI_ERR_NO_MEM;
        rc = a2a_pack_for(s, h, to, out);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_send(s, out, (MPI_Count)olen, MPI_BYTE,
                                  l->leaders[to]);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_recv_exact(
                s, h->in + h->in_off[from],
                (MPI_Count)((size_t)nsize(l, from) * h->A * h->bs), MPI_BYTE,
                l->leaders[from]);
    }
    return rc;
}

/* Member t's n blocks in source rank order, then to it (or my rbuf). */
static int a2a_deliver(ucmpi_sched_t *s, const a2a_hier_t *h,
                       const ucmpi_coll_args_t *a)
{
    const ucmpi_coll_layout_t *l = h->l;
    int first = l->node_first[l->my_node], rc = MPI_SUCCESS;

    for (int t = 0; t < h->A && rc == MPI_SUCCESS; t++) {
        char *r = ucmpi_sched_alloc(s, (size_t)h->n * h->bs);
        if (r == NULL)
            return MPI_ERR_NO_MEM;
        for (int j = 0; j < l->nnodes && rc == MPI_SUCCESS; j++)
            for (int si = 0; si < nsize(l, j) && rc == MPI_SUCCESS; si++) {
                int src = l->members[l->node_first[j] + si];
                rc = ucmpi_sched_copy(
                    s, h->in + h->in_off[j] + ((size_t)si * h->A + t) * h->bs,
                    (MPI_Count)h->bs, MPI_BYTE, r + (size_t)src * h->bs,
                    (MPI_Count)h->bs, MPI_BYTE);
            }
        if (rc != MPI_SUCCESS)
            break;
        rc = t == 0 ? ucmpi_sched_copy(s, r, (MPI_Count)((size_t)h->n * h->bs),
                                       MPI_BYTE, a->rbuf,
                                       a->rcount * h->n, a->rdt)
                    : ucmpi_sched_send(s, r,
                                       (MPI_Count)((size_t)h->n * h->bs),
                                       MPI_BYTE, l->members[first + t]);
    }
    return rc;
}

int ucmpi_alltoall_hier(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *c = a->comm;
    const ucmpi_coll_layout_t *l = ucmpi_coll_layout(c);
    int in_place = a->sbuf == MPI_IN_PLACE, rc = MPI_SUCCESS;
    const void *src = in_place ? a->rbuf : a->sbuf;
    MPI_Count scount = in_place ? a->rcount : a->scount;
    MPI_Datatype sdt = in_place ? a->rdt : a->sdt;
    a2a_hier_t h;
    int leader;

    if (l == NULL)
        return MPI_ERR_NO_MEM;
    h = (a2a_hier_t){l, c->size, nsize(l, l->my_node),
                     (size_t)(a->rcount * a->rdt->size), NULL, NULL, NULL};
    leader = l->members[l->node_first[l->my_node]];
    if (h.bs == 0)
        return MPI_SUCCESS;
    if (c->rank != leader) {
        rc = ucmpi_sched_send(s, src, scount * h.n, sdt, leader);
        if (rc == MPI_SUCCESS && in_place)
            rc = ucmpi_sched_fence(s);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_recv_exact(s, a->rbuf, a->rcount * h.n, a->rdt,
                                        leader);
        return rc;
    }
    h.g = ucmpi_sched_alloc(s, (size_t)h.A * h.n * h.bs);
    h.in = ucmpi_sched_alloc(s, (size_t)h.A * h.n * h.bs);
    h.in_off = ucmpi_sched_alloc(s, sizeof(size_t) * (size_t)l->nnodes);
    if (h.g == NULL || h.in == NULL || h.in_off == NULL)
        return MPI_ERR_NO_MEM;
    for (int j = 0, o = 0; j < l->nnodes; o += nsize(l, j), j++)
        h.in_off[j] = (size_t)o * h.A * h.bs;
    rc = ucmpi_sched_copy(s, src, scount * h.n, sdt, h.g,
                          (MPI_Count)((size_t)h.n * h.bs), MPI_BYTE);
    for (int i = 1; i < h.A && rc == MPI_SUCCESS; i++)
        rc = ucmpi_sched_recv_exact(s, h.g + (size_t)i * h.n * h.bs,
                                    (MPI_Count)((size_t)h.n * h.bs), MPI_BYTE,
                                    l->members[l->node_first[l->my_node] + i]);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    if (rc == MPI_SUCCESS)
        rc = a2a_swap(s, &h);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    return rc == MPI_SUCCESS ? a2a_deliver(s, &h, a) : rc;
}
