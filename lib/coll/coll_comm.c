/* Per-communicator collective state: the cached node layout. */
#include "coll/coll.h"

#include <stdlib.h>

typedef struct {
    ucmpi_coll_layout_t *layout;
} coll_state_t;

static int node_of_rank(const ucmpi_comm_t *c, int r)
{
    if (ucmpi_global.node_of == NULL)
        return 0;
    return ucmpi_global.node_of[ucmpi_group_world(c->group, r)];
}

static void layout_free(ucmpi_coll_layout_t *l)
{
    if (l == NULL)
        return;
    free(l->node_first);
    free(l->members);
    free(l->leaders);
    free(l);
}

static ucmpi_coll_layout_t *layout_build(ucmpi_comm_t *c)
{
    int n = c->size;
    ucmpi_coll_layout_t *l = calloc(1, sizeof(*l));
    int *node = malloc(n * sizeof(int));   /* node index (dense) per rank */
    int *ids = malloc(n * sizeof(int));    /* global node id per dense idx */

    if (l == NULL || node == NULL || ids == NULL)
        goto err_free;
    /* dense node numbers in order of each node's lowest rank */
    for (int r = 0; r < n; r++) {
        int id = node_of_rank(c, r), k;
        for (k = 0; k < l->nnodes && ids[k] != id; k++)
            ;
        if (k == l->nnodes)
            ids[l->nnodes++] = id;
        node[r] = k;
    }
    l->node_first = calloc(l->nnodes + 1, sizeof(int));
    l->members = malloc(n * sizeof(int));
    l->leaders = malloc(l->nnodes * sizeof(int));
    if (!l->node_first || !l->members || !l->leaders)
        goto err_free;
    for (int r = 0; r < n; r++)
        l->node_first[node[r] + 1]++;
    for (int k = 0; k < l->nnodes; k++)
        l->node_first[k + 1] += l->node_first[k];
    l->contiguous = 1;
    /* place ranks in order; `ids` is reused as the fill cursor */
    for (int k = 0; k < l->nnodes; k++)
        ids[k] = l->node_first[k];
    for (int r = 0; r < n; r++) {
        int k = node[r];
        if (r == c->rank) {
            l->my_node = k;
            l->my_index = ids[k] - l->node_first[k];
        }
        if (r > 0 && k != node[r - 1] && ids[k] != l->node_first[k])
            l->contiguous = 0;        /* node k resumes after a gap */
        l->members[ids[k]++] = r;
    }
    for (int k = 0; k < l->nnodes; k++)
        l->leaders[k] = l->members[l->node_first[k]];
    free(node);
    free(ids);
    return l;

err_free:
    free(node);
    free(ids);
    layout_free(l);
    return NULL;
}

const ucmpi_coll_layout_t *ucmpi_coll_layout(ucmpi_comm_t *c)
{
    coll_state_t *st = c->coll;

    if (st == NULL) {
        st = calloc(1, sizeof(*st));
        if (st == NULL)
            return NULL;
        c->coll = st;
    }
    if (st->layout == NULL)
        st->layout = layout_build(c);
    return st->layout;
}

void ucmpi_coll_comm_destroy(ucmpi_comm_t *c)
{
    coll_state_t *st = c->coll;

    if (st == NULL)
        return;
    layout_free(st->layout);
    free(st);
    c->coll = NULL;
}
