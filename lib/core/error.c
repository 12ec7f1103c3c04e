/* Error classes, codes and strings, the predefined error handlers, and the
 * single reporting path every entry point uses (ucmpi_error). */
#include "comm/comm.h"
#include "core/call.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREDEF_EH(name, how)                                             \
    UCMPI_PREDEFINED(struct ucmpi_errhandler_s, name, UCMPI_PAD_ERRHANDLER) \
        = {.obj = {UCMPI_MAGIC_ERRHANDLER, 1, how, UCMPI_OBJ_NONE, NULL}}
PREDEF_EH(ucmpi_errors_are_fatal, UCMPI_EH_FATAL);
PREDEF_EH(ucmpi_errors_return, UCMPI_EH_RETURN);
PREDEF_EH(ucmpi_errors_abort, UCMPI_EH_ABORT);

/* One row per class: its name (from the constant itself) and its text. */
#define CLASS(c, text) [c] = {#c, text}
static const char *const class_names[MPI_ERR_LASTCODE + 1][2] = {
    CLASS(MPI_SUCCESS, "no error"),
    CLASS(MPI_ERR_BUFFER, "invalid buffer pointer"),
    CLASS(MPI_ERR_COUNT, "invalid count argument"),
    CLASS(MPI_ERR_TYPE, "invalid datatype"),
    CLASS(MPI_ERR_TAG, "invalid tag"),
    CLASS(MPI_ERR_COMM, "invalid communicator"),
    CLASS(MPI_ERR_RANK, "invalid rank"),
    CLASS(MPI_ERR_REQUEST, "invalid request"),
    CLASS(MPI_ERR_ROOT, "invalid root"),
    CLASS(MPI_ERR_GROUP, "invalid group"),
    CLASS(MPI_ERR_OP, "invalid operation"),
    CLASS(MPI_ERR_TOPOLOGY, "invalid topology"),
    CLASS(MPI_ERR_DIMS, "invalid dimension argument"),
    CLASS(MPI_ERR_ARG, "invalid argument"),
    CLASS(MPI_ERR_UNKNOWN, "unknown error"),
    CLASS(MPI_ERR_TRUNCATE, "message truncated"),
    CLASS(MPI_ERR_OTHER, "other error"),
    CLASS(MPI_ERR_INTERN, "internal error"),
    CLASS(MPI_ERR_PENDING, "pending request"),
    CLASS(MPI_ERR_IN_STATUS, "error code is in status"),
    CLASS(MPI_ERR_ACCESS, "permission denied"),
    CLASS(MPI_ERR_AMODE, "invalid access mode"),
    CLASS(MPI_ERR_ASSERT, "invalid assertion"),
    CLASS(MPI_ERR_BAD_FILE, "invalid file name"),
    CLASS(MPI_ERR_BASE, "invalid base address"),
    CLASS(MPI_ERR_CONVERSION, "data conversion error"),
    CLASS(MPI_ERR_DISP, "invalid displacement"),
    CLASS(MPI_ERR_DUP_DATAREP, "data representation already defined"),
    CLASS(MPI_ERR_FILE_EXISTS, "file exists"),
    CLASS(MPI_ERR_FILE_IN_USE, "file in use"),
    CLASS(MPI_ERR_FILE, "invalid file"),
    CLASS(MPI_ERR_INFO_KEY, "invalid info key"),
    CLASS(MPI_ERR_INFO_NOKEY, "info key not defined"),
    CLASS(MPI_ERR_INFO_VALUE, "invalid info value"),
    CLASS(MPI_ERR_INFO, "invalid info object"),
    CLASS(MPI_ERR_IO, "I/O error"),
    CLASS(MPI_ERR_KEYVAL, "invalid keyval"),
    CLASS(MPI_ERR_LOCKTYPE, "invalid lock type"),
    CLASS(MPI_ERR_NAME, "invalid service name"),
    CLASS(MPI_ERR_NO_MEM, "out of memory"),
    CLASS(MPI_ERR_NOT_SAME, "arguments not the same on all processes"),
    CLASS(MPI_ERR_NO_SPACE, "no space left"),
    CLASS(MPI_ERR_NO_SUCH_FILE, "no such file"),
    CLASS(MPI_ERR_PORT, "invalid port"),
    CLASS(MPI_ERR_QUOTA, "quota exceeded"),
    CLASS(MPI_ERR_READ_ONLY, "read-only file"),
    CLASS(MPI_ERR_RMA_CONFLICT, "conflicting RMA accesses"),
    CLASS(MPI_ERR_RMA_SYNC, "wrong RMA synchronisation"),
    CLASS(MPI_ERR_SERVICE, "invalid service"),
    CLASS(MPI_ERR_SIZE, "invalid size"),
    CLASS(MPI_ERR_SPAWN, "spawn failed"),
    CLASS(MPI_ERR_UNSUPPORTED_DATAREP, "unsupported data representation"),
    CLASS(MPI_ERR_UNSUPPORTED_OPERATION, "unsupported operation"),
    CLASS(MPI_ERR_WIN, "invalid window"),
    CLASS(MPI_ERR_RMA_RANGE, "RMA access outside the target window"),
    CLASS(MPI_ERR_RMA_ATTACH, "memory cannot be attached"),
    CLASS(MPI_ERR_RMA_SHARED, "memory cannot be shared"),
    CLASS(MPI_ERR_RMA_FLAVOR, "wrong window flavor"),
    CLASS(MPI_ERR_SESSION, "invalid session"),
    CLASS(MPI_ERR_PROC_ABORTED, "peer process aborted"),
    CLASS(MPI_ERR_VALUE_TOO_LARGE, "value too large"),
    CLASS(MPI_ERR_ERRHANDLER, "invalid error handler"),
    CLASS(MPI_ERR_PROC_FAILED, "peer process failed"),
    CLASS(MPI_ERR_REVOKED, "communicator revoked"),
    CLASS(MPI_T_ERR_MEMORY, "out of memory"),
    CLASS(MPI_T_ERR_NOT_INITIALIZED, "MPI_T not initialized"),
    CLASS(MPI_T_ERR_CANNOT_INIT, "MPI_T cannot be initialized now"),
    CLASS(MPI_T_ERR_INVALID_INDEX, "index out of range"),
    CLASS(MPI_T_ERR_INVALID_ITEM, "item index out of range"),
    CLASS(MPI_T_ERR_INVALID_HANDLE, "invalid MPI_T handle"),
    CLASS(MPI_T_ERR_OUT_OF_HANDLES, "no more MPI_T handles"),
    CLASS(MPI_T_ERR_OUT_OF_SESSIONS, "no more performance variable sessions"),
    CLASS(MPI_T_ERR_INVALID_SESSION, "invalid performance variable session"),
    CLASS(MPI_T_ERR_CVAR_SET_NOT_NOW, "control variable cannot be set now"),
    CLASS(MPI_T_ERR_CVAR_SET_NEVER, "control variable cannot be set"),
    CLASS(MPI_T_ERR_PVAR_NO_STARTSTOP, "performance variable cannot be started "
                                       "or stopped"),
    CLASS(MPI_T_ERR_PVAR_NO_WRITE, "performance variable cannot be written or "
                                   "reset"),
    CLASS(MPI_T_ERR_PVAR_NO_ATOMIC, "performance variable cannot be read and "
                                    "reset atomically"),
    CLASS(MPI_T_ERR_INVALID_NAME, "no variable or category of that name"),
    CLASS(MPI_T_ERR_INVALID, "invalid MPI_T use"),
    CLASS(MPI_T_ERR_NOT_SUPPORTED, "not supported by this implementation"),
    CLASS(MPI_ERR_PROC_FAILED_PENDING, "a process failed that an MPI_ANY_SOURCE "
                                       "receive may wait for (not acknowledged)"),
};
#undef CLASS

