/* Error handlers of communicators, windows and sessions, and the create and
 * install steps files share; reporting itself is lib/core/error.c. */
#include "comm/comm.h"
#include "core/call.h"
#include "comm/comm_internal.h"

#include <stdio.h>
#include <stdlib.h>

static bool eh_valid(MPI_Errhandler eh)
{
    return eh != MPI_ERRHANDLER_NULL && eh->magic == UCMPI_MAGIC_ERRHANDLER;
}

static bool win_valid(MPI_Win win)
{
    return win != MPI_WIN_NULL &&
           ((ucmpi_win_head_t *)(void *)win)->magic == UCMPI_MAGIC_WIN;
}

/* Before initialization (allowed for session handlers and for freeing,
 * MPI-4.1 11.4.1) there is no handler to report to: say and return. */
static int early_arg_error(const char *name, const char *why)
{
    fprintf(stderr, "ucmpi: %s: %s\n", name, why);
    return MPI_ERR_ARG;
}

int ucmpi_errhandler_create(int obj_kind, void (*fn)(void),
                            MPI_Errhandler *eh, const char *name,
                            int err_kind, void *err_obj)
{
    /* a session's handler is made before the session (and MPI) exist */
    int rc = obj_kind == UCMPI_OBJ_SESSION ? MPI_SUCCESS
                                           : ucmpi_check_initialized(name);
    if (rc != MPI_SUCCESS)
        return rc;
    if (fn == NULL || eh == NULL)
        return !ucmpi_global.active
                   ? early_arg_error(name, "function or errhandler is NULL")
                   : ucmpi_error(err_kind, err_obj, MPI_ERR_ARG, name,
                                 "function or errhandler is NULL");
    ucmpi_errhandler_t *h = calloc(1, sizeof(*h));
    if (h == NULL)
        return ucmpi_error(err_kind, err_obj, MPI_ERR_NO_MEM, name,
                           "out of memory");
    h->magic = UCMPI_MAGIC_ERRHANDLER;
    h->refcount = 1;
    h->action = UCMPI_EH_USER;
    h->obj_kind = obj_kind;
    h->fn = (void (*)(void *, int *, ...))fn;
    *eh = h;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_create_errhandler = PMPI_Comm_create_errhandler
int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn,
                                MPI_Errhandler *errhandler)
{
    return ucmpi_errhandler_create(UCMPI_OBJ_COMM, (void (*)(void))fn,
                                   errhandler, "MPI_Comm_create_errhandler",
                                   UCMPI_OBJ_NONE, NULL);
}

#pragma weak MPI_Win_create_errhandler = PMPI_Win_create_errhandler
int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *fn,
                               MPI_Errhandler *errhandler)
{
    return ucmpi_errhandler_create(UCMPI_OBJ_WIN, (void (*)(void))fn,
                                   errhandler, "MPI_Win_create_errhandler",
                                   UCMPI_OBJ_NONE, NULL);
}

#pragma weak MPI_Errhandler_free = PMPI_Errhandler_free
int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    const char *fn = "MPI_Errhandler_free";
    const char *why = "errhandler is null or freed";
    if (errhandler == NULL || !eh_valid(*errhandler))
        return !ucmpi_global.active
                   ? early_arg_error(fn, why)
                   : ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn, "%s",
                                 why);
    /* Objects using it keep their own reference. */
    ucmpi_errhandler_release(*errhandler);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

int ucmpi_errhandler_install(ucmpi_errhandler_t **slot, MPI_Errhandler eh,
                             int kind, void *obj)
{
    const char *fn = ucmpi_call_name();
    if (!eh_valid(eh))
        return ucmpi_error(kind, obj, MPI_ERR_ARG, fn,
                           "errhandler is null or freed");
    /* predefined handlers go on every kind */
    if (eh->action == UCMPI_EH_USER && eh->obj_kind != kind)
        return ucmpi_error(kind, obj, MPI_ERR_ARG, fn,
                           "errhandler was created for another object "
                           "kind");
    ucmpi_errhandler_retain(eh);
    ucmpi_errhandler_release(*slot);
    *slot = eh;
    return MPI_SUCCESS;
}

static int check_win(MPI_Win win);
enum { EH_SET, EH_GET, EH_CALL };

