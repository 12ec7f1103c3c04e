/* Control variables: the tunables table as UCMPI_<NAME>; RUNTIME ones are
 * writable with scope ALL_EQ (they pick algorithms), the rest READONLY. */
#include "mpit/mpit.h"
#include "core/config_table.h"
#include "coll/coll_util.h"
#include "core/config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ucmpi_mpit_cvar_handle_s {
    struct ucmpi_mpit_cvar_handle_s *next;
    int index;
};

static struct ucmpi_mpit_cvar_handle_s *handles;   /* every live handle */

static const ucmpi_config_entry_t *entry(int i)
{
    return i >= 0 && i < ucmpi_config_count() ? &ucmpi_config_table[i] : NULL;
}

static int is_string(const ucmpi_config_entry_t *e)
{
    return (e->type & UCMPI_CFG_TYPE_MASK) == UCMPI_CFG_STR;
}

static int is_live(MPI_T_cvar_handle h)
{
    for (struct ucmpi_mpit_cvar_handle_s *p = handles; p; p = p->next)
        if (p == h)
            return 1;
    return 0;
}

void ucmpi_mpit_cvar_cleanup(void)
{
    while (handles) {
        struct ucmpi_mpit_cvar_handle_s *h = handles;
        handles = h->next;
        free(h);
    }
}

#pragma weak MPI_T_cvar_get_num = PMPI_T_cvar_get_num
int PMPI_T_cvar_get_num(int *num_cvar)
{
    return ucmpi_mpit_count(num_cvar, ucmpi_config_count());
}

#pragma weak MPI_T_cvar_get_info = PMPI_T_cvar_get_info
int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len,
                         int *verbosity, MPI_Datatype *datatype,
                         MPI_T_enum *enumtype, char *desc, int *desc_len,
                         int *bind, int *scope)
{
    int rc = ucmpi_mpit_enter();
    const ucmpi_config_entry_t *e = entry(cvar_index);
    char full[128];

    if (rc)
        return rc;
    if (e == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_INDEX);
    snprintf(full, sizeof(full), "UCMPI_%s", e->name);
    ucmpi_mpit_strcpy(name, name_len, full);
    ucmpi_mpit_strcpy(desc, desc_len, e->desc);
    if (verbosity)
        *verbosity = MPI_T_VERBOSITY_TUNER_BASIC;
    if (datatype)
        *datatype = is_string(e) ? MPI_CHAR : MPI_INT;
    if (enumtype)
        *enumtype = MPI_T_ENUM_NULL;
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (scope)
        *scope = e->type & UCMPI_CFG_RUNTIME ? MPI_T_SCOPE_ALL_EQ
                                             : MPI_T_SCOPE_READONLY;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_cvar_get_index = PMPI_T_cvar_get_index
int PMPI_T_cvar_get_index(const char *name, int *cvar_index)
{
    int rc = ucmpi_mpit_enter();
    const ucmpi_config_entry_t *e;

    if (rc)
        return rc;
    if (name == NULL || cvar_index == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    e = strncmp(name, "UCMPI_", 6) == 0 ? ucmpi_config_find(name + 6) : NULL;
    if (e == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_NAME);
    *cvar_index = (int)(e - ucmpi_config_table);
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_cvar_handle_alloc = PMPI_T_cvar_handle_alloc
int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle,
                             MPI_T_cvar_handle *handle, int *count)
{
    int rc = ucmpi_mpit_enter();
    const ucmpi_config_entry_t *e = entry(cvar_index);
    struct ucmpi_mpit_cvar_handle_s *h;

    (void)obj_handle;   /* no variable is bound to an object */
    if (rc)
        return rc;
    if (e == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_INDEX);
    if (handle == NULL || count == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    h = malloc(sizeof(*h));
    if (h == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_MEMORY);
    h->index = cvar_index;
    h->next = handles;
    handles = h;
    *handle = h;
    *count = is_string(e) ? UCMPI_CFG_VALUE_MAX : 1;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_cvar_handle_free = PMPI_T_cvar_handle_free
int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (handle == NULL || !is_live(*handle))
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_HANDLE);
    for (struct ucmpi_mpit_cvar_handle_s **p = &handles; *p; p = &(*p)->next)
        if (*p == *handle) {
            *p = (*handle)->next;
            break;
        }
    free(*handle);
    *handle = MPI_T_CVAR_HANDLE_NULL;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_cvar_read = PMPI_T_cvar_read
int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    int rc = ucmpi_mpit_enter();
    const ucmpi_config_entry_t *e;

    if (rc)
        return rc;
    if (!is_live(handle))
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_HANDLE);
    if (buf == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    e = entry(handle->index);
    if (is_string(e)) {
        int len = UCMPI_CFG_VALUE_MAX;
        ucmpi_mpit_strcpy(buf, &len, ucmpi_config_str(e->name));
    } else {
        long v = ucmpi_config_long(e->name);
        *(int *)buf = v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int)v;
    }
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_cvar_write = PMPI_T_cvar_write
int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    int rc = ucmpi_mpit_enter();
    const ucmpi_config_entry_t *e;
    char num[16];
    const char *v = num;

    if (rc)
        return rc;
    if (!is_live(handle))
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_HANDLE);
    if (buf == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    e = entry(handle->index);
    if (!(e->type & UCMPI_CFG_RUNTIME))
        return ucmpi_mpit_leave(MPI_T_ERR_CVAR_SET_NEVER);
    if (is_string(e))
        v = buf;
    else
        snprintf(num, sizeof(num), "%d", *(const int *)buf);
    if (is_string(e) && strnlen(v, UCMPI_CFG_VALUE_MAX) == UCMPI_CFG_VALUE_MAX)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    ucmpi_config_set(e, v);
    ucmpi_coll_knob_refresh();
    return ucmpi_mpit_leave(MPI_SUCCESS);
}
