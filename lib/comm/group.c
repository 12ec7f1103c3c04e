/* Groups: ordered sets of world ranks; a range (first, stride) costs O(1). */
#include "comm/group.h"
#include "comm/comm_internal.h"

#include <stdlib.h>

UCMPI_PREDEFINED(struct ucmpi_group_s, ucmpi_group_empty, UCMPI_PAD_GROUP) = {
    .obj = {.magic = UCMPI_MAGIC_GROUP, .refcount = 1, .predefined = 1,
            .size = 0, .my_rank = MPI_UNDEFINED, .kind = UCMPI_GROUP_RANGE,
            .first = 0, .stride = 1, .ranks = NULL}};

/* Processes of other jobs in g are counted while g lives (dpm_procs.c). */
static void pin_others(const ucmpi_group_t *g, int delta)
{
    int ws = ucmpi_global.world_size;

    if (g->size == 0)
        return;
    if (g->kind == UCMPI_GROUP_RANGE &&
        g->first < ws && g->first + (g->size - 1) * g->stride < ws)
        return;
    for (int i = 0; i < g->size; i++)
        if (ucmpi_group_world(g, i) >= ws) {
            ucmpi_dpm_pin(g, delta);
            return;
        }
}

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
    pin_others(g, 1);
    return g;
}

static ucmpi_group_t *group_create_table(int *ranks, int size)
{
    ucmpi_group_t *g = group_new(size);
    if (g == NULL)
        return NULL;
    g->kind = UCMPI_GROUP_TABLE;
    g->ranks = ranks;
    for (int i = 0; i < size; i++)
        if (ranks[i] == ucmpi_global.world_rank)
            g->my_rank = i;
    pin_others(g, 1);
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
    pin_others(g, -1);
    g->magic = UCMPI_MAGIC_FREED;
    free(g->ranks);
    free(g);
}

/* ---- Set logic on groups (pure: no communication, unit-tested) ---- */

ucmpi_group_t *ucmpi_group_from_table(int *ranks, int size)
{
    if (size == 0) {
        free(ranks);
        return &ucmpi_group_empty;
    }
    /* An arithmetic progression needs no table. */
    int stride = size > 1 ? ranks[1] - ranks[0] : 1;
    int i = 1;
    while (i < size && ranks[i] - ranks[i - 1] == stride)
        i++;
    if (i == size && stride != 0) {
        int first = ranks[0];
        ucmpi_group_t *g = ucmpi_group_create_range(first, size, stride);
        if (g != NULL)
            free(ranks);
        return g;
    }
    return group_create_table(ranks, size);
}

int *ucmpi_group_to_table(const ucmpi_group_t *g)
{
    int *t = malloc((g->size ? g->size : 1) * sizeof(int));
    if (t != NULL)
        for (int i = 0; i < g->size; i++)
            t[i] = ucmpi_group_world(g, i);
    return t;
}

