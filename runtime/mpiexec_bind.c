/*
 * Binding: one core per rank (hwloc), round robin over the cores we may use.
 * Default: bind unless that would put two ranks on one core.
 */
#define _GNU_SOURCE
#include "mpiexec.h"

#include <hwloc.h>
#include <hwloc/glibc-sched.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

static int allowed_cpus(void)
{
    cpu_set_t set;

    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return 1;
    return CPU_COUNT(&set);
}

int mx_bind_plan(const mx_args_t *args, void **masks, size_t *mask_size)
{
    hwloc_topology_t topo;
    cpu_set_t *sets;
    int ncores, rc = -1;

    *masks = NULL;
    *mask_size = 0;
    if (args->bind == MX_BIND_NONE || (args->bind == MX_BIND_AUTO && args->np > allowed_cpus()))
        return 0;                         /* oversubscribed: skip loading hwloc */
    if (hwloc_topology_init(&topo) != 0)
        return -1;
    if (hwloc_topology_load(topo) != 0)
        goto out_destroy;
    ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    if (ncores <= 0) {
        mx_log("hwloc finds no cores: not binding");
        rc = 0;
        goto out_destroy;
    }
    if (args->bind == MX_BIND_AUTO && args->np > ncores) {
        rc = 0;
        goto out_destroy;
    }
    if (args->np > ncores)
        mx_log("%d ranks on %d cores: binding several ranks to a core", args->np, ncores);
    sets = calloc(args->np, sizeof(cpu_set_t));
    if (sets == NULL)
        goto out_destroy;
    for (int r = 0; r < args->np; r++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, r % ncores);
        hwloc_cpuset_to_glibc_sched_affinity(topo, core->cpuset, &sets[r], sizeof(cpu_set_t));
    }
    *masks = sets;
    *mask_size = sizeof(cpu_set_t);
    rc = 0;
out_destroy:
    hwloc_topology_destroy(topo);
    return rc;
}

/* In the child before exec: a plain system call. */
int mx_bind_apply(const void *masks, size_t mask_size, int rank)
{
    const cpu_set_t *sets = masks;
    return sched_setaffinity(0, mask_size, &sets[rank]);
}
