/* Group views of a node layout for the hierarchical algorithms. */
#include "coll/coll_hier.h"

ucmpi_coll_grp_t ucmpi_hier_node(const ucmpi_coll_layout_t *l)
{
    int k = l->my_node;
    ucmpi_coll_grp_t g = {l->node_first[k + 1] - l->node_first[k],
                          l->my_index, l->members + l->node_first[k]};
    return g;
}

ucmpi_coll_grp_t ucmpi_hier_all(const ucmpi_coll_layout_t *l)
{
    ucmpi_coll_grp_t g = {l->node_first[l->nnodes],
                          l->node_first[l->my_node] + l->my_index,
                          l->members};
    return g;
}

int ucmpi_hier_pos(const ucmpi_coll_layout_t *l, int r)
{
    int n = l->node_first[l->nnodes];

    for (int i = 0; i < n; i++)
        if (l->members[i] == r)
            return i;
    return -1;
}

int ucmpi_hier_node_at(const ucmpi_coll_layout_t *l, int pos)
{
    int k = 0;

    while (l->node_first[k + 1] <= pos)
        k++;
    return k;
}

int ucmpi_hier_heads(ucmpi_sched_t *s, const ucmpi_coll_layout_t *l,
                     int root, ucmpi_coll_grp_t *g)
{
    int *map = ucmpi_sched_alloc(s, sizeof(int) * (size_t)l->nnodes);
    int rnode = ucmpi_hier_node_at(l, ucmpi_hier_pos(l, root));
    int me = l->members[l->node_first[l->my_node] + l->my_index];

    if (map == NULL)
        return -1;
    for (int k = 0; k < l->nnodes; k++)
        map[k] = l->leaders[k];
    map[rnode] = root;
    g->size = l->nnodes;
    g->map = map;
    g->rank = map[l->my_node] == me ? l->my_node : -1;
    return rnode;
}

int ucmpi_hier_useful(ucmpi_comm_t *c)
{
    const ucmpi_coll_layout_t *l = ucmpi_coll_layout(c);

    return l != NULL && l->nnodes > 1 && l->nnodes < c->size;
}

int ucmpi_hier_contiguous(ucmpi_comm_t *c)
{
    const ucmpi_coll_layout_t *l = ucmpi_coll_layout(c);

    return l != NULL && l->contiguous;
}
