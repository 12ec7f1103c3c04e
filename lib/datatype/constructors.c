/* MPI_Type_* constructors: one builder per family takes MPI_Count; the int
 * forms widen their arrays, and their envelope holds ints and addresses. */
#include "dt.h"
#include "core/call.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Library usable, count >= 0, old type valid (when check_old), out ptr. */
static int check_common(MPI_Count count, MPI_Datatype old, int check_old,
                        MPI_Datatype *newtype)
{
    const char *fn = ucmpi_call_name();
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

static int check_array(MPI_Count n, const MPI_Count *a, const char *name,
                       int nonneg)
{
    const char *fn = ucmpi_call_name();
    if (n > 0 && a == NULL)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "%s is NULL", name);
    for (MPI_Count i = 0; nonneg && i < n; i++)
        if (a[i] < 0)
            return ucmpi_dt_err(MPI_ERR_ARG, fn, "%s[%lld] = %lld is negative",
                                name, i, a[i]);
    return MPI_SUCCESS;
}

static int check_blocklength(MPI_Count bl)
{
    if (bl < 0)
        return ucmpi_dt_err(MPI_ERR_ARG, ucmpi_call_name(),
                            "blocklength %lld is negative", bl);
    return MPI_SUCCESS;
}

/* How many trailing envelope values are byte displacements, which an int
 * form's envelope holds as addresses (the others as integers). */
static int n_addresses(int combiner, MPI_Count n)
{
    switch (combiner) {
    case MPI_COMBINER_HVECTOR:
        return 1;
    case MPI_COMBINER_RESIZED:
        return 2;
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_HINDEXED_BLOCK:
    case MPI_COMBINER_STRUCT:
        return (int)n;
    default:
        return 0;
    }
}

/* Finishes a builder with the envelope {head[], a[]?, b[]?}: large counts
 * (large) or integers and addresses. */
static int finish(ucmpi_dt_builder_t *bd, int combiner, int large,
                  const MPI_Count *head, int nhead, const MPI_Count *a,
                  const MPI_Count *b, MPI_Count n, int nt,
                  const MPI_Datatype *types, MPI_Datatype *newtype)
{
    const char *why = "out of memory";
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MPI_Count nc = nhead + (a ? n : 0) + (b ? n : 0);
    int na = large ? 0 : n_addresses(combiner, n);
    int ni = large ? 0 : (int)nc - na, rc = MPI_ERR_NO_MEM;
    MPI_Count *c = malloc(sizeof(MPI_Count) * (size_t)(nc + 1));
    int *ints = malloc(sizeof(int) * (size_t)(ni + 1));
    MPI_Aint *aints = malloc(sizeof(MPI_Aint) * (size_t)(na + 1));

    if (c != NULL && ints != NULL && aints != NULL) {
        memcpy(c, head, sizeof(MPI_Count) * (size_t)nhead);
        if (a)
            memcpy(c + nhead, a, sizeof(MPI_Count) * (size_t)n);
        if (b)
            memcpy(c + nhead + (a ? n : 0), b, sizeof(MPI_Count) * (size_t)n);
        for (int i = 0; i < ni; i++)
            ints[i] = (int)c[i];
        for (int i = 0; i < na; i++)
            aints[i] = (MPI_Aint)c[ni + i];
        rc = ucmpi_dt_builder_finish(bd, combiner, ni, ints, na, aints, nt,
                                     types, &t, &why);
    } else {
        ucmpi_dt_nb_fini(&bd->nb);
    }
    if (rc == MPI_SUCCESS && large &&
        ucmpi_dt_set_counts(t, nc, c) != MPI_SUCCESS) {
        ucmpi_dt_release(t);
        rc = MPI_ERR_NO_MEM;
        why = "out of memory";
    }
    free(c);
    free(ints);
    free(aints);
    if (rc != MPI_SUCCESS)
        return ucmpi_dt_err(rc, ucmpi_call_name(), "%s", why);
    *newtype = t;
    return MPI_SUCCESS;
}

int ucmpi_dt_contig(const char *name, int large, MPI_Count count,
                    MPI_Datatype old, MPI_Datatype *newtype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    ucmpi_dt_builder_t bd;
    int rc = check_common(count, old, 1, newtype);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_dt_builder_init(&bd);
    ucmpi_dt_builder_add(&bd, 0, count, old->extent, old);
    return finish(&bd, MPI_COMBINER_CONTIGUOUS, large, &count, 1, NULL, NULL,
                  0, 1, &old, newtype);
}

