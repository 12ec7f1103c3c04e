/* MPI_Type_create_f90_*: one predefined (unfreeable) object per distinct (p, r),
 * made on first use, kept for the job, with the F90 combiner as envelope. */
#include "dt.h"
#include "core/call.h"

#include <stdlib.h>

typedef struct f90_entry {
    int combiner, p, r;
    MPI_Datatype dt;
    struct f90_entry *next;
} f90_entry_t;

static f90_entry_t *f90_cache;

static int meets(int p, int r, int pmax, int rmax)
{
    return (p == MPI_UNDEFINED || p <= pmax) &&
           (r == MPI_UNDEFINED || r <= rmax);
}

static MPI_Datatype pick(int combiner, int p, int r)
{
    if (combiner == MPI_COMBINER_F90_INTEGER) {
        return p <= 2 ? MPI_INTEGER1 : p <= 4 ? MPI_INTEGER2
             : p <= 9 ? MPI_INTEGER4 : p <= 18 ? MPI_INTEGER8
             : MPI_DATATYPE_NULL;
    }
    int c = combiner == MPI_COMBINER_F90_COMPLEX;
    if (meets(p, r, 6, 37))
        return c ? MPI_COMPLEX8 : MPI_REAL4;
    if (meets(p, r, 15, 307))
        return c ? MPI_COMPLEX16 : MPI_REAL8;
    if (meets(p, r, 18, 4931))
        return c ? MPI_COMPLEX32 : MPI_REAL16;
    return MPI_DATATYPE_NULL;
}

static int create(const char *name, int combiner, int p, int r,
                  MPI_Datatype *newtype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    const char *why = NULL;
    int rc = ucmpi_check_initialized(fn), ints[2] = {p, r};
    if (rc != MPI_SUCCESS)
        return rc;
    if (newtype == NULL)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "newtype pointer is NULL");
    MPI_Datatype base = pick(combiner, p, r);
    if (base == MPI_DATATYPE_NULL)
        return ucmpi_dt_err(MPI_ERR_ARG, fn,
                            "no type has precision %d and range %d", p, r);
    ucmpi_lock();
    for (f90_entry_t *e = f90_cache; e; e = e->next)
        if (e->combiner == combiner && e->p == p && e->r == r) {
            *newtype = e->dt;
            ucmpi_unlock();
            return MPI_SUCCESS;
        }
    f90_entry_t *e = malloc(sizeof(*e));
    rc = e ? ucmpi_dt_wrap(base, combiner,
                           combiner == MPI_COMBINER_F90_INTEGER ? 1 : 2,
                           ints,
                           base, newtype, &why)
           : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) {
        ucmpi_dt_impl_t *im = ucmpi_dt_impl(*newtype);
        im->nt = 0;           /* the standard: no datatypes in contents */
        ucmpi_dt_release(im->types[0]);
        (*newtype)->predefined = 1;
        (*newtype)->committed = 1;
        *e = (f90_entry_t){combiner, p, r, *newtype, f90_cache};
        f90_cache = e;
    }
    ucmpi_unlock();
    if (rc != MPI_SUCCESS) {
        free(e);
        return ucmpi_dt_err(rc, fn, "%s", why ? why : "out of memory");
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_create_f90_real = PMPI_Type_create_f90_real
int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    return create("MPI_Type_create_f90_real", MPI_COMBINER_F90_REAL, p, r,
                  newtype);
}

#pragma weak MPI_Type_create_f90_complex = PMPI_Type_create_f90_complex
int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    return create("MPI_Type_create_f90_complex", MPI_COMBINER_F90_COMPLEX, p,
                  r, newtype);
}

#pragma weak MPI_Type_create_f90_integer = PMPI_Type_create_f90_integer
int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    return create("MPI_Type_create_f90_integer", MPI_COMBINER_F90_INTEGER,
                  r, MPI_UNDEFINED, newtype);
}
