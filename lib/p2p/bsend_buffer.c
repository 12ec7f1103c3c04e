/* Attach, detach and flush of the buffers of buffered sends: the process's, a
 * communicator's and a session's (MPI-4.1). */
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

/* A buffer's owner: the process (obj NULL), a communicator or a session
 * (obj_kind UCMPI_OBJ_NONE, _COMM, _SESSION); errors go to it. */
static int check_owner(int obj_kind, void *obj, const char *fn)
{
    if (obj_kind == UCMPI_OBJ_SESSION)
        return ucmpi_check_session(obj, fn);
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS || obj_kind != UCMPI_OBJ_COMM)
        return rc;
    return ucmpi_check_comm(obj, fn);
}

/* A session's buffer serves the communicators derived from the session
 * that have no buffer of their own (MPI-4.1). */
static ucmpi_bpool_t *pool_of(int obj_kind, void *obj, int create)
{
    if (obj_kind == UCMPI_OBJ_COMM)
        return ucmpi_bpool_of(obj, create);
    if (obj_kind == UCMPI_OBJ_SESSION)
        return ucmpi_session_bpool_of(obj, create);
    return ucmpi_bpool_process();
}

static int attach(int obj_kind, void *obj, void *buffer, MPI_Count size,
                  const char *fn)
{
    int rc = check_owner(obj_kind, obj, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_lock();
    ucmpi_bpool_t *pool = pool_of(obj_kind, obj, 1);
    rc = pool == NULL ? ucmpi_error(obj_kind, obj, MPI_ERR_NO_MEM, fn,
                                    "out of memory")
                      : ucmpi_bpool_attach(pool, buffer, size, obj_kind, obj,
                                           fn);
    ucmpi_unlock();
    return rc;
}

/* Both outputs are required: checked before detaching, so an error leaves
 * the buffer attached.  The size goes to csize (_c forms) or isize. */
static int detach(int obj_kind, void *obj, void *buffer_addr,
                  MPI_Count *csize, int *isize, const char *fn)
{
    MPI_Count big = 0;
    int rc = check_owner(obj_kind, obj, fn);
    if (rc == MPI_SUCCESS && buffer_addr == NULL)
        rc = ucmpi_error(obj_kind, obj, MPI_ERR_ARG, fn,
                         "buffer_addr is NULL");
    if (rc == MPI_SUCCESS && csize == NULL && isize == NULL)
        rc = ucmpi_error(obj_kind, obj, MPI_ERR_ARG, fn, "size is NULL");
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_bpool_t *pool = pool_of(obj_kind, obj, 0);
    if (pool != NULL)
        ucmpi_bpool_detach(pool, buffer_addr, &big);
    else                         /* nothing attached */
        *(void **)buffer_addr = NULL;
    if (csize != NULL) {
        *csize = big;
        return MPI_SUCCESS;
    }
    if (big > INT_MAX) {
        *isize = MPI_UNDEFINED;
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_VALUE_TOO_LARGE, fn,
                           "buffer size %lld does not fit an int",
                           (long long)big);
    }
    *isize = (int)big;
    return MPI_SUCCESS;
}

/* Waits until the messages buffered so far have left. */
static int flush(int obj_kind, void *obj, const char *fn)
{
    int rc = check_owner(obj_kind, obj, fn);
    ucmpi_bpool_t *pool = rc == MPI_SUCCESS ? pool_of(obj_kind, obj, 0)
                                            : NULL;
    if (pool != NULL)
        ucmpi_bpool_wait(pool, ucmpi_bpool_mark(pool));
    return rc;
}

/* MPI_*_iflush_buffer: a request completing when the buffered messages
 * so far have left. */
static int iflush_owner(int obj_kind, void *obj, MPI_Request *request,
                        const char *fn)
{
    int rc = check_owner(obj_kind, obj, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_lock();
    ucmpi_bpool_t *pool = pool_of(obj_kind, obj, 1);   /* none: empty */
    ucmpi_unlock();
    if (pool == NULL)
        return ucmpi_error(obj_kind, obj, MPI_ERR_NO_MEM, fn,
                           "out of memory");
    if (request == NULL)
        return ucmpi_error(obj_kind, obj, MPI_ERR_ARG, fn,
                           "request is NULL");
    ucmpi_comm_t *comm = obj_kind == UCMPI_OBJ_COMM ? obj : NULL;
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

#pragma weak MPI_Buffer_attach = PMPI_Buffer_attach
int PMPI_Buffer_attach(void *buffer, int size)
{
    return attach(UCMPI_OBJ_NONE, NULL, buffer, size, "MPI_Buffer_attach");
}

#pragma weak MPI_Buffer_attach_c = PMPI_Buffer_attach_c
int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    return attach(UCMPI_OBJ_NONE, NULL, buffer, size, "MPI_Buffer_attach_c");
}

#pragma weak MPI_Buffer_detach = PMPI_Buffer_detach
int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    return detach(UCMPI_OBJ_NONE, NULL, buffer_addr, NULL, size,
                  "MPI_Buffer_detach");
}

