/*
 * Fortran callbacks: user reduction ops, error handlers and attribute
 * copy/delete functions written in Fortran, and the predefined
 * MPI_COMM_NULL_COPY_FN ... as Fortran procedures.  C calls ops and error
 * handlers with no user data, so each gets a slot of a trampoline pool;
 * attribute callbacks carry their Fortran functions in extra_state.
 */
#include "fortran/fort.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

typedef void f_user_fn(void *in, void *inout, MPI_Fint *len, MPI_Fint *dt);
typedef void f_errh_fn(MPI_Fint *handle, MPI_Fint *code);

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    f_user_fn *fn;
    MPI_Op op;
} ops[UCMPI_F_POOL];
static f_errh_fn *errhs[UCMPI_F_ERRH_KINDS][UCMPI_F_POOL];

static MPI_Fint *ierror_or(MPI_Fint *ierror, MPI_Fint *absent)
{
    return ierror != NULL ? ierror : absent;   /* optional in mpi_f08 */
}

void ucmpi_f_op_call(int slot, void *in, void *inout, int *len, MPI_Datatype *dt)
{
    MPI_Fint fdt = PMPI_Type_c2f(*dt);
    ops[slot].fn(in, inout, len, &fdt);
}

#pragma weak mpi_op_create_ = pmpi_op_create_
#pragma weak mpi_op_create_f08_ = pmpi_op_create_
#pragma weak pmpi_op_create_f08_ = pmpi_op_create_
void pmpi_op_create_(f_user_fn *fn, const MPI_Fint *commute, MPI_Fint *op,
                     MPI_Fint *ierror);
void pmpi_op_create_(f_user_fn *fn, const MPI_Fint *commute, MPI_Fint *op,
                     MPI_Fint *ierror)
{
    MPI_Fint absent;
    ierror = ierror_or(ierror, &absent);
    pthread_mutex_lock(&pool_lock);
    int slot = 0;
    while (slot < UCMPI_F_POOL && ops[slot].fn != NULL)
        slot++;
    if (slot == UCMPI_F_POOL) {
        pthread_mutex_unlock(&pool_lock);
        /* the C library's handler reports it, like any error of the call */
        *ierror = PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_INTERN);
        if (*ierror == MPI_SUCCESS)
            *ierror = MPI_ERR_INTERN;
        return;
    }
    MPI_Op c_op = MPI_OP_NULL;
    *ierror = PMPI_Op_create(ucmpi_f_op_tramp[slot], *commute != 0, &c_op);
    if (*ierror == MPI_SUCCESS) {
        ops[slot].fn = fn;
        ops[slot].op = c_op;
    }
    pthread_mutex_unlock(&pool_lock);
    *op = PMPI_Op_c2f(c_op);
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

/* ---- error handlers (never released: a freed handler may still be
 * attached to an object) ---- */
void ucmpi_f_errh_call(int kind, int slot, void *handle, int *code)
{
    MPI_Fint fh = 0;
    switch (kind) {
    case UCMPI_F_ERRH_COMM: fh = PMPI_Comm_c2f(*(MPI_Comm *)handle); break;
    case UCMPI_F_ERRH_WIN: fh = PMPI_Win_c2f(*(MPI_Win *)handle); break;
    case UCMPI_F_ERRH_FILE: fh = PMPI_File_c2f(*(MPI_File *)handle); break;
    default: fh = PMPI_Session_c2f(*(MPI_Session *)handle); break;
    }
    errhs[kind][slot](&fh, code);
}

static int errh_slot(int kind, f_errh_fn *fn)
{
    pthread_mutex_lock(&pool_lock);
    int slot = 0;
    while (slot < UCMPI_F_POOL && errhs[kind][slot] != NULL && errhs[kind][slot] != fn)
        slot++;
    if (slot < UCMPI_F_POOL)
        errhs[kind][slot] = fn;
    pthread_mutex_unlock(&pool_lock);
    return slot;
}

static int errh_create(int kind, f_errh_fn *fn, MPI_Errhandler *c_errh)
{
    int slot = errh_slot(kind, fn);
    if (slot == UCMPI_F_POOL) {
        int rc = PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_INTERN);
        return rc != MPI_SUCCESS ? rc : MPI_ERR_INTERN;
    }
    switch (kind) {
    case UCMPI_F_ERRH_COMM:
        return PMPI_Comm_create_errhandler(ucmpi_f_comm_errh_tramp[slot], c_errh);
    case UCMPI_F_ERRH_WIN:
        return PMPI_Win_create_errhandler(ucmpi_f_win_errh_tramp[slot], c_errh);
    case UCMPI_F_ERRH_FILE:
        return PMPI_File_create_errhandler(ucmpi_f_file_errh_tramp[slot], c_errh);
    default:
        return PMPI_Session_create_errhandler(ucmpi_f_session_errh_tramp[slot], c_errh);
    }
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
