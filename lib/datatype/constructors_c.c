/*
 * Large-count (MPI_Count) constructors and their envelopes: the counts
 * and displacements go to the "large counts" part of the envelope
 * (MPI_Type_get_envelope_c), as MPI-4 specifies.
 */
#include "dt.h"
#include "core/call.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int check_common(const char *fn, MPI_Count count, MPI_Datatype old,
                        int check_old, MPI_Datatype *newtype)
{
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (count < 0)
        return ucmpi_dt_err(MPI_ERR_COUNT, fn, "count %lld is negative",
                            count);
    if (check_old) {
        rc = ucmpi_dt_check_arg(old, 0, fn, "oldtype");
        if (rc != MPI_SUCCESS)
            return rc;
    }
    if (newtype == NULL)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "newtype pointer is NULL");
    return MPI_SUCCESS;
}

static int check_array(const char *fn, MPI_Count n, const MPI_Count *a,
                       const char *name, int nonneg)
{
    if (n > 0 && a == NULL)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "%s is NULL", name);
    for (MPI_Count i = 0; nonneg && i < n; i++)
        if (a[i] < 0)
            return ucmpi_dt_err(MPI_ERR_ARG, fn, "%s[%lld] = %lld is negative",
                                name, i, a[i]);
    return MPI_SUCCESS;
}

/* Finishes a builder as a large-count type with counts {c0, c1?, a[], b[]} */
static int finish(const char *fn, ucmpi_dt_builder_t *bd, int combiner,
                  const MPI_Count *head, int nhead, const MPI_Count *a,
                  const MPI_Count *b, MPI_Count n, int nt,
                  const MPI_Datatype *types, MPI_Datatype *newtype)
{
    const char *why = NULL;
    MPI_Datatype t;
    MPI_Count nc = nhead + (a ? n : 0) + (b ? n : 0);
    MPI_Count *c = malloc(sizeof(MPI_Count) * (size_t)(nc + 1));
    int rc;

    if (c == NULL) {
        ucmpi_dt_nb_fini(&bd->nb);
        return ucmpi_dt_err(MPI_ERR_NO_MEM, fn, "out of memory");
    }
    memcpy(c, head, sizeof(MPI_Count) * (size_t)nhead);
    if (a)
        memcpy(c + nhead, a, sizeof(MPI_Count) * (size_t)n);
    if (b)
        memcpy(c + nhead + (a ? n : 0), b, sizeof(MPI_Count) * (size_t)n);
    rc = ucmpi_dt_builder_finish(bd, combiner, 0, NULL, 0, NULL, nt, types,
                                 &t, &why);
    if (rc == MPI_SUCCESS && ucmpi_dt_set_counts(t, nc, c) != MPI_SUCCESS) {
        ucmpi_dt_release(t);
        rc = MPI_ERR_NO_MEM;
        why = "out of memory";
    }
    free(c);
    if (rc != MPI_SUCCESS)
        return ucmpi_dt_err(rc, fn, "%s", why);
    *newtype = t;
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_contiguous_c = PMPI_Type_contiguous_c
int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype,
                           MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_contiguous_c";
    ucmpi_dt_builder_t bd;
    int rc = check_common(fn, count, oldtype, 1, newtype);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_dt_builder_init(&bd);
    ucmpi_dt_builder_add(&bd, 0, count, oldtype->extent, oldtype);
    return finish(fn, &bd, MPI_COMBINER_CONTIGUOUS, &count, 1, NULL, NULL, 0,
                  1, &oldtype, newtype);
}

static int vector_c(int combiner, MPI_Count count,
                    MPI_Count bl, MPI_Count stride, MPI_Datatype old,
                    MPI_Datatype *newtype)
{
    const char *fn = ucmpi_call_name();
    ucmpi_dt_builder_t bd;
    MPI_Count head[3] = {count, bl, stride};
    MPI_Aint s = (MPI_Aint)stride;
    int rc = check_common(fn, count, old, 1, newtype);
    if (rc != MPI_SUCCESS)
        return rc;
    if (bl < 0)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "blocklength %lld is negative",
                            bl);
    ucmpi_dt_builder_init(&bd);
    if (combiner == MPI_COMBINER_VECTOR &&
        __builtin_mul_overflow((MPI_Aint)stride, old->extent, &s))
        bd.b.overflow = 1;
    ucmpi_dt_builder_add_nested(&bd, 0, count, s, bl, old->extent, old);
    return finish(fn, &bd, combiner, head, 3, NULL, NULL, 0, 1, &old,
                  newtype);
}

