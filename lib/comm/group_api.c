/*
 * MPI_Group_* entry points: argument checks around the set logic of
 * group.c.  Groups have no error handler of their own: errors go to the
 * default one (ucmpi_error with no object).
 */
#include "core/ucmpi.h"
#include "comm/comm_internal.h"

#include <stdlib.h>

static bool group_valid(MPI_Group g)
{
    return g != MPI_GROUP_NULL && g->magic == UCMPI_MAGIC_GROUP;
}

int ucmpi_check_group(MPI_Group g, MPI_Comm err_comm, const char *fn,
                      const char *argname)
{
    if (!group_valid(g))
        return ucmpi_error(UCMPI_OBJ_COMM, err_comm, MPI_ERR_GROUP, fn,
                           "%s is a null or freed group", argname);
    return MPI_SUCCESS;
}

/* Common prologue: initialized, and each group argument valid. */
static int enter(const char *fn, MPI_Group a, MPI_Group b)
{
    int rc = ucmpi_check_initialized(fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_group(a, NULL, fn, "group");
    if (rc == MPI_SUCCESS && b != NULL)
        rc = ucmpi_check_group(b, NULL, fn, "group2");
    return rc;
}

static int no_mem(const char *fn)
{
    return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_NO_MEM, fn,
                       "out of memory");
}

static int out_null(const char *fn, const void *p, const char *name)
{
    if (p != NULL)
        return MPI_SUCCESS;
    return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn, "%s is NULL",
                       name);
}

#pragma weak MPI_Group_size = PMPI_Group_size
int PMPI_Group_size(MPI_Group group, int *size)
{
    int rc = enter("MPI_Group_size", group, NULL);
    if (rc == MPI_SUCCESS)
        rc = out_null("MPI_Group_size", size, "size");
    if (rc == MPI_SUCCESS)
        *size = group->size;
    return rc;
}

#pragma weak MPI_Group_rank = PMPI_Group_rank
int PMPI_Group_rank(MPI_Group group, int *rank)
{
    int rc = enter("MPI_Group_rank", group, NULL);
    if (rc == MPI_SUCCESS)
        rc = out_null("MPI_Group_rank", rank, "rank");
    if (rc == MPI_SUCCESS)
        *rank = group->my_rank;
    return rc;
}

#pragma weak MPI_Group_free = PMPI_Group_free
int PMPI_Group_free(MPI_Group *group)
{
    int rc = out_null("MPI_Group_free", group, "group");
    if (rc == MPI_SUCCESS)
        rc = enter("MPI_Group_free", *group, NULL);
    if (rc != MPI_SUCCESS)
        return rc;
    /* MPI_GROUP_EMPTY comes back from set operations, so freeing it is
     * allowed (and does nothing). */
    ucmpi_group_release(*group);
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}

/* Ranks must lie in [0, size) and, when `distinct`, appear once. */
static int check_rank_list(MPI_Group g, int n, const int *ranks,
                           const char *fn)
{
    if (n < 0 || n > g->size)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "n = %d is not in [0, %d]", n, g->size);
    if (n > 0 && ranks == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "ranks is NULL");
    char *seen = calloc(g->size ? g->size : 1, 1);
    if (seen == NULL)
        return no_mem(fn);
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
static int check_ranges(MPI_Group g, int n, int ranges[][3], const char *fn)
{
    if (n < 0)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "n = %d is negative", n);
    if (n > 0 && ranges == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "ranges is NULL");
    char *seen = calloc(g->size ? g->size : 1, 1);
    if (seen == NULL)
        return no_mem(fn);
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
static int give(MPI_Group g, MPI_Group from, MPI_Group *out, const char *fn)
{
    if (g == NULL)
        return no_mem(fn);
    if (!g->predefined)
        g->session_id = from->session_id;
    *out = g;
    return MPI_SUCCESS;
}

#pragma weak MPI_Group_incl = PMPI_Group_incl
int PMPI_Group_incl(MPI_Group group, int n, const int ranks[],
                    MPI_Group *newgroup)
{
    const char *fn = "MPI_Group_incl";
    int rc = enter(fn, group, NULL);
    if (rc == MPI_SUCCESS)
        rc = out_null(fn, newgroup, "newgroup");
    if (rc == MPI_SUCCESS)
        rc = check_rank_list(group, n, ranks, fn);
    return rc ? rc
              : give(ucmpi_group_incl(group, n, ranks),
                     group, newgroup, fn);
}

