/* Buffered sends: packed into the attached buffer (first fit; AUTOMATIC
 * mallocs each); comm's buffer, else the session's, else the process's. */
#include "p2p/progress_api.h"
#include "p2p/pt2pt.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"
#include "p2p/p2p_cancel.h"
#include "p2p/bsend.h"

#include <string.h>

typedef struct seg {
    size_t off, len;          /* region of the attached buffer */
    void *copy;               /* automatic mode: malloc'd copy */
    ucmpi_request_t *req;
    uint64_t num;             /* order of buffering, for flushes */
    struct seg *next;         /* sorted by off */
} seg_t;

struct ucmpi_bpool {
    char *base;
    size_t size;
    int automatic;
    seg_t *segs;
    uint64_t next_num;
};

static ucmpi_bpool_t process_pool;
static int comm_keyval = MPI_KEYVAL_INVALID;
static int comm_buffers;      /* communicators with a buffer attached */

ucmpi_bpool_t *ucmpi_bpool_process(void)
{
    return &process_pool;
}

static void reclaim(ucmpi_bpool_t *pool)
{
    seg_t **p = &pool->segs;
    while (*p != NULL) {
        seg_t *s = *p;
        if (s->req != NULL && ucmpi_request_is_complete(s->req)) {
            *p = s->next;
            if (s->req->p2p.bsend_owner != NULL)
                s->req->p2p.bsend_owner->p2p.bsend_owner = NULL;
            ucmpi_request_free(s->req);
            free(s->copy);
            free(s);
        } else {
            p = &s->next;
        }
    }
}

/* First fit in the attached buffer (segments in offset order), or NULL. */
static seg_t *place(ucmpi_bpool_t *pool, size_t len)
{
    size_t need = len + MPI_BSEND_OVERHEAD, at = 0;
    seg_t **p = &pool->segs;

    while (*p != NULL && (*p)->off < at + need) {
        at = (*p)->off + (*p)->len;
        p = &(*p)->next;
    }
    if (at + need > pool->size)
        return NULL;
    seg_t *s = calloc(1, sizeof(*s));
    if (s == NULL)
        return NULL;
    s->off = at;
    s->len = need;
    s->next = *p;
    *p = s;
    return s;
}

/* ---- communicator buffers ---- */
static int pool_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    ucmpi_bpool_free(val);
    comm_buffers--;
    return MPI_SUCCESS;
}

ucmpi_bpool_t *ucmpi_bpool_of(ucmpi_comm_t *comm, int create)
{
    ucmpi_bpool_t *pool = NULL;
    int flag = 0;

    if (comm_keyval == MPI_KEYVAL_INVALID) {
        if (!create ||
            PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, pool_delete,
                                    &comm_keyval, NULL) != MPI_SUCCESS)
            return NULL;
    }
    if ((comm_buffers > 0 || create) &&
        PMPI_Comm_get_attr(comm, comm_keyval, &pool, &flag) == MPI_SUCCESS &&
        flag)
        return pool;
    if (!create)
        return NULL;
    pool = calloc(1, sizeof(*pool));
    if (pool == NULL)
        return NULL;
    if (PMPI_Comm_set_attr(comm, comm_keyval, pool) != MPI_SUCCESS) {
        free(pool);
        return NULL;
    }
    comm_buffers++;
    return pool;
}

static int pool_attached(const ucmpi_bpool_t *pool)
{
    return pool != NULL && (pool->base != NULL || pool->automatic);
}

/* The pool of comm's buffered sends: its own, its session's, the process's. */
static ucmpi_bpool_t *pool_for(ucmpi_comm_t *comm)
{
    ucmpi_bpool_t *pool = comm_buffers > 0 ? ucmpi_bpool_of(comm, 0) : NULL;
    if (pool_attached(pool))
        return pool;
    pool = comm->session_id ? ucmpi_session_bpool(comm->session_id) : NULL;
    if (pool_attached(pool))
        return pool;
    return &process_pool;
}

ucmpi_bpool_t *ucmpi_bpool_new(void)
{
    return calloc(1, sizeof(ucmpi_bpool_t));
}

void ucmpi_bpool_free(ucmpi_bpool_t *pool)
{
    if (pool == NULL)
        return;
    ucmpi_bpool_wait(pool, UINT64_MAX);
    ucmpi_bflush_reap();          /* its flushes are complete now */
    free(pool);
}

