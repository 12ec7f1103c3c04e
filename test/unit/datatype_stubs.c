/* Stand-ins for the core services the datatype code calls, so its unit
 * tests and fuzzer run without the runtime.  Errors are recorded, not
 * fatal, so tests can check the class and the message. */
#include "ucmpi.h"
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
