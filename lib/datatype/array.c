/* Subarray and darray, one dimension at a time, fastest first: each step spans
 * the global array so far (lb 0), so the next places copies at its stride. */
#include "dt.h"

#include <stdlib.h>

/* One dimension: `nrun` runs of reps groups, `step` elements apart, of len
 * elements from start (plus a tail run); bounds (0, gsize * extent(prev)). */
typedef struct {
    MPI_Count start, len, step, reps, gsize;
    MPI_Count tail_start, tail_len;
} dim_layout_t;

static int build_dim(MPI_Datatype prev, const dim_layout_t *l,
                     MPI_Datatype *out, const char **why)
{
    ucmpi_dt_builder_t bd;
    MPI_Aint e = prev->extent, ext;
    int rc;

    if (__builtin_mul_overflow((MPI_Aint)l->gsize, e, &ext)) {
        *why = "array extent overflows MPI_Aint";
        return MPI_ERR_ARG;
    }
    ucmpi_dt_builder_init(&bd);
    ucmpi_dt_builder_add_nested(&bd, (MPI_Aint)l->start * e, l->reps,
                                (MPI_Aint)l->step * e, l->len, e, prev);
    ucmpi_dt_builder_add(&bd, (MPI_Aint)l->tail_start * e, l->tail_len, e,
                         prev);
    rc = ucmpi_dt_builder_finish(&bd, MPI_COMBINER_HINDEXED, 0, NULL, 0,
                                 NULL, 0, NULL, out, why);
    if (rc == MPI_SUCCESS)
        ucmpi_dt_set_bounds(*out, 0, ext);
    return rc;
}

/* Chains build_dim over the dimensions, fastest first, and wraps the
 * result in the user's envelope (combiner, ints). */
static int build_array(int ndims, int order, const dim_layout_t *lay,
                       MPI_Datatype old, int combiner, int ni, const int *ints,
                       MPI_Datatype *out, const char **why)
{
    MPI_Datatype cur = old, next;
    if (ndims == 0)
        ucmpi_dt_retain(old);
    for (int k = 0; k < ndims; k++) {
        int d = order == MPI_ORDER_C ? ndims - 1 - k : k;   /* user's index */
        int rc = build_dim(cur, &lay[d], &next, why);
        if (cur != old)
            ucmpi_dt_release(cur);
        if (rc != MPI_SUCCESS)
            return rc;
        cur = next;
    }
    int rc = ucmpi_dt_wrap(cur, combiner, ni, ints, old, out, why);
    ucmpi_dt_release(cur);
    return rc;
}

static int create_subarray(int ndims, const int *sizes, const int *subsizes,
                           const int *starts, int order, MPI_Datatype old,
                           MPI_Datatype *newtype, const char **why)
{
    dim_layout_t *lay = calloc((unsigned)ndims, sizeof(*lay));
    int *ints = malloc(sizeof(int) * (3 * (size_t)ndims + 2));
    int rc = MPI_ERR_NO_MEM;

    *why = "out of memory";
    if (lay == NULL || ints == NULL)
        goto out;
    ints[0] = ndims;
    for (int d = 0; d < ndims; d++) {
        lay[d] = (dim_layout_t){.start = starts[d], .len = subsizes[d],
                                .reps = 1, .gsize = sizes[d]};
        ints[1 + d] = sizes[d];
        ints[1 + ndims + d] = subsizes[d];
        ints[1 + 2 * ndims + d] = starts[d];
    }
    ints[1 + 3 * ndims] = order;
    rc = build_array(ndims, order, lay, old, MPI_COMBINER_SUBARRAY,
                     3 * ndims + 2, ints, newtype, why);
out:
    free(lay);
    free(ints);
    return rc;
}

