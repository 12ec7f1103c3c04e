/* Datatype life cycle: checks, reference counts (a freed type lives on while
 * requests or other types use it), commit, free and dup. */
#include "dt.h"
#include "core/attr.h"

#include <string.h>

int ucmpi_dt_check(MPI_Datatype dt, int need_commit, const char **why)
{
    if (dt == MPI_DATATYPE_NULL) {
        *why = "datatype is MPI_DATATYPE_NULL";
        return MPI_ERR_TYPE;
    }
    if (dt->magic != UCMPI_MAGIC_DATATYPE) {
        *why = "not a valid datatype (freed or wrong handle)";
        return MPI_ERR_TYPE;
    }
    if (need_commit && !dt->committed) {
        *why = "datatype is not committed";
        return MPI_ERR_TYPE;
    }
    return MPI_SUCCESS;
}

int ucmpi_dt_check_arg(MPI_Datatype dt, int need_commit, const char *fn,
                       const char *argname)
{
    const char *why;
    int rc = ucmpi_dt_check(dt, need_commit, &why);
    if (rc != MPI_SUCCESS)
        return ucmpi_dt_err(rc, fn, "%s: %s", argname, why);
    return MPI_SUCCESS;
}

int ucmpi_dt_check_entry(const char *fn, MPI_Datatype dt, const char *argname,
                         int out_ok, const char *outname)
{
    int rc = ucmpi_check_initialized(fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_dt_check_arg(dt, 0, fn, argname);
    if (rc == MPI_SUCCESS && !out_ok)
        rc = ucmpi_dt_err(MPI_ERR_ARG, fn, "%s is NULL", outname);
    return rc;
}

void ucmpi_dt_retain(MPI_Datatype dt)
{
    if (!dt->predefined)
        __atomic_add_fetch(&dt->refcount, 1, __ATOMIC_RELAXED);
}

void ucmpi_dt_release(MPI_Datatype dt)
{
    if (dt->predefined)
        return;
    if (__atomic_sub_fetch(&dt->refcount, 1, __ATOMIC_ACQ_REL) == 0)
        ucmpi_dt_destroy(dt);
}

MPI_Datatype ucmpi_dt_basic(MPI_Datatype dt, MPI_Count *per_element)
{
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(dt);
    if (im->basic == NULL)
        return MPI_DATATYPE_NULL;
    if (per_element)
        *per_element = dt->size / im->basic->size;
    return im->basic;
}

/* Type_commit's and Type_free's checks of the datatype handle */
static int check_handle(const char *fn, const MPI_Datatype *datatype)
{
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (datatype == NULL)
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "datatype pointer is NULL");
    return ucmpi_dt_check_arg(*datatype, 0, fn, "datatype");
}

#pragma weak MPI_Type_commit = PMPI_Type_commit
int PMPI_Type_commit(MPI_Datatype *datatype)
{
    int rc = check_handle("MPI_Type_commit", datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    /* the nodes were compiled by the constructor; commit publishes them */
    (*datatype)->committed = 1;
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_free = PMPI_Type_free
int PMPI_Type_free(MPI_Datatype *datatype)
{
    static const char fn[] = "MPI_Type_free";
    int rc = check_handle(fn, datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Datatype dt = *datatype;
    if (dt->predefined)
        return ucmpi_dt_err(MPI_ERR_TYPE, fn,
                            "cannot free predefined datatype %s",
                            ucmpi_dt_impl(dt)->name);
    /* delete callbacks run at the user's free, not when requests finish */
    if (dt->attrs != NULL) {
        rc = ucmpi_attr_delete_all(UCMPI_ATTR_TYPE, dt, &dt->attrs);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    ucmpi_dt_release(dt);
    *datatype = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_dup = PMPI_Type_dup
int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_dup";
    const char *why;
    MPI_Datatype t;
    int rc = ucmpi_dt_check_entry(fn, oldtype, "oldtype", newtype != NULL,
                                  "newtype pointer");
    if (rc != MPI_SUCCESS)
        return rc;
    *newtype = MPI_DATATYPE_NULL;   /* what a failed dup leaves */
    /* same bounds (struct padding must not apply twice), same commit */
    rc = ucmpi_dt_wrap(oldtype, MPI_COMBINER_DUP, 0, NULL, oldtype, &t, &why);
    if (rc != MPI_SUCCESS)
        return ucmpi_dt_err(rc, fn, "%s", why);
    t->committed = oldtype->committed;
    if (oldtype->attrs != NULL) {
        rc = ucmpi_attr_copy_all(UCMPI_ATTR_TYPE, oldtype, t,
                                 &oldtype->attrs, &t->attrs);
        if (rc != MPI_SUCCESS) {
            ucmpi_dt_release(t);
            return ucmpi_dt_err(rc, fn, "copying oldtype's attributes "
                                "failed (a copy callback returned %d)", rc);
        }
    }
    *newtype = t;
    return MPI_SUCCESS;
}