static int pair_cmp(const void *a, const void *b)
{
    const int *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

int ucmpi_group_lookup_init(ucmpi_group_lookup_t *l, const ucmpi_group_t *g)
{
    l->g = g;
    l->sorted = NULL;
    if (g->kind == UCMPI_GROUP_RANGE || g->size == 0)
        return MPI_SUCCESS;
    l->sorted = malloc(2 * (size_t)g->size * sizeof(int));
    if (l->sorted == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < g->size; i++) {
        l->sorted[2 * i] = g->ranks[i];
        l->sorted[2 * i + 1] = i;
    }
    qsort(l->sorted, g->size, 2 * sizeof(int), pair_cmp);
    return MPI_SUCCESS;
}

int ucmpi_group_lookup(const ucmpi_group_lookup_t *l, int world)
{
    const ucmpi_group_t *g = l->g;
    if (g->size == 0)
        return MPI_UNDEFINED;
    if (g->kind == UCMPI_GROUP_RANGE) {
        int d = world - g->first;
        if (g->stride == 0 || d % g->stride != 0)
            return MPI_UNDEFINED;
        d /= g->stride;
        return d >= 0 && d < g->size ? d : MPI_UNDEFINED;
    }
    int key[2] = {world, 0};
    const int *p = bsearch(key, l->sorted, g->size, 2 * sizeof(int),
                           pair_cmp);
    return p ? p[1] : MPI_UNDEFINED;
}

void ucmpi_group_lookup_fini(ucmpi_group_lookup_t *l)
{
    free(l->sorted);
    l->sorted = NULL;
}

ucmpi_group_t *ucmpi_group_incl(const ucmpi_group_t *g, int n,
                                const int *ranks)
{
    int *t = malloc((n ? n : 1) * sizeof(int));
    if (t == NULL)
        return NULL;
    for (int i = 0; i < n; i++)
        t[i] = ucmpi_group_world(g, ranks[i]);
    return ucmpi_group_from_table(t, n);
}

/* Members of g whose flag is `keep`, in g's order; frees flag. */
static ucmpi_group_t *select_flagged(const ucmpi_group_t *g, char *flag,
                                     char keep)
{
    int n = 0;
    int *t = malloc((g->size ? g->size : 1) * sizeof(int));
    for (int i = 0; t != NULL && i < g->size; i++)
        if (flag[i] == keep)
            t[n++] = ucmpi_group_world(g, i);
    free(flag);
    return t == NULL ? NULL : ucmpi_group_from_table(t, n);
}

ucmpi_group_t *ucmpi_group_excl(const ucmpi_group_t *g, int n,
                                const int *ranks)
{
    char *flag = calloc(g->size ? g->size : 1, 1);
    if (flag == NULL)
        return NULL;
    for (int i = 0; i < n; i++)
        flag[ranks[i]] = 1;
    return select_flagged(g, flag, 0);
}

/* Number of ranks of range (first, last, stride); stride != 0. */
int ucmpi_range_count(const int r[3])
{
    int span = r[1] - r[0];
    if ((span > 0 && r[2] < 0) || (span < 0 && r[2] > 0))
        return 0;
    return span / r[2] + 1;
}

ucmpi_group_t *ucmpi_group_range_incl(const ucmpi_group_t *g, int n,
                                      int ranges[][3])
{
    /* One range of a range group stays a range, whatever its size. */
    if (n == 1 && g->kind == UCMPI_GROUP_RANGE && g->size > 0) {
        int cnt = ucmpi_range_count(ranges[0]);
        if (cnt == 0)
            return &ucmpi_group_empty;
        if (cnt == 1)
            return ucmpi_group_create_range(
                ucmpi_group_world(g, ranges[0][0]), 1, 1);
        return ucmpi_group_create_range(ucmpi_group_world(g, ranges[0][0]),
                                        cnt, g->stride * ranges[0][2]);
    }
    long total = 0;
    for (int i = 0; i < n; i++)
        total += ucmpi_range_count(ranges[i]);
    int *t = malloc((total ? total : 1) * sizeof(int));
    if (t == NULL)
        return NULL;
    int k = 0;
    for (int i = 0; i < n; i++) {
        int cnt = ucmpi_range_count(ranges[i]);
        for (int j = 0; j < cnt; j++)
            t[k++] = ucmpi_group_world(g, ranges[i][0] + j * ranges[i][2]);
    }
    return ucmpi_group_from_table(t, k);
}

ucmpi_group_t *ucmpi_group_range_excl(const ucmpi_group_t *g, int n,
                                      int ranges[][3])
{
    char *flag = calloc(g->size ? g->size : 1, 1);
    if (flag == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        int cnt = ucmpi_range_count(ranges[i]);
        for (int j = 0; j < cnt; j++)
            flag[ranges[i][0] + j * ranges[i][2]] = 1;
    }
    return select_flagged(g, flag, 0);
}

/* flag[i] = 1 when member i of a is also in b. */
static char *membership(const ucmpi_group_t *a, const ucmpi_group_t *b)
{
    ucmpi_group_lookup_t l;
    char *flag = calloc(a->size ? a->size : 1, 1);
    if (flag == NULL || ucmpi_group_lookup_init(&l, b) != MPI_SUCCESS) {
        free(flag);
        return NULL;
    }
    for (int i = 0; i < a->size; i++)
        flag[i] = ucmpi_group_lookup(&l, ucmpi_group_world(a, i)) !=
                  MPI_UNDEFINED;
    ucmpi_group_lookup_fini(&l);
    return flag;
}

/* a's members that are (intersection) or are not (difference) in b, or
 * the union: a's members, then b's that are not in a. */
ucmpi_group_t *ucmpi_group_combine(const ucmpi_group_t *a,
                                   const ucmpi_group_t *b, int op)
{
    char *flag = op == UCMPI_GROUP_UNION ? membership(b, a) : membership(a, b);
    if (flag == NULL)
        return NULL;
    if (op != UCMPI_GROUP_UNION)
        return select_flagged(a, flag, op == UCMPI_GROUP_INTERSECTION);
    size_t n = (size_t)a->size + b->size;
    int *t = malloc((n ? n : 1) * sizeof(int));
    if (t == NULL) {
        free(flag);
        return NULL;
    }
    int k = 0;
    for (int i = 0; i < a->size; i++)
        t[k++] = ucmpi_group_world(a, i);
    for (int i = 0; i < b->size; i++)
        if (!flag[i])
            t[k++] = ucmpi_group_world(b, i);
    free(flag);
    return ucmpi_group_from_table(t, k);
}

int ucmpi_group_translate(const ucmpi_group_t *a, int n, const int *ranks_a,
                          const ucmpi_group_t *b, int *ranks_b)
{
    ucmpi_group_lookup_t l;
    if (ucmpi_group_lookup_init(&l, b) != MPI_SUCCESS)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++)
        ranks_b[i] = ranks_a[i] == MPI_PROC_NULL
                         ? MPI_PROC_NULL
                         : ucmpi_group_lookup(&l, ucmpi_group_world(
                                                      a, ranks_a[i]));
    ucmpi_group_lookup_fini(&l);
    return MPI_SUCCESS;
}

int ucmpi_group_compare(const ucmpi_group_t *a, const ucmpi_group_t *b)
{
    if (a == b)
        return MPI_IDENT;
    if (a->size != b->size)
        return MPI_UNEQUAL;
    int same_order = 1;
    for (int i = 0; i < a->size && same_order; i++)
        same_order = ucmpi_group_world(a, i) == ucmpi_group_world(b, i);
    if (same_order)
        return MPI_IDENT;
    char *flag = membership(a, b);
    if (flag == NULL)
        return MPI_UNEQUAL;
    int all = 1;
    for (int i = 0; i < a->size; i++)
        all &= flag[i];
    free(flag);
    return all ? MPI_SIMILAR : MPI_UNEQUAL;
}