/* Layout of one darray dimension for process coordinate `p` of `np`. */
static int darray_dim(int gsize, int distrib, int darg, int np, int p,
                      dim_layout_t *l, const char **why)
{
    MPI_Count b;
    *l = (dim_layout_t){0};
    if (distrib == MPI_DISTRIBUTE_NONE) {
        l->len = gsize;
        l->reps = 1;
        return MPI_SUCCESS;
    }
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (gsize + np - 1) / np : darg;
        if (b <= 0 || b * np < gsize) {
            *why = "block darg too small to cover the dimension";
            return MPI_ERR_ARG;
        }
        l->start = b * p;
        l->len = gsize - l->start < b ? gsize - l->start : b;
        if (l->len < 0)
            l->len = 0;
        l->reps = 1;
        return MPI_SUCCESS;
    }
    b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    if (b <= 0) {
        *why = "cyclic darg must be positive";
        return MPI_ERR_ARG;
    }
    /* full blocks at p*b + k*np*b, then a shorter tail block */
    MPI_Count first = p * b, cycle = np * b;
    MPI_Count nfull = first < gsize ? (gsize - first) / cycle : 0;
    MPI_Count tail = first < gsize ? gsize - (first + nfull * cycle) : 0;
    if (tail >= b) {
        nfull++;
        tail = 0;
    }
    l->start = first;
    l->len = b;
    l->step = cycle;
    l->reps = nfull;
    l->tail_start = first + nfull * cycle;
    l->tail_len = tail > 0 ? tail : 0;
    return MPI_SUCCESS;
}

static int create_darray(int size, int rank, int ndims, const int *gsizes,
                         const int *distribs, const int *dargs,
                         const int *psizes, int order, MPI_Datatype old,
                         MPI_Datatype *newtype, const char **why)
{
    dim_layout_t *lay = calloc((unsigned)ndims, sizeof(*lay));
    int *ints = malloc(sizeof(int) * (4 * (size_t)ndims + 4));
    int rc = MPI_ERR_NO_MEM, r = rank;

    *why = "out of memory";
    if (lay == NULL || ints == NULL)
        goto out;
    /* the process grid is row-major whatever the array order */
    for (int d = ndims - 1; d >= 0; d--) {
        rc = darray_dim(gsizes[d], distribs[d], dargs[d], psizes[d],
                        r % psizes[d], &lay[d], why);
        if (rc != MPI_SUCCESS)
            goto out;
        r /= psizes[d];
        lay[d].gsize = gsizes[d];
    }
    ints[0] = size;
    ints[1] = rank;
    ints[2] = ndims;
    for (int d = 0; d < ndims; d++) {
        ints[3 + d] = gsizes[d];
        ints[3 + ndims + d] = distribs[d];
        ints[3 + 2 * ndims + d] = dargs[d];
        ints[3 + 3 * ndims + d] = psizes[d];
    }
    ints[3 + 4 * ndims] = order;
    rc = build_array(ndims, order, lay, old, MPI_COMBINER_DARRAY,
                     4 * ndims + 4, ints, newtype, why);
out:
    free(lay);
    free(ints);
    return rc;
}

/* ---- entry points ---- */

