/*
 * Attribute keyvals with Fortran copy and delete functions, and
 * generalized requests with Fortran query/free/cancel functions.  C passes
 * extra_state back to the callbacks: it points to a record holding the
 * Fortran functions and the user's own extra_state.
 */
#include "fortran/fort.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

typedef void f_copy_fn(MPI_Fint *old, MPI_Fint *keyval, MPI_Aint *extra,
                       MPI_Aint *in, MPI_Aint *out, MPI_Fint *flag,
                       MPI_Fint *ierror);
typedef void f_delete_fn(MPI_Fint *h, MPI_Fint *keyval, MPI_Aint *val,
                         MPI_Aint *extra, MPI_Fint *ierror);
/* MPI-1 MPI_KEYVAL_CREATE passes default INTEGERs */
typedef void f_copy1_fn(MPI_Fint *old, MPI_Fint *keyval, MPI_Fint *extra,
                        MPI_Fint *in, MPI_Fint *out, MPI_Fint *flag,
                        MPI_Fint *ierror);
typedef void f_delete1_fn(MPI_Fint *h, MPI_Fint *keyval, MPI_Fint *val,
                          MPI_Fint *extra, MPI_Fint *ierror);

typedef struct {
    void *copy, *del;    /* f_copy_fn / f_copy1_fn ... by 'mpi1' */
    MPI_Aint extra;
    int mpi1;
} keyrec_t;

static int copy_call(keyrec_t *r, MPI_Fint h, int keyval, void *in, void *out,
                     int *flag)
{
    MPI_Fint k = keyval, fflag = 0, ierr = MPI_SUCCESS;
    if (r->mpi1) {
        MPI_Fint e = (MPI_Fint)r->extra, vi = (MPI_Fint)(intptr_t)in, vo = 0;
        ((f_copy1_fn *)r->copy)(&h, &k, &e, &vi, &vo, &fflag, &ierr);
        *(void **)out = (void *)(intptr_t)vo;
    } else {
        MPI_Aint vi = (MPI_Aint)(intptr_t)in, vo = 0;
        ((f_copy_fn *)r->copy)(&h, &k, &r->extra, &vi, &vo, &fflag, &ierr);
        *(void **)out = (void *)(intptr_t)vo;
    }
    *flag = fflag != 0;
    return ierr;
}

static int delete_call(keyrec_t *r, MPI_Fint h, int keyval, void *val)
{
    MPI_Fint k = keyval, ierr = MPI_SUCCESS;
    if (r->mpi1) {
        MPI_Fint e = (MPI_Fint)r->extra, v = (MPI_Fint)(intptr_t)val;
        ((f_delete1_fn *)r->del)(&h, &k, &v, &e, &ierr);
    } else {
        MPI_Aint v = (MPI_Aint)(intptr_t)val;
        ((f_delete_fn *)r->del)(&h, &k, &v, &r->extra, &ierr);
    }
    return ierr;
}

static int comm_copy(MPI_Comm old, int keyval, void *extra, void *in,
                     void *out, int *flag)
{
    return copy_call(extra, PMPI_Comm_c2f(old), keyval, in, out, flag);
}

static int comm_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    return delete_call(extra, PMPI_Comm_c2f(comm), keyval, val);
}

static int type_copy(MPI_Datatype old, int keyval, void *extra, void *in,
                     void *out, int *flag)
{
    return copy_call(extra, PMPI_Type_c2f(old), keyval, in, out, flag);
}

static int type_delete(MPI_Datatype type, int keyval, void *val, void *extra)
{
    return delete_call(extra, PMPI_Type_c2f(type), keyval, val);
}

static int win_copy(MPI_Win old, int keyval, void *extra, void *in,
                    void *out, int *flag)
{
    return copy_call(extra, PMPI_Win_c2f(old), keyval, in, out, flag);
}

static int win_delete(MPI_Win win, int keyval, void *val, void *extra)
{
    return delete_call(extra, PMPI_Win_c2f(win), keyval, val);
}