/* ---- attach / detach / flush ---- */
int ucmpi_bpool_attach(ucmpi_bpool_t *pool, void *buffer, MPI_Count size,
                       int obj_kind, void *obj, const char *fn)
{
    if (pool->base != NULL || pool->automatic)
        return ucmpi_error(obj_kind, obj, MPI_ERR_BUFFER, fn,
                           "a buffer is already attached");
    if (buffer == MPI_BUFFER_AUTOMATIC) {
        pool->automatic = 1;
        return MPI_SUCCESS;
    }
    if (size < 0 || (buffer == NULL && size > 0))
        return ucmpi_error(obj_kind, obj, MPI_ERR_BUFFER, fn,
                           "invalid buffer %p of size %lld", buffer,
                           (long long)size);
    pool->base = buffer;
    pool->size = (size_t)size;
    return MPI_SUCCESS;
}

/* Progress until no segment buffered before number `upto` is in flight. */
void ucmpi_bpool_wait(ucmpi_bpool_t *pool, uint64_t upto)
{
    unsigned spins = 0;
    for (;;) {
        ucmpi_lock();
        int busy = ucmpi_bpool_busy(pool, upto);
        ucmpi_unlock();
        if (!busy) {
            ucmpi_progress_wait_done();
            return;
        }
        if (ucmpi_progress() == 0)
            ucmpi_progress_idle(++spins);
        else
            spins = 0;
    }
}

int ucmpi_bpool_busy(ucmpi_bpool_t *pool, uint64_t upto)
{
    reclaim(pool);
    for (seg_t *s = pool->segs; s != NULL; s = s->next)
        if (s->num < upto)
            return 1;
    return 0;
}

/* Buffered messages on comm still in flight, in any pool it may use. */
int ucmpi_bsend_pending_on(ucmpi_comm_t *comm)
{
    ucmpi_bpool_t *pools[3] = {
        comm_buffers > 0 ? ucmpi_bpool_of(comm, 0) : NULL,
        comm->session_id ? ucmpi_session_bpool(comm->session_id) : NULL,
        &process_pool};
    int n = 0;

    ucmpi_lock();
    for (int i = 0; i < 3; i++) {
        if (pools[i] == NULL)
            continue;
        reclaim(pools[i]);
        for (seg_t *s = pools[i]->segs; s != NULL; s = s->next)
            n += s->req != NULL && s->req->comm == comm;
    }
    ucmpi_unlock();
    return n;
}

uint64_t ucmpi_bpool_mark(ucmpi_bpool_t *pool)
{
    return pool->next_num;
}

void ucmpi_bpool_detach(ucmpi_bpool_t *pool, void *buffer_addr,
                        MPI_Count *size)
{
    ucmpi_bpool_wait(pool, UINT64_MAX);
    ucmpi_bflush_reap();
    if (buffer_addr != NULL)
        *(void **)buffer_addr = pool->automatic ? MPI_BUFFER_AUTOMATIC
                                                : (void *)pool->base;
    if (size != NULL)
        *size = (MPI_Count)pool->size;
    pool->base = NULL;
    pool->size = 0;
    pool->automatic = 0;
}

/* ---- sending ---- */
/* Cancelling the user's request cancels the internal send, if any. */
static int user_cancel(ucmpi_request_t *u)
{
    ucmpi_lock();
    ucmpi_request_t *in = u->p2p.bsend_owner;
    if (in != NULL && u->p2p.cancel == UCMPI_CANCEL_NONE) {
        ucmpi_p2p_cancel_send(in);
        if (in->p2p.cancel == UCMPI_CANCEL_PENDING) {
            u->p2p.cancel = UCMPI_CANCEL_PENDING;   /* done by its reply */
            u->complete = 0;
        }
    }
    ucmpi_unlock();
    return MPI_SUCCESS;
}

static void user_destroy(ucmpi_request_t *u)
{
    ucmpi_lock();
    if (u->p2p.bsend_owner != NULL)
        u->p2p.bsend_owner->p2p.bsend_owner = NULL;
    u->p2p.bsend_owner = NULL;
    ucmpi_unlock();
}

static const ucmpi_request_ops_t user_ops = {.cancel = user_cancel,
                                             .destroy = user_destroy};

