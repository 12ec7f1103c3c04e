/* MPI_Comm_split_type: a split by (node, hwloc object this process is bound in);
 * a process not bound inside one object of the level gets MPI_COMM_NULL. */
#include "comm/comm.h"
#include "core/call.h"
#include "comm/comm_internal.h"

#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hwloc_topology_t topo;
static int topo_state;        /* 0 not loaded, 1 loaded, -1 failed */

static int load_topology(void)
{
    if (topo_state == 0) {
        topo_state = -1;
        if (hwloc_topology_init(&topo) == 0) {
            if (hwloc_topology_load(topo) == 0)
                topo_state = 1;
            else
                hwloc_topology_destroy(topo);
        }
    }
    return topo_state == 1;
}

static void split_type_finalize(void *unused)
{
    if (topo_state == 1)
        hwloc_topology_destroy(topo);
    topo_state = 0;
}

static int my_node(void)
{
    return ucmpi_global.node_of ? ucmpi_global.node_of[ucmpi_global.world_rank]
                                : 0;
}

/* Logical index of the object of `type` containing this process's
 * binding, or -1 (not bound inside one, or no such level). */
static int bound_object(hwloc_obj_type_t type)
{
    int idx = -1;
    if (!load_topology())
        return -1;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (set == NULL)
        return -1;
    if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0 &&
        !hwloc_bitmap_iszero(set)) {
        hwloc_obj_t o = hwloc_get_obj_covering_cpuset(topo, set);
        while (o != NULL && o->type != type)
            o = o->parent;
        if (o != NULL)
            idx = (int)o->logical_index;
    }
    hwloc_bitmap_free(set);
    return idx;
}

/* Colour of this process at hwloc level `type`: node and object. */
static int level_color(hwloc_obj_type_t type)
{
    if (type == HWLOC_OBJ_MACHINE)
        return my_node();
    int idx = bound_object(type);
    return idx < 0 ? MPI_UNDEFINED : my_node() * 65536 + idx;
}

/* hwloc type of an mpi_hw_resource_type value ("NUMANode",
 * "hwloc://L3Cache", "mpi_shared_memory" = the node). */
static int parse_resource(const char *v, hwloc_obj_type_t *type)
{
    union hwloc_obj_attr_u attr;
    if (strcmp(v, "mpi_shared_memory") == 0) {
        *type = HWLOC_OBJ_MACHINE;
        return 0;
    }
    if (strncmp(v, "hwloc://", 8) == 0)
        v += 8;
    return hwloc_type_sscanf(v, type, &attr, sizeof(attr));
}

static const hwloc_obj_type_t unguided_levels[] = {
    HWLOC_OBJ_MACHINE, HWLOC_OBJ_PACKAGE, HWLOC_OBJ_NUMANODE,
    HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE,
    HWLOC_OBJ_CORE, HWLOC_OBJ_PU
};
#define NLEVELS ((int)(sizeof(unguided_levels) / sizeof(unguided_levels[0])))

/* The largest level that splits comm into strict subsets: every process
 * computes its colour at each level, then all see all (allgather). */
static int unguided_color(ucmpi_comm_t *c, int *color, const char **name)
{
    int mine[NLEVELS], *all = malloc(sizeof(mine) * c->size);
    ucmpi_cc_t cc;
    if (all == NULL)
        return MPI_ERR_NO_MEM;
    for (int l = 0; l < NLEVELS; l++)
        mine[l] = level_color(unguided_levels[l]);
    ucmpi_cc_init(&cc, c);
    int rc = ucmpi_cc_allgather(&cc, mine, all, sizeof(mine));
    *color = MPI_UNDEFINED;
    for (int l = 0; rc == MPI_SUCCESS && l < NLEVELS; l++) {
        int splits = 0;
        for (int r = 0; r < c->size && !splits; r++)
            splits = all[r * NLEVELS + l] != all[l] ||
                     all[r * NLEVELS + l] == MPI_UNDEFINED;
        if (splits) {
            *color = mine[l];
            *name = hwloc_obj_type_string(unguided_levels[l]);
            break;
        }
    }
    free(all);
    return rc;
}

/* MPI_COMM_TYPE_RESOURCE_GUIDED with "mpi_pset_name": the processes of
 * the named set (mpi://WORLD or mpi://SELF) form one group. */
static int pset_color(const char *pset)
{
    if (pset == NULL)
        return MPI_UNDEFINED;
    if (strcmp(pset, "mpi://WORLD") == 0)
        return 0;
    if (strcmp(pset, "mpi://SELF") == 0)
        return ucmpi_global.world_rank;
    return MPI_UNDEFINED;
}

#pragma weak MPI_Comm_split_type = PMPI_Comm_split_type
int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key,
                         MPI_Info info, MPI_Comm *newcomm)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Comm_split_type");
    const char *level = NULL;
    int rc = ucmpi_check_intra(comm), color = MPI_UNDEFINED;
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_comm_live(comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (newcomm == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "newcomm is NULL");
    *newcomm = MPI_COMM_NULL;
    switch (split_type) {
    case MPI_UNDEFINED:
        break;
    case MPI_COMM_TYPE_SHARED:
        color = my_node();
        break;
    case MPI_COMM_TYPE_HW_GUIDED:
    case MPI_COMM_TYPE_RESOURCE_GUIDED: {
        hwloc_obj_type_t type;
        level = ucmpi_info_lookup(info, "mpi_hw_resource_type");
        if (level != NULL && parse_resource(level, &type) == 0)
            color = level_color(type);
        else if (split_type == MPI_COMM_TYPE_RESOURCE_GUIDED && level == NULL)
            color = pset_color(ucmpi_info_lookup(info, "mpi_pset_name"));
        else
            level = NULL;          /* unknown type: MPI_COMM_NULL */
        break;
    }
    case MPI_COMM_TYPE_HW_UNGUIDED:
        rc = unguided_color(comm, &color, &level);
        if (rc != MPI_SUCCESS)
            return ucmpi_err_comm(comm, rc, fn, "exchange failed");
        break;
    default:
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn,
                              "split_type %d is not a known type",
                              split_type);
    }
    ucmpi_comm_t *n;
    rc = ucmpi_comm_split_internal(comm, color, key, &n);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_comm(comm, rc, fn, "splitting failed");
    if (n != NULL && level != NULL) {
        /* report the level used, as MPI-4 asks */
        MPI_Info hints = ucmpi_info_new();
        if (hints != NULL &&
            PMPI_Info_set(hints, "mpi_hw_resource_type", level) != 0) {
            ucmpi_info_destroy(hints);
            hints = NULL;
        }
        n->info = hints;
    }
    *newcomm = n;
    return MPI_SUCCESS;
}

/* An info the user frees; no keys yet, like MPICH and Open MPI (the standard
 * leaves them to the implementation). */
#pragma weak MPI_Get_hw_resource_info = PMPI_Get_hw_resource_info
int PMPI_Get_hw_resource_info(MPI_Info *hw_info)
{
    const char *fn = "MPI_Get_hw_resource_info";
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (hw_info == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "hw_info is NULL");
    MPI_Info info = ucmpi_info_new();
    if (info == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_NO_MEM, fn,
                           "out of memory");
    *hw_info = info;
    return MPI_SUCCESS;
}

__attribute__((constructor)) static void split_type_hooks(void)
{
    ucmpi_hook_add(UCMPI_HOOK_FINALIZE_FIRST, UCMPI_HOOK_ORDER_COMM,
                   split_type_finalize);
}