static int check_array_common(const char *fn, int ndims, int order,
                              MPI_Datatype old, MPI_Datatype *newtype)
{
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (ndims < 0)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "ndims %d is negative", ndims);
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return ucmpi_dt_err(MPI_ERR_ARG, fn,
                            "order %d is neither MPI_ORDER_C nor "
                            "MPI_ORDER_FORTRAN", order);
    rc = ucmpi_dt_check_arg(old, 0, fn, "oldtype");
    if (rc != MPI_SUCCESS)
        return rc;
    if (newtype == NULL)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "newtype pointer is NULL");
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_create_subarray = PMPI_Type_create_subarray
int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[],
                              const int array_of_subsizes[],
                              const int array_of_starts[], int order,
                              MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_subarray";
    const char *why = NULL;
    int rc = check_array_common(fn, ndims, order, oldtype, newtype);
    if (rc != MPI_SUCCESS)
        return rc;
    if (ndims > 0 && (!array_of_sizes || !array_of_subsizes ||
                      !array_of_starts))
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "an array argument is NULL");
    for (int d = 0; d < ndims; d++) {
        int sz = array_of_sizes[d], sub = array_of_subsizes[d],
            st = array_of_starts[d];
        if (sz <= 0)
            return ucmpi_dt_err(MPI_ERR_ARG, fn,
                                "array_of_sizes[%d] = %d is not positive", d,
                                sz);
        if (sub < 0 || sub > sz)
            return ucmpi_dt_err(MPI_ERR_ARG, fn,
                                "array_of_subsizes[%d] = %d is outside "
                                "[0, %d]", d, sub, sz);
        if (st < 0 || st > sz - sub)
            return ucmpi_dt_err(MPI_ERR_ARG, fn,
                                "array_of_starts[%d] = %d is outside [0, %d]",
                                d, st, sz - sub);
    }
    rc = create_subarray(ndims, array_of_sizes, array_of_subsizes,
                         array_of_starts, order, oldtype, newtype, &why);
    return rc == MPI_SUCCESS ? rc : ucmpi_dt_err(rc, fn, "%s", why);
}

#pragma weak MPI_Type_create_darray = PMPI_Type_create_darray
int PMPI_Type_create_darray(int size, int rank, int ndims,
                            const int array_of_gsizes[],
                            const int array_of_distribs[],
                            const int array_of_dargs[],
                            const int array_of_psizes[], int order,
                            MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_darray";
    const char *why = NULL;
    long nprocs = 1;
    int rc = check_array_common(fn, ndims, order, oldtype, newtype);
    if (rc != MPI_SUCCESS)
        return rc;
    if (size <= 0 || rank < 0 || rank >= size)
        return ucmpi_dt_err(MPI_ERR_ARG, fn,
                            "rank %d outside a grid of size %d", rank, size);
    if (ndims > 0 && (!array_of_gsizes || !array_of_distribs ||
                      !array_of_dargs || !array_of_psizes))
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "an array argument is NULL");
    for (int d = 0; d < ndims; d++) {
        int ds = array_of_distribs[d];
        if (array_of_gsizes[d] <= 0 || array_of_psizes[d] <= 0)
            return ucmpi_dt_err(MPI_ERR_ARG, fn,
                                "gsizes[%d] = %d and psizes[%d] = %d must "
                                "be positive", d, array_of_gsizes[d], d,
                                array_of_psizes[d]);
        if (ds != MPI_DISTRIBUTE_BLOCK && ds != MPI_DISTRIBUTE_CYCLIC &&
            ds != MPI_DISTRIBUTE_NONE)
            return ucmpi_dt_err(MPI_ERR_ARG, fn,
                                "array_of_distribs[%d] = %d is not a "
                                "distribution", d, ds);
        if (ds == MPI_DISTRIBUTE_NONE && array_of_psizes[d] != 1)
            return ucmpi_dt_err(MPI_ERR_ARG, fn,
                                "psizes[%d] must be 1 for "
                                "MPI_DISTRIBUTE_NONE", d);
        if (array_of_dargs[d] != MPI_DISTRIBUTE_DFLT_DARG &&
            array_of_dargs[d] <= 0)
            return ucmpi_dt_err(MPI_ERR_ARG, fn,
                                "array_of_dargs[%d] = %d is not positive",
                                d, array_of_dargs[d]);
        nprocs *= array_of_psizes[d];
        if (nprocs > size)
            break;
    }
    if (nprocs != size)
        return ucmpi_dt_err(MPI_ERR_ARG, fn,
                            "product of psizes does not equal size %d", size);
    rc = create_darray(size, rank, ndims, array_of_gsizes, array_of_distribs,
                       array_of_dargs, array_of_psizes, order, oldtype,
                       newtype, &why);
    return rc == MPI_SUCCESS ? rc : ucmpi_dt_err(rc, fn, "%s", why);
}