/* C never says when a keyval is gone (attributes outlive MPI_X_free_keyval),
 * so records are shared by all keyvals with the same functions and
 * extra_state and never freed: they grow with distinct tuples, not with
 * keyval creations. */
static pthread_mutex_t rec_lock = PTHREAD_MUTEX_INITIALIZER;
static keyrec_t **recs;
static int nrecs, recs_cap;

static keyrec_t *keyrec(void *copy, void *del, MPI_Aint extra, int mpi1)
{
    keyrec_t *r = NULL;
    pthread_mutex_lock(&rec_lock);
    for (int i = 0; i < nrecs && r == NULL; i++)
        if (recs[i]->copy == copy && recs[i]->del == del &&
            recs[i]->extra == extra && recs[i]->mpi1 == mpi1)
            r = recs[i];
    if (r == NULL && nrecs == recs_cap) {
        int cap = recs_cap ? 2 * recs_cap : 16;
        keyrec_t **t = realloc(recs, sizeof(*t) * (size_t)cap);
        if (t != NULL) {
            recs = t;
            recs_cap = cap;
        }
    }
    if (r == NULL && nrecs < recs_cap && (r = malloc(sizeof(*r))) != NULL) {
        *r = (keyrec_t){copy, del, extra, mpi1};
        recs[nrecs++] = r;
    }
    pthread_mutex_unlock(&rec_lock);
    return r;
}

enum { KV_COMM, KV_TYPE, KV_WIN };

static void create_keyval(int kind, void *copy, void *del, MPI_Fint *keyval,
                          MPI_Aint extra, int mpi1, MPI_Fint *ierror)
{
    MPI_Fint absent;
    if (ierror == NULL)   /* mpi_f08: ierror is optional */
        ierror = &absent;
    keyrec_t *r = keyrec(copy, del, extra, mpi1);
    if (r == NULL) {
        *ierror = MPI_ERR_NO_MEM;
        return;
    }
    int k = MPI_KEYVAL_INVALID;
    if (kind == KV_COMM)
        *ierror = PMPI_Comm_create_keyval(comm_copy, comm_delete, &k, r);
    else if (kind == KV_TYPE)
        *ierror = PMPI_Type_create_keyval(type_copy, type_delete, &k, r);
    else
        *ierror = PMPI_Win_create_keyval(win_copy, win_delete, &k, r);
    if (*ierror == MPI_SUCCESS)
        *keyval = k;
}

#pragma weak mpi_comm_create_keyval_ = pmpi_comm_create_keyval_
#pragma weak mpi_comm_create_keyval_f08_ = pmpi_comm_create_keyval_
#pragma weak pmpi_comm_create_keyval_f08_ = pmpi_comm_create_keyval_
void pmpi_comm_create_keyval_(f_copy_fn *copy, f_delete_fn *del, MPI_Fint *keyval,
                              const MPI_Aint *extra, MPI_Fint *ierror);
void pmpi_comm_create_keyval_(f_copy_fn *copy, f_delete_fn *del, MPI_Fint *keyval,
                              const MPI_Aint *extra, MPI_Fint *ierror)
{
    create_keyval(KV_COMM, (void *)copy, (void *)del, keyval, *extra, 0, ierror);
}

#pragma weak mpi_type_create_keyval_ = pmpi_type_create_keyval_
#pragma weak mpi_type_create_keyval_f08_ = pmpi_type_create_keyval_
#pragma weak pmpi_type_create_keyval_f08_ = pmpi_type_create_keyval_
void pmpi_type_create_keyval_(f_copy_fn *copy, f_delete_fn *del, MPI_Fint *keyval,
                              const MPI_Aint *extra, MPI_Fint *ierror);
void pmpi_type_create_keyval_(f_copy_fn *copy, f_delete_fn *del, MPI_Fint *keyval,
                              const MPI_Aint *extra, MPI_Fint *ierror)
{
    create_keyval(KV_TYPE, (void *)copy, (void *)del, keyval, *extra, 0, ierror);
}

