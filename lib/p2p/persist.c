/* Persistent requests: *_init builds an inactive request; MPI_Start runs it
 * again (point-to-point here; other kinds through their ops->start). */
#include "p2p/pt2pt.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"
#include "p2p/p2p_cancel.h"

static int init_request(const void *buf, MPI_Count count, MPI_Datatype dt,
                        int peer, int tag, MPI_Comm comm, int kind, int mode,
                        MPI_Request *request, const char *fn)
{
    int rc = kind == UCMPI_REQ_SEND
                 ? ucmpi_p2p_check_send(buf, count, dt, peer, tag, comm, fn)
                 : ucmpi_p2p_check_recv(buf, count, dt, peer, tag, comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (request == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "request is NULL");
    ucmpi_request_t *r = ucmpi_request_alloc(kind, comm);
    if (r == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of requests");
    r->persistent = 1;
    r->complete = 1;
    r->p2p.buf = (void *)buf;
    r->p2p.count = count;
    r->p2p.dt = ucmpi_p2p_dt(dt);
    ucmpi_dt_retain(r->p2p.dt);
    r->p2p.peer = peer;
    r->p2p.tag = tag;
    r->p2p.ctx_sub = UCMPI_CTX_P2P;
    r->p2p.mode = mode;
    *request = r;
    return MPI_SUCCESS;
}

#pragma weak MPI_Send_init = PMPI_Send_init
int PMPI_Send_init(const void *buf, int count, MPI_Datatype dt, int dest,
                   int tag, MPI_Comm comm, MPI_Request *request)
{
    return init_request(buf, count, dt, dest, tag, comm, UCMPI_REQ_SEND,
                        UCMPI_SEND_STANDARD, request, "MPI_Send_init");
}

#pragma weak MPI_Ssend_init = PMPI_Ssend_init
int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype dt, int dest,
                    int tag, MPI_Comm comm, MPI_Request *request)
{
    return init_request(buf, count, dt, dest, tag, comm, UCMPI_REQ_SEND,
                        UCMPI_SEND_SYNC, request, "MPI_Ssend_init");
}

#pragma weak MPI_Rsend_init = PMPI_Rsend_init
int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype dt, int dest,
                    int tag, MPI_Comm comm, MPI_Request *request)
{
    return init_request(buf, count, dt, dest, tag, comm, UCMPI_REQ_SEND,
                        UCMPI_SEND_READY, request, "MPI_Rsend_init");
}

#pragma weak MPI_Bsend_init = PMPI_Bsend_init
int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype dt, int dest,
                    int tag, MPI_Comm comm, MPI_Request *request)
{
    return init_request(buf, count, dt, dest, tag, comm, UCMPI_REQ_SEND,
                        UCMPI_SEND_BUFFERED, request, "MPI_Bsend_init");
}

#pragma weak MPI_Recv_init = PMPI_Recv_init
int PMPI_Recv_init(void *buf, int count, MPI_Datatype dt, int source,
                   int tag, MPI_Comm comm, MPI_Request *request)
{
    return init_request(buf, count, dt, source, tag, comm, UCMPI_REQ_RECV,
                        UCMPI_SEND_STANDARD, request, "MPI_Recv_init");
}

#pragma weak MPI_Send_init_c = PMPI_Send_init_c
int PMPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype dt,
                     int dest, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
    return init_request(buf, count, dt, dest, tag, comm, UCMPI_REQ_SEND,
                        UCMPI_SEND_STANDARD, request, "MPI_Send_init_c");
}

#pragma weak MPI_Ssend_init_c = PMPI_Ssend_init_c
int PMPI_Ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype dt,
                      int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
    return init_request(buf, count, dt, dest, tag, comm, UCMPI_REQ_SEND,
                        UCMPI_SEND_SYNC, request, "MPI_Ssend_init_c");
}

#pragma weak MPI_Rsend_init_c = PMPI_Rsend_init_c
int PMPI_Rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype dt,
                      int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
    return init_request(buf, count, dt, dest, tag, comm, UCMPI_REQ_SEND,
                        UCMPI_SEND_READY, request, "MPI_Rsend_init_c");
}

#pragma weak MPI_Bsend_init_c = PMPI_Bsend_init_c
int PMPI_Bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype dt,
                      int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
    return init_request(buf, count, dt, dest, tag, comm, UCMPI_REQ_SEND,
                        UCMPI_SEND_BUFFERED, request, "MPI_Bsend_init_c");
}

#pragma weak MPI_Recv_init_c = PMPI_Recv_init_c
int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype dt,
                     int source, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
    return init_request(buf, count, dt, source, tag, comm, UCMPI_REQ_RECV,
                        UCMPI_SEND_STANDARD, request, "MPI_Recv_init_c");
}

static int start_one(ucmpi_request_t *r)
{
    if (r == MPI_REQUEST_NULL || r->magic != UCMPI_MAGIC_REQUEST ||
        !r->persistent)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_REQUEST, "MPI_Start",
                           "request %p is not a persistent request", (void *)r);
    if (r->active)
        return ucmpi_err_comm(r->comm, MPI_ERR_REQUEST, "MPI_Start",
                              "request is already active");
    r->active = 1;
    r->complete = 0;
    r->status.MPI_ERROR = MPI_SUCCESS;
    r->status.ucmpi_cancelled = 0;
    r->status.ucmpi_count = 0;
    r->p2p.cancel = UCMPI_CANCEL_NONE;
    if (r->ops != NULL && r->ops->start != NULL)
        return r->ops->start(r);
    if (r->kind == UCMPI_REQ_RECV) {
        ucmpi_p2p_start_recv(r, r->comm);
        return MPI_SUCCESS;
    }
    if (r->p2p.mode == UCMPI_SEND_BUFFERED) {
        int rc = ucmpi_bsend_start(r->p2p.buf, r->p2p.count, r->p2p.dt,
                                   r->p2p.peer, r->p2p.tag, r->comm, r,
                                   "MPI_Start");
        r->status.MPI_ERROR = rc;
        ucmpi_request_set_complete(r);
        return rc;
    }
    ucmpi_p2p_start_send(r, r->comm, r->p2p.mode);
    return MPI_SUCCESS;
}

#pragma weak MPI_Start = PMPI_Start
int PMPI_Start(MPI_Request *request)
{
    int rc = ucmpi_check_initialized("MPI_Start");
    if (rc != MPI_SUCCESS)
        return rc;
    if (request == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, "MPI_Start",
                           "request is NULL");
    return start_one(*request);
}

#pragma weak MPI_Startall = PMPI_Startall
int PMPI_Startall(int count, MPI_Request requests[])
{
    int rc = ucmpi_check_initialized("MPI_Startall");
    if (rc != MPI_SUCCESS)
        return rc;
    if (count < 0 || (count > 0 && requests == NULL))
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, "MPI_Startall",
                           "invalid count %d or NULL array", count);
    for (int i = 0; i < count; i++) {
        rc = start_one(requests[i]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}
