/*
 * Launcher detection and small parsers for the runtime client.
 */
#include "rt_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

int ucmpi_rt_pmix_env_present(void)
{
    if (getenv("PMIX_NAMESPACE") != NULL)
        return 1;
    for (char **e = environ; e != NULL && *e != NULL; e++)
        if (strncmp(*e, "PMIX_SERVER_URI", 15) == 0)
            return 1;
    return 0;
}

static long env_long(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && *v != '\0' ? strtol(v, NULL, 10) : -1;
}

int ucmpi_rt_launcher_visible(char *what, size_t len)
{
    long n;

    /* srun sets SLURM_STEP_ID; a batch script alone (no step) is no launcher */
    if (getenv("SLURM_STEP_ID") != NULL || getenv("SLURM_STEPID") != NULL) {
        n = env_long("SLURM_STEP_NUM_TASKS");
        if (n < 0)
            n = env_long("SLURM_NTASKS");
        if (n > 1) {
            snprintf(what, len, "a Slurm step of %ld tasks", n);
            return 1;
        }
    }
    if ((n = env_long("OMPI_COMM_WORLD_SIZE")) > 1) {
        snprintf(what, len, "Open MPI's launcher with %ld processes", n);
        return 1;
    }
    if ((n = env_long("PMI_SIZE")) > 1) {
        snprintf(what, len, "a PMI-1/2 launcher with %ld processes", n);
        return 1;
    }
    if (n < 0 && (getenv("PMI_RANK") != NULL || getenv("PMI_FD") != NULL)) {
        snprintf(what, len, "a PMI-1/2 launcher (PMI_RANK/PMI_FD)");
        return 1;
    }
    return 0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int ucmpi_rt_parse_ranks(const char *csv, int **ranks, int *n)
{
    int cap = 16, cnt = 0, *out = malloc(cap * sizeof(int));
    const char *p = csv;

    if (out == NULL)
        return -1;
    while (p != NULL && *p != '\0') {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p || lo < 0)
            goto err_free;
        if (*end == '-') {
            p = end + 1;
            hi = strtol(p, &end, 10);
            if (end == p || hi < lo)
                goto err_free;
        }
        for (long r = lo; r <= hi; r++) {
            if (cnt == cap) {
                int *bigger = realloc(out, 2 * cap * sizeof(int));
                if (bigger == NULL)
                    goto err_free;
                out = bigger;
                cap *= 2;
            }
            out[cnt++] = (int)r;
        }
        if (*end != ',' && *end != '\0')
            goto err_free;
        p = *end == ',' ? end + 1 : end;
    }
    qsort(out, cnt, sizeof(int), cmp_int);
    *ranks = out;
    *n = cnt;
    return 0;

err_free:
    free(out);
    return -1;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int ucmpi_rt_compact_nodes(const uint32_t *ids, int n, int *node_of, int *num_nodes)
{
    uint32_t *sorted = malloc((n > 0 ? n : 1) * sizeof(uint32_t));
    int distinct = 0;

    if (sorted == NULL)
        return -1;
    memcpy(sorted, ids, n * sizeof(uint32_t));
    qsort(sorted, n, sizeof(uint32_t), cmp_u32);
    for (int i = 0; i < n; i++)
        if (i == 0 || sorted[i] != sorted[i - 1])
            sorted[distinct++] = sorted[i];
    for (int i = 0; i < n; i++) {
        uint32_t *hit = bsearch(&ids[i], sorted, distinct, sizeof(uint32_t), cmp_u32);
        node_of[i] = (int)(hit - sorted);
    }
    free(sorted);
    *num_nodes = distinct;
    return 0;
}
