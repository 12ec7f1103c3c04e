/* Shape and run-time layout of the gatherv/scatterv binomial trees (see
 * gather.h). */
#include "coll/gather/gather.h"

static int lowbit(int v) { return v & -v; }

ucmpi_vtree_t *ucmpi_vtree_new(ucmpi_sched_t *s, int n, int root, int rank)
{
    ucmpi_vtree_t *t = ucmpi_sched_alloc(s, sizeof(*t));
    int m;

    if (t == NULL)
        return NULL;
    *t = (ucmpi_vtree_t){.s = s, .n = n, .root = root};
    t->pos = (rank - root + n) % n;
    t->sub = t->pos == 0 ? n
             : lowbit(t->pos) < n - t->pos ? lowbit(t->pos) : n - t->pos;
    t->parent = ucmpi_vtree_rank(t, t->pos - lowbit(t->pos));
    for (m = 1; m < t->sub; m <<= 1)
        t->nchild++;
    t->bytes = ucmpi_sched_alloc(s, sizeof(MPI_Count) * (size_t)t->sub);
    t->child = ucmpi_sched_alloc(s, sizeof(*t->child) *
                                        (size_t)(t->nchild ? t->nchild : 1));
    if (t->bytes == NULL || t->child == NULL)
        return NULL;
    for (int i = 0; i < t->sub; i++)
        t->bytes[i] = 0;
    m = 1;
    for (int i = 0; i < t->nchild; i++, m <<= 1)
        t->child[i] = (ucmpi_vtree_child_t){
            .pos = t->pos + m, .cnt = t->sub - m < m ? t->sub - m : m};
    return t;
}

char *ucmpi_vtree_root_init(ucmpi_vtree_t *t, const ucmpi_xblk_t *b)
{
    for (int q = 0; q < t->n; q++)
        t->bytes[q] = (MPI_Count)ucmpi_xblk_bytes(&b[ucmpi_vtree_rank(t, q)]);
    return ucmpi_sched_alloc(t->s, (size_t)ucmpi_vtree_sum(t, 1, t->n));
}

MPI_Count ucmpi_vtree_sum(const ucmpi_vtree_t *t, int a, int b)
{
    MPI_Count sum = 0;

    for (int i = a; i < b; i++)
        sum += t->bytes[i];
    return sum;
}

/* Runs when bytes[] is known: buf holds positions pos+1 .. pos+sub-1 in
 * order, so child i's own block and rest are adjacent slices of it. */
int ucmpi_vtree_layout(void *arg)
{
    ucmpi_vtree_t *t = arg;
    MPI_Count total = ucmpi_vtree_sum(t, 1, t->sub);

    if ((size_t)total > t->cap) {
        /* grows only: a persistent schedule reuses it on every start */
        void *b = ucmpi_sched_alloc(t->s, (size_t)total);
        if (b == NULL)
            return MPI_ERR_NO_MEM;
        t->buf = b;
        t->cap = (size_t)total;
    }
    if (t->buf == NULL)
        t->buf = t->bytes;    /* any valid address for empty transfers */
    t->buf_len = total;
    for (int i = 0; i < t->nchild; i++) {
        ucmpi_vtree_child_t *c = &t->child[i];
        int rel = c->pos - t->pos;
        c->own = (char *)t->buf + ucmpi_vtree_sum(t, 1, rel);
        c->own_len = t->bytes[rel];
        c->rest = (char *)c->own + c->own_len;
        c->rest_len = ucmpi_vtree_sum(t, rel + 1, rel + c->cnt);
    }
    return MPI_SUCCESS;
}
