/*
 * Buffer management for buffered sends: attach/detach of the process's
 * buffer, of a communicator's and of a session's (MPI-4.1), int and
 * large-count forms, and the flushes, which wait until the messages
 * buffered so far have left while the buffer stays attached.
 */
#include "p2p/request.h"
#include "p2p/progress_api.h"
#include "p2p/bsend.h"
#include "comm/comm_internal.h"

#include <limits.h>
#include <stdlib.h>

/* Nonblocking flushes in progress. */
typedef struct flush {
    ucmpi_request_t *req;
    ucmpi_bpool_t *pool;
    uint64_t upto;
    struct flush *next;
} flush_t;

static flush_t *flushes;
static int hooked;

int ucmpi_bflush_reap(void)
{
    int n = 0;

    ucmpi_lock();
    for (flush_t **p = &flushes; *p != NULL;) {
        flush_t *f = *p;
        if (ucmpi_bpool_busy(f->pool, f->upto)) {
            p = &f->next;
            continue;
        }
        *p = f->next;
        ucmpi_request_set_complete(f->req);
        free(f);
        n++;
    }
    if (flushes == NULL && hooked) {
        hooked = 0;
        ucmpi_progress_unregister(ucmpi_bflush_reap);
    }
    ucmpi_unlock();
    return n;
}

/* Errors go to obj (of kind obj_kind: the process, a comm, a session). */
static int iflush(ucmpi_bpool_t *pool, int obj_kind, void *obj,
                  MPI_Request *request, const char *fn)
{
    ucmpi_comm_t *comm = obj_kind == UCMPI_OBJ_COMM ? obj : NULL;
    if (request == NULL)
        return ucmpi_error(obj_kind, obj, MPI_ERR_ARG, fn,
                           "request is NULL");
    flush_t *f = calloc(1, sizeof(*f));
    ucmpi_request_t *r = f ? ucmpi_request_alloc(UCMPI_REQ_SEND, comm) : NULL;
    if (r == NULL) {
        free(f);
        return ucmpi_error(obj_kind, obj, MPI_ERR_NO_MEM, fn,
                           "out of requests");
    }
    ucmpi_lock();
    f->req = r;
    f->pool = pool;
    f->upto = ucmpi_bpool_mark(pool);
    f->next = flushes;
    flushes = f;
    if (!hooked) {
        hooked = 1;
        ucmpi_progress_register(ucmpi_bflush_reap);
    }
    ucmpi_unlock();
    *request = r;
    return MPI_SUCCESS;
}

static int check_comm(MPI_Comm comm, const char *fn)
{
    int rc = ucmpi_check_initialized(fn);
    return rc != MPI_SUCCESS ? rc : ucmpi_check_comm(comm, fn);
}

/* Both outputs of a detach are required: checked before detaching, so an
 * error leaves the buffer attached. */
static int check_detach_args(int obj_kind, void *obj, void *buffer_addr,
                             const void *size, const char *fn)
{
    if (buffer_addr == NULL)
        return ucmpi_error(obj_kind, obj, MPI_ERR_ARG, fn,
                           "buffer_addr is NULL");
    if (size == NULL)
        return ucmpi_error(obj_kind, obj, MPI_ERR_ARG, fn, "size is NULL");
    return MPI_SUCCESS;
}

static int detach_size(MPI_Count big, int *size, const char *fn)
{
    if (big > INT_MAX) {
        *size = MPI_UNDEFINED;
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_VALUE_TOO_LARGE, fn,
                           "buffer size %lld does not fit an int",
                           (long long)big);
    }
    *size = (int)big;
    return MPI_SUCCESS;
}

/* ---- the process's buffer ---- */
#pragma weak MPI_Buffer_attach_c = PMPI_Buffer_attach_c
int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    int rc = ucmpi_check_initialized("MPI_Buffer_attach_c");
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_lock();
    rc = ucmpi_bpool_attach(ucmpi_bpool_process(), buffer, size,
                            UCMPI_OBJ_NONE, NULL,
                            "MPI_Buffer_attach_c");
    ucmpi_unlock();
    return rc;
}

#pragma weak MPI_Buffer_attach = PMPI_Buffer_attach
int PMPI_Buffer_attach(void *buffer, int size)
{
    int rc = ucmpi_check_initialized("MPI_Buffer_attach");
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_lock();
    rc = ucmpi_bpool_attach(ucmpi_bpool_process(), buffer, size,
                            UCMPI_OBJ_NONE, NULL,
                            "MPI_Buffer_attach");
    ucmpi_unlock();
    return rc;
}

