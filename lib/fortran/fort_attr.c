/*
 * Attribute values from Fortran.  Fortran stores an integer
 * (INTEGER(KIND=MPI_ADDRESS_KIND), or INTEGER for MPI_ATTR_PUT) where C
 * stores a pointer: lib/core/attr.c keeps which one an attribute holds, so
 * C reads a Fortran-set value by address and Fortran reads a C-set one as
 * the address; the predefined attributes are pointers to the value in C
 * and the value itself in Fortran (MPI-4.1 section 19.3.7).
 */
#include "fortran/fort.h"
#include "core/attr.h"

#include <stdint.h>

/* The Fortran value of a comm or win attribute that C returned. */
static MPI_Aint f_value(int keyval, int is_win, void *val)
{
    if (is_win && keyval == MPI_WIN_BASE)
        return (MPI_Aint)(intptr_t)val;
    if (is_win && keyval == MPI_WIN_SIZE)
        return *(MPI_Aint *)val;
    if ((is_win && keyval >= MPI_WIN_BASE && keyval <= MPI_WIN_MODEL) ||
        (!is_win && keyval >= MPI_TAG_UB && keyval <= MPI_LASTUSEDCODE))
        return *(int *)val;
    return (MPI_Aint)(intptr_t)val;
}

static void set_attr(const char *name, int kind, void *handle,
                     const MPI_Fint *keyval, MPI_Aint val, MPI_Fint *ierror)
{
    MPI_Fint ierror_absent;
    if (ierror == NULL)   /* mpi_f08: ierror is optional */
        ierror = &ierror_absent;
    *ierror = ucmpi_attr_fortran(name, kind, handle, *keyval, &val, NULL);
}

static MPI_Aint get_attr(const char *name, int kind, void *handle,
                         const MPI_Fint *keyval, MPI_Fint *flag,
                         MPI_Fint *ierror)
{
    MPI_Fint ierror_absent;
    if (ierror == NULL)   /* mpi_f08: ierror is optional */
        ierror = &ierror_absent;
    MPI_Aint v = 0;
    int c_flag = 0;
    *ierror = ucmpi_attr_fortran(name, kind, handle, *keyval, &v, &c_flag);
    *flag = *ierror == MPI_SUCCESS && c_flag;
    return *flag && kind != UCMPI_ATTR_TYPE
               ? f_value(*keyval, kind == UCMPI_ATTR_WIN, (void *)(intptr_t)v)
               : v;
}

#pragma weak mpi_comm_set_attr_ = pmpi_comm_set_attr_
#pragma weak mpi_comm_set_attr_f08_ = pmpi_comm_set_attr_
#pragma weak pmpi_comm_set_attr_f08_ = pmpi_comm_set_attr_
void pmpi_comm_set_attr_(const MPI_Fint *comm, const MPI_Fint *keyval,
                         const MPI_Aint *val, MPI_Fint *ierror);
void pmpi_comm_set_attr_(const MPI_Fint *comm, const MPI_Fint *keyval,
                         const MPI_Aint *val, MPI_Fint *ierror)
{
    set_attr("MPI_Comm_set_attr", UCMPI_ATTR_COMM, PMPI_Comm_f2c(*comm),
             keyval, *val, ierror);
}

#pragma weak mpi_comm_get_attr_ = pmpi_comm_get_attr_
#pragma weak mpi_comm_get_attr_f08_ = pmpi_comm_get_attr_
#pragma weak pmpi_comm_get_attr_f08_ = pmpi_comm_get_attr_
void pmpi_comm_get_attr_(const MPI_Fint *comm, const MPI_Fint *keyval,
                         MPI_Aint *val, MPI_Fint *flag, MPI_Fint *ierror);
void pmpi_comm_get_attr_(const MPI_Fint *comm, const MPI_Fint *keyval,
                         MPI_Aint *val, MPI_Fint *flag, MPI_Fint *ierror)
{
    MPI_Aint v = get_attr("MPI_Comm_get_attr", UCMPI_ATTR_COMM,
                          PMPI_Comm_f2c(*comm), keyval, flag, ierror);
    if (*flag)
        *val = (MPI_Aint)v;
}

#pragma weak mpi_attr_put_ = pmpi_attr_put_
#pragma weak mpi_attr_put_f08_ = pmpi_attr_put_
#pragma weak pmpi_attr_put_f08_ = pmpi_attr_put_
void pmpi_attr_put_(const MPI_Fint *comm, const MPI_Fint *keyval,
                    const MPI_Fint *val, MPI_Fint *ierror);
