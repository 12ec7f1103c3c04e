/*
 * MPI_Type_* constructors: argument checks, then the builder (create.c).
 */
#include "dt.h"

#include <stdlib.h>

/* Common checks: library usable, count >= 0, old type valid, out ptr. */
static int check_common(const char *fn, int count, MPI_Datatype old,
                        MPI_Datatype *newtype)
{
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (count < 0)
        return ucmpi_dt_err(MPI_ERR_COUNT, fn, "count %d is negative", count);
    rc = ucmpi_dt_check_arg(old, 0, fn, "oldtype");
    if (rc != MPI_SUCCESS)
        return rc;
    if (newtype == NULL)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "newtype pointer is NULL");
    return MPI_SUCCESS;
}

static int check_blocklens(const char *fn, int count, const int *bl)
{
    if (count > 0 && bl == NULL)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "array_of_blocklengths is NULL");
    for (int i = 0; i < count; i++)
        if (bl[i] < 0)
            return ucmpi_dt_err(MPI_ERR_ARG, fn,
                                "array_of_blocklengths[%d] = %d is negative",
                                i, bl[i]);
    return MPI_SUCCESS;
}

static int done(int rc, const char *fn, const char *why)
{
    return rc == MPI_SUCCESS ? rc : ucmpi_dt_err(rc, fn, "%s", why);
}

#pragma weak MPI_Type_contiguous = PMPI_Type_contiguous
int PMPI_Type_contiguous(int count, MPI_Datatype oldtype,
                         MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_contiguous";
    const char *why = NULL;
    int rc = check_common(fn, count, oldtype, newtype);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = ucmpi_dt_create_contiguous(count, oldtype, newtype, &why);
    return done(rc, fn, why);
}

#pragma weak MPI_Type_vector = PMPI_Type_vector
int PMPI_Type_vector(int count, int blocklength, int stride,
                     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_vector";
    const char *why = NULL;
    int rc = check_common(fn, count, oldtype, newtype);
    if (rc != MPI_SUCCESS)
        return rc;
    if (blocklength < 0)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "blocklength %d is negative",
                            blocklength);
    rc = ucmpi_dt_create_vector(count, blocklength, stride, oldtype, newtype,
                                &why);
    return done(rc, fn, why);
}

#pragma weak MPI_Type_create_hvector = PMPI_Type_create_hvector
int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride,
                             MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_hvector";
    const char *why = NULL;
    int rc = check_common(fn, count, oldtype, newtype);
    if (rc != MPI_SUCCESS)
        return rc;
    if (blocklength < 0)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "blocklength %d is negative",
                            blocklength);
    rc = ucmpi_dt_create_hvector(count, blocklength, stride, oldtype, newtype,
                                 &why);
    return done(rc, fn, why);
}

/* indexed family: displacements in elements (disp_int) or bytes */
static int build_indexed(const char *fn, int combiner, int count,
                         const int *bl, int const_bl, const int *disp_int,
                         const MPI_Aint *disp_bytes, MPI_Datatype old,
                         MPI_Datatype *newtype)
{
    ucmpi_dt_builder_t bd;
    const char *why = NULL;
    int ni = 0, na = 0, rc;
    int *ints = malloc(sizeof(int) * (2 * (size_t)count + 2));

    if (ints == NULL)
        return ucmpi_dt_err(MPI_ERR_NO_MEM, fn, "out of memory");
    ints[ni++] = count;
    if (bl == NULL)
        ints[ni++] = const_bl;
    ucmpi_dt_builder_init(&bd);
    for (int i = 0; i < count; i++) {
        MPI_Aint d = disp_bytes ? disp_bytes[i] : 0;
        if (disp_int && __builtin_mul_overflow((MPI_Aint)disp_int[i],
                                               old->extent, &d))
            bd.b.overflow = 1;
        ucmpi_dt_builder_add(&bd, d, bl ? bl[i] : const_bl, old->extent,
                             old);
        if (bl)
            ints[ni++] = bl[i];
    }
    for (int i = 0; disp_int && i < count; i++)
        ints[ni++] = disp_int[i];
    if (disp_bytes)
        na = count;
    rc = ucmpi_dt_builder_finish(&bd, combiner, ni, ints, na, disp_bytes, 1,
                                 &old, newtype, &why);
    free(ints);
    return done(rc, fn, why);
}

