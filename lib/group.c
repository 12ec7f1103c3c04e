/*
 * Groups: ordered sets of world ranks.  Ranges (first, stride) cost O(1)
 * memory however large; other groups keep a table.
 */
#include "ucmpi.h"

#include <stdlib.h>

struct ucmpi_group_s ucmpi_group_empty = {
    .magic = UCMPI_MAGIC_GROUP, .refcount = 1, .predefined = 1, .size = 0,
    .my_rank = MPI_UNDEFINED, .kind = UCMPI_GROUP_RANGE, .first = 0,
    .stride = 1, .ranks = NULL
};

static ucmpi_group_t *group_new(int size)
{
    ucmpi_group_t *g = calloc(1, sizeof(*g));
    if (g == NULL)
        return NULL;
    g->magic = UCMPI_MAGIC_GROUP;
    g->refcount = 1;
    g->size = size;
    g->my_rank = MPI_UNDEFINED;
    return g;
}

ucmpi_group_t *ucmpi_group_create_range(int first, int size, int stride)
{
    ucmpi_group_t *g = group_new(size);
    if (g == NULL)
        return NULL;
    g->kind = UCMPI_GROUP_RANGE;
    g->first = first;
    g->stride = stride;
    int me = ucmpi_global.world_rank - first;
    if (stride != 0 && me % stride == 0 && me / stride >= 0 &&
        me / stride < size)
        g->my_rank = me / stride;
    return g;
}

ucmpi_group_t *ucmpi_group_create_table(int *ranks, int size)
{
    ucmpi_group_t *g = group_new(size);
    if (g == NULL)
        return NULL;
    g->kind = UCMPI_GROUP_TABLE;
    g->ranks = ranks;
    for (int i = 0; i < size; i++)
        if (ranks[i] == ucmpi_global.world_rank)
            g->my_rank = i;
    return g;
}

void ucmpi_group_retain(ucmpi_group_t *g)
{
    __atomic_add_fetch(&g->refcount, 1, __ATOMIC_RELAXED);
}

void ucmpi_group_release(ucmpi_group_t *g)
{
    if (g == NULL || g->predefined)
        return;
    if (__atomic_sub_fetch(&g->refcount, 1, __ATOMIC_ACQ_REL) > 0)
        return;
    g->magic = UCMPI_MAGIC_FREED;
    free(g->ranks);
    free(g);
}