/* vector (stride in elements) and hvector (in bytes) */
int ucmpi_dt_vector(const char *name, int combiner, int large,
                    MPI_Count count, MPI_Count bl, MPI_Count stride,
                    MPI_Datatype old, MPI_Datatype *newtype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    ucmpi_dt_builder_t bd;
    MPI_Count head[3] = {count, bl, stride};
    MPI_Aint s = (MPI_Aint)stride;
    int rc = check_common(count, old, 1, newtype);
    if (rc == MPI_SUCCESS)
        rc = check_blocklength(bl);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_dt_builder_init(&bd);
    if (combiner == MPI_COMBINER_VECTOR &&
        __builtin_mul_overflow((MPI_Aint)stride, old->extent, &s))
        bd.b.overflow = 1;
    ucmpi_dt_builder_add_nested(&bd, 0, count, s, bl, old->extent, old);
    return finish(&bd, combiner, large, head, 3, NULL, NULL, 0, 1, &old,
                  newtype);
}

int ucmpi_dt_indexed(const char *name, int combiner, int large,
                     MPI_Count count, const MPI_Count *bl, MPI_Count const_bl,
                     const MPI_Count *disp, MPI_Datatype old,
                     MPI_Datatype *newtype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    int per_block = combiner == MPI_COMBINER_INDEXED ||
                    combiner == MPI_COMBINER_HINDEXED;
    int in_bytes = combiner == MPI_COMBINER_HINDEXED ||
                   combiner == MPI_COMBINER_HINDEXED_BLOCK;
    ucmpi_dt_builder_t bd;
    MPI_Count head[2] = {count, const_bl};
    int rc = check_common(count, old, 1, newtype);
    if (rc == MPI_SUCCESS)
        rc = check_array(per_block ? count : 0, bl, "array_of_blocklengths",
                         1);
    if (rc == MPI_SUCCESS)
        rc = check_array(count, disp, "array_of_displacements", 0);
    if (rc == MPI_SUCCESS && !per_block)
        rc = check_blocklength(const_bl);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_dt_builder_init(&bd);
    for (MPI_Count i = 0; i < count; i++) {
        MPI_Aint d = (MPI_Aint)disp[i];
        if (!in_bytes && __builtin_mul_overflow(d, old->extent, &d))
            bd.b.overflow = 1;
        ucmpi_dt_builder_add(&bd, d, per_block ? bl[i] : const_bl,
                             old->extent, old);
    }
    return finish(&bd, combiner, large, head, per_block ? 1 : 2,
                  per_block ? bl : NULL, disp, count, 1, &old, newtype);
}

int ucmpi_dt_struct(const char *name, int large, MPI_Count count,
                    const MPI_Count *bl, const MPI_Count *disp,
                    const MPI_Datatype *types, MPI_Datatype *newtype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    const char *why;
    ucmpi_dt_builder_t bd;
    int rc = check_common(count, NULL, 0, newtype);
    if (rc == MPI_SUCCESS)
        rc = check_array(count, bl, "array_of_blocklengths", 1);
    if (rc == MPI_SUCCESS)
        rc = check_array(count, disp, "array_of_displacements", 0);
    if (rc == MPI_SUCCESS && count > 0 && types == NULL)
        rc = ucmpi_dt_err(MPI_ERR_ARG, fn, "array_of_types is NULL");
    for (MPI_Count i = 0; rc == MPI_SUCCESS && i < count; i++)
        if (ucmpi_dt_check(types[i], 0, &why) != MPI_SUCCESS)
            rc = ucmpi_dt_err(MPI_ERR_TYPE, fn, "array_of_types[%lld]: %s", i,
                              why);
    if (rc != MPI_SUCCESS)
        return rc;
    if (count > INT_MAX)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "more than INT_MAX types");
    ucmpi_dt_builder_init(&bd);
    for (MPI_Count i = 0; i < count; i++)
        ucmpi_dt_builder_add(&bd, (MPI_Aint)disp[i], bl[i], types[i]->extent,
                             types[i]);
    return finish(&bd, MPI_COMBINER_STRUCT, large, &count, 1, bl, disp, count,
                  (int)count, types, newtype);
}

int ucmpi_dt_resized(const char *name, int large, MPI_Datatype old,
                     MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    ucmpi_dt_builder_t bd;
    MPI_Count head[2] = {lb, extent};
    MPI_Aint ub;
    int rc = check_common(0, old, 1, newtype);
    if (rc != MPI_SUCCESS)
        return rc;
    if (__builtin_add_overflow((MPI_Aint)lb, (MPI_Aint)extent, &ub))
        return ucmpi_dt_err(MPI_ERR_ARG, ucmpi_call_name(),
                            "lb %lld + extent %lld overflows MPI_Aint", lb,
                            extent);
    ucmpi_dt_builder_init(&bd);
    ucmpi_dt_builder_add(&bd, 0, 1, 0, old);
    rc = finish(&bd, MPI_COMBINER_RESIZED, large, head, 2, NULL, NULL, 0, 1,
                &old, newtype);
    if (rc == MPI_SUCCESS)
        ucmpi_dt_set_bounds(*newtype, (MPI_Aint)lb, (MPI_Aint)extent);
    return rc;
}

