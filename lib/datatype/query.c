/* Sizes and extents, status counts and elements, Type_match_size, addresses. */
#include "dt.h"
#include "core/call.h"

#include <limits.h>

static int check_type(const char *fn, MPI_Datatype dt, const void *out)
{
    return ucmpi_dt_check_entry(fn, dt, "datatype", out != NULL,
                                "an output pointer");
}

#pragma weak MPI_Type_size = PMPI_Type_size
int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
    int rc = check_type("MPI_Type_size", datatype, size);
    if (rc == MPI_SUCCESS)
        *size = datatype->size > INT_MAX ? MPI_UNDEFINED : (int)datatype->size;
    return rc;
}

static int size_count(const char *fn, MPI_Datatype datatype, MPI_Count *size)
{
    int rc = check_type(fn, datatype, size);
    if (rc == MPI_SUCCESS)
        *size = datatype->size;
    return rc;
}

#pragma weak MPI_Type_size_x = PMPI_Type_size_x
int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    return size_count("MPI_Type_size_x", datatype, size);
}

#pragma weak MPI_Type_size_c = PMPI_Type_size_c
int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
    return size_count("MPI_Type_size_c", datatype, size);
}

/* (true) lb and extent for the MPI_Aint form (aint) or the MPI_Count ones */
static int extent_of(const char *fn, MPI_Datatype dt, int true_ext, int aint,
                     void *lb, void *extent)
{
    int rc = check_type(fn, dt, lb && extent ? lb : NULL);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Aint l = true_ext ? dt->true_lb : dt->lb;
    MPI_Aint e = true_ext ? dt->true_extent : dt->extent;
    if (aint) {
        *(MPI_Aint *)lb = l;
        *(MPI_Aint *)extent = e;
    } else {
        *(MPI_Count *)lb = l;
        *(MPI_Count *)extent = e;
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_get_extent = PMPI_Type_get_extent
int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb,
                         MPI_Aint *extent)
{
    return extent_of("MPI_Type_get_extent", datatype, 0, 1, lb, extent);
}

#pragma weak MPI_Type_get_extent_x = PMPI_Type_get_extent_x
int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb,
                           MPI_Count *extent)
{
    return extent_of("MPI_Type_get_extent_x", datatype, 0, 0, lb, extent);
}

#pragma weak MPI_Type_get_extent_c = PMPI_Type_get_extent_c
int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb,
                           MPI_Count *extent)
{
    return extent_of("MPI_Type_get_extent_c", datatype, 0, 0, lb, extent);
}

#pragma weak MPI_Type_get_true_extent = PMPI_Type_get_true_extent
int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb,
                              MPI_Aint *true_extent)
{
    return extent_of("MPI_Type_get_true_extent", datatype, 1, 1, true_lb,
                     true_extent);
}

#pragma weak MPI_Type_get_true_extent_x = PMPI_Type_get_true_extent_x
int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb,
                                MPI_Count *true_extent)
{
    return extent_of("MPI_Type_get_true_extent_x", datatype, 1, 0, true_lb,
                     true_extent);
}

#pragma weak MPI_Type_get_true_extent_c = PMPI_Type_get_true_extent_c
int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb,
                                MPI_Count *true_extent)
{
    return extent_of("MPI_Type_get_true_extent_c", datatype, 1, 0, true_lb,
                     true_extent);
}

#pragma weak MPI_Type_match_size = PMPI_Type_match_size
int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    static const char fn[] = "MPI_Type_match_size";
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (datatype == NULL)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "datatype pointer is NULL");
    if (typeclass != MPI_TYPECLASS_REAL &&
        typeclass != MPI_TYPECLASS_INTEGER &&
        typeclass != MPI_TYPECLASS_COMPLEX)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "typeclass %d is not valid",
                            typeclass);
    MPI_Datatype t = ucmpi_dt_match(typeclass, size);
    if (t == MPI_DATATYPE_NULL)
        return ucmpi_dt_err(MPI_ERR_ARG, fn,
                            "no type of typeclass %d has size %d", typeclass,
                            size);
    *datatype = t;
    return MPI_SUCCESS;
}

