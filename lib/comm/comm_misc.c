/* Communicator queries and settings: compare, names, info, inter, remote. */
#include "comm/comm.h"
#include "core/call.h"
#include "comm/comm_internal.h"

#include <string.h>

#pragma weak MPI_Comm_compare = PMPI_Comm_compare
int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    const char *fn = "MPI_Comm_compare";
    int rc = ucmpi_check_comm(comm1, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_comm(comm2, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (result == NULL)
        return ucmpi_err_comm(comm1, MPI_ERR_ARG, fn, "result is NULL");
    if (comm1 == comm2) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    if (comm1->is_inter != comm2->is_inter) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    int r = ucmpi_group_compare(comm1->group, comm2->group);
    if (comm1->is_inter) {
        int rr = ucmpi_group_compare(comm1->remote_group, comm2->remote_group);
        if (rr > r)
            r = rr;
    }
    *result = r == MPI_IDENT ? MPI_CONGRUENT : r;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_set_name = PMPI_Comm_set_name
int PMPI_Comm_set_name(MPI_Comm comm, const char *name)
{
    int rc = ucmpi_check_comm_out(comm, "MPI_Comm_set_name", name, "name");
    if (rc != MPI_SUCCESS)
        return rc;
    /* Longer names are truncated, as the standard allows. */
    strncpy(comm->name, name, MPI_MAX_OBJECT_NAME - 1);
    comm->name[MPI_MAX_OBJECT_NAME - 1] = '\0';
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_get_name = PMPI_Comm_get_name
int PMPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen)
{
    if (comm == MPI_COMM_NULL && name != NULL && resultlen != NULL &&
        ucmpi_check_initialized("MPI_Comm_get_name") == MPI_SUCCESS) {
        strcpy(name, "MPI_COMM_NULL");      /* as MPICH answers */
        *resultlen = (int)strlen(name);
        return MPI_SUCCESS;
    }
    int rc = ucmpi_check_comm(comm, "MPI_Comm_get_name");
    if (rc != MPI_SUCCESS)
        return rc;
    if (name == NULL || resultlen == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, "MPI_Comm_get_name",
                              "name or resultlen is NULL");
    strcpy(name, comm->name);
    *resultlen = (int)strlen(name);
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_test_inter = PMPI_Comm_test_inter
int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    int rc = ucmpi_check_comm_out(comm, "MPI_Comm_test_inter", flag, "flag");
    if (rc == MPI_SUCCESS)
        *flag = comm->is_inter;
    return rc;
}

static int check_inter(MPI_Comm comm, const void *out)
{
    const char *fn = ucmpi_call_name();
    int rc = ucmpi_check_comm(comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!comm->is_inter)
        return ucmpi_err_comm(comm, MPI_ERR_COMM, fn,
                              "comm is not an intercommunicator");
    if (out == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn,
                              "output argument is NULL");
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_remote_size = PMPI_Comm_remote_size
int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Comm_remote_size");
    int rc = check_inter(comm, size);
    if (rc == MPI_SUCCESS)
        *size = comm->remote_size;
    return rc;
}

#pragma weak MPI_Comm_remote_group = PMPI_Comm_remote_group
int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Comm_remote_group");
    int rc = check_inter(comm, group);
    if (rc == MPI_SUCCESS) {
        ucmpi_group_retain(comm->remote_group);
        *group = comm->remote_group;
    }
    return rc;
}

/* ---- Info hints ---- */
/* Hints a communicator keeps: the standard's mpi_* keys and our own;
 * anything else is ignored (and not returned by MPI_Comm_get_info). */
static bool known_hint(const char *key)
{
    return strncmp(key, "mpi_", 4) == 0 || strncmp(key, "ucmpi_", 6) == 0;
}

MPI_Info ucmpi_comm_info_hints(MPI_Info info)
{
    return info == MPI_INFO_NULL ? NULL : ucmpi_info_filter(info, known_hint);
}

#pragma weak MPI_Comm_set_info = PMPI_Comm_set_info
int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    const char *fn = "MPI_Comm_set_info";
    int rc = ucmpi_check_comm(comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!ucmpi_info_valid(info))
        return ucmpi_err_comm(comm, MPI_ERR_INFO, fn,
                              "info is not a valid info object");
    MPI_Info hints = ucmpi_comm_info_hints(info);
    if (hints == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    ucmpi_info_destroy(comm->info);
    comm->info = hints;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_get_info = PMPI_Comm_get_info
int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    const char *fn = "MPI_Comm_get_info";
    int rc = ucmpi_check_comm_out(comm, fn, info_used, "info_used");
    if (rc != MPI_SUCCESS)
        return rc;
    *info_used = ucmpi_info_filter(comm->info, NULL);
    if (*info_used == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    return MPI_SUCCESS;
}
