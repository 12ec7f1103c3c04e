/* Building node lists: loops and blocks merge wherever the layout allows, so
 * the pack engine sees as few and as large blocks as possible. */
#include "dt.h"

#include <stdlib.h>
#include <string.h>

void ucmpi_dt_nb_init(ucmpi_dt_nodebuf_t *nb)
{
    memset(nb, 0, sizeof(*nb));
    nb->last_top = -1;
}

void ucmpi_dt_nb_fini(ucmpi_dt_nodebuf_t *nb)
{
    free(nb->n);
    ucmpi_dt_nb_init(nb);
}

static ucmpi_dt_node_t *nb_push(ucmpi_dt_nodebuf_t *nb, uint32_t k)
{
    if (nb->nomem)
        return NULL;
    if (nb->len + k > nb->cap) {
        uint32_t cap = nb->cap ? nb->cap : 4;
        while (cap < nb->len + k)
            cap *= 2;
        ucmpi_dt_node_t *n = realloc(nb->n, cap * sizeof(*n));
        if (n == NULL) {
            nb->nomem = 1;
            return NULL;
        }
        nb->n = n;
        nb->cap = cap;
    }
    ucmpi_dt_node_t *p = &nb->n[nb->len];
    nb->len += k;
    return p;
}

/* A VEC whose blocks touch is one block. */
static void vec_normalize(ucmpi_dt_node_t *v)
{
    if (v->count > 1 && v->stride == v->len) {
        v->len *= v->count;
        v->count = 1;
    }
    if (v->count == 1)
        v->stride = 0;
    v->size = v->count * v->len;
}

/* Tries to fold VEC `v` into the previous top-level node. */
static int merge_vec(ucmpi_dt_nodebuf_t *nb, const ucmpi_dt_node_t *v)
{
    if (nb->last_top < 0)
        return 0;
    ucmpi_dt_node_t *p = &nb->n[nb->last_top];
    if (p->kind != UCMPI_DTN_VEC)
        return 0;
    if (p->count == 1 && v->count == 1 && p->disp + p->len == v->disp) {
        p->len += v->len;
        p->size = p->len;
        return 1;
    }
    if (p->len != v->len)
        return 0;
    if (p->count == 1 && v->count == 1 && v->disp != p->disp) {
        p->count = 2;
        p->stride = v->disp - p->disp;
        vec_normalize(p);
        return 1;
    }
    if (p->count > 1 && (v->count == 1 || v->stride == p->stride) &&
        v->disp == p->disp + p->count * p->stride) {
        p->count += v->count;
        vec_normalize(p);
        return 1;
    }
    return 0;
}

static void append_vec(ucmpi_dt_nodebuf_t *nb, MPI_Aint disp,
                       MPI_Count count, MPI_Aint stride, MPI_Count len)
{
    ucmpi_dt_node_t v = {.kind = UCMPI_DTN_VEC, .span = 1, .disp = disp,
                         .stride = stride, .count = count, .len = len};
    vec_normalize(&v);
    if (merge_vec(nb, &v))
        return;
    ucmpi_dt_node_t *p = nb_push(nb, 1);
    if (p == NULL)
        return;
    *p = v;
    nb->last_top = (int)(nb->len - 1);
}

/* Appends a LOOP header over a copy of body[0..nbody). */
static void append_loop(ucmpi_dt_nodebuf_t *nb, MPI_Aint disp,
                        MPI_Count count, MPI_Aint stride, MPI_Count bodysize,
                        const ucmpi_dt_node_t *body, uint32_t nbody)
{
    uint32_t at = nb->len;
    ucmpi_dt_node_t *p = nb_push(nb, 1 + nbody);
    if (p == NULL)
        return;
    p[0] = (ucmpi_dt_node_t){.kind = UCMPI_DTN_LOOP, .span = 1 + nbody,
                             .disp = disp, .stride = count > 1 ? stride : 0,
                             .count = count, .len = bodysize,
                             .size = count * bodysize};
    memcpy(p + 1, body, nbody * sizeof(*body));
    nb->last_top = (int)at;
}

/* Appends a copy of subtree `t` at top level with its disp shifted. */
static void append_shifted(ucmpi_dt_nodebuf_t *nb, const ucmpi_dt_node_t *t,
                           MPI_Aint shift)
{
    if (t->kind == UCMPI_DTN_VEC)
        append_vec(nb, t->disp + shift, t->count, t->stride, t->len);
    else
        append_loop(nb, t->disp + shift, t->count, t->stride, t->len, t + 1,
                    t->span - 1);
}

void ucmpi_dt_nb_rep(ucmpi_dt_nodebuf_t *nb, MPI_Aint disp, MPI_Count count,
                     MPI_Aint stride, const ucmpi_dt_node_t *nodes,
                     uint32_t nnodes, MPI_Count size)
{
    MPI_Count n;

    if (count <= 0 || size == 0 || nnodes == 0)
        return;
    if (count == 1) {
        for (uint32_t i = 0; i < nnodes; i += nodes[i].span)
            append_shifted(nb, &nodes[i], disp);
        return;
    }
    const ucmpi_dt_node_t *t = &nodes[0];
    if (t->span == nnodes && t->kind == UCMPI_DTN_VEC && t->count == 1) {
        append_vec(nb, disp + t->disp, count, stride, t->len);
        return;
    }
    /* one node repeated at its own period: one longer VEC or LOOP */
    if (t->span == nnodes && stride == t->count * t->stride &&
        !__builtin_mul_overflow(count, t->count, &n)) {
        if (t->kind == UCMPI_DTN_VEC)
            append_vec(nb, disp + t->disp, n, t->stride, t->len);
        else
            append_loop(nb, disp + t->disp, n, t->stride, t->len, t + 1,
                        nnodes - 1);
        return;
    }
    append_loop(nb, disp, count, stride, size, nodes, nnodes);
}

int ucmpi_dt_nodes_depth(const ucmpi_dt_node_t *n, uint32_t nnodes)
{
    uint32_t *ends = malloc((nnodes + 1) * sizeof(*ends));
    int top = 0, depth = 0;

    if (ends == NULL)
        return -1;
    for (uint32_t i = 0; i < nnodes; i++) {
        while (top > 0 && i >= ends[top - 1])
            top--;
        if (n[i].kind == UCMPI_DTN_LOOP) {
            ends[top++] = i + n[i].span;
            if (top > depth)
                depth = top;
        }
    }
    free(ends);
    return depth;
}
