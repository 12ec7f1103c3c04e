/* Window accessors: group, name, info and the predefined attributes (answered
 * for lib/core/attr.c through two hooks). */
#include "rma/rma.h"
#include "core/attr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int PMPI_Info_create(MPI_Info *);
int PMPI_Info_set(MPI_Info, const char *, const char *);

#pragma weak MPI_Win_get_group = PMPI_Win_get_group
int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    static const char fn[] = "MPI_Win_get_group";
    int rc = ucmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (group == NULL)
        return ucmpi_err_win(win, MPI_ERR_ARG, fn, "group argument is NULL");
    ucmpi_group_retain(win->comm->group);
    *group = win->comm->group;
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_set_name = PMPI_Win_set_name
int PMPI_Win_set_name(MPI_Win win, const char *name)
{
    static const char fn[] = "MPI_Win_set_name";
    int rc = ucmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (name == NULL)
        return ucmpi_err_win(win, MPI_ERR_ARG, fn, "name is NULL");
    snprintf(win->name, sizeof(win->name), "%s", name);
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_get_name = PMPI_Win_get_name
int PMPI_Win_get_name(MPI_Win win, char *name, int *resultlen)
{
    static const char fn[] = "MPI_Win_get_name";
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (win == MPI_WIN_NULL && name != NULL && resultlen != NULL) {
        strcpy(name, "MPI_WIN_NULL");   /* MPI 4.1 */
        *resultlen = (int)strlen(name);
        return MPI_SUCCESS;
    }
    rc = ucmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (name == NULL || resultlen == NULL)
        return ucmpi_err_win(win, MPI_ERR_ARG, fn,
                             "name or resultlen is NULL");
    strcpy(name, win->name);
    *resultlen = (int)strlen(win->name);
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_set_info = PMPI_Win_set_info
int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    static const char fn[] = "MPI_Win_set_info";
    int rc = ucmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (info == MPI_INFO_NULL || *(const uint32_t *)info != UCMPI_MAGIC_INFO)
        return ucmpi_err_win(win, MPI_ERR_INFO, fn, "info is null or freed");
    ucmpi_rma_apply_info(win, info);
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_get_info = PMPI_Win_get_info
int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    static const char fn[] = "MPI_Win_get_info";
    int rc = ucmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (info_used == NULL)
        return ucmpi_err_win(win, MPI_ERR_ARG, fn, "info_used is NULL");
    rc = PMPI_Info_create(info_used);
    if (rc != MPI_SUCCESS)
        return rc;
    PMPI_Info_set(*info_used, "no_locks", win->no_locks ? "true" : "false");
    PMPI_Info_set(*info_used, "accumulate_ordering",
                  win->acc_ordering_none ? "none" : "rar,raw,war,waw");
    PMPI_Info_set(*info_used, "accumulate_ops", "same_op_no_op");
    PMPI_Info_set(*info_used, "same_size", win->same_size ? "true" : "false");
    PMPI_Info_set(*info_used, "same_disp_unit",
                  win->same_disp_unit ? "true" : "false");
    if (win->flavor == MPI_WIN_FLAVOR_SHARED)
        PMPI_Info_set(*info_used, "alloc_shared_noncontig", "false");
    return MPI_SUCCESS;
}

/* ---- attributes: answered for lib/core/attr.c (registered below) ---- */
static void **win_attrs(MPI_Win win)
{
    return ucmpi_win_valid(win) ? &win->attrs : NULL;
}

/* Sets *(void **)val to the address of the attribute's value. */
static int win_predefined_attr(MPI_Win win, int keyval, void *val, int *flag)
{
    void **out = val;
    *flag = 1;
    switch (keyval) {
    case MPI_WIN_BASE:
        *out = win->base;
        break;
    case MPI_WIN_SIZE:
        *out = &win->win_size;
        break;
    case MPI_WIN_DISP_UNIT:
        *out = &win->disp_unit_attr;
        break;
    case MPI_WIN_CREATE_FLAVOR:
        *out = &win->flavor;
        break;
    case MPI_WIN_MODEL:
        *out = &win->model;
        break;
    default:
        *flag = 0;
    }
    return MPI_SUCCESS;
}

static const ucmpi_attr_win_ops_t win_attr_ops = {win_attrs,
                                                  win_predefined_attr};

__attribute__((constructor)) static void win_attr_register(void)
{
    ucmpi_attr_win_ops(&win_attr_ops);
}