/* ---- status queries: status.ucmpi_count holds the received bytes ---- */

static int check_status(const MPI_Status *st,
                        MPI_Datatype dt, const void *out)
{
    const char *fn = ucmpi_call_name();
    int rc = check_type(fn, dt, out);
    if (rc == MPI_SUCCESS && st == NULL)
        rc = ucmpi_dt_err(MPI_ERR_ARG, fn, "status is NULL");
    return rc;
}

static MPI_Count count_of(const MPI_Status *st, MPI_Datatype dt)
{
    if (dt->size == 0)
        return 0;
    if (st->ucmpi_count % dt->size)
        return MPI_UNDEFINED;
    return st->ucmpi_count / dt->size;
}

/* MPI_Get_count and (elements) MPI_Get_elements, into an int (icount:
 * MPI_UNDEFINED past INT_MAX) or an MPI_Count (count). */
static inline __attribute__((always_inline)) int
status_count(const char *name, const MPI_Status *status, MPI_Datatype datatype,
             int elements, int *icount, MPI_Count *count)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    const void *out = icount != NULL ? (const void *)icount : count;
    int rc = check_status(status, datatype, out);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Count c = elements ? ucmpi_dt_elements_in(datatype, status->ucmpi_count)
                           : count_of(status, datatype);
    if (c < 0)   /* not a whole number of elements */
        c = MPI_UNDEFINED;
    if (icount != NULL)
        *icount = c > INT_MAX ? MPI_UNDEFINED : (int)c;
    else
        *count = c;
    return MPI_SUCCESS;
}

#pragma weak MPI_Get_count = PMPI_Get_count
int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype,
                   int *count)
{
    return status_count("MPI_Get_count", status, datatype, 0, count, NULL);
}

#pragma weak MPI_Get_count_c = PMPI_Get_count_c
int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype,
                     MPI_Count *count)
{
    return status_count("MPI_Get_count_c", status, datatype, 0, NULL, count);
}

#pragma weak MPI_Get_elements = PMPI_Get_elements
int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype,
                      int *count)
{
    return status_count("MPI_Get_elements", status, datatype, 1, count, NULL);
}

#pragma weak MPI_Get_elements_x = PMPI_Get_elements_x
int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype,
                        MPI_Count *count)
{
    return status_count("MPI_Get_elements_x", status, datatype, 1, NULL,
                        count);
}

#pragma weak MPI_Get_elements_c = PMPI_Get_elements_c
int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype,
                        MPI_Count *count)
{
    return status_count("MPI_Get_elements_c", status, datatype, 1, NULL,
                        count);
}

static int set_elements(const char *name, MPI_Status *status,
                        MPI_Datatype datatype, MPI_Count count)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    int rc = check_status(status, datatype, status);
    if (rc != MPI_SUCCESS)
        return rc;
    if (count < 0)
        return ucmpi_dt_err(MPI_ERR_COUNT, fn, "count %lld is negative",
                            count);
    status->ucmpi_count = ucmpi_dt_bytes_of_elements(datatype, count);
    return MPI_SUCCESS;
}

#pragma weak MPI_Status_set_elements = PMPI_Status_set_elements
int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype,
                             int count)
{
    return set_elements("MPI_Status_set_elements", status, datatype, count);
}

#pragma weak MPI_Status_set_elements_x = PMPI_Status_set_elements_x
int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype,
                               MPI_Count count)
{
    return set_elements("MPI_Status_set_elements_x", status, datatype, count);
}

/* ---- addresses ---- */

#pragma weak MPI_Get_address = PMPI_Get_address
int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    static const char fn[] = "MPI_Get_address";
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (address == NULL)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "address pointer is NULL");
    *address = (MPI_Aint)location;
    return MPI_SUCCESS;
}

#pragma weak MPI_Aint_add = PMPI_Aint_add
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}

#pragma weak MPI_Aint_diff = PMPI_Aint_diff
MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}
