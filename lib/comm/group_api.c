/* MPI_Group_* entry points around group.c's set logic; groups have no handler,
 * so errors go to the default one. */
#include "comm/comm.h"
#include "core/call.h"
#include "comm/comm_internal.h"

#include <stdlib.h>

static bool group_valid(MPI_Group g)
{
    return g != MPI_GROUP_NULL && g->magic == UCMPI_MAGIC_GROUP;
}

int ucmpi_check_group(MPI_Group g, MPI_Comm err_comm,
                      const char *argname)
{
    const char *fn = ucmpi_call_name();
    if (!group_valid(g))
        return ucmpi_error(UCMPI_OBJ_COMM, err_comm, MPI_ERR_GROUP, fn,
                           "%s is a null or freed group", argname);
    return MPI_SUCCESS;
}

/* Common prologue: initialized, and each group argument valid. */
static int enter(MPI_Group a, MPI_Group b)
{
    int rc = ucmpi_check_initialized(ucmpi_call_name());
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_group(a, NULL, "group");
    if (rc == MPI_SUCCESS && b != NULL)
        rc = ucmpi_check_group(b, NULL, "group2");
    return rc;
}

static int no_mem()
{
    return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_NO_MEM, ucmpi_call_name(),
                       "out of memory");
}

static int out_null(const void *p, const char *name)
{
    const char *fn = ucmpi_call_name();
    if (p != NULL)
        return MPI_SUCCESS;
    return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn, "%s is NULL",
                       name);
}

#pragma weak MPI_Group_size = PMPI_Group_size
int PMPI_Group_size(MPI_Group group, int *size)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Group_size");
    int rc = enter(group, NULL);
    if (rc == MPI_SUCCESS)
        rc = out_null(size, "size");
    if (rc == MPI_SUCCESS)
        *size = group->size;
    return rc;
}

#pragma weak MPI_Group_rank = PMPI_Group_rank
int PMPI_Group_rank(MPI_Group group, int *rank)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Group_rank");
    int rc = enter(group, NULL);
    if (rc == MPI_SUCCESS)
        rc = out_null(rank, "rank");
    if (rc == MPI_SUCCESS)
        *rank = group->my_rank;
    return rc;
}

#pragma weak MPI_Group_free = PMPI_Group_free
int PMPI_Group_free(MPI_Group *group)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Group_free");
    int rc = out_null(group, "group");
    if (rc == MPI_SUCCESS)
        rc = enter(*group, NULL);
    if (rc != MPI_SUCCESS)
        return rc;
    /* MPI_GROUP_EMPTY comes back from set operations, so freeing it is
     * allowed (and does nothing). */
    ucmpi_group_release(*group);
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}

/* Ranks must lie in [0, size) and, when `distinct`, appear once. */
static int check_rank_list(MPI_Group g, int n, const int *ranks)
{
    const char *fn = ucmpi_call_name();
    if (n < 0 || n > g->size)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "n = %d is not in [0, %d]", n, g->size);
    if (n > 0 && ranks == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "ranks is NULL");
    char *seen = calloc(g->size ? g->size : 1, 1);
    if (seen == NULL)
        return no_mem();
    int rc = MPI_SUCCESS;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        if (ranks[i] < 0 || ranks[i] >= g->size)
            rc = ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_RANK, fn,
                             "ranks[%d] = %d is not in [0, %d)", i, ranks[i],
                             g->size);
        else if (seen[ranks[i]]++)
            rc = ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_RANK, fn,
                             "ranks[%d] = %d appears twice", i, ranks[i]);
    }
    free(seen);
    return rc;
}

/* Each range in bounds with a nonzero stride, no rank named twice. */
static int check_ranges(MPI_Group g, int n, int ranges[][3])
{
    const char *fn = ucmpi_call_name();
    if (n < 0)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "n = %d is negative", n);
    if (n > 0 && ranges == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "ranges is NULL");
    char *seen = calloc(g->size ? g->size : 1, 1);
    if (seen == NULL)
        return no_mem();
    int rc = MPI_SUCCESS;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        int *r = ranges[i];
        if (r[2] == 0) {
            rc = ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                             "ranges[%d] has stride 0", i);
        } else if (r[0] < 0 || r[0] >= g->size || r[1] < 0 ||
                   r[1] >= g->size) {
            rc = ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_RANK, fn,
                             "ranges[%d] = (%d, %d, %d) is outside [0, %d)",
                             i, r[0], r[1], r[2], g->size);
        } else if (ucmpi_range_count(r) == 0) {
            rc = ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                             "ranges[%d] = (%d, %d, %d): stride points "
                             "away from last", i, r[0], r[1], r[2]);
        } else {
            int cnt = ucmpi_range_count(r);
            for (int j = 0; j < cnt && rc == MPI_SUCCESS; j++)
                if (seen[r[0] + j * r[2]]++)
                    rc = ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_RANK, fn,
                                     "rank %d named twice in ranges",
                                     r[0] + j * r[2]);
        }
    }
    free(seen);
    return rc;
}

/* A group derived from `from` derives from its session too (sessions
 * area: the session's buffer serves comms made from it). */