/* An int form's array (int or MPI_Aint elements) as MPI_Count; NULL
 * stays NULL, for the builder to report. */
static MPI_Count *widen(const int *ia, const MPI_Aint *aa, int n, int *nomem)
{
    if ((ia == NULL && aa == NULL) || n <= 0)
        return NULL;
    MPI_Count *c = malloc(sizeof(MPI_Count) * (size_t)n);
    *nomem |= c == NULL;
    for (int i = 0; c != NULL && i < n; i++)
        c[i] = ia ? ia[i] : aa[i];
    return c;
}

/* The int forms of the indexed family and of struct: their arrays widened
 * to MPI_Count for the builders. */
static int widened(const char *name, int combiner, int count, const int *bl,
                   int const_bl, const int *idisp, const MPI_Aint *adisp,
                   const MPI_Datatype *types, MPI_Datatype old,
                   MPI_Datatype *newtype)
{
    int nomem = 0, rc;
    MPI_Count *b = widen(bl, NULL, count, &nomem);
    MPI_Count *d = widen(idisp, adisp, count, &nomem);
    if (nomem)
        rc = ucmpi_dt_err(MPI_ERR_NO_MEM, name, "out of memory");
    else if (combiner == MPI_COMBINER_STRUCT)
        rc = ucmpi_dt_struct(name, 0, count, b, d, types, newtype);
    else
        rc = ucmpi_dt_indexed(name, combiner, 0, count, b, const_bl, d, old,
                              newtype);
    free(b);
    free(d);
    return rc;
}

#pragma weak MPI_Type_contiguous = PMPI_Type_contiguous
int PMPI_Type_contiguous(int count, MPI_Datatype oldtype,
                         MPI_Datatype *newtype)
{
    return ucmpi_dt_contig("MPI_Type_contiguous", 0, count, oldtype, newtype);
}

#pragma weak MPI_Type_vector = PMPI_Type_vector
int PMPI_Type_vector(int count, int blocklength, int stride,
                     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return ucmpi_dt_vector("MPI_Type_vector", MPI_COMBINER_VECTOR, 0, count,
                           blocklength, stride, oldtype, newtype);
}

#pragma weak MPI_Type_create_hvector = PMPI_Type_create_hvector
int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride,
                             MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return ucmpi_dt_vector("MPI_Type_create_hvector", MPI_COMBINER_HVECTOR, 0,
                           count, blocklength, stride, oldtype, newtype);
}

#pragma weak MPI_Type_indexed = PMPI_Type_indexed
int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[],
                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return widened("MPI_Type_indexed", MPI_COMBINER_INDEXED, count,
                   array_of_blocklengths, 0, array_of_displacements, NULL,
                   NULL, oldtype, newtype);
}

#pragma weak MPI_Type_create_hindexed = PMPI_Type_create_hindexed
int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[],
                              MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return widened("MPI_Type_create_hindexed", MPI_COMBINER_HINDEXED, count,
                   array_of_blocklengths, 0, NULL, array_of_displacements,
                   NULL, oldtype, newtype);
}

#pragma weak MPI_Type_create_indexed_block = PMPI_Type_create_indexed_block
int PMPI_Type_create_indexed_block(int count, int blocklength,
                                   const int array_of_displacements[],
                                   MPI_Datatype oldtype,
                                   MPI_Datatype *newtype)
{
    return widened("MPI_Type_create_indexed_block", MPI_COMBINER_INDEXED_BLOCK,
                   count, NULL, blocklength, array_of_displacements, NULL,
                   NULL, oldtype, newtype);
}

#pragma weak MPI_Type_create_hindexed_block = PMPI_Type_create_hindexed_block
int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[],
                                    MPI_Datatype oldtype,
                                    MPI_Datatype *newtype)
{
    return widened("MPI_Type_create_hindexed_block",
                   MPI_COMBINER_HINDEXED_BLOCK, count, NULL, blocklength, NULL,
                   array_of_displacements, NULL, oldtype, newtype);
}

#pragma weak MPI_Type_create_struct = PMPI_Type_create_struct
int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[],
                            MPI_Datatype *newtype)
{
    return widened("MPI_Type_create_struct", MPI_COMBINER_STRUCT, count,
                   array_of_blocklengths, 0, NULL, array_of_displacements,
                   array_of_types, MPI_DATATYPE_NULL, newtype);
}

#pragma weak MPI_Type_create_resized = PMPI_Type_create_resized
int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb,
                             MPI_Aint extent, MPI_Datatype *newtype)
{
    return ucmpi_dt_resized("MPI_Type_create_resized", 0, oldtype, lb, extent,
                            newtype);
}