#pragma weak MPI_Group_excl = PMPI_Group_excl
int PMPI_Group_excl(MPI_Group group, int n, const int ranks[],
                    MPI_Group *newgroup)
{
    const char *fn = "MPI_Group_excl";
    int rc = enter(fn, group, NULL);
    if (rc == MPI_SUCCESS)
        rc = out_null(fn, newgroup, "newgroup");
    if (rc == MPI_SUCCESS)
        rc = check_rank_list(group, n, ranks, fn);
    return rc ? rc
              : give(ucmpi_group_excl(group, n, ranks),
                     group, newgroup, fn);
}

#pragma weak MPI_Group_range_incl = PMPI_Group_range_incl
int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3],
                          MPI_Group *newgroup)
{
    const char *fn = "MPI_Group_range_incl";
    int rc = enter(fn, group, NULL);
    if (rc == MPI_SUCCESS)
        rc = out_null(fn, newgroup, "newgroup");
    if (rc == MPI_SUCCESS)
        rc = check_ranges(group, n, ranges, fn);
    return rc ? rc
              : give(ucmpi_group_range_incl(group, n, ranges),
                     group, newgroup, fn);
}

#pragma weak MPI_Group_range_excl = PMPI_Group_range_excl
int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3],
                          MPI_Group *newgroup)
{
    const char *fn = "MPI_Group_range_excl";
    int rc = enter(fn, group, NULL);
    if (rc == MPI_SUCCESS)
        rc = out_null(fn, newgroup, "newgroup");
    if (rc == MPI_SUCCESS)
        rc = check_ranges(group, n, ranges, fn);
    return rc ? rc
              : give(ucmpi_group_range_excl(group, n, ranges),
                     group, newgroup, fn);
}

#pragma weak MPI_Group_union = PMPI_Group_union
int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    const char *fn = "MPI_Group_union";
    int rc = enter(fn, group1, group2);
    if (rc == MPI_SUCCESS)
        rc = out_null(fn, newgroup, "newgroup");
    return rc ? rc
              : give(ucmpi_group_union(group1, group2),
                     group1, newgroup, fn);
}

#pragma weak MPI_Group_intersection = PMPI_Group_intersection
int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2,
                            MPI_Group *newgroup)
{
    const char *fn = "MPI_Group_intersection";
    int rc = enter(fn, group1, group2);
    if (rc == MPI_SUCCESS)
        rc = out_null(fn, newgroup, "newgroup");
    return rc ? rc
              : give(ucmpi_group_intersection(group1, group2),
                     group1, newgroup, fn);
}

#pragma weak MPI_Group_difference = PMPI_Group_difference
int PMPI_Group_difference(MPI_Group group1, MPI_Group group2,
                          MPI_Group *newgroup)
{
    const char *fn = "MPI_Group_difference";
    int rc = enter(fn, group1, group2);
    if (rc == MPI_SUCCESS)
        rc = out_null(fn, newgroup, "newgroup");
    return rc ? rc
              : give(ucmpi_group_difference(group1, group2),
                     group1, newgroup, fn);
}

#pragma weak MPI_Group_translate_ranks = PMPI_Group_translate_ranks
int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[],
                               MPI_Group group2, int ranks2[])
{
    const char *fn = "MPI_Group_translate_ranks";
    int rc = enter(fn, group1, group2);
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
        return no_mem(fn);
    return MPI_SUCCESS;
}

#pragma weak MPI_Group_compare = PMPI_Group_compare
int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    const char *fn = "MPI_Group_compare";
    int rc = enter(fn, group1, group2);
    if (rc == MPI_SUCCESS)
        rc = out_null(fn, result, "result");
    if (rc == MPI_SUCCESS)
        *result = ucmpi_group_compare(group1, group2);
    return rc;
}

#pragma weak MPI_Comm_group = PMPI_Comm_group
int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    int rc = ucmpi_check_initialized("MPI_Comm_group");
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_comm(comm, "MPI_Comm_group");
    if (rc == MPI_SUCCESS && group == NULL)
        rc = ucmpi_err_comm(comm, MPI_ERR_ARG, "MPI_Comm_group",
                            "group is NULL");
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_group_retain(comm->group);
    if (comm->session_id && !comm->group->predefined)
        comm->group->session_id = comm->session_id;
    *group = comm->group;
    return MPI_SUCCESS;
}
