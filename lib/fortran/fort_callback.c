/*
 * Fortran callbacks: user reduction ops, error handlers and attribute
 * copy/delete functions written in Fortran, and the predefined
 * MPI_COMM_NULL_COPY_FN ... as Fortran procedures.  C calls ops with no
 * user data, so each gets a slot of a trampoline pool; error handlers are
 * found through the object's handler, attribute callbacks in extra_state.
 */
#include "fortran/fort.h"

#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

typedef void f_user_fn(void *in, void *inout, MPI_Fint *len, MPI_Fint *dt);
typedef void f_user_c_fn(void *in, void *inout, MPI_Count *len, MPI_Fint *dt);
typedef void f_errh_fn(MPI_Fint *handle, MPI_Fint *code);

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    void *fn;   /* f_user_fn, or f_user_c_fn for MPI_Op_create_c */
    MPI_Op op;
} ops[UCMPI_F_POOL];

static MPI_Fint *ierror_or(MPI_Fint *ierror, MPI_Fint *absent)
{
    return ierror != NULL ? ierror : absent;   /* optional in mpi_f08 */
}

void ucmpi_f_op_call(int slot, void *in, void *inout, int *len, MPI_Datatype *dt)
{
    MPI_Fint fdt = PMPI_Type_c2f(*dt);
    ((f_user_fn *)ops[slot].fn)(in, inout, len, &fdt);
}

void ucmpi_f_op_call_c(int slot, void *in, void *inout, MPI_Count *len,
                       MPI_Datatype *dt)
{
    MPI_Fint fdt = PMPI_Type_c2f(*dt);
    ((f_user_c_fn *)ops[slot].fn)(in, inout, len, &fdt);
}

/* The pool is full: an error of class MPI_ERR_INTERN whose text names
 * the call and the limit (printed first when the handler is fatal). */
static int op_pool_full(void)
{
    static int code = MPI_ERR_INTERN;
    static const char msg[] = "MPI_Op_create: more than 64 Fortran user "
                              "operations alive at once (MPI_Op_free some)";
    _Static_assert(UCMPI_F_POOL == 64, "msg says the limit");
    if (code == MPI_ERR_INTERN &&
        PMPI_Add_error_code(MPI_ERR_INTERN, &code) == MPI_SUCCESS)
        PMPI_Add_error_string(code, msg);
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    PMPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    if (eh == MPI_ERRORS_ARE_FATAL || eh == MPI_ERRORS_ABORT)
        fprintf(stderr, "ucmpi: %s\n", msg);
    if (eh != MPI_ERRHANDLER_NULL)
        PMPI_Errhandler_free(&eh);
    int rc = PMPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
    return rc != MPI_SUCCESS ? rc : code;
}

static void op_create(void *fn, int large, const MPI_Fint *commute,
                      MPI_Fint *op, MPI_Fint *ierror)
{
    static int next;   /* next fit: a freed slot is reused last, in case a
                          pending reduction still runs its op */
    MPI_Fint absent;
    ierror = ierror_or(ierror, &absent);
    pthread_mutex_lock(&pool_lock);
    int slot = -1;
    for (int i = 0; i < UCMPI_F_POOL && slot < 0; i++)
        if (ops[(next + i) % UCMPI_F_POOL].fn == NULL)
            slot = (next + i) % UCMPI_F_POOL;
    if (slot < 0) {
        pthread_mutex_unlock(&pool_lock);
        *ierror = op_pool_full();
        return;
    }
    next = (slot + 1) % UCMPI_F_POOL;
    MPI_Op c_op = MPI_OP_NULL;
    *ierror = large ? PMPI_Op_create_c(ucmpi_f_op_c_tramp[slot], *commute != 0, &c_op)
                    : PMPI_Op_create(ucmpi_f_op_tramp[slot], *commute != 0, &c_op);
    if (*ierror == MPI_SUCCESS) {
        ops[slot].fn = fn;
        ops[slot].op = c_op;
    }
    pthread_mutex_unlock(&pool_lock);
    *op = PMPI_Op_c2f(c_op);
}

#pragma weak mpi_op_create_ = pmpi_op_create_
#pragma weak mpi_op_create_f08_ = pmpi_op_create_
#pragma weak pmpi_op_create_f08_ = pmpi_op_create_
void pmpi_op_create_(f_user_fn *fn, const MPI_Fint *commute, MPI_Fint *op,
                     MPI_Fint *ierror);
void pmpi_op_create_(f_user_fn *fn, const MPI_Fint *commute, MPI_Fint *op,
                     MPI_Fint *ierror)
{
    op_create((void *)fn, 0, commute, op, ierror);
}