static void link_user(ucmpi_request_t *u, ucmpi_request_t *in)
{
    user_destroy(u);             /* a persistent one: forget the last copy */
    u->ops = &user_ops;
    u->p2p.cancel = UCMPI_CANCEL_NONE;
    if (in != NULL) {
        u->p2p.bsend_owner = in;
        in->p2p.bsend_owner = u;
    }
}

int ucmpi_bsend_start(const void *buf, MPI_Count count, MPI_Datatype dt,
                      int dest, int tag, ucmpi_comm_t *comm,
                      ucmpi_request_t *user, const char *fn)
{
    size_t bytes = (size_t)(count * dt->size);
    seg_t *s;
    void *data;

    if (user != NULL)
        link_user(user, NULL);
    if (dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    ucmpi_lock();
    ucmpi_bpool_t *pool = pool_for(comm);
    reclaim(pool);
    if (pool->automatic) {
        s = calloc(1, sizeof(*s));
        data = s ? (s->copy = malloc(bytes ? bytes : 1)) : NULL;
        if (s != NULL) {
            s->next = pool->segs;
            pool->segs = s;
        }
    } else {
        s = place(pool, bytes);
        /* Full: completions may still sit in UCX's queues; take in what
         * has arrived (a local step) and retry. */
        for (int idle = 0; s == NULL && idle < 16;) {
            ucmpi_unlock();
            idle = ucmpi_progress() != 0 ? 0 : idle + 1;
            ucmpi_lock();
            reclaim(pool);
            s = place(pool, bytes);
        }
        data = s ? pool->base + s->off : NULL;
    }
    if (s != NULL)
        s->num = pool->next_num++;
    ucmpi_unlock();
    if (s == NULL || data == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_BUFFER, fn,
                              "no room for %zu bytes (+%d overhead) in the "
                              "attached buffer of %zu bytes", bytes,
                              MPI_BSEND_OVERHEAD, pool->size);
    ucmpi_dt_pack(dt, buf, count, data);
    ucmpi_isend(data, (MPI_Count)bytes, MPI_BYTE, dest, tag, comm,
                UCMPI_CTX_P2P, UCMPI_SEND_STANDARD, &s->req);
    if (user != NULL) {
        ucmpi_lock();
        link_user(user, s->req);
        ucmpi_unlock();
    }
    return MPI_SUCCESS;
}

/* MPI_Bsend, or (nb) MPI_Ibsend, whose request is done at once: the data
 * is in the attached buffer. */
static int bsend(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                 int tag, MPI_Comm comm, bool nb, MPI_Request *request,
                 const char *fn)
{
    ucmpi_request_t *r = NULL;
    int rc = ucmpi_p2p_check_send(buf, count, dt, dest, tag, comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (nb && request == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "request is NULL");
    if (nb && (r = ucmpi_request_alloc(UCMPI_REQ_SEND, comm)) == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of requests");
    rc = ucmpi_bsend_start(buf, count, ucmpi_p2p_dt(dt), dest, tag, comm, r,
                           fn);
    if (rc != MPI_SUCCESS) {
        if (r != NULL)
            ucmpi_request_free(r);
        return rc;
    }
    if (r != NULL) {
        ucmpi_request_set_complete(r);
        *request = r;
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Bsend = PMPI_Bsend
int PMPI_Bsend(const void *buf, int count, MPI_Datatype dt, int dest,
               int tag, MPI_Comm comm)
{
    return bsend(buf, count, dt, dest, tag, comm, false, NULL, "MPI_Bsend");
}

#pragma weak MPI_Ibsend = PMPI_Ibsend
int PMPI_Ibsend(const void *buf, int count, MPI_Datatype dt, int dest,
                int tag, MPI_Comm comm, MPI_Request *request)
{
    return bsend(buf, count, dt, dest, tag, comm, true, request,
                 "MPI_Ibsend");
}

#pragma weak MPI_Bsend_c = PMPI_Bsend_c
int PMPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                 int tag, MPI_Comm comm)
{
    return bsend(buf, count, dt, dest, tag, comm, false, NULL, "MPI_Bsend_c");
}

#pragma weak MPI_Ibsend_c = PMPI_Ibsend_c
int PMPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                  int tag, MPI_Comm comm, MPI_Request *request)
{
    return bsend(buf, count, dt, dest, tag, comm, true, request,
                 "MPI_Ibsend_c");
}
