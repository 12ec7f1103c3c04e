/* Names through the launcher (PMIx publish/lookup/unpublish): no MPI
 * semantics, key -> string value. */
#define _GNU_SOURCE
#include "ucmpi_rt.h"
#include "rt_nameclient.h"

#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ucmpi's mpiexec serves names itself (and forwards them to a name server
 * when it was given one); under another launcher (srun) the library asks
 * the name server of UCMPI_NAMESERVER directly. */
static const char *direct_server(void)
{
    const char *l = getenv("UCMPI_LAUNCHER");
    if (l != NULL && strcmp(l, "mpiexec") == 0)
        return NULL;
    return ucmpi_ns_address();
}

/* 0, or -1 (why says it: 1 in *dup when the name is taken). */
int ucmpi_rt_publish(const char *key, const char *value, int *dup, char *why,
                     size_t wlen)
{
    pmix_info_t info;
    pmix_status_t rc;

    *dup = 0;
    if (direct_server() != NULL) {
        int rc1 = ucmpi_ns_ask(direct_server(), 'P', key, value, NULL, 0, why,
                               wlen);
        *dup = rc1 == 1;
        if (rc1 == 1)
            snprintf(why, wlen, "the name is already published");
        return rc1 == 0 ? 0 : -1;
    }
    PMIX_INFO_LOAD(&info, key, value, PMIX_STRING);
    rc = PMIx_Publish(&info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (rc == PMIX_SUCCESS)
        return 0;
    *dup = rc == PMIX_ERR_DUPLICATE_KEY;
    snprintf(why, wlen, "%s", *dup ? "the name is already published"
             : rc == PMIX_ERR_NOT_SUPPORTED
                 ? "the launcher has no name service (srun's PMIx plugin "
                   "has none: use ucmpi's mpiexec, or start ucmpi_nameserver "
                   "and set UCMPI_NAMESERVER=host:port)"
                 : PMIx_Error_string(rc));
    return -1;
}

/* 0 and the value, or -1 (not published, or no name service). */
int ucmpi_rt_lookup(const char *key, char *value, size_t len, char *why,
                    size_t wlen)
{
    pmix_pdata_t pd;
    pmix_status_t rc;

    if (direct_server() != NULL) {
        int rc1 = ucmpi_ns_ask(direct_server(), 'L', key, NULL, value, len,
                               why, wlen);
        if (rc1 == 1)
            snprintf(why, wlen, "no such name is published");
        return rc1 == 0 ? 0 : -1;
    }
    PMIX_PDATA_CONSTRUCT(&pd);
    PMIX_LOAD_KEY(pd.key, key);
    rc = PMIx_Lookup(&pd, 1, NULL, 0);
    if (rc == PMIX_SUCCESS && pd.value.type == PMIX_STRING &&
        pd.value.data.string != NULL) {
        snprintf(value, len, "%s", pd.value.data.string);
        PMIX_PDATA_DESTRUCT(&pd);
        return 0;
    }
    PMIX_PDATA_DESTRUCT(&pd);
    snprintf(why, wlen, "%s", rc == PMIX_SUCCESS || rc == PMIX_ERR_NOT_FOUND
             ? "no such name is published" : PMIx_Error_string(rc));
    return -1;
}

int ucmpi_rt_unpublish(const char *key, char *why, size_t wlen)
{
    char *keys[2] = {(char *)key, NULL};

    if (direct_server() != NULL) {
        int rc1 = ucmpi_ns_ask(direct_server(), 'U', key, NULL, NULL, 0, why,
                               wlen);
        if (rc1 == 1)
            snprintf(why, wlen, "no such name is published");
        return rc1 == 0 ? 0 : -1;
    }
    pmix_status_t rc = PMIx_Unpublish(keys, NULL, 0);

    if (rc == PMIX_SUCCESS)
        return 0;
    snprintf(why, wlen, "%s", rc == PMIX_ERR_NOT_FOUND
             ? "no such name is published" : PMIx_Error_string(rc));
    return -1;
}

int ucmpi_rt_has_nameserver(void)
{
    return ucmpi_ns_address() != NULL;
}