static int check_disps(const char *fn, int count, const void *disp)
{
    if (count > 0 && disp == NULL)
        return ucmpi_dt_err(MPI_ERR_ARG, fn,
                            "array_of_displacements is NULL");
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_indexed = PMPI_Type_indexed
int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[],
                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_indexed";
    int rc = check_common(fn, count, oldtype, newtype);
    if (rc == MPI_SUCCESS)
        rc = check_blocklens(fn, count, array_of_blocklengths);
    if (rc == MPI_SUCCESS)
        rc = check_disps(fn, count, array_of_displacements);
    if (rc != MPI_SUCCESS)
        return rc;
    return build_indexed(fn, MPI_COMBINER_INDEXED, count,
                         array_of_blocklengths, 0, array_of_displacements,
                         NULL, oldtype, newtype);
}

#pragma weak MPI_Type_create_hindexed = PMPI_Type_create_hindexed
int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[],
                              MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_hindexed";
    int rc = check_common(fn, count, oldtype, newtype);
    if (rc == MPI_SUCCESS)
        rc = check_blocklens(fn, count, array_of_blocklengths);
    if (rc == MPI_SUCCESS)
        rc = check_disps(fn, count, array_of_displacements);
    if (rc != MPI_SUCCESS)
        return rc;
    return build_indexed(fn, MPI_COMBINER_HINDEXED, count,
                         array_of_blocklengths, 0, NULL,
                         array_of_displacements, oldtype, newtype);
}

#pragma weak MPI_Type_create_indexed_block = PMPI_Type_create_indexed_block
int PMPI_Type_create_indexed_block(int count, int blocklength,
                                   const int array_of_displacements[],
                                   MPI_Datatype oldtype,
                                   MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_indexed_block";
    int rc = check_common(fn, count, oldtype, newtype);
    if (rc == MPI_SUCCESS && blocklength < 0)
        rc = ucmpi_dt_err(MPI_ERR_ARG, fn, "blocklength %d is negative",
                          blocklength);
    if (rc == MPI_SUCCESS)
        rc = check_disps(fn, count, array_of_displacements);
    if (rc != MPI_SUCCESS)
        return rc;
    return build_indexed(fn, MPI_COMBINER_INDEXED_BLOCK, count, NULL,
                         blocklength, array_of_displacements, NULL, oldtype,
                         newtype);
}

#pragma weak MPI_Type_create_hindexed_block = PMPI_Type_create_hindexed_block
int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[],
                                    MPI_Datatype oldtype,
                                    MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_hindexed_block";
    int rc = check_common(fn, count, oldtype, newtype);
    if (rc == MPI_SUCCESS && blocklength < 0)
        rc = ucmpi_dt_err(MPI_ERR_ARG, fn, "blocklength %d is negative",
                          blocklength);
    if (rc == MPI_SUCCESS)
        rc = check_disps(fn, count, array_of_displacements);
    if (rc != MPI_SUCCESS)
        return rc;
    return build_indexed(fn, MPI_COMBINER_HINDEXED_BLOCK, count, NULL,
                         blocklength, NULL, array_of_displacements, oldtype,
                         newtype);
}

#pragma weak MPI_Type_create_struct = PMPI_Type_create_struct
int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[],
                            MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_struct";
    const char *why = NULL;
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (count < 0)
        return ucmpi_dt_err(MPI_ERR_COUNT, fn, "count %d is negative", count);
    rc = check_blocklens(fn, count, array_of_blocklengths);
    if (rc == MPI_SUCCESS)
        rc = check_disps(fn, count, array_of_displacements);
    if (rc != MPI_SUCCESS)
        return rc;
    if (count > 0 && array_of_types == NULL)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "array_of_types is NULL");
    for (int i = 0; i < count; i++) {
        if (ucmpi_dt_check(array_of_types[i], 0, &why) != MPI_SUCCESS)
            return ucmpi_dt_err(MPI_ERR_TYPE, fn, "array_of_types[%d]: %s",
                                i, why);
    }
    if (newtype == NULL)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "newtype pointer is NULL");
    rc = ucmpi_dt_create_struct(count, array_of_blocklengths,
                                array_of_displacements, array_of_types,
                                newtype, &why);
    return done(rc, fn, why);
}

#pragma weak MPI_Type_create_resized = PMPI_Type_create_resized
int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb,
                             MPI_Aint extent, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_resized";
    const char *why = NULL;
    MPI_Aint ub;
    int rc = check_common(fn, 0, oldtype, newtype);
    if (rc != MPI_SUCCESS)
        return rc;
    if (__builtin_add_overflow(lb, extent, &ub))
        return ucmpi_dt_err(MPI_ERR_ARG, fn,
                            "lb %ld + extent %ld overflows MPI_Aint",
                            (long)lb, (long)extent);
    rc = ucmpi_dt_create_resized(oldtype, lb, extent, newtype, &why);
    return done(rc, fn, why);
}
