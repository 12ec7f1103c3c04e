/* Building derived types: each constructor feeds "count copies of an old type,
 * stride apart, from a displacement" to a builder compiling nodes and bounds. */
#include "dt.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    struct ucmpi_datatype_s pub;
    ucmpi_dt_impl_t im;
} derived_t;

/* Freed type objects are recycled LIFO, as MPICH recycles handles (some programs
 * rely on it); a stale handle stays detectable (magic FREED) until reuse. */
#define POOL_MAX 64
static derived_t *pool[POOL_MAX];
static int pool_n;

static derived_t *obj_alloc(void)
{
    derived_t *d = NULL;
    ucmpi_lock();
    if (pool_n > 0)
        d = pool[--pool_n];
    ucmpi_unlock();
    if (d == NULL)
        return calloc(1, sizeof(*d));
    memset(d, 0, sizeof(*d));
    return d;
}

static void obj_free(derived_t *d)
{
    ucmpi_lock();
    if (pool_n < POOL_MAX) {
        pool[pool_n++] = d;
        d = NULL;
    }
    ucmpi_unlock();
    free(d);
}

void ucmpi_dt_builder_init(ucmpi_dt_builder_t *bd)
{
    memset(bd, 0, sizeof(*bd));
    ucmpi_dt_nb_init(&bd->nb);
    bd->b.align = 1;
}

/* lo/hi of disp + [a, b) repeated count times stride apart */
static int rep_range(MPI_Aint disp, MPI_Count count, MPI_Aint stride,
                     MPI_Aint a, MPI_Aint b, MPI_Aint *lo, MPI_Aint *hi)
{
    MPI_Aint span, l, h;
    if (__builtin_mul_overflow((MPI_Aint)(count - 1), stride, &span) ||
        __builtin_add_overflow(disp, a, &l) ||
        __builtin_add_overflow(disp, b, &h))
        return -1;
    if (span < 0 ? __builtin_add_overflow(l, span, &l)
                 : __builtin_add_overflow(h, span, &h))
        return -1;
    *lo = l;
    *hi = h;
    return 0;
}

/* Range of n_out groups (stride s_out) of n_in copies (stride s_in) of
 * [a, b), from disp. */
static int nested_range(MPI_Aint disp, MPI_Count n_out, MPI_Aint s_out,
                        MPI_Count n_in, MPI_Aint s_in, MPI_Aint a, MPI_Aint b,
                        MPI_Aint *lo, MPI_Aint *hi)
{
    MPI_Aint l, h;
    if (rep_range(0, n_in, s_in, a, b, &l, &h) < 0)
        return -1;
    return rep_range(disp, n_out, s_out, l, h, lo, hi);
}

void ucmpi_dt_builder_add_nested(ucmpi_dt_builder_t *bd, MPI_Aint disp,
                                 MPI_Count n_out, MPI_Aint s_out,
                                 MPI_Count n_in, MPI_Aint s_in,
                                 MPI_Datatype old)
{
    ucmpi_dt_impl_t *oi = ucmpi_dt_impl(old);
    ucmpi_dt_bounds_t *b = &bd->b;
    MPI_Aint lo, hi;
    MPI_Count count, n;

    if (n_out <= 0 || n_in <= 0)
        return;
    if (__builtin_mul_overflow(n_out, n_in, &count) ||
        nested_range(disp, n_out, s_out, n_in, s_in, old->lb,
                     old->lb + old->extent, &lo, &hi) < 0) {
        b->overflow = 1;
        return;
    }
    b->lb = b->any ? (lo < b->lb ? lo : b->lb) : lo;
    b->ub = b->any ? (hi > b->ub ? hi : b->ub) : hi;
    b->any = 1;
    if (old->size > 0) {
        if (nested_range(disp, n_out, s_out, n_in, s_in, old->true_lb,
                         old->true_lb + old->true_extent, &lo, &hi) < 0) {
            b->overflow = 1;
            return;
        }
        b->tlb = b->any_data ? (lo < b->tlb ? lo : b->tlb) : lo;
        b->tub = b->any_data ? (hi > b->tub ? hi : b->tub) : hi;
        b->any_data = 1;
    }
    if (__builtin_mul_overflow(count, old->size, &n) ||
        __builtin_add_overflow(b->size, n, &b->size) ||
        __builtin_mul_overflow(count, oi->nelems, &n) ||
        __builtin_add_overflow(b->nelems, n, &b->nelems) ||
        __builtin_mul_overflow(count, oi->ext32_total, &n) ||
        __builtin_add_overflow(b->ext32, n, &b->ext32)) {
        b->overflow = 1;
        return;
    }
    if (oi->basic == NULL || (b->basic && b->basic != oi->basic))
        b->mixed = 1;
    b->basic = oi->basic;
    if (oi->align > b->align)
        b->align = oi->align;
    b->explicit_bounds |= oi->explicit_bounds;
    if (n_out == 1) {
        ucmpi_dt_nb_rep(&bd->nb, disp, n_in, s_in, oi->nodes, oi->nnodes,
                        old->size);
        return;
    }
    /* one group first, so its blocks merge, then the groups */
    ucmpi_dt_nodebuf_t grp;
    ucmpi_dt_nb_init(&grp);
    ucmpi_dt_nb_rep(&grp, 0, n_in, s_in, oi->nodes, oi->nnodes, old->size);
    ucmpi_dt_nb_rep(&bd->nb, disp, n_out, s_out, grp.n, grp.len,
                    n_in * old->size);
    bd->nb.nomem |= grp.nomem;
    ucmpi_dt_nb_fini(&grp);
}

void ucmpi_dt_builder_add(ucmpi_dt_builder_t *bd, MPI_Aint disp,
                          MPI_Count count, MPI_Aint stride, MPI_Datatype old)
{
    ucmpi_dt_builder_add_nested(bd, disp, 1, 0, count, stride, old);
}

