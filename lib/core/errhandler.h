/* Error handlers and error reporting. */
#ifndef UCMPI_CORE_ERRHANDLER_H
#define UCMPI_CORE_ERRHANDLER_H

#include "core/base.h"

enum { UCMPI_EH_FATAL, UCMPI_EH_RETURN, UCMPI_EH_ABORT, UCMPI_EH_USER };
enum { UCMPI_OBJ_NONE, UCMPI_OBJ_COMM, UCMPI_OBJ_WIN, UCMPI_OBJ_FILE,
       UCMPI_OBJ_SESSION,
       UCMPI_OBJ_ERRHANDLER /* obj is the handler itself (no object yet) */ };

struct ucmpi_errhandler_s {
    uint32_t magic;
    int refcount;
    int action;               /* UCMPI_EH_* */
    int obj_kind;             /* UCMPI_OBJ_*: which objects it may be set on */
    void (*fn)(void *handle, int *code, ...);
};
typedef struct ucmpi_errhandler_s ucmpi_errhandler_t;

/* Reports "fn: CLASS: reason" to the handler of `obj` (comm/win per obj_kind;
 * else MPI_COMM_WORLD's, fatal before init); returns the code for the user. */
int ucmpi_error(int obj_kind, void *obj, int code, const char *fn,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define ucmpi_err_comm(comm, code, fn, ...) \
    ucmpi_error(UCMPI_OBJ_COMM, (comm), (code), (fn), __VA_ARGS__)

/* First members of every struct ucmpi_win_s (lib/rma/), so that error
 * reporting finds a window's handler without knowing windows. */
typedef struct {
    uint32_t magic;
    int refcount;
    ucmpi_errhandler_t *errhandler;
} ucmpi_win_head_t;

/* ---- added by io (lib/io/): the handler of a file, or MPI_FILE_NULL's
 * (open failures) when file is null or closed. ---- */
ucmpi_errhandler_t *ucmpi_file_errhandler_of(void *file);

void ucmpi_errhandler_retain(ucmpi_errhandler_t *eh);
void ucmpi_errhandler_release(ucmpi_errhandler_t *eh);
/* A new user handler for objects of kind obj_kind (the bodies of the
 * MPI_X_create_errhandler calls); errors go to (err_kind, err_obj). */
int ucmpi_errhandler_create(int obj_kind, void (*fn)(void),
                            MPI_Errhandler *eh, const char *name,
                            int err_kind, void *err_obj);
/* Checks that eh may go on an object of `kind` and puts it in *slot (the
 * MPI_X_set_errhandler bodies; errors go to obj's handler). */
int ucmpi_errhandler_install(ucmpi_errhandler_t **slot, MPI_Errhandler eh,
                             int kind, void *obj);

/* MPI_SUCCESS when the library is usable; else reports a call made before
 * MPI_Init or after MPI_Finalize and returns its code. */
int ucmpi_check_initialized(const char *fn);

#endif
