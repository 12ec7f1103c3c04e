/* No performance variables yet; sessions are real so that tools written for
 * any MPI run unchanged and see an empty set. */
#include "mpit/mpit.h"

#include <stdlib.h>

struct ucmpi_mpit_pvar_session_s {
    struct ucmpi_mpit_pvar_session_s *next;
};

static struct ucmpi_mpit_pvar_session_s *sessions;   /* every live session */

static int session_is_live(MPI_T_pvar_session s)
{
    for (struct ucmpi_mpit_pvar_session_s *p = sessions; p; p = p->next)
        if (p == s)
            return 1;
    return 0;
}

void ucmpi_mpit_pvar_cleanup(void)
{
    while (sessions) {
        struct ucmpi_mpit_pvar_session_s *s = sessions;
        sessions = s->next;
        free(s);
    }
}

UCMPI_MPIT_STUB(T_pvar_get_info, MPI_T_ERR_INVALID_INDEX, int pvar_index,
                char *name, int *name_len, int *verbosity, int *var_class,
                MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc,
                int *desc_len, int *bind, int *readonly, int *continuous,
                int *atomic)

#pragma weak MPI_T_pvar_get_index = PMPI_T_pvar_get_index
int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (name == NULL || pvar_index == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    return ucmpi_mpit_leave(MPI_T_ERR_INVALID_NAME);
}

#pragma weak MPI_T_pvar_session_create = PMPI_T_pvar_session_create
int PMPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
    int rc = ucmpi_mpit_enter();
    struct ucmpi_mpit_pvar_session_s *s;

    if (rc)
        return rc;
    if (session == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    s = malloc(sizeof(*s));
    if (s == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_MEMORY);
    s->next = sessions;
    sessions = s;
    *session = s;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_pvar_session_free = PMPI_T_pvar_session_free
int PMPI_T_pvar_session_free(MPI_T_pvar_session *session)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (session == NULL || !session_is_live(*session))
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_SESSION);
    for (struct ucmpi_mpit_pvar_session_s **p = &sessions; *p;
         p = &(*p)->next)
        if (*p == *session) {
            *p = (*session)->next;
            break;
        }
    free(*session);
    *session = MPI_T_PVAR_SESSION_NULL;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

/* Checks in the standard's order: session, then handle (none is valid;
 * MPI_T_PVAR_ALL_HANDLES names the empty set where `all_ok`). */
static int check_handle(MPI_T_pvar_session s, MPI_T_pvar_handle h,
                        int all_ok)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (!session_is_live(s))
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_SESSION);
    if (all_ok && h == MPI_T_PVAR_ALL_HANDLES)
        return ucmpi_mpit_leave(MPI_SUCCESS);
    return ucmpi_mpit_leave(MPI_T_ERR_INVALID_HANDLE);
}

#pragma weak MPI_T_pvar_handle_alloc = PMPI_T_pvar_handle_alloc
int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index,
                             void *obj_handle, MPI_T_pvar_handle *handle,
                             int *count)
{
    int rc = ucmpi_mpit_enter();
    if (rc)
        return rc;
    if (!session_is_live(session))
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_SESSION);
    return ucmpi_mpit_leave(MPI_T_ERR_INVALID_INDEX);
}

#pragma weak MPI_T_pvar_handle_free = PMPI_T_pvar_handle_free
int PMPI_T_pvar_handle_free(MPI_T_pvar_session session,
                            MPI_T_pvar_handle *handle)
{
    return check_handle(session, handle ? *handle : NULL, 0);
}

#pragma weak MPI_T_pvar_start = PMPI_T_pvar_start
int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return check_handle(session, handle, 1);
}

#pragma weak MPI_T_pvar_stop = PMPI_T_pvar_stop
int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return check_handle(session, handle, 1);
}

#pragma weak MPI_T_pvar_reset = PMPI_T_pvar_reset
int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return check_handle(session, handle, 1);
}

#pragma weak MPI_T_pvar_read = PMPI_T_pvar_read
int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                     void *buf)
{
    return check_handle(session, handle, 0);
}

#pragma weak MPI_T_pvar_write = PMPI_T_pvar_write
int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                      const void *buf)
{
    return check_handle(session, handle, 0);
}

#pragma weak MPI_T_pvar_readreset = PMPI_T_pvar_readreset
int PMPI_T_pvar_readreset(MPI_T_pvar_session session,
                          MPI_T_pvar_handle handle, void *buf)
{
    return check_handle(session, handle, 0);
}