#pragma weak MPI_Type_vector_c = PMPI_Type_vector_c
int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength,
                       MPI_Count stride, MPI_Datatype oldtype,
                       MPI_Datatype *newtype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Type_vector_c");
    return vector_c(MPI_COMBINER_VECTOR, count,
                    blocklength, stride, oldtype, newtype);
}

#pragma weak MPI_Type_create_hvector_c = PMPI_Type_create_hvector_c
int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength,
                               MPI_Count stride, MPI_Datatype oldtype,
                               MPI_Datatype *newtype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Type_create_hvector_c");
    return vector_c(MPI_COMBINER_HVECTOR, count,
                    blocklength, stride, oldtype, newtype);
}

/* indexed family; bl NULL means every block has const_bl elements;
 * displacements in elements (scale = extent) or bytes (scale = 0) */
static int indexed_c(int combiner, MPI_Count count,
                     const MPI_Count *bl, MPI_Count const_bl,
                     const MPI_Count *disp, int in_bytes, MPI_Datatype old,
                     MPI_Datatype *newtype)
{
    const char *fn = ucmpi_call_name();
    ucmpi_dt_builder_t bd;
    MPI_Count head[2] = {count, const_bl};
    int rc = check_common(fn, count, old, 1, newtype);
    if (rc == MPI_SUCCESS)
        rc = check_array(fn, bl ? count : 0, bl, "array_of_blocklengths", 1);
    if (rc == MPI_SUCCESS)
        rc = check_array(fn, count, disp, "array_of_displacements", 0);
    if (rc == MPI_SUCCESS && !bl && const_bl < 0)
        rc = ucmpi_dt_err(MPI_ERR_ARG, fn, "blocklength %lld is negative",
                          const_bl);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_dt_builder_init(&bd);
    for (MPI_Count i = 0; i < count; i++) {
        MPI_Aint d = (MPI_Aint)disp[i];
        if (!in_bytes && __builtin_mul_overflow(d, old->extent, &d))
            bd.b.overflow = 1;
        ucmpi_dt_builder_add(&bd, d, bl ? bl[i] : const_bl, old->extent, old);
    }
    return finish(fn, &bd, combiner, head, bl ? 1 : 2, bl, disp, count, 1,
                  &old, newtype);
}

#pragma weak MPI_Type_indexed_c = PMPI_Type_indexed_c
int PMPI_Type_indexed_c(MPI_Count count,
                        const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[],
                        MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Type_indexed_c");
    return indexed_c(MPI_COMBINER_INDEXED, count,
                     array_of_blocklengths, 0, array_of_displacements, 0,
                     oldtype, newtype);
}

#pragma weak MPI_Type_create_hindexed_c = PMPI_Type_create_hindexed_c
int PMPI_Type_create_hindexed_c(MPI_Count count,
                                const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[],
                                MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Type_create_hindexed_c");
    return indexed_c(MPI_COMBINER_HINDEXED,
                     count, array_of_blocklengths, 0, array_of_displacements,
                     1, oldtype, newtype);
}

#pragma weak MPI_Type_create_indexed_block_c = PMPI_Type_create_indexed_block_c
int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[],
                                     MPI_Datatype oldtype,
                                     MPI_Datatype *newtype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Type_create_indexed_block_c");
    return indexed_c(MPI_COMBINER_INDEXED_BLOCK, count, NULL, blocklength,
                     array_of_displacements, 0, oldtype, newtype);
}