#pragma weak MPI_Buffer_detach_c = PMPI_Buffer_detach_c
int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    int rc = ucmpi_check_initialized("MPI_Buffer_detach_c");
    if (rc == MPI_SUCCESS)
        rc = check_detach_args(UCMPI_OBJ_NONE, NULL, buffer_addr, size,
                               "MPI_Buffer_detach_c");
    if (rc == MPI_SUCCESS)
        ucmpi_bpool_detach(ucmpi_bpool_process(), buffer_addr, size);
    return rc;
}

#pragma weak MPI_Buffer_detach = PMPI_Buffer_detach
int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    MPI_Count big = 0;
    int rc = ucmpi_check_initialized("MPI_Buffer_detach");
    if (rc == MPI_SUCCESS)
        rc = check_detach_args(UCMPI_OBJ_NONE, NULL, buffer_addr, size,
                               "MPI_Buffer_detach");
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_bpool_detach(ucmpi_bpool_process(), buffer_addr, &big);
    return detach_size(big, size, "MPI_Buffer_detach");
}

#pragma weak MPI_Buffer_flush = PMPI_Buffer_flush
int PMPI_Buffer_flush(void)
{
    int rc = ucmpi_check_initialized("MPI_Buffer_flush");
    if (rc == MPI_SUCCESS) {
        ucmpi_bpool_t *pool = ucmpi_bpool_process();
        ucmpi_bpool_wait(pool, ucmpi_bpool_mark(pool));
    }
    return rc;
}

#pragma weak MPI_Buffer_iflush = PMPI_Buffer_iflush
int PMPI_Buffer_iflush(MPI_Request *request)
{
    int rc = ucmpi_check_initialized("MPI_Buffer_iflush");
    if (rc != MPI_SUCCESS)
        return rc;
    return iflush(ucmpi_bpool_process(), UCMPI_OBJ_NONE, NULL, request,
                  "MPI_Buffer_iflush");
}

/* ---- a communicator's buffer ---- */
static int comm_attach(MPI_Comm comm, void *buffer, MPI_Count size,
                       const char *fn)
{
    int rc = check_comm(comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_lock();
    ucmpi_bpool_t *pool = ucmpi_bpool_of(comm, 1);
    rc = pool == NULL ? ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn,
                                       "out of memory")
                      : ucmpi_bpool_attach(pool, buffer, size,
                                           UCMPI_OBJ_COMM, comm, fn);
    ucmpi_unlock();
    return rc;
}

static int comm_detach(MPI_Comm comm, void *buffer_addr, MPI_Count *size,
                       const void *user_size, const char *fn)
{
    int rc = check_comm(comm, fn);
    if (rc == MPI_SUCCESS)
        rc = check_detach_args(UCMPI_OBJ_COMM, comm, buffer_addr, user_size,
                               fn);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_bpool_t *pool = ucmpi_bpool_of(comm, 0);
    if (pool == NULL) {          /* nothing attached */
        *(void **)buffer_addr = NULL;
        *size = 0;
        return MPI_SUCCESS;
    }
    ucmpi_bpool_detach(pool, buffer_addr, size);
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_attach_buffer = PMPI_Comm_attach_buffer
int PMPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size)
{
    return comm_attach(comm, buffer, size, "MPI_Comm_attach_buffer");
}

#pragma weak MPI_Comm_attach_buffer_c = PMPI_Comm_attach_buffer_c
int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size)
{
    return comm_attach(comm, buffer, size, "MPI_Comm_attach_buffer_c");
}

#pragma weak MPI_Comm_detach_buffer = PMPI_Comm_detach_buffer
int PMPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size)
{
    MPI_Count big = 0;
    int rc = comm_detach(comm, buffer_addr, &big, size,
                         "MPI_Comm_detach_buffer");
    return rc != MPI_SUCCESS ? rc
                             : detach_size(big, size, "MPI_Comm_detach_buffer");
}

#pragma weak MPI_Comm_detach_buffer_c = PMPI_Comm_detach_buffer_c
int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr,
                              MPI_Count *size)
{
    MPI_Count big = 0;
    int rc = comm_detach(comm, buffer_addr, &big, size,
                         "MPI_Comm_detach_buffer_c");
    if (rc == MPI_SUCCESS)
        *size = big;
    return rc;
}