/* mpi_f08's MPI_Op_create_c: the function takes an MPI_COUNT_KIND len */
#pragma weak mpi_op_create_f08c_ = pmpi_op_create_f08c_
void pmpi_op_create_f08c_(f_user_c_fn *fn, const MPI_Fint *commute, MPI_Fint *op,
                          MPI_Fint *ierror);
void pmpi_op_create_f08c_(f_user_c_fn *fn, const MPI_Fint *commute, MPI_Fint *op,
                          MPI_Fint *ierror)
{
    op_create((void *)fn, 1, commute, op, ierror);
}

#pragma weak mpi_op_free_ = pmpi_op_free_
#pragma weak mpi_op_free_f08_ = pmpi_op_free_
#pragma weak pmpi_op_free_f08_ = pmpi_op_free_
void pmpi_op_free_(MPI_Fint *op, MPI_Fint *ierror);
void pmpi_op_free_(MPI_Fint *op, MPI_Fint *ierror)
{
    MPI_Fint absent;
    ierror = ierror_or(ierror, &absent);
    MPI_Op c_op = PMPI_Op_f2c(*op), freed = c_op;
    *ierror = PMPI_Op_free(&c_op);
    if (*ierror != MPI_SUCCESS)
        return;
    pthread_mutex_lock(&pool_lock);
    for (int i = 0; i < UCMPI_F_POOL; i++)
        if (ops[i].fn != NULL && ops[i].op == freed)
            ops[i].fn = NULL;
    pthread_mutex_unlock(&pool_lock);
    *op = PMPI_Op_c2f(c_op);
}

/* ---- error handlers: one trampoline per kind finds the Fortran function
 * through the handler set on the object, so nothing is pooled ---- */
static f_errh_fn **errh_fns;   /* by Fortran errhandler index */
static int errh_cap;
static _Thread_local int errh_lookup;   /* our own get_errhandler failed */

/* The Fortran handler of a handler from MPI_X_get_errhandler (released). */
static f_errh_fn *errh_fn_of(MPI_Errhandler eh)
{
    MPI_Fint idx = PMPI_Errhandler_c2f(eh);
    PMPI_Errhandler_free(&eh);
    pthread_mutex_lock(&pool_lock);
    f_errh_fn *fn = idx > 0 && idx < errh_cap ? errh_fns[idx] : NULL;
    pthread_mutex_unlock(&pool_lock);
    return fn;
}

/* An invalid object's error goes to MPI_COMM_WORLD's (a closed file's to
 * MPI_FILE_NULL's) handler, as in lib/core/error.c; the lookup that finds
 * it invalid raises an error too, which the nested trampoline ignores. */
static void errh_call(int kind, void *h, int *code)
{
    if (errh_lookup)
        return;
    errh_lookup = 1;
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    MPI_Fint fh = 0;
    int rc;
    switch (kind) {
    case UCMPI_F_ERRH_COMM:
        fh = PMPI_Comm_c2f(*(MPI_Comm *)h);
        if (PMPI_Comm_get_errhandler(*(MPI_Comm *)h, &eh) != MPI_SUCCESS)
            PMPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
        break;
    case UCMPI_F_ERRH_WIN:
        fh = PMPI_Win_c2f(*(MPI_Win *)h);
        PMPI_Win_get_errhandler(*(MPI_Win *)h, &eh);
        break;
    case UCMPI_F_ERRH_FILE:
        fh = PMPI_File_c2f(*(MPI_File *)h);
        rc = PMPI_File_get_errhandler(*(MPI_File *)h, &eh);
        if (rc != MPI_SUCCESS)
            PMPI_File_get_errhandler(MPI_FILE_NULL, &eh);
        break;
    default:
        fh = PMPI_Session_c2f(*(MPI_Session *)h);
        PMPI_Session_get_errhandler(*(MPI_Session *)h, &eh);
        break;
    }
    errh_lookup = 0;
    f_errh_fn *fn = eh != MPI_ERRHANDLER_NULL ? errh_fn_of(eh) : NULL;
    if (fn != NULL)
        fn(&fh, code);
}

static void comm_errh(MPI_Comm *h, int *code, ...)
{
    errh_call(UCMPI_F_ERRH_COMM, h, code);
}

static void win_errh(MPI_Win *h, int *code, ...)
{
    errh_call(UCMPI_F_ERRH_WIN, h, code);
}

static void file_errh(MPI_File *h, int *code, ...)
{
    errh_call(UCMPI_F_ERRH_FILE, h, code);
}

static void session_errh(MPI_Session *h, int *code, ...)
{
    errh_call(UCMPI_F_ERRH_SESSION, h, code);
}

/* Records fn under c_errh's Fortran index (indexes follow addresses, so
 * the table grows with distinct handler addresses only). */
