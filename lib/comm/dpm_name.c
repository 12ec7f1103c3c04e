/* MPI_Publish_name / MPI_Unpublish_name / MPI_Lookup_name through the
 * launcher's name service (PMIx; mpiexec keeps the names in a directory
 * every job of the user on this machine shares: runtime/mpiexec_names.c). */
#include "comm/dpm.h"
#include "comm/comm_internal.h"
#include "core/call.h"
#include "ucmpi_rt.h"

#include <stdio.h>
#include <string.h>

/* The key of a service: PMIx keys are at most 511 bytes. */
static int service_key(const char *fn, const char *service, char *key,
                       size_t n)
{
    if (service == NULL || service[0] == '\0')
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "service_name is NULL or empty");
    if ((size_t)snprintf(key, n, "ucmpi.svc.%s", service) >= n)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "service_name is longer than %zu bytes",
                           n - 11);
    return MPI_SUCCESS;
}

static int common_checks(const char *fn, MPI_Info info, const char *port,
                         const char *service, char *key, size_t n)
{
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (info != MPI_INFO_NULL && !ucmpi_info_valid(info))
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_INFO, fn,
                           "info is not a valid info object");
    if (port == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "port_name is NULL");
    if (ucmpi_global.singleton && !ucmpi_rt_has_nameserver())
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_SERVICE, fn,
                           "no launcher, so no name service (run under "
                           "ucmpi's mpiexec, or start ucmpi_nameserver and "
                           "set UCMPI_NAMESERVER=host:port)");
    return service_key(fn, service, key, n);
}

#pragma weak MPI_Publish_name = PMPI_Publish_name
int PMPI_Publish_name(const char *service_name, MPI_Info info,
                      const char *port_name)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Publish_name");
    char key[400], why[256];
    int dup = 0, rc = common_checks(fn, info, port_name, service_name, key,
                                    sizeof(key));
    if (rc != MPI_SUCCESS)
        return rc;
    if (ucmpi_rt_publish(key, port_name, &dup, why, sizeof(why)) != 0)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_SERVICE, fn,
                           "cannot publish \"%s\": %s", service_name, why);
    return MPI_SUCCESS;
}

#pragma weak MPI_Unpublish_name = PMPI_Unpublish_name
int PMPI_Unpublish_name(const char *service_name, MPI_Info info,
                        const char *port_name)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Unpublish_name");
    char key[400], why[256];
    int rc = common_checks(fn, info, port_name, service_name, key,
                           sizeof(key));
    if (rc != MPI_SUCCESS)
        return rc;
    if (ucmpi_rt_unpublish(key, why, sizeof(why)) != 0)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_SERVICE, fn,
                           "cannot unpublish \"%s\": %s", service_name, why);
    return MPI_SUCCESS;
}

#pragma weak MPI_Lookup_name = PMPI_Lookup_name
int PMPI_Lookup_name(const char *service_name, MPI_Info info,
                     char *port_name)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Lookup_name");
    char key[400], why[256];
    int rc = common_checks(fn, info, port_name, service_name, key,
                           sizeof(key));
    if (rc != MPI_SUCCESS)
        return rc;
    if (ucmpi_rt_lookup(key, port_name, MPI_MAX_PORT_NAME, why,
                        sizeof(why)) != 0)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_NAME, fn,
                           "\"%s\": %s", service_name, why);
    return MPI_SUCCESS;
}