#pragma weak MPI_Type_create_hindexed_block_c = PMPI_Type_create_hindexed_block_c
int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                      const MPI_Count array_of_displacements[],
                                      MPI_Datatype oldtype,
                                      MPI_Datatype *newtype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Type_create_hindexed_block_c");
    return indexed_c(MPI_COMBINER_HINDEXED_BLOCK, count, NULL, blocklength,
                     array_of_displacements, 1, oldtype, newtype);
}

#pragma weak MPI_Type_create_struct_c = PMPI_Type_create_struct_c
int PMPI_Type_create_struct_c(MPI_Count count,
                              const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[],
                              const MPI_Datatype array_of_types[],
                              MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_struct_c";
    ucmpi_dt_builder_t bd;
    const char *why;
    int rc = check_common(fn, count, NULL, 0, newtype);
    if (rc == MPI_SUCCESS)
        rc = check_array(fn, count, array_of_blocklengths,
                         "array_of_blocklengths", 1);
    if (rc == MPI_SUCCESS)
        rc = check_array(fn, count, array_of_displacements,
                         "array_of_displacements", 0);
    if (rc == MPI_SUCCESS && count > 0 && array_of_types == NULL)
        rc = ucmpi_dt_err(MPI_ERR_ARG, fn, "array_of_types is NULL");
    for (MPI_Count i = 0; rc == MPI_SUCCESS && i < count; i++)
        if (ucmpi_dt_check(array_of_types[i], 0, &why) != MPI_SUCCESS)
            rc = ucmpi_dt_err(MPI_ERR_TYPE, fn, "array_of_types[%lld]: %s",
                              i, why);
    if (rc != MPI_SUCCESS)
        return rc;
    if (count > INT_MAX)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "more than INT_MAX types");
    ucmpi_dt_builder_init(&bd);
    for (MPI_Count i = 0; i < count; i++)
        ucmpi_dt_builder_add(&bd, (MPI_Aint)array_of_displacements[i],
                             array_of_blocklengths[i],
                             array_of_types[i]->extent, array_of_types[i]);
    return finish(fn, &bd, MPI_COMBINER_STRUCT, &count, 1,
                  array_of_blocklengths, array_of_displacements, count,
                  (int)count, array_of_types, newtype);
}

#pragma weak MPI_Type_create_resized_c = PMPI_Type_create_resized_c
int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb,
                               MPI_Count extent, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_resized_c";
    ucmpi_dt_builder_t bd;
    MPI_Count head[2] = {lb, extent};
    MPI_Aint ub;
    int rc = check_common(fn, 0, oldtype, 1, newtype);
    if (rc != MPI_SUCCESS)
        return rc;
    if (__builtin_add_overflow((MPI_Aint)lb, (MPI_Aint)extent, &ub))
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "lb + extent overflows");
    ucmpi_dt_builder_init(&bd);
    ucmpi_dt_builder_add(&bd, 0, 1, 0, oldtype);
    rc = finish(fn, &bd, MPI_COMBINER_RESIZED, head, 2, NULL, NULL, 0, 1,
                &oldtype, newtype);
    if (rc == MPI_SUCCESS)
        ucmpi_dt_set_bounds(*newtype, (MPI_Aint)lb, (MPI_Aint)extent);
    return rc;
}

/* ---- envelopes with large counts ---- */