#pragma weak MPI_Buffer_detach_c = PMPI_Buffer_detach_c
int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    return detach(UCMPI_OBJ_NONE, NULL, buffer_addr, size, NULL,
                  "MPI_Buffer_detach_c");
}

#pragma weak MPI_Buffer_flush = PMPI_Buffer_flush
int PMPI_Buffer_flush(void)
{
    return flush(UCMPI_OBJ_NONE, NULL, "MPI_Buffer_flush");
}

#pragma weak MPI_Buffer_iflush = PMPI_Buffer_iflush
int PMPI_Buffer_iflush(MPI_Request *request)
{
    return iflush_owner(UCMPI_OBJ_NONE, NULL, request, "MPI_Buffer_iflush");
}

#pragma weak MPI_Comm_attach_buffer = PMPI_Comm_attach_buffer
int PMPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size)
{
    return attach(UCMPI_OBJ_COMM, comm, buffer, size,
                  "MPI_Comm_attach_buffer");
}

#pragma weak MPI_Comm_attach_buffer_c = PMPI_Comm_attach_buffer_c
int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size)
{
    return attach(UCMPI_OBJ_COMM, comm, buffer, size,
                  "MPI_Comm_attach_buffer_c");
}

#pragma weak MPI_Comm_detach_buffer = PMPI_Comm_detach_buffer
int PMPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size)
{
    return detach(UCMPI_OBJ_COMM, comm, buffer_addr, NULL, size,
                  "MPI_Comm_detach_buffer");
}

#pragma weak MPI_Comm_detach_buffer_c = PMPI_Comm_detach_buffer_c
int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr,
                              MPI_Count *size)
{
    return detach(UCMPI_OBJ_COMM, comm, buffer_addr, size, NULL,
                  "MPI_Comm_detach_buffer_c");
}

#pragma weak MPI_Comm_flush_buffer = PMPI_Comm_flush_buffer
int PMPI_Comm_flush_buffer(MPI_Comm comm)
{
    return flush(UCMPI_OBJ_COMM, comm, "MPI_Comm_flush_buffer");
}

#pragma weak MPI_Comm_iflush_buffer = PMPI_Comm_iflush_buffer
int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request)
{
    return iflush_owner(UCMPI_OBJ_COMM, comm, request,
                        "MPI_Comm_iflush_buffer");
}

#pragma weak MPI_Session_attach_buffer = PMPI_Session_attach_buffer
int PMPI_Session_attach_buffer(MPI_Session session, void *buffer, int size)
{
    return attach(UCMPI_OBJ_SESSION, session, buffer, size,
                  "MPI_Session_attach_buffer");
}

#pragma weak MPI_Session_attach_buffer_c = PMPI_Session_attach_buffer_c
int PMPI_Session_attach_buffer_c(MPI_Session session, void *buffer,
                                 MPI_Count size)
{
    return attach(UCMPI_OBJ_SESSION, session, buffer, size,
                  "MPI_Session_attach_buffer_c");
}

#pragma weak MPI_Session_detach_buffer = PMPI_Session_detach_buffer
int PMPI_Session_detach_buffer(MPI_Session session, void *buffer_addr,
                               int *size)
{
    return detach(UCMPI_OBJ_SESSION, session, buffer_addr, NULL, size,
                  "MPI_Session_detach_buffer");
}

#pragma weak MPI_Session_detach_buffer_c = PMPI_Session_detach_buffer_c
int PMPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr,
                                 MPI_Count *size)
{
    return detach(UCMPI_OBJ_SESSION, session, buffer_addr, size, NULL,
                  "MPI_Session_detach_buffer_c");
}

#pragma weak MPI_Session_flush_buffer = PMPI_Session_flush_buffer
int PMPI_Session_flush_buffer(MPI_Session session)
{
    return flush(UCMPI_OBJ_SESSION, session, "MPI_Session_flush_buffer");
}

#pragma weak MPI_Session_iflush_buffer = PMPI_Session_iflush_buffer
int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request)
{
    return iflush_owner(UCMPI_OBJ_SESSION, session, request,
                        "MPI_Session_iflush_buffer");
}
