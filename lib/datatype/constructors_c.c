/* Large-count constructors: constructors.c's builders with the counts in the
 * envelope's large part (MPI-4); subarray/darray reuse the int forms. */
#include "dt.h"
#include "core/call.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#pragma weak MPI_Type_contiguous_c = PMPI_Type_contiguous_c
int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype,
                           MPI_Datatype *newtype)
{
    return ucmpi_dt_contig("MPI_Type_contiguous_c", 1, count, oldtype,
                           newtype);
}

#pragma weak MPI_Type_vector_c = PMPI_Type_vector_c
int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength,
                       MPI_Count stride, MPI_Datatype oldtype,
                       MPI_Datatype *newtype)
{
    return ucmpi_dt_vector("MPI_Type_vector_c", MPI_COMBINER_VECTOR, 1, count,
                           blocklength, stride, oldtype, newtype);
}

#pragma weak MPI_Type_create_hvector_c = PMPI_Type_create_hvector_c
int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength,
                               MPI_Count stride, MPI_Datatype oldtype,
                               MPI_Datatype *newtype)
{
    return ucmpi_dt_vector("MPI_Type_create_hvector_c", MPI_COMBINER_HVECTOR,
                           1, count, blocklength, stride, oldtype, newtype);
}

#pragma weak MPI_Type_indexed_c = PMPI_Type_indexed_c
int PMPI_Type_indexed_c(MPI_Count count,
                        const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[],
                        MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return ucmpi_dt_indexed("MPI_Type_indexed_c", MPI_COMBINER_INDEXED, 1,
                            count, array_of_blocklengths, 0,
                            array_of_displacements, oldtype, newtype);
}

#pragma weak MPI_Type_create_hindexed_c = PMPI_Type_create_hindexed_c
int PMPI_Type_create_hindexed_c(MPI_Count count,
                                const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[],
                                MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return ucmpi_dt_indexed("MPI_Type_create_hindexed_c",
                            MPI_COMBINER_HINDEXED, 1, count,
                            array_of_blocklengths, 0, array_of_displacements,
                            oldtype, newtype);
}

#pragma weak MPI_Type_create_indexed_block_c = PMPI_Type_create_indexed_block_c
int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[],
                                     MPI_Datatype oldtype,
                                     MPI_Datatype *newtype)
{
    return ucmpi_dt_indexed("MPI_Type_create_indexed_block_c",
                            MPI_COMBINER_INDEXED_BLOCK, 1, count, NULL,
                            blocklength, array_of_displacements, oldtype,
                            newtype);
}

#pragma weak MPI_Type_create_hindexed_block_c = PMPI_Type_create_hindexed_block_c
int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                      const MPI_Count array_of_displacements[],
                                      MPI_Datatype oldtype,
                                      MPI_Datatype *newtype)
{
    return ucmpi_dt_indexed("MPI_Type_create_hindexed_block_c",
                            MPI_COMBINER_HINDEXED_BLOCK, 1, count, NULL,
                            blocklength, array_of_displacements, oldtype,
                            newtype);
}

#pragma weak MPI_Type_create_struct_c = PMPI_Type_create_struct_c
int PMPI_Type_create_struct_c(MPI_Count count,
                              const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[],
                              const MPI_Datatype array_of_types[],
                              MPI_Datatype *newtype)
{
    return ucmpi_dt_struct("MPI_Type_create_struct_c", 1, count,
                           array_of_blocklengths, array_of_displacements,
                           array_of_types, newtype);
}

#pragma weak MPI_Type_create_resized_c = PMPI_Type_create_resized_c
int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb,
                               MPI_Count extent, MPI_Datatype *newtype)
{
    return ucmpi_dt_resized("MPI_Type_create_resized_c", 1, oldtype, lb,
                            extent, newtype);
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

/* Gives t the large-count envelope and hands it out (or releases it). */
static int set_envelope_c(const char *fn, MPI_Datatype t, int ni,
                          const int *ints, MPI_Count nc,
                          const MPI_Count *counts, MPI_Datatype *newtype)
{
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(t);
    int *v = malloc(sizeof(int) * (size_t)ni);
    if (v == NULL || ucmpi_dt_set_counts(t, nc, counts) != MPI_SUCCESS) {
        free(v);
        ucmpi_dt_release(t);
        return ucmpi_dt_err(MPI_ERR_NO_MEM, fn, "out of memory");
    }
    memcpy(v, ints, sizeof(int) * (size_t)ni);
    free(im->ints);
    im->ints = v;
    im->ni = ni;
    *newtype = t;
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
        rc = ucmpi_dt_err(MPI_ERR_ARG, fn,
                          "sizes beyond INT_MAX are not " "supported (or out of memory)");
        goto out;
    }
    rc = PMPI_Type_create_subarray(ndims, sz, sub, st, order, oldtype, &t);
    if (rc != MPI_SUCCESS)
        goto out;
    memcpy(c, array_of_sizes, sizeof(MPI_Count) * (size_t)ndims);
    memcpy(c + ndims, array_of_subsizes, sizeof(MPI_Count) * (size_t)ndims);
    memcpy(c + 2 * ndims, array_of_starts, sizeof(MPI_Count) * (size_t)ndims);
    int ints[2] = {ndims, order};
    rc = set_envelope_c(fn, t, 2, ints, 3 * ndims, c, newtype);
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
        rc = ucmpi_dt_err(MPI_ERR_ARG, fn,
                          "sizes beyond INT_MAX are not " "supported (or out of memory)");
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
    rc = set_envelope_c(fn, t, 3 * ndims + 4, ints, ndims, array_of_gsizes,
                        newtype);
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
