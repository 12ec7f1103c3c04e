/*
 * Buffered sends: the data is packed into the user-attached buffer (first
 * fit among the segments still in flight) and sent from there; segments
 * are reclaimed as their sends complete.  MPI_BUFFER_AUTOMATIC makes the
 * library allocate each copy itself.
 */
#include "ucmpi.h"
#include "p2p.h"
#include "p2p_cancel.h"

#include <string.h>

typedef struct seg {
    size_t off, len;          /* region of the attached buffer */
    void *copy;               /* automatic mode: malloc'd copy */
    ucmpi_request_t *req;
    struct seg *next;         /* sorted by off */
} seg_t;

static char *attached;
static size_t attached_size;
static int automatic;
static seg_t *segs;

static void reclaim(void)
{
    seg_t **p = &segs;
    while (*p != NULL) {
        seg_t *s = *p;
        if (ucmpi_request_is_complete(s->req)) {
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

/* First fit in the attached buffer: a new segment linked in offset order,
 * or NULL when nothing fits. */
static seg_t *place(size_t len)
{
    size_t need = len + MPI_BSEND_OVERHEAD, at = 0;
    seg_t **p = &segs;

    while (*p != NULL && (*p)->off < at + need) {
        at = (*p)->off + (*p)->len;
        p = &(*p)->next;
    }
    if (at + need > attached_size)
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

/* MPI_Cancel of the user's request of a buffered send cancels the
 * internal send of the copy, if that still exists. */
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
    reclaim();
    if (automatic) {
        s = calloc(1, sizeof(*s));
        data = s ? (s->copy = malloc(bytes ? bytes : 1)) : NULL;
        if (s != NULL) {
            s->next = segs;
            segs = s;
        }
    } else {
        s = place(bytes);
        data = s ? attached + s->off : NULL;
    }
    ucmpi_unlock();
    if (s == NULL || data == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_BUFFER, fn,
                              "no room for %zu bytes (+%d overhead) in the "
                              "attached buffer of %zu bytes", bytes,
                              MPI_BSEND_OVERHEAD, attached_size);
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

#pragma weak MPI_Buffer_attach = PMPI_Buffer_attach
int PMPI_Buffer_attach(void *buffer, int size)
{
    int rc = ucmpi_check_initialized("MPI_Buffer_attach");
    if (rc != MPI_SUCCESS)
        return rc;
    if (attached != NULL || automatic)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_BUFFER,
                           "MPI_Buffer_attach", "a buffer is already attached");
    if (buffer == MPI_BUFFER_AUTOMATIC) {
        automatic = 1;
        return MPI_SUCCESS;
    }
    if (size < 0 || (buffer == NULL && size > 0))
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_BUFFER,
                           "MPI_Buffer_attach", "invalid buffer %p of size %d",
                           buffer, size);
    attached = buffer;
    attached_size = (size_t)size;
    return MPI_SUCCESS;
}

#pragma weak MPI_Buffer_detach = PMPI_Buffer_detach
int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    int rc = ucmpi_check_initialized("MPI_Buffer_detach");
    if (rc != MPI_SUCCESS)
        return rc;
    unsigned spins = 0;
    for (;;) {
        ucmpi_lock();
        reclaim();
        int empty = segs == NULL;
        ucmpi_unlock();
        if (empty)
            break;
        if (ucmpi_progress() == 0)
            ucmpi_progress_idle(++spins);
    }
    ucmpi_rt_wait_done();
    if (buffer_addr != NULL)
        *(void **)buffer_addr = automatic ? MPI_BUFFER_AUTOMATIC : attached;
    if (size != NULL)
        *size = (int)attached_size;
    attached = NULL;
    attached_size = 0;
    automatic = 0;
    return MPI_SUCCESS;
}

static int check_bsend(const void *buf, int count, MPI_Datatype dt, int dest,
                       int tag, MPI_Comm comm, const char *fn)
{
    return ucmpi_p2p_check_send(buf, count, dt, dest, tag, comm, fn);
}

#pragma weak MPI_Bsend = PMPI_Bsend
int PMPI_Bsend(const void *buf, int count, MPI_Datatype dt, int dest,
               int tag, MPI_Comm comm)
{
    int rc = check_bsend(buf, count, dt, dest, tag, comm, "MPI_Bsend");
    if (rc != MPI_SUCCESS)
        return rc;
    return ucmpi_bsend_start(buf, count, dt, dest, tag, comm, NULL,
                             "MPI_Bsend");
}

#pragma weak MPI_Ibsend = PMPI_Ibsend
int PMPI_Ibsend(const void *buf, int count, MPI_Datatype dt, int dest,
                int tag, MPI_Comm comm, MPI_Request *request)
{
    int rc = check_bsend(buf, count, dt, dest, tag, comm, "MPI_Ibsend");
    if (rc != MPI_SUCCESS)
        return rc;
    if (request == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, "MPI_Ibsend",
                              "request is NULL");
    /* the data is in the attached buffer: the user's request is done */
    ucmpi_request_t *r = ucmpi_request_alloc(UCMPI_REQ_SEND, comm);
    if (r == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, "MPI_Ibsend",
                              "out of requests");
    rc = ucmpi_bsend_start(buf, count, dt, dest, tag, comm, r, "MPI_Ibsend");
    if (rc != MPI_SUCCESS) {
        ucmpi_request_free(r);
        return rc;
    }
    ucmpi_request_set_complete(r);
    *request = r;
    return MPI_SUCCESS;
}