#pragma weak mpi_win_create_keyval_ = pmpi_win_create_keyval_
#pragma weak mpi_win_create_keyval_f08_ = pmpi_win_create_keyval_
#pragma weak pmpi_win_create_keyval_f08_ = pmpi_win_create_keyval_
void pmpi_win_create_keyval_(f_copy_fn *copy, f_delete_fn *del, MPI_Fint *keyval,
                             const MPI_Aint *extra, MPI_Fint *ierror);
void pmpi_win_create_keyval_(f_copy_fn *copy, f_delete_fn *del, MPI_Fint *keyval,
                             const MPI_Aint *extra, MPI_Fint *ierror)
{
    create_keyval(KV_WIN, (void *)copy, (void *)del, keyval, *extra, 0, ierror);
}

#pragma weak mpi_keyval_create_ = pmpi_keyval_create_
void pmpi_keyval_create_(f_copy1_fn *copy, f_delete1_fn *del, MPI_Fint *keyval,
                         const MPI_Fint *extra, MPI_Fint *ierror);
void pmpi_keyval_create_(f_copy1_fn *copy, f_delete1_fn *del, MPI_Fint *keyval,
                         const MPI_Fint *extra, MPI_Fint *ierror)
{
    create_keyval(KV_COMM, (void *)copy, (void *)del, keyval, *extra, 1, ierror);
}

/* ---- the predefined callbacks as Fortran procedures ---- */
void mpi_comm_null_copy_fn_(MPI_Fint *old, MPI_Fint *keyval, MPI_Aint *extra,
                            MPI_Aint *in, MPI_Aint *out, MPI_Fint *flag,
                            MPI_Fint *ierror);
void mpi_comm_null_copy_fn_(MPI_Fint *old, MPI_Fint *keyval, MPI_Aint *extra,
                            MPI_Aint *in, MPI_Aint *out, MPI_Fint *flag,
                            MPI_Fint *ierror)
{
    *flag = 0;
    *ierror = MPI_SUCCESS;
}
#pragma weak mpi_type_null_copy_fn_ = mpi_comm_null_copy_fn_
#pragma weak mpi_win_null_copy_fn_ = mpi_comm_null_copy_fn_

void mpi_comm_dup_fn_(MPI_Fint *old, MPI_Fint *keyval, MPI_Aint *extra,
                      MPI_Aint *in, MPI_Aint *out, MPI_Fint *flag,
                      MPI_Fint *ierror);
void mpi_comm_dup_fn_(MPI_Fint *old, MPI_Fint *keyval, MPI_Aint *extra,
                      MPI_Aint *in, MPI_Aint *out, MPI_Fint *flag,
                      MPI_Fint *ierror)
{
    *out = *in;
    *flag = 1;
    *ierror = MPI_SUCCESS;
}
#pragma weak mpi_type_dup_fn_ = mpi_comm_dup_fn_
#pragma weak mpi_win_dup_fn_ = mpi_comm_dup_fn_

void mpi_comm_null_delete_fn_(MPI_Fint *h, MPI_Fint *keyval, MPI_Aint *val,
                              MPI_Aint *extra, MPI_Fint *ierror);
void mpi_comm_null_delete_fn_(MPI_Fint *h, MPI_Fint *keyval, MPI_Aint *val,
                              MPI_Aint *extra, MPI_Fint *ierror)
{
    *ierror = MPI_SUCCESS;
}
#pragma weak mpi_type_null_delete_fn_ = mpi_comm_null_delete_fn_
#pragma weak mpi_win_null_delete_fn_ = mpi_comm_null_delete_fn_
#pragma weak mpi_null_delete_fn_ = mpi_comm_null_delete_fn_
#pragma weak mpi_null_copy_fn_ = mpi_comm_null_copy_fn_

/* MPI-1 MPI_DUP_FN copies a default INTEGER */
void mpi_dup_fn_(MPI_Fint *old, MPI_Fint *keyval, MPI_Fint *extra,
                 MPI_Fint *in, MPI_Fint *out, MPI_Fint *flag, MPI_Fint *ierror);
