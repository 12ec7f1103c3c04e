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

int mx_cpus_allowed(void)
{
    cpu_set_t set;

    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return 1;
    return CPU_COUNT(&set);
}

/* One topology for the whole launcher, cores and caches only: no I/O
 * discovery (PCI config reads cost ~15 ms in a VM) and no plugins (the GL
 * one probes ten X servers).  The PMIx server gets it too (PMIX_TOPOLOGY2)
 * instead of loading its own.  NULL if hwloc fails. */
void *mx_topology_load(void)
{
    hwloc_topology_t topo;

    /* only this process: the ranks' environment is already built */
    setenv("HWLOC_PLUGINS_BLACKLIST", "hwloc_gl,hwloc_opencl,hwloc_pci,hwloc_xml_libxml", 0);
    if (hwloc_topology_init(&topo) != 0)
        return NULL;
    if (hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE) != 0 ||
        hwloc_topology_load(topo) != 0) {
        hwloc_topology_destroy(topo);
        return NULL;
    }
    return topo;
}

void mx_topology_free(void *topo)
{
    if (topo != NULL)
        hwloc_topology_destroy(topo);
}

int mx_bind_plan(const mx_args_t *args, void *topology, void **masks, size_t *mask_size)
{
    hwloc_topology_t topo = topology;
    cpu_set_t *sets;
    int ncores;

    *masks = NULL;
    *mask_size = 0;
    if (args->bind == MX_BIND_NONE || (args->bind == MX_BIND_AUTO && args->np > mx_cpus_allowed()))
        return 0;                         /* oversubscribed: nothing to bind */
    ncores = topo != NULL ? hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) : 0;
    if (ncores <= 0) {
        mx_log("hwloc finds no cores: not binding");
        return 0;
    }
    if (args->bind == MX_BIND_AUTO && args->np > ncores)
        return 0;
    if (args->np > ncores)
        mx_log("%d ranks on %d cores: binding several ranks to a core", args->np, ncores);
    sets = calloc(args->np, sizeof(cpu_set_t));
    if (sets == NULL)
        return -1;
    for (int r = 0; r < args->np; r++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, r % ncores);
        hwloc_cpuset_to_glibc_sched_affinity(topo, core->cpuset, &sets[r], sizeof(cpu_set_t));
    }
    *masks = sets;
    *mask_size = sizeof(cpu_set_t);
    return 0;
}

/* In the child before exec: a plain system call. */
int mx_bind_apply(const void *masks, size_t mask_size, int rank)
{
    const cpu_set_t *sets = masks;
    return sched_setaffinity(0, mask_size, &sets[rank]);
}