void pmpi_attr_put_(const MPI_Fint *comm, const MPI_Fint *keyval,
                    const MPI_Fint *val, MPI_Fint *ierror)
{
    set_attr("MPI_Attr_put", UCMPI_ATTR_COMM, PMPI_Comm_f2c(*comm),
             keyval, *val, ierror);
}

#pragma weak mpi_attr_get_ = pmpi_attr_get_
#pragma weak mpi_attr_get_f08_ = pmpi_attr_get_
#pragma weak pmpi_attr_get_f08_ = pmpi_attr_get_
void pmpi_attr_get_(const MPI_Fint *comm, const MPI_Fint *keyval,
                    MPI_Fint *val, MPI_Fint *flag, MPI_Fint *ierror);
void pmpi_attr_get_(const MPI_Fint *comm, const MPI_Fint *keyval,
                    MPI_Fint *val, MPI_Fint *flag, MPI_Fint *ierror)
{
    MPI_Aint v = get_attr("MPI_Attr_get", UCMPI_ATTR_COMM,
                          PMPI_Comm_f2c(*comm), keyval, flag, ierror);
    if (*flag)
        *val = (MPI_Fint)v;
}

#pragma weak mpi_type_set_attr_ = pmpi_type_set_attr_
#pragma weak mpi_type_set_attr_f08_ = pmpi_type_set_attr_
#pragma weak pmpi_type_set_attr_f08_ = pmpi_type_set_attr_
void pmpi_type_set_attr_(const MPI_Fint *type, const MPI_Fint *keyval,
                         const MPI_Aint *val, MPI_Fint *ierror);
void pmpi_type_set_attr_(const MPI_Fint *type, const MPI_Fint *keyval,
                         const MPI_Aint *val, MPI_Fint *ierror)
{
    set_attr("MPI_Type_set_attr", UCMPI_ATTR_TYPE, PMPI_Type_f2c(*type),
             keyval, *val, ierror);
}

#pragma weak mpi_type_get_attr_ = pmpi_type_get_attr_
#pragma weak mpi_type_get_attr_f08_ = pmpi_type_get_attr_
#pragma weak pmpi_type_get_attr_f08_ = pmpi_type_get_attr_
void pmpi_type_get_attr_(const MPI_Fint *type, const MPI_Fint *keyval,
                         MPI_Aint *val, MPI_Fint *flag, MPI_Fint *ierror);
void pmpi_type_get_attr_(const MPI_Fint *type, const MPI_Fint *keyval,
                         MPI_Aint *val, MPI_Fint *flag, MPI_Fint *ierror)
{
    MPI_Aint v = get_attr("MPI_Type_get_attr", UCMPI_ATTR_TYPE,
                          PMPI_Type_f2c(*type), keyval, flag, ierror);
    if (*flag)
        *val = (MPI_Aint)v;
}

#pragma weak mpi_win_set_attr_ = pmpi_win_set_attr_
#pragma weak mpi_win_set_attr_f08_ = pmpi_win_set_attr_
#pragma weak pmpi_win_set_attr_f08_ = pmpi_win_set_attr_
void pmpi_win_set_attr_(const MPI_Fint *win, const MPI_Fint *keyval,
                        const MPI_Aint *val, MPI_Fint *ierror);
void pmpi_win_set_attr_(const MPI_Fint *win, const MPI_Fint *keyval,
                        const MPI_Aint *val, MPI_Fint *ierror)
{
    set_attr("MPI_Win_set_attr", UCMPI_ATTR_WIN, PMPI_Win_f2c(*win),
             keyval, *val, ierror);
}

#pragma weak mpi_win_get_attr_ = pmpi_win_get_attr_
#pragma weak mpi_win_get_attr_f08_ = pmpi_win_get_attr_
#pragma weak pmpi_win_get_attr_f08_ = pmpi_win_get_attr_
void pmpi_win_get_attr_(const MPI_Fint *win, const MPI_Fint *keyval,
                        MPI_Aint *val, MPI_Fint *flag, MPI_Fint *ierror);
void pmpi_win_get_attr_(const MPI_Fint *win, const MPI_Fint *keyval,
                        MPI_Aint *val, MPI_Fint *flag, MPI_Fint *ierror)
{
    MPI_Aint v = get_attr("MPI_Win_get_attr", UCMPI_ATTR_WIN,
                          PMPI_Win_f2c(*win), keyval, flag, ierror);
    if (*flag)
        *val = (MPI_Aint)v;
}