/* User-defined classes and codes (MPI_Add_error_class/code/string). */
typedef struct {
    int errclass;
    char *string;
    int used;       /* removed slots (MPI_Remove_error_*) are reused */
} user_code_t;
static user_code_t *user_codes;   /* index: code - MPI_ERR_LASTCODE - 1 */
static int num_user_codes;
int ucmpi_last_used_code = MPI_ERR_LASTCODE;

static user_code_t *user_code(int code)
{
    int i = code - MPI_ERR_LASTCODE - 1;
    return i >= 0 && i < num_user_codes && user_codes[i].used
               ? &user_codes[i] : NULL;
}

/* The error class of a (possibly user-defined) error code. */
static int error_class_of(int code)
{
    if (code >= 0 && code <= MPI_ERR_LASTCODE)
        return code;
    user_code_t *u = user_code(code);
    return u ? u->errclass : MPI_ERR_UNKNOWN;
}

static const char *error_class_name(int errclass)
{
    if (errclass >= 0 && errclass <= MPI_ERR_LASTCODE)
        return class_names[errclass][0];
    return "MPI_ERR_USER";
}

static const char *error_text(int code)
{
    user_code_t *u = user_code(code);
    if (u != NULL)
        return u->string ? u->string : "";
    if (code >= 0 && code <= MPI_ERR_LASTCODE)
        return class_names[code][1];
    return NULL;
}

