/* Groups: ordered sets of world ranks. */
#ifndef UCMPI_COMM_GROUP_H
#define UCMPI_COMM_GROUP_H

#include "core/base.h"

enum { UCMPI_GROUP_RANGE, UCMPI_GROUP_TABLE };

struct ucmpi_group_s {
    uint32_t magic;
    int refcount;
    int predefined;
    int size;
    int my_rank;              /* MPI_UNDEFINED when not a member */
    int kind;                 /* UCMPI_GROUP_RANGE or _TABLE */
    int first, stride;        /* range: world rank i = first + i * stride */
    int *ranks;               /* table: world rank of each member */
    /* api area (lib/core/session.c): the session the group derives from, by
     * serial number (0: the world model), so it can outlive the session */
    uint32_t session_id;
};
typedef struct ucmpi_group_s ucmpi_group_t;

static inline int ucmpi_group_world(const ucmpi_group_t *g, int i)
{
    return g->kind == UCMPI_GROUP_RANGE ? g->first + i * g->stride
                                        : g->ranks[i];
}

/* New group of `size` world ranks first, first+stride, ... (refcount 1). */
ucmpi_group_t *ucmpi_group_create_range(int first, int size, int stride);
void ucmpi_group_retain(ucmpi_group_t *g);
void ucmpi_group_release(ucmpi_group_t *g);
/* lib/comm/dpm_procs.c counts the groups that name each process of another
 * job (world rank >= world_size): g's members, delta +1 or -1. */
void ucmpi_dpm_pin(const ucmpi_group_t *g, int delta);

#endif
