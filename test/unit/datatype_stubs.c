/* Stand-ins for the core services the datatype code calls, so its unit
 * tests and fuzzer run without the runtime.  Errors are recorded, not
 * fatal, so tests can check the class and the message. */
#include "core/check.h"
#include "datatype/datatype.h"
#include "core/attr.h"
#include "datatype_stubs.h"

#include <stdio.h>

int dt_stub_last_code;
char dt_stub_last_msg[512];

int ucmpi_check_initialized(const char *fn)
{
    (void)fn;
    return MPI_SUCCESS;
}

int ucmpi_error(int obj_kind, void *obj, int code, const char *fn,
                const char *fmt, ...)
{
    va_list ap;
    int n;
    (void)obj_kind;
    (void)obj;
    n = snprintf(dt_stub_last_msg, sizeof(dt_stub_last_msg), "%s: ", fn);
    va_start(ap, fmt);
    vsnprintf(dt_stub_last_msg + n, sizeof(dt_stub_last_msg) - (size_t)n,
              fmt, ap);
    va_end(ap);
    dt_stub_last_code = code;
    return code;
}

int ucmpi_check_comm(MPI_Comm comm, const char *fn)
{
    (void)comm;
    (void)fn;
    return MPI_SUCCESS;
}

int ucmpi_check_count(ucmpi_comm_t *comm, MPI_Count count, const char *fn)
{
    return count < 0 ? ucmpi_error(UCMPI_OBJ_COMM, comm, MPI_ERR_COUNT, fn,
                                   "count %lld is negative", count)
                     : MPI_SUCCESS;
}

int ucmpi_check_dt(ucmpi_comm_t *comm, MPI_Datatype dt, const char *fn)
{
    const char *why;
    int rc = ucmpi_dt_check(dt, 1, &why);
    return rc ? ucmpi_error(UCMPI_OBJ_COMM, comm, rc, fn, "datatype: %s", why)
              : MPI_SUCCESS;
}

int ucmpi_attr_copy_all(int kind, void *old_handle, void *new_handle,
                        void **old_attrs, void **new_attrs)
{
    (void)kind;
    (void)old_handle;
    (void)new_handle;
    (void)old_attrs;
    *new_attrs = NULL;
    return MPI_SUCCESS;
}

int ucmpi_attr_delete_all(int kind, void *handle, void **attrs)
{
    (void)kind;
    (void)handle;
    *attrs = NULL;
    return MPI_SUCCESS;
}

struct ucmpi_comm_s ucmpi_comm_world;

void ucmpi_lock(void)
{
}

void ucmpi_unlock(void)
{
}
