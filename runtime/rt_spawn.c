/* Spawning a new job through the launcher (PMIx_Spawn): no MPI semantics,
 * the caller says what to run and gets the new job's namespace. */
#define _GNU_SOURCE
#include "ucmpi_rt.h"

#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A malloc'd copy of a NULL-terminated string array (PMIx frees it). */
static char **copy_strv(char *const *v)
{
    int n = 0;
    while (v != NULL && v[n] != NULL)
        n++;
    char **c = calloc((size_t)n + 1, sizeof(char *));
    for (int i = 0; c != NULL && i < n; i++)
        if ((c[i] = strdup(v[i])) == NULL) {
            for (int k = 0; k < i; k++)
                free(c[k]);
            free(c);
            return NULL;
        }
    return c;
}

static int load_app(pmix_app_t *a, const ucmpi_rt_app_t *in)
{
    size_t ni = 0;

    a->cmd = strdup(in->cmd);
    a->argv = copy_strv(in->argv);
    a->env = copy_strv(in->env);
    a->cwd = in->wdir != NULL ? strdup(in->wdir) : NULL;
    a->maxprocs = in->maxprocs;
    if (a->cmd == NULL || a->argv == NULL || a->env == NULL)
        return -1;
    ni = (in->path != NULL) + (in->host != NULL);
    if (ni > 0) {
        PMIX_INFO_CREATE(a->info, ni);
        a->ninfo = ni;
        ni = 0;
        if (in->path != NULL)
            PMIX_INFO_LOAD(&a->info[ni++], "ucmpi.path", in->path, PMIX_STRING);
        if (in->host != NULL)
            PMIX_INFO_LOAD(&a->info[ni++], PMIX_HOST, in->host, PMIX_STRING);
    }
    return 0;
}

int ucmpi_rt_spawn(const ucmpi_rt_app_t *apps, int napps, char *nspace,
                   size_t len, char *why, size_t wlen)
{
    pmix_app_t *a;
    pmix_nspace_t ns;
    pmix_status_t rc;
    int bad = 0;

    PMIX_APP_CREATE(a, (size_t)napps);
    if (a == NULL) {
        snprintf(why, wlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < napps && !bad; i++)
        bad = load_app(&a[i], &apps[i]);
    if (bad) {
        PMIX_APP_FREE(a, (size_t)napps);
        snprintf(why, wlen, "out of memory");
        return -1;
    }
    memset(ns, 0, sizeof(ns));
    rc = PMIx_Spawn(NULL, 0, a, (size_t)napps, ns);
    PMIX_APP_FREE(a, (size_t)napps);
    if (rc == PMIX_ERR_NOT_SUPPORTED) {
        snprintf(why, wlen, "the launcher does not spawn processes through "
                 "PMIx (Slurm's srun --mpi=pmix does not); run under ucmpi's "
                 "mpiexec");
        return -1;
    }
    if (rc != PMIX_SUCCESS) {
        snprintf(why, wlen, "the launcher could not start it: %s",
                 PMIx_Error_string(rc));
        return -1;
    }
    snprintf(nspace, len, "%s", ns);
    return 0;
}