static void update_contig(MPI_Datatype dt)
{
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(dt);
    const ucmpi_dt_node_t *n = im->nodes;
    dt->contig = dt->size == 0 ||
                 (im->nnodes == 1 && n->kind == UCMPI_DTN_VEC &&
                  n->count == 1 && n->len == dt->size &&
                  dt->extent == dt->size);
}

static void *dup_array(const void *a, size_t n, size_t elem)
{
    void *p = malloc(n ? n * elem : 1);
    if (p && n)
        memcpy(p, a, n * elem);
    return p;
}

int ucmpi_dt_builder_finish(ucmpi_dt_builder_t *bd, int combiner, int ni,
                            const int *ints, int na, const MPI_Aint *aints,
                            int nt, const MPI_Datatype *types,
                            MPI_Datatype *newtype, const char **why)
{
    ucmpi_dt_bounds_t *b = &bd->b;
    derived_t *d;

    if (b->overflow) {
        ucmpi_dt_nb_fini(&bd->nb);
        *why = "size or extent of the new type overflows";
        return MPI_ERR_ARG;
    }
    d = obj_alloc();
    if (d == NULL || bd->nb.nomem)
        goto err_nomem;
    ucmpi_dt_impl_t *im = &d->im;
    MPI_Datatype dt = &d->pub;
    dt->impl = im;
    im->nodes = bd->nb.n;
    im->nnodes = bd->nb.len;
    bd->nb.n = NULL;
    im->depth = ucmpi_dt_nodes_depth(im->nodes, im->nnodes);
    im->ints = dup_array(ints, (size_t)ni, sizeof(int));
    im->aints = dup_array(aints, (size_t)na, sizeof(MPI_Aint));
    im->types = dup_array(types, (size_t)nt, sizeof(MPI_Datatype));
    if (im->depth < 0 || !im->ints || !im->aints || !im->types)
        goto err_free;
    im->ni = ni;
    im->na = na;
    im->nt = nt;
    for (int i = 0; i < nt; i++)
        ucmpi_dt_retain(types[i]);
    im->kind = UCMPI_DTK_DERIVED;
    im->combiner = combiner;
    im->align = b->align;
    im->explicit_bounds = b->explicit_bounds;
    im->nelems = b->nelems;
    im->ext32_total = b->ext32;
    im->basic = b->mixed ? NULL : b->basic;
    dt->magic = UCMPI_MAGIC_DATATYPE;
    dt->refcount = 1;
    dt->size = b->size;
    dt->lb = b->any ? b->lb : 0;
    MPI_Aint ub = b->any ? b->ub : 0;
    /* a struct of plain types is padded to its alignment, as C does */
    if (combiner == MPI_COMBINER_STRUCT && !b->explicit_bounds &&
        b->align > 1 && (ub - dt->lb) % b->align)
        ub += b->align - (ub - dt->lb) % b->align;
    dt->extent = ub - dt->lb;
    dt->true_lb = b->any_data ? b->tlb : 0;
    dt->true_extent = b->any_data ? b->tub - b->tlb : 0;
    update_contig(dt);
    *newtype = dt;
    return MPI_SUCCESS;

err_free:
    free(im->ints);
    free(im->aints);
    free(im->types);
    free(im->nodes);
err_nomem:
    if (d)
        obj_free(d);
    ucmpi_dt_nb_fini(&bd->nb);
    *why = "out of memory building the type";
    return MPI_ERR_NO_MEM;
}

int ucmpi_dt_set_counts(MPI_Datatype dt, MPI_Count nc, const MPI_Count *c)
{
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(dt);
    im->counts = dup_array(c, (size_t)nc, sizeof(MPI_Count));
    if (im->counts == NULL)
        return MPI_ERR_NO_MEM;
    im->nc = nc;
    return MPI_SUCCESS;
}

void ucmpi_dt_set_bounds(MPI_Datatype dt, MPI_Aint lb, MPI_Aint extent)
{
    dt->lb = lb;
    dt->extent = extent;
    ucmpi_dt_impl(dt)->explicit_bounds = 1;
    update_contig(dt);
}

/* Frees a derived type whose last reference went away. */
void ucmpi_dt_destroy(MPI_Datatype dt)
{
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(dt);
    derived_t *d = UCMPI_CONTAINER_OF(dt, derived_t, pub);

    for (int i = 0; i < im->nt; i++)
        ucmpi_dt_release(im->types[i]);
    if (im->inner)
        ucmpi_dt_release(im->inner);
    free(im->ints);
    free(im->aints);
    free(im->counts);
    free(im->types);
    free(im->nodes);
    dt->magic = UCMPI_MAGIC_FREED;
    obj_free(d);
}

/* A type with the layout of `inner` and the envelope given. */
int ucmpi_dt_wrap(MPI_Datatype inner, int combiner, int ni, const int *ints,
                  MPI_Datatype old, MPI_Datatype *newtype, const char **why)
{
    ucmpi_dt_builder_t bd;
    int rc;
    ucmpi_dt_builder_init(&bd);
    ucmpi_dt_builder_add(&bd, 0, 1, 0, inner);
    rc = ucmpi_dt_builder_finish(&bd, combiner, ni, ints, 0, NULL, 1, &old,
                                 newtype, why);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_dt_set_bounds(*newtype, inner->lb, inner->extent);
    ucmpi_dt_impl(*newtype)->explicit_bounds =
        ucmpi_dt_impl(inner)->explicit_bounds;
    if (inner != old) {       /* a dup's layout is its old type's own */
        ucmpi_dt_retain(inner);
        ucmpi_dt_impl(*newtype)->inner = inner;
    }
    return MPI_SUCCESS;
}