/* Codes are the classes (as in Open MPI), so a code can't say why: each thread
 * keeps its last error's call and reason, which MPI_Error_string appends. */
static _Thread_local struct {
    int code;
    char text[MPI_MAX_ERROR_STRING];
} last_error;

static void remember_error(int code, const char *fn, const char *reason)
{
    /* a long reason is cut (the return value is used: it may be) */
    last_error.code = snprintf(last_error.text, sizeof(last_error.text),
                               "%s: %s", fn ? fn : "MPI", reason) < 0
                          ? MPI_SUCCESS : code;
}

static ucmpi_errhandler_t *handler_of(int kind, void *obj)
{
    if (kind == UCMPI_OBJ_COMM && ucmpi_comm_valid(obj))
        return ((ucmpi_comm_t *)obj)->errhandler;
    if (kind == UCMPI_OBJ_WIN && obj != NULL &&
        ((ucmpi_win_head_t *)obj)->magic == UCMPI_MAGIC_WIN)
        return ((ucmpi_win_head_t *)obj)->errhandler;
    if (kind == UCMPI_OBJ_SESSION && obj != NULL &&
        ((ucmpi_win_head_t *)obj)->magic == UCMPI_MAGIC_SESSION)
        return ((ucmpi_win_head_t *)obj)->errhandler;
    if (kind == UCMPI_OBJ_FILE)   /* MPI_FILE_NULL has a handler too */
        return ucmpi_file_errhandler_of(obj);
    if (kind == UCMPI_OBJ_ERRHANDLER && obj != NULL &&
        ((ucmpi_errhandler_t *)obj)->magic == UCMPI_MAGIC_ERRHANDLER)
        return obj;
    if (ucmpi_global.active)
        return ucmpi_comm_world.errhandler;
    return &ucmpi_errors_are_fatal;
}

