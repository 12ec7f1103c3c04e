/* Node-aware allgather(v): members send their block to the node leader,
 * which packs the node's blocks in one buffer laid out by node; leaders
 * swap their nodes' parts (one message per pair of nodes across the
 * network), broadcast the whole buffer in their node, and every rank
 * unpacks it into its receive blocks. */
#include "coll/allgather/allgather.h"
#include "coll/bcast/bcast.h"
#include "coll/coll_hier.h"

typedef struct {
    const ucmpi_coll_layout_t *l;
    const ucmpi_xblk_t *b;        /* receive blocks by comm rank */
    size_t *off;                  /* byte offset of each position, n+1 */
    char *t;                      /* the packed buffer */
} ag_hier_t;

/* Each member's block into the leader's packed buffer (own: a copy). */
static int ag_collect(ucmpi_sched_t *s, const ag_hier_t *h,
                      const ucmpi_xblk_t *own)
{
    const ucmpi_coll_layout_t *l = h->l;
    int first = l->node_first[l->my_node];
    int last = l->node_first[l->my_node + 1], rc = MPI_SUCCESS;

    if (l->my_index != 0)
        return ucmpi_xblk_bytes(own) == 0
                   ? MPI_SUCCESS
                   : ucmpi_sched_send(s, own->buf, own->count, own->dt,
                                      l->members[first]);
    for (int p = first; p < last && rc == MPI_SUCCESS; p++) {
        MPI_Count len = (MPI_Count)(h->off[p + 1] - h->off[p]);
        if (len == 0)
            continue;
        rc = p == first ? ucmpi_sched_copy(s, own->buf, own->count, own->dt,
                                           h->t + h->off[p], len, MPI_BYTE)
                        : ucmpi_sched_recv_exact(s, h->t + h->off[p], len,
                                                 MPI_BYTE, l->members[p]);
    }
    return rc;
}

/* Leaders swap their nodes' parts, in a shifted order. */
static int ag_swap(ucmpi_sched_t *s, const ag_hier_t *h)
{
    const ucmpi_coll_layout_t *l = h->l;
    int nn = l->nnodes, k = l->my_node, rc = MPI_SUCCESS;

    for (int d = 1; d < nn && rc == MPI_SUCCESS; d++) {
        int to = (k + d) % nn, from = (k - d + nn) % nn;
        size_t mo = h->off[l->node_first[k]];
        size_t ml = h->off[l->node_first[k + 1]] - mo;
        size_t fo = h->off[l->node_first[from]];
        size_t fl = h->off[l->node_first[from + 1]] - fo;

        if (ml > 0)
            rc = ucmpi_sched_send(s, h->t + mo, (MPI_Count)ml, MPI_BYTE,
                                  l->leaders[to]);
        if (rc == MPI_SUCCESS && fl > 0)
            rc = ucmpi_sched_recv_exact(s, h->t + fo, (MPI_Count)fl,
                                        MPI_BYTE, l->leaders[from]);
    }
    return rc;
}

int ucmpi_allgather_hier(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *c = a->comm;
    int n = c->size, rc;
    ag_hier_t h = {ucmpi_coll_layout(c), NULL, NULL, NULL};
    ucmpi_coll_grp_t node;
    ucmpi_xblk_t own;

    if (h.l == NULL)
        return MPI_ERR_NO_MEM;
    h.b = a->rblk ? a->rblk
                  : ucmpi_xblk_uniform(s, n, a->rbuf, a->rcount, a->rdt);
    h.off = ucmpi_sched_alloc(s, sizeof(size_t) * ((size_t)n + 1));
    if (h.b == NULL || h.off == NULL)
        return MPI_ERR_NO_MEM;
    h.off[0] = 0;
    for (int p = 0; p < n; p++)
        h.off[p + 1] = h.off[p] + ucmpi_xblk_bytes(&h.b[h.l->members[p]]);
    if (h.off[n] == 0)
        return MPI_SUCCESS;
    if ((h.t = ucmpi_sched_alloc(s, h.off[n])) == NULL)
        return MPI_ERR_NO_MEM;
    own = a->sbuf == MPI_IN_PLACE
              ? h.b[a->rank]
              : (ucmpi_xblk_t){(char *)a->sbuf, a->scount, a->sdt};
    node = ucmpi_hier_node(h.l);
    rc = ag_collect(s, &h, &own);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_allgather_own(s, a, &h.b[a->rank]);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    if (rc == MPI_SUCCESS && node.rank == 0)
        rc = ag_swap(s, &h);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    if (rc == MPI_SUCCESS && node.size > 1)
        rc = ucmpi_bcast_tree(s, h.t, (MPI_Count)h.off[n], MPI_BYTE, 0,
                              &node, 2);
    for (int p = 0; p < n && rc == MPI_SUCCESS; p++) {
        int r = h.l->members[p];
        if (r != a->rank && h.off[p + 1] > h.off[p])
            rc = ucmpi_sched_copy(s, h.t + h.off[p],
                                  (MPI_Count)(h.off[p + 1] - h.off[p]),
                                  MPI_BYTE, h.b[r].buf, h.b[r].count,
                                  h.b[r].dt);
    }
    return rc;
}