#pragma weak MPI_Type_get_envelope_c = PMPI_Type_get_envelope_c
int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers,
                             MPI_Count *num_addresses,
                             MPI_Count *num_large_counts,
                             MPI_Count *num_datatypes, int *combiner)
{
    static const char fn[] = "MPI_Type_get_envelope_c";
    int rc = ucmpi_check_initialized(fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_dt_check_arg(datatype, 0, fn, "datatype");
    if (rc != MPI_SUCCESS)
        return rc;
    if (!num_integers || !num_addresses || !num_large_counts ||
        !num_datatypes || !combiner)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "an output pointer is NULL");
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(datatype);
    int named = im->combiner == MPI_COMBINER_NAMED;
    *num_integers = named ? 0 : im->ni;
    *num_addresses = named ? 0 : im->na;
    *num_large_counts = named ? 0 : im->nc;
    *num_datatypes = named ? 0 : im->nt;
    *combiner = im->combiner;
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_get_contents_c = PMPI_Type_get_contents_c
int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers,
                             MPI_Count max_addresses,
                             MPI_Count max_large_counts,
                             MPI_Count max_datatypes,
                             int array_of_integers[],
                             MPI_Aint array_of_addresses[],
                             MPI_Count array_of_large_counts[],
                             MPI_Datatype array_of_datatypes[])
{
    static const char fn[] = "MPI_Type_get_contents_c";
    int rc = ucmpi_check_initialized(fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_dt_check_arg(datatype, 0, fn, "datatype");
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(datatype);
    if (im->combiner == MPI_COMBINER_NAMED)
        return ucmpi_dt_err(MPI_ERR_TYPE, fn,
                            "%s is predefined: it has no contents", im->name);
    if (max_integers < im->ni || max_addresses < im->na ||
        max_large_counts < im->nc || max_datatypes < im->nt)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "arrays too small");
    if (im->ni)
        memcpy(array_of_integers, im->ints, sizeof(int) * (size_t)im->ni);
    if (im->na)
        memcpy(array_of_addresses, im->aints,
               sizeof(MPI_Aint) * (size_t)im->na);
    if (im->nc)
        memcpy(array_of_large_counts, im->counts,
               sizeof(MPI_Count) * (size_t)im->nc);
    for (int i = 0; i < im->nt; i++) {
        array_of_datatypes[i] = im->types[i];
        ucmpi_dt_retain(im->types[i]);
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Status_set_elements_c = PMPI_Status_set_elements_c
int PMPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype datatype,
                               MPI_Count count)
{
    return PMPI_Status_set_elements_x(status, datatype, count);
}

/* ---- subarray/darray with MPI_Count sizes: built by the int forms
 * (sizes must fit an int), then given the large-count envelope ---- */

static int *to_ints(const MPI_Count *a, int n, int *ok)
{
    int *v = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    *ok = v != NULL;
    for (int i = 0; v && i < n; i++) {
        if (a[i] > INT_MAX || a[i] < INT_MIN)
            *ok = 0;
        v[i] = (int)a[i];
    }
    return v;
}

static int set_envelope_c(MPI_Datatype t, int ni, const int *ints,
                          MPI_Count nc, const MPI_Count *counts)
{
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(t);
    int *v = malloc(sizeof(int) * (size_t)ni);
    if (v == NULL || ucmpi_dt_set_counts(t, nc, counts) != MPI_SUCCESS) {
        free(v);
        return MPI_ERR_NO_MEM;
    }
    memcpy(v, ints, sizeof(int) * (size_t)ni);
    free(im->ints);
    im->ints = v;
    im->ni = ni;
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_create_subarray_c = PMPI_Type_create_subarray_c
int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                                const MPI_Count array_of_subsizes[],
                                const MPI_Count array_of_starts[], int order,
                                MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_subarray_c";
    int ok1, ok2, ok3, rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (ndims < 0 || (ndims > 0 && (!array_of_sizes || !array_of_subsizes ||
                                    !array_of_starts)))
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "bad ndims or NULL array");
    int *sz = to_ints(array_of_sizes, ndims, &ok1);
    int *sub = to_ints(array_of_subsizes, ndims, &ok2);
    int *st = to_ints(array_of_starts, ndims, &ok3);
    MPI_Count *c = malloc(sizeof(MPI_Count) * (3 * (size_t)ndims + 1));
    MPI_Datatype t;
    if (!ok1 || !ok2 || !ok3 || c == NULL) {
        rc = ucmpi_dt_err(MPI_ERR_ARG, fn, "sizes beyond INT_MAX are not "
                          "supported (or out of memory)");
        goto out;
    }
    rc = PMPI_Type_create_subarray(ndims, sz, sub, st, order, oldtype, &t);
    if (rc != MPI_SUCCESS)
        goto out;
    memcpy(c, array_of_sizes, sizeof(MPI_Count) * (size_t)ndims);
    memcpy(c + ndims, array_of_subsizes, sizeof(MPI_Count) * (size_t)ndims);
    memcpy(c + 2 * ndims, array_of_starts, sizeof(MPI_Count) * (size_t)ndims);
    int ints[2] = {ndims, order};
    if (set_envelope_c(t, 2, ints, 3 * ndims, c) != MPI_SUCCESS) {
        ucmpi_dt_release(t);
        rc = ucmpi_dt_err(MPI_ERR_NO_MEM, fn, "out of memory");
        goto out;
    }
    *newtype = t;
out:
    free(sz);
    free(sub);
    free(st);
    free(c);
    return rc;
}