int ucmpi_error(int kind, void *obj, int code, const char *fn,
                const char *fmt, ...)
{
    ucmpi_errhandler_t *eh = handler_of(kind, obj);
    char reason[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(reason, sizeof(reason), fmt, ap);
    va_end(ap);
    if (eh == NULL)
        eh = &ucmpi_errors_are_fatal;
    if (eh->action == UCMPI_EH_RETURN || eh->action == UCMPI_EH_USER)
        remember_error(code, fn, reason);
    switch (eh->action) {
    case UCMPI_EH_RETURN:
        return code;
    case UCMPI_EH_USER: {
        void *handle = obj;
        if (!(kind == UCMPI_OBJ_COMM && ucmpi_comm_valid(obj)) &&
            kind != UCMPI_OBJ_WIN && kind != UCMPI_OBJ_SESSION &&
            kind != UCMPI_OBJ_FILE)
            handle = &ucmpi_comm_world;
        if (kind == UCMPI_OBJ_ERRHANDLER && eh->obj_kind == UCMPI_OBJ_SESSION)
            handle = MPI_SESSION_NULL;   /* Session_init: no session yet */
        eh->fn(&handle, &code, fn, reason);
        return code;
    }
    default:
        fprintf(stderr, "ucmpi: rank %d: %s: %s: %s\n", ucmpi_global.world_rank,
                fn, error_class_name(error_class_of(code)), reason);
        fflush(stderr);
        ucmpi_abort(code == 0 ? 1 : (code & 0xff ? code & 0xff : 1), NULL);
    }
}

int ucmpi_check_initialized(const char *fn)
{
    ucmpi_rt_enter(fn);
    if (ucmpi_global.active)   /* MPI_Init'ed or a session is open */
        return MPI_SUCCESS;
    fprintf(stderr, "ucmpi: %s called %s\n", fn,
            ucmpi_global.finalized ? "after MPI_Finalize"
                                   : "before MPI_Init or MPI_Session_init");
    fflush(stderr);
    exit(1);   /* the runtime is not (or no longer) there: end this process */
}

void ucmpi_errhandler_retain(ucmpi_errhandler_t *eh)
{
    __atomic_add_fetch(&eh->refcount, 1, __ATOMIC_RELAXED);
}

void ucmpi_errhandler_release(ucmpi_errhandler_t *eh)
{
    if (eh == NULL || eh->action != UCMPI_EH_USER)
        return;
    if (__atomic_sub_fetch(&eh->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
        eh->magic = UCMPI_MAGIC_FREED;
        free(eh);
    }
}

#pragma weak MPI_Error_string = PMPI_Error_string
int PMPI_Error_string(int code, char *string, int *resultlen)
{
    const char *t = error_text(code);

    if (string == NULL || resultlen == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG,
                           "MPI_Error_string", "string or resultlen is NULL");
    if (t == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG,
                           "MPI_Error_string", "invalid error code %d", code);
    if (code > MPI_SUCCESS && code <= MPI_ERR_LASTCODE) {
        /* the detail may be cut to MPI_MAX_ERROR_STRING (the return value
         * is used: GCC then accepts the truncation) */
        if (code != last_error.code ||
            snprintf(string, MPI_MAX_ERROR_STRING,
                     "%s: %s (last on this thread: %s)", class_names[code][0],
                     t, last_error.text) < 0)
            snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s",
                     class_names[code][0], t);
    } else
        snprintf(string, MPI_MAX_ERROR_STRING, "%s", t);
    *resultlen = (int)strlen(string);
    return MPI_SUCCESS;
}

#pragma weak MPI_Error_class = PMPI_Error_class
int PMPI_Error_class(int code, int *errclass)
{
    if (errclass == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG,
                           "MPI_Error_class", "errorclass is NULL");
    if (error_text(code) == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG,
                           "MPI_Error_class", "invalid error code %d", code);
    *errclass = error_class_of(code);
    return MPI_SUCCESS;
}

static int add_code(int errclass)
{
    int i = 0;
    while (i < num_user_codes && user_codes[i].used)
        i++;
    if (i == num_user_codes) {
        user_code_t *n = realloc(user_codes,
                                 sizeof(*n) * (size_t)(num_user_codes + 1));
        if (n == NULL)
            return -1;
        user_codes = n;
        num_user_codes++;
    }
    int code = MPI_ERR_LASTCODE + 1 + i;
    user_codes[i] = (user_code_t){errclass < 0 ? code : errclass, NULL, 1};
    if (code > ucmpi_last_used_code)
        ucmpi_last_used_code = code;
    return code;
}

/* MPI_LASTUSEDCODE follows removals down to the largest code in use. */
static void remove_code(user_code_t *u)
{
    u->used = 0;
    while (num_user_codes > 0 && !user_codes[num_user_codes - 1].used)
        num_user_codes--;
    ucmpi_last_used_code = MPI_ERR_LASTCODE + num_user_codes;
}

static int codes_of_class(int errclass)
{
    int n = 0;
    for (int i = 0; i < num_user_codes; i++)
        n += user_codes[i].used && user_codes[i].errclass == errclass &&
             MPI_ERR_LASTCODE + 1 + i != errclass;
    return n;
}

enum { REMOVE_CLASS, REMOVE_CODE, REMOVE_STRING };

/* Why user class/code/string v cannot be removed (NULL: it can). */
static const char *removal_refused(int what, int v, const user_code_t *u)
{
    int is_class = u != NULL && u->errclass == v;
    if (what == REMOVE_STRING)
        return u == NULL || u->string == NULL
                   ? "error code %d has no user-defined string" : NULL;
    if (what == REMOVE_CLASS && !is_class)
        return "%d is not a user-defined error class";
    if (what == REMOVE_CLASS && codes_of_class(v) > 0)
        return "error class %d still has error codes";
    if (what == REMOVE_CODE && (u == NULL || is_class))
        return "%d is not a user-defined error code";
    if (u->string != NULL && what == REMOVE_CLASS)
        return "error class %d still has an error string";
    if (u->string != NULL)
        return "error code %d still has an error string";
    return NULL;
}

/* MPI_Remove_error_class, _code and _string. */
static int remove_user(const char *name, int what, int v)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_lock();
    user_code_t *u = user_code(v);
    const char *why = removal_refused(what, v, u);
    if (why != NULL) {
        rc = ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn, why, v);
    } else if (what == REMOVE_STRING) {
        free(u->string);
        u->string = NULL;
    } else {
        remove_code(u);
    }
    ucmpi_unlock();
    return rc;
}