/* MPI_{Comm,Win,Session}_{set,get,call}_errhandler: check the object of
 * `kind`, then act on its handler slot. */
static int eh_call(const char *name, int kind, void *obj, int op,
                   MPI_Errhandler eh, MPI_Errhandler *out, int code)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    int rc = kind == UCMPI_OBJ_COMM  ? ucmpi_check_comm(obj, fn)
             : kind == UCMPI_OBJ_WIN ? check_win(obj)
                                     : ucmpi_check_session(obj, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_errhandler_t **slot =
        kind == UCMPI_OBJ_COMM ? &((ucmpi_comm_t *)obj)->errhandler
                               : &((ucmpi_win_head_t *)obj)->errhandler;
    if (op == EH_SET)
        return ucmpi_errhandler_install(slot, eh, kind, obj);
    if (op == EH_CALL) {
        ucmpi_error(kind, obj, code, fn, "error raised by the application");
        return MPI_SUCCESS;
    }
    if (out == NULL)
        return ucmpi_error(kind, obj, MPI_ERR_ARG, fn, "errhandler is NULL");
    ucmpi_errhandler_retain(*slot);   /* the user frees it */
    *out = *slot;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_set_errhandler = PMPI_Comm_set_errhandler
int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return eh_call("MPI_Comm_set_errhandler", UCMPI_OBJ_COMM, comm, EH_SET,
                   errhandler, NULL, 0);
}

#pragma weak MPI_Comm_get_errhandler = PMPI_Comm_get_errhandler
int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return eh_call("MPI_Comm_get_errhandler", UCMPI_OBJ_COMM, comm, EH_GET,
                   NULL, errhandler, 0);
}

#pragma weak MPI_Comm_call_errhandler = PMPI_Comm_call_errhandler
int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    return eh_call("MPI_Comm_call_errhandler", UCMPI_OBJ_COMM, comm, EH_CALL,
                   NULL, NULL, errorcode);
}

static int check_win(MPI_Win win)
{
    const char *fn = ucmpi_call_name();
    int rc = ucmpi_check_initialized(fn);
    if (rc == MPI_SUCCESS && !win_valid(win))
        rc = ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_WIN, fn,
                         "win is null or freed");
    return rc;
}

#pragma weak MPI_Win_set_errhandler = PMPI_Win_set_errhandler
int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    return eh_call("MPI_Win_set_errhandler", UCMPI_OBJ_WIN, win, EH_SET,
                   errhandler, NULL, 0);
}

#pragma weak MPI_Win_get_errhandler = PMPI_Win_get_errhandler
int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    return eh_call("MPI_Win_get_errhandler", UCMPI_OBJ_WIN, win, EH_GET,
                   NULL, errhandler, 0);
}

#pragma weak MPI_Win_call_errhandler = PMPI_Win_call_errhandler
int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    return eh_call("MPI_Win_call_errhandler", UCMPI_OBJ_WIN, win, EH_CALL,
                   NULL, NULL, errorcode);
}

#pragma weak MPI_Session_create_errhandler = PMPI_Session_create_errhandler
int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *fn,
                                   MPI_Errhandler *errhandler)
{
    return ucmpi_errhandler_create(UCMPI_OBJ_SESSION, (void (*)(void))fn,
                                   errhandler, "MPI_Session_create_errhandler",
                                   UCMPI_OBJ_NONE, NULL);
}

#pragma weak MPI_Session_set_errhandler = PMPI_Session_set_errhandler
int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    return eh_call("MPI_Session_set_errhandler", UCMPI_OBJ_SESSION, session,
                   EH_SET, errhandler, NULL, 0);
}

#pragma weak MPI_Session_get_errhandler = PMPI_Session_get_errhandler
int PMPI_Session_get_errhandler(MPI_Session session,
                                MPI_Errhandler *errhandler)
{
    return eh_call("MPI_Session_get_errhandler", UCMPI_OBJ_SESSION, session,
                   EH_GET, NULL, errhandler, 0);
}

#pragma weak MPI_Session_call_errhandler = PMPI_Session_call_errhandler
int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    return eh_call("MPI_Session_call_errhandler", UCMPI_OBJ_SESSION, session,
                   EH_CALL, NULL, NULL, errorcode);
}