static int errh_record(MPI_Errhandler c_errh, f_errh_fn *fn)
{
    MPI_Fint idx = PMPI_Errhandler_c2f(c_errh);
    pthread_mutex_lock(&pool_lock);
    if (idx > 0 && idx >= errh_cap) {
        int cap = 2 * idx + 16;
        f_errh_fn **t = realloc(errh_fns, sizeof(*t) * (size_t)cap);
        if (t != NULL) {
            for (int i = errh_cap; i < cap; i++)
                t[i] = NULL;
            errh_fns = t;
            errh_cap = cap;
        }
    }
    int ok = idx > 0 && idx < errh_cap;
    if (ok)
        errh_fns[idx] = fn;
    pthread_mutex_unlock(&pool_lock);
    return ok ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

static int errh_create(int kind, f_errh_fn *fn, MPI_Errhandler *c_errh)
{
    int rc;
    switch (kind) {
    case UCMPI_F_ERRH_COMM: rc = PMPI_Comm_create_errhandler(comm_errh, c_errh); break;
    case UCMPI_F_ERRH_WIN: rc = PMPI_Win_create_errhandler(win_errh, c_errh); break;
    case UCMPI_F_ERRH_FILE: rc = PMPI_File_create_errhandler(file_errh, c_errh); break;
    default: rc = PMPI_Session_create_errhandler(session_errh, c_errh); break;
    }
    if (rc == MPI_SUCCESS && errh_record(*c_errh, fn) != MPI_SUCCESS) {
        PMPI_Errhandler_free(c_errh);
        rc = PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
        rc = rc != MPI_SUCCESS ? rc : MPI_ERR_NO_MEM;
    }
    return rc;
}

static void errh_shim(int kind, f_errh_fn *fn, MPI_Fint *errhandler, MPI_Fint *ierror)
{
    MPI_Fint absent;
    ierror = ierror_or(ierror, &absent);
    MPI_Errhandler c_errh = MPI_ERRHANDLER_NULL;
    *ierror = errh_create(kind, fn, &c_errh);
    *errhandler = PMPI_Errhandler_c2f(c_errh);
}

#pragma weak mpi_comm_create_errhandler_ = pmpi_comm_create_errhandler_
#pragma weak mpi_comm_create_errhandler_f08_ = pmpi_comm_create_errhandler_
#pragma weak pmpi_comm_create_errhandler_f08_ = pmpi_comm_create_errhandler_
void pmpi_comm_create_errhandler_(f_errh_fn *fn, MPI_Fint *errhandler, MPI_Fint *ierror);
void pmpi_comm_create_errhandler_(f_errh_fn *fn, MPI_Fint *errhandler, MPI_Fint *ierror)
{
    errh_shim(UCMPI_F_ERRH_COMM, fn, errhandler, ierror);
}

#pragma weak mpi_win_create_errhandler_ = pmpi_win_create_errhandler_
#pragma weak mpi_win_create_errhandler_f08_ = pmpi_win_create_errhandler_
#pragma weak pmpi_win_create_errhandler_f08_ = pmpi_win_create_errhandler_
void pmpi_win_create_errhandler_(f_errh_fn *fn, MPI_Fint *errhandler, MPI_Fint *ierror);
void pmpi_win_create_errhandler_(f_errh_fn *fn, MPI_Fint *errhandler, MPI_Fint *ierror)
{
    errh_shim(UCMPI_F_ERRH_WIN, fn, errhandler, ierror);
}

#pragma weak mpi_file_create_errhandler_ = pmpi_file_create_errhandler_
#pragma weak mpi_file_create_errhandler_f08_ = pmpi_file_create_errhandler_
#pragma weak pmpi_file_create_errhandler_f08_ = pmpi_file_create_errhandler_
void pmpi_file_create_errhandler_(f_errh_fn *fn, MPI_Fint *errhandler, MPI_Fint *ierror);
void pmpi_file_create_errhandler_(f_errh_fn *fn, MPI_Fint *errhandler, MPI_Fint *ierror)
{
    errh_shim(UCMPI_F_ERRH_FILE, fn, errhandler, ierror);
}

#pragma weak mpi_session_create_errhandler_ = pmpi_session_create_errhandler_
#pragma weak mpi_session_create_errhandler_f08_ = pmpi_session_create_errhandler_
#pragma weak pmpi_session_create_errhandler_f08_ = pmpi_session_create_errhandler_
void pmpi_session_create_errhandler_(f_errh_fn *fn, MPI_Fint *errhandler, MPI_Fint *ierror);
void pmpi_session_create_errhandler_(f_errh_fn *fn, MPI_Fint *errhandler, MPI_Fint *ierror)
{
    errh_shim(UCMPI_F_ERRH_SESSION, fn, errhandler, ierror);
}