#pragma weak MPI_Remove_error_class = PMPI_Remove_error_class
int PMPI_Remove_error_class(int errorclass)
{
    return remove_user("MPI_Remove_error_class", REMOVE_CLASS, errorclass);
}

#pragma weak MPI_Remove_error_code = PMPI_Remove_error_code
int PMPI_Remove_error_code(int errorcode)
{
    return remove_user("MPI_Remove_error_code", REMOVE_CODE, errorcode);
}

#pragma weak MPI_Remove_error_string = PMPI_Remove_error_string
int PMPI_Remove_error_string(int errorcode)
{
    return remove_user("MPI_Remove_error_string", REMOVE_STRING, errorcode);
}

#pragma weak MPI_Add_error_class = PMPI_Add_error_class
int PMPI_Add_error_class(int *errorclass)
{
    int rc = ucmpi_check_initialized("MPI_Add_error_class");
    if (rc != MPI_SUCCESS)
        return rc;
    if (errorclass == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG,
                           "MPI_Add_error_class", "errorclass is NULL");
    ucmpi_lock();
    int code = add_code(-1);
    ucmpi_unlock();
    if (code < 0)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_NO_MEM,
                           "MPI_Add_error_class", "out of memory");
    *errorclass = code;
    return MPI_SUCCESS;
}

#pragma weak MPI_Add_error_code = PMPI_Add_error_code
int PMPI_Add_error_code(int errorclass, int *errorcode)
{
    int rc = ucmpi_check_initialized("MPI_Add_error_code");
    if (rc != MPI_SUCCESS)
        return rc;
    user_code_t *u = user_code(errorclass);
    int valid = (errorclass > MPI_SUCCESS && errorclass <= MPI_ERR_LASTCODE) ||
                (u != NULL && u->errclass == errorclass);
    if (errorcode == NULL || !valid)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG,
                           "MPI_Add_error_code",
                           "errorclass %d is not a user-defined class",
                           errorclass);
    ucmpi_lock();
    int code = add_code(errorclass);
    ucmpi_unlock();
    if (code < 0)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_NO_MEM,
                           "MPI_Add_error_code", "out of memory");
    *errorcode = code;
    return MPI_SUCCESS;
}

#pragma weak MPI_Add_error_string = PMPI_Add_error_string
int PMPI_Add_error_string(int errorcode, const char *string)
{
    int rc = ucmpi_check_initialized("MPI_Add_error_string");
    if (rc != MPI_SUCCESS)
        return rc;
    user_code_t *u = user_code(errorcode);
    if (u == NULL || string == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG,
                           "MPI_Add_error_string",
                           "errorcode %d is not user-defined (or string is NULL)",
                           errorcode);
    if (strlen(string) >= MPI_MAX_ERROR_STRING)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG,
                           "MPI_Add_error_string", "string longer than "
                           "MPI_MAX_ERROR_STRING");
    char *copy = strdup(string);
    if (copy == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_NO_MEM,
                           "MPI_Add_error_string", "out of memory");
    free(u->string);
    u->string = copy;
    return MPI_SUCCESS;
}

void ucmpi_error_finalize(void)
{
    for (int i = 0; i < num_user_codes; i++)
        free(user_codes[i].string);
    free(user_codes);
    user_codes = NULL;
    num_user_codes = 0;
}