void mpi_dup_fn_(MPI_Fint *old, MPI_Fint *keyval, MPI_Fint *extra,
                 MPI_Fint *in, MPI_Fint *out, MPI_Fint *flag, MPI_Fint *ierror)
{
    *out = *in;
    *flag = 1;
    *ierror = MPI_SUCCESS;
}

/* ---- generalized requests: the Fortran functions ride on extra_state,
 * freed after free_fn, the last call C makes.  Through mpif.h and the mpi
 * module the callbacks get the program's own extra_state variable, as with
 * MPICH and Open MPI (programs count in it); mpi_f08 declares it INTENT(IN),
 * so an expression is fine there and the callbacks get a copy ---- */
typedef void f_query_fn(MPI_Aint *extra, MPI_Fint *status, MPI_Fint *ierror);
typedef void f_free_fn(MPI_Aint *extra, MPI_Fint *ierror);
typedef void f_cancel_fn(MPI_Aint *extra, MPI_Fint *complete, MPI_Fint *ierror);

typedef struct {
    f_query_fn *query;
    f_free_fn *free;
    f_cancel_fn *cancel;
    MPI_Aint *extra;          /* the program's variable, or &copy */
    MPI_Aint copy;
} greq_t;

static int greq_query(void *extra, MPI_Status *status)
{
    greq_t *g = extra;
    MPI_Fint ierr = MPI_SUCCESS;
    g->query(g->extra, (MPI_Fint *)status, &ierr);
    return ierr;
}

static int greq_free(void *extra)
{
    greq_t *g = extra;
    MPI_Fint ierr = MPI_SUCCESS;
    g->free(g->extra, &ierr);
    free(g);
    return ierr;
}

static int greq_cancel(void *extra, int complete)
{
    greq_t *g = extra;
    MPI_Fint ierr = MPI_SUCCESS, fcomplete = complete != 0;
    g->cancel(g->extra, &fcomplete, &ierr);
    return ierr;
}

static void grequest_start(f_query_fn *query, f_free_fn *free_fn, f_cancel_fn *cancel,
                           MPI_Aint *extra, int copy, MPI_Fint *request, MPI_Fint *ierror)
{
    MPI_Fint absent;
    if (ierror == NULL)   /* mpi_f08: ierror is optional */
        ierror = &absent;
    greq_t *g = malloc(sizeof(*g));
    if (g == NULL) {
        *ierror = MPI_ERR_NO_MEM;
        return;
    }
    *g = (greq_t){query, free_fn, cancel, extra, *extra};
    if (copy)
        g->extra = &g->copy;
    MPI_Request c_req = MPI_REQUEST_NULL;
    *ierror = PMPI_Grequest_start(greq_query, greq_free, greq_cancel, g, &c_req);
    if (*ierror != MPI_SUCCESS)
        free(g);
    *request = PMPI_Request_c2f(c_req);
}

#pragma weak mpi_grequest_start_ = pmpi_grequest_start_
void pmpi_grequest_start_(f_query_fn *query, f_free_fn *free_fn,
                          f_cancel_fn *cancel, MPI_Aint *extra,
                          MPI_Fint *request, MPI_Fint *ierror);
void pmpi_grequest_start_(f_query_fn *query, f_free_fn *free_fn,
                          f_cancel_fn *cancel, MPI_Aint *extra,
                          MPI_Fint *request, MPI_Fint *ierror)
{
    grequest_start(query, free_fn, cancel, extra, 0, request, ierror);
}

#pragma weak mpi_grequest_start_f08_ = pmpi_grequest_start_f08_
void pmpi_grequest_start_f08_(f_query_fn *query, f_free_fn *free_fn,
                              f_cancel_fn *cancel, MPI_Aint *extra,
                              MPI_Fint *request, MPI_Fint *ierror);
void pmpi_grequest_start_f08_(f_query_fn *query, f_free_fn *free_fn,
                              f_cancel_fn *cancel, MPI_Aint *extra,
                              MPI_Fint *request, MPI_Fint *ierror)
{
    grequest_start(query, free_fn, cancel, extra, 1, request, ierror);
}