#pragma weak MPI_Comm_flush_buffer = PMPI_Comm_flush_buffer
int PMPI_Comm_flush_buffer(MPI_Comm comm)
{
    int rc = check_comm(comm, "MPI_Comm_flush_buffer");
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_bpool_t *pool = ucmpi_bpool_of(comm, 0);
    if (pool != NULL)
        ucmpi_bpool_wait(pool, ucmpi_bpool_mark(pool));
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_iflush_buffer = PMPI_Comm_iflush_buffer
int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request)
{
    const char *fn = "MPI_Comm_iflush_buffer";
    int rc = check_comm(comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_bpool_t *pool = ucmpi_bpool_of(comm, 0);
    if (pool == NULL)            /* no buffer: nothing to wait for */
        pool = ucmpi_bpool_of(comm, 1);
    if (pool == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    return iflush(pool, UCMPI_OBJ_COMM, comm, request, fn);
}

/* ---- a session's buffer (MPI-4.1): serves the communicators derived
 * from the session that have no buffer of their own ---- */
static int session_attach(MPI_Session session, void *buffer, MPI_Count size,
                          const char *fn)
{
    int rc = ucmpi_check_session(session, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_lock();
    ucmpi_bpool_t *pool = ucmpi_session_bpool_of(session, 1);
    rc = pool == NULL ? ucmpi_error(UCMPI_OBJ_SESSION, session,
                                    MPI_ERR_NO_MEM, fn, "out of memory")
                      : ucmpi_bpool_attach(pool, buffer, size,
                                           UCMPI_OBJ_SESSION, session, fn);
    ucmpi_unlock();
    return rc;
}

static int session_detach(MPI_Session session, void *buffer_addr,
                          MPI_Count *size, const void *user_size,
                          const char *fn)
{
    int rc = ucmpi_check_session(session, fn);
    if (rc == MPI_SUCCESS)
        rc = check_detach_args(UCMPI_OBJ_SESSION, session, buffer_addr,
                               user_size, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_bpool_t *pool = ucmpi_session_bpool_of(session, 0);
    if (pool == NULL) {          /* nothing attached */
        *(void **)buffer_addr = NULL;
        *size = 0;
        return MPI_SUCCESS;
    }
    ucmpi_bpool_detach(pool, buffer_addr, size);
    return MPI_SUCCESS;
}

#pragma weak MPI_Session_attach_buffer = PMPI_Session_attach_buffer
int PMPI_Session_attach_buffer(MPI_Session session, void *buffer, int size)
{
    return session_attach(session, buffer, size, "MPI_Session_attach_buffer");
}

#pragma weak MPI_Session_attach_buffer_c = PMPI_Session_attach_buffer_c
int PMPI_Session_attach_buffer_c(MPI_Session session, void *buffer,
                                 MPI_Count size)
{
    return session_attach(session, buffer, size,
                          "MPI_Session_attach_buffer_c");
}

#pragma weak MPI_Session_detach_buffer = PMPI_Session_detach_buffer
int PMPI_Session_detach_buffer(MPI_Session session, void *buffer_addr,
                               int *size)
{
    const char *fn = "MPI_Session_detach_buffer";
    MPI_Count big = 0;
    int rc = session_detach(session, buffer_addr, &big, size, fn);
    return rc != MPI_SUCCESS ? rc : detach_size(big, size, fn);
}

#pragma weak MPI_Session_detach_buffer_c = PMPI_Session_detach_buffer_c
int PMPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr,
                                 MPI_Count *size)
{
    MPI_Count big = 0;
    int rc = session_detach(session, buffer_addr, &big, size,
                            "MPI_Session_detach_buffer_c");
    if (rc == MPI_SUCCESS)
        *size = big;
    return rc;
}

#pragma weak MPI_Session_flush_buffer = PMPI_Session_flush_buffer
int PMPI_Session_flush_buffer(MPI_Session session)
{
    int rc = ucmpi_check_session(session, "MPI_Session_flush_buffer");
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_bpool_t *pool = ucmpi_session_bpool_of(session, 0);
    if (pool != NULL)
        ucmpi_bpool_wait(pool, ucmpi_bpool_mark(pool));
    return MPI_SUCCESS;
}

#pragma weak MPI_Session_iflush_buffer = PMPI_Session_iflush_buffer
int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request)
{
    const char *fn = "MPI_Session_iflush_buffer";
    int rc = ucmpi_check_session(session, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_lock();
    ucmpi_bpool_t *pool = ucmpi_session_bpool_of(session, 1);
    ucmpi_unlock();
    if (pool == NULL)
        return ucmpi_error(UCMPI_OBJ_SESSION, session, MPI_ERR_NO_MEM, fn,
                           "out of memory");
    return iflush(pool, UCMPI_OBJ_SESSION, session, request, fn);
}
