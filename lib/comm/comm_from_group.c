/* Comm_create_from_group, Intercomm_create_from_groups: agreed as create_group
 * does, over the world, on a tag from the string tag; errors go to errhandler. */
#include <string.h>
#include "core/call.h"
#include "p2p/pt2pt.h"
#include "comm/comm_internal.h"

/* FNV-1a folded into the tag range. */
static int tag_of(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return (int)(h % ((uint32_t)UCMPI_TAG_MAX + 1));
}

static int fail(MPI_Errhandler eh, int code, const char *why)
{
    const char *fn = ucmpi_call_name();
    return ucmpi_error(UCMPI_OBJ_ERRHANDLER, eh, code, fn, "%s", why);
}

static int check_args(MPI_Group group, const char *stringtag,
                      MPI_Errhandler eh, void *out)
{
    int rc = ucmpi_check_initialized(ucmpi_call_name());
    if (rc != MPI_SUCCESS)
        return rc;
    if (eh == MPI_ERRHANDLER_NULL || eh->magic != UCMPI_MAGIC_ERRHANDLER)
        return fail(NULL, MPI_ERR_ERRHANDLER,
                    "errhandler is null or freed");
    if (group == MPI_GROUP_NULL || group->magic != UCMPI_MAGIC_GROUP)
        return fail(eh, MPI_ERR_GROUP, "group is null or freed");
    if (stringtag == NULL || out == NULL)
        return fail(eh, MPI_ERR_ARG, "stringtag or the output is NULL");
    return MPI_SUCCESS;
}

/* Installs the caller's info and error handler on a new communicator. */
static int finish(MPI_Comm c, MPI_Info info, MPI_Errhandler eh)
{
    int rc = PMPI_Comm_set_errhandler(c, eh);
    if (rc == MPI_SUCCESS && info != MPI_INFO_NULL)
        rc = PMPI_Comm_set_info(c, info);
    return rc;
}

static int create(MPI_Group group, const char *stringtag, MPI_Comm *out)
{
    int bad;
    return ucmpi_comm_create_group_internal(MPI_COMM_WORLD, group,
                                            tag_of(stringtag), out, &bad);
}

#pragma weak MPI_Comm_create_from_group = PMPI_Comm_create_from_group
int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag,
                                MPI_Info info, MPI_Errhandler errhandler,
                                MPI_Comm *newcomm)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Comm_create_from_group");
    int rc = check_args(group, stringtag, errhandler, newcomm);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = create(group, stringtag, newcomm);   /* COMM_NULL for non-members */
    if (rc == MPI_SUCCESS && *newcomm != MPI_COMM_NULL) {
        (*newcomm)->session_id = group->session_id;
        rc = finish(*newcomm, info, errhandler);
    }
    if (rc != MPI_SUCCESS)
        return fail(errhandler, rc, "creating the communicator failed");
    return MPI_SUCCESS;
}

static int check_leader(MPI_Errhandler eh, MPI_Group g, int leader, const char *what)
{
    const char *fn = ucmpi_call_name();
    if (g == MPI_GROUP_NULL || g->magic != UCMPI_MAGIC_GROUP)
        return ucmpi_error(UCMPI_OBJ_ERRHANDLER, eh, MPI_ERR_GROUP, fn,
                           "the group of %s is null or freed", what);
    if (leader < 0 || leader >= g->size)
        return ucmpi_error(UCMPI_OBJ_ERRHANDLER, eh, MPI_ERR_RANK, fn,
                           "%s %d is not a rank of its group (size %d)",
                           what, leader, g->size);
    return MPI_SUCCESS;
}

/* The local side's communicator, then the intercommunicator between the
 * two leaders over MPI_COMM_WORLD (its AUX context, never user traffic). */
static int create_inter(MPI_Group lg, int ll, MPI_Group rg, int rl,
                        const char *stringtag, MPI_Comm *out)
{
    MPI_Comm local;
    int tag = tag_of(stringtag);
    int rc = create(lg, stringtag, &local);
    if (rc != MPI_SUCCESS)
        return rc;
    PMPI_Comm_set_errhandler(local, MPI_ERRORS_RETURN);
    rc = PMPI_Intercomm_create(local, ll, MPI_COMM_WORLD,
                               ucmpi_group_world(rg, rl), tag, out);
    PMPI_Comm_free(&local);
    return rc;
}

#pragma weak MPI_Intercomm_create_from_groups = \
    PMPI_Intercomm_create_from_groups
int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
                                      MPI_Group remote_group,
                                      int remote_leader, const char *stringtag,
                                      MPI_Info info, MPI_Errhandler errhandler,
                                      MPI_Comm *newintercomm)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Intercomm_create_from_groups");
    int rc = check_args(local_group, stringtag, errhandler, newintercomm);
    if (rc == MPI_SUCCESS && local_group->my_rank == MPI_UNDEFINED)
        rc = fail(errhandler, MPI_ERR_GROUP,
                  "the calling process is not a member of local_group");
    if (rc == MPI_SUCCESS)
        rc = check_leader(errhandler, local_group, local_leader,
                          "local_leader");
    if (rc == MPI_SUCCESS)
        rc = check_leader(errhandler, remote_group, remote_leader,
                          "remote_leader");
    if (rc != MPI_SUCCESS)
        return rc;
    if (local_group->my_rank == local_leader &&
        ucmpi_group_world(remote_group, remote_leader) ==
            ucmpi_group_world(local_group, local_leader))
        return fail(errhandler, MPI_ERR_GROUP,
                    "the leaders are the same process (groups overlap)");
    *newintercomm = MPI_COMM_NULL;
    rc = create_inter(local_group, local_leader, remote_group, remote_leader,
                      stringtag, newintercomm);
    if (rc == MPI_SUCCESS) {
        (*newintercomm)->session_id = local_group->session_id;
        rc = finish(*newintercomm, info, errhandler);
    }
    if (rc != MPI_SUCCESS)
        return fail(errhandler, rc,
                    "creating the intercommunicator failed");
    return MPI_SUCCESS;
}