static int give(MPI_Group g, MPI_Group from, MPI_Group *out)
{
    if (g == NULL)
        return no_mem();
    if (!g->predefined)
        g->session_id = from->session_id;
    *out = g;
    return MPI_SUCCESS;
}

/* incl/excl take a rank list, range_incl/range_excl a range list. */
typedef ucmpi_group_t *(*by_ranks_fn)(const ucmpi_group_t *, int,
                                      const int *);
typedef ucmpi_group_t *(*by_ranges_fn)(const ucmpi_group_t *, int,
                                       int (*)[3]);

static int derive(const char *name, MPI_Group group, int n, const int *ranks,
                  by_ranks_fn f, int ranges[][3], by_ranges_fn rf,
                  MPI_Group *newgroup)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    int rc = enter(group, NULL);
    if (rc == MPI_SUCCESS)
        rc = out_null(newgroup, "newgroup");
    if (rc == MPI_SUCCESS)
        rc = f ? check_rank_list(group, n, ranks)
               : check_ranges(group, n, ranges);
    if (rc != MPI_SUCCESS)
        return rc;
    return give(f ? f(group, n, ranks) : rf(group, n, ranges), group,
                newgroup);
}

#pragma weak MPI_Group_incl = PMPI_Group_incl
int PMPI_Group_incl(MPI_Group group, int n, const int ranks[],
                    MPI_Group *newgroup)
{
    return derive("MPI_Group_incl", group, n, ranks, ucmpi_group_incl, NULL,
                  NULL, newgroup);
}

#pragma weak MPI_Group_excl = PMPI_Group_excl
int PMPI_Group_excl(MPI_Group group, int n, const int ranks[],
                    MPI_Group *newgroup)
{
    return derive("MPI_Group_excl", group, n, ranks, ucmpi_group_excl, NULL,
                  NULL, newgroup);
}

#pragma weak MPI_Group_range_incl = PMPI_Group_range_incl
int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3],
                          MPI_Group *newgroup)
{
    return derive("MPI_Group_range_incl", group, n, NULL, NULL, ranges,
                  ucmpi_group_range_incl, newgroup);
}

#pragma weak MPI_Group_range_excl = PMPI_Group_range_excl
int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3],
                          MPI_Group *newgroup)
{
    return derive("MPI_Group_range_excl", group, n, NULL, NULL, ranges,
                  ucmpi_group_range_excl, newgroup);
}

/* union, intersection and difference */
static int combine(const char *name, MPI_Group g1, MPI_Group g2,
                   MPI_Group *newgroup, int op)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    int rc = enter(g1, g2);
    if (rc == MPI_SUCCESS)
        rc = out_null(newgroup, "newgroup");
    return rc ? rc : give(ucmpi_group_combine(g1, g2, op), g1, newgroup);
}

#pragma weak MPI_Group_union = PMPI_Group_union
int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return combine("MPI_Group_union", group1, group2, newgroup,
                   UCMPI_GROUP_UNION);
}

#pragma weak MPI_Group_intersection = PMPI_Group_intersection
int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2,
                            MPI_Group *newgroup)
{
    return combine("MPI_Group_intersection", group1, group2, newgroup,
                   UCMPI_GROUP_INTERSECTION);
}

#pragma weak MPI_Group_difference = PMPI_Group_difference
int PMPI_Group_difference(MPI_Group group1, MPI_Group group2,
                          MPI_Group *newgroup)
{
    return combine("MPI_Group_difference", group1, group2, newgroup,
                   UCMPI_GROUP_DIFFERENCE);
}

#pragma weak MPI_Group_translate_ranks = PMPI_Group_translate_ranks
int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[],
                               MPI_Group group2, int ranks2[])
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Group_translate_ranks");
    int rc = enter(group1, group2);
    if (rc != MPI_SUCCESS)
        return rc;
    if (n < 0 || (n > 0 && (ranks1 == NULL || ranks2 == NULL)))
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "n = %d or a ranks array is invalid", n);
    for (int i = 0; i < n; i++)
        if (ranks1[i] != MPI_PROC_NULL &&
            (ranks1[i] < 0 || ranks1[i] >= group1->size))
            return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_RANK, fn,
                               "ranks1[%d] = %d is not in [0, %d)", i,
                               ranks1[i], group1->size);
    if (ucmpi_group_translate(group1, n, ranks1, group2, ranks2) != 0)
        return no_mem();
    return MPI_SUCCESS;
}

#pragma weak MPI_Group_compare = PMPI_Group_compare
int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Group_compare");
    int rc = enter(group1, group2);
    if (rc == MPI_SUCCESS)
        rc = out_null(result, "result");
    if (rc == MPI_SUCCESS)
        *result = ucmpi_group_compare(group1, group2);
    return rc;
}

#pragma weak MPI_Comm_group = PMPI_Comm_group
int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    int rc = ucmpi_check_comm_out(comm, "MPI_Comm_group", group, "group");
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_group_retain(comm->group);
    if (comm->session_id && !comm->group->predefined)
        comm->group->session_id = comm->session_id;
    *group = comm->group;
    return MPI_SUCCESS;
}