#pragma weak MPI_Type_create_darray_c = PMPI_Type_create_darray_c
int PMPI_Type_create_darray_c(int size, int rank, int ndims,
                              const MPI_Count array_of_gsizes[],
                              const int array_of_distribs[],
                              const int array_of_dargs[],
                              const int array_of_psizes[], int order,
                              MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_darray_c";
    int ok, rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (ndims < 0 || (ndims > 0 && (!array_of_gsizes || !array_of_distribs ||
                                    !array_of_dargs || !array_of_psizes)))
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "bad ndims or NULL array");
    int *gs = to_ints(array_of_gsizes, ndims, &ok);
    int *ints = malloc(sizeof(int) * (3 * (size_t)ndims + 4));
    MPI_Datatype t;
    if (!ok || ints == NULL) {
        rc = ucmpi_dt_err(MPI_ERR_ARG, fn, "sizes beyond INT_MAX are not "
                          "supported (or out of memory)");
        goto out;
    }
    rc = PMPI_Type_create_darray(size, rank, ndims, gs, array_of_distribs,
                                 array_of_dargs, array_of_psizes, order,
                                 oldtype, &t);
    if (rc != MPI_SUCCESS)
        goto out;
    ints[0] = size;
    ints[1] = rank;
    ints[2] = ndims;
    for (int d = 0; d < ndims; d++) {
        ints[3 + d] = array_of_distribs[d];
        ints[3 + ndims + d] = array_of_dargs[d];
        ints[3 + 2 * ndims + d] = array_of_psizes[d];
    }
    ints[3 + 3 * ndims] = order;
    if (set_envelope_c(t, 3 * ndims + 4, ints, ndims, array_of_gsizes) !=
        MPI_SUCCESS) {
        ucmpi_dt_release(t);
        rc = ucmpi_dt_err(MPI_ERR_NO_MEM, fn, "out of memory");
        goto out;
    }
    *newtype = t;
out:
    free(gs);
    free(ints);
    return rc;
}

/* MPI-4.1: the predefined pair type of (value, index) types, or
 * MPI_DATATYPE_NULL when there is none. */
#pragma weak MPI_Type_get_value_index = PMPI_Type_get_value_index
int PMPI_Type_get_value_index(MPI_Datatype value_type,
                              MPI_Datatype index_type,
                              MPI_Datatype *pair_type)
{
    static const char fn[] = "MPI_Type_get_value_index";
    static const struct { MPI_Datatype v, i, pair; } pairs[] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
        {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT},
        {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
        {MPI_REAL, MPI_REAL, MPI_2REAL},
        {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION,
         MPI_2DOUBLE_PRECISION}};
    int rc = ucmpi_check_initialized(fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_dt_check_arg(value_type, 0, fn, "value_type");
    if (rc == MPI_SUCCESS)
        rc = ucmpi_dt_check_arg(index_type, 0, fn, "index_type");
    if (rc == MPI_SUCCESS && pair_type == NULL)
        rc = ucmpi_dt_err(MPI_ERR_ARG, fn, "pair_type pointer is NULL");
    if (rc != MPI_SUCCESS)
        return rc;
    *pair_type = MPI_DATATYPE_NULL;
    for (unsigned k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++)
        if (pairs[k].v == value_type && pairs[k].i == index_type)
            *pair_type = pairs[k].pair;
    return MPI_SUCCESS;
}
