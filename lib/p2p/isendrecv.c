/* MPI_Isendrecv and MPI_Isendrecv_replace: one request over a receive and a
 * send, completed by a progress hook when both are done. */
#include "p2p/progress_api.h"
#include "p2p/pt2pt.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"

#include <string.h>

typedef struct pair {
    ucmpi_request_t *owner;
    ucmpi_request_t *send, *recv;
    void *copy;                  /* replace: the packed outgoing data */
    struct pair *next;
} pair_t;

static pair_t *active;

static int pairs_progress(void)
{
    int n = 0;
    for (pair_t **p = &active; *p != NULL;) {
        pair_t *q = *p;
        if (!ucmpi_request_is_complete(q->send) ||
            !ucmpi_request_is_complete(q->recv)) {
            p = &q->next;
            continue;
        }
        *p = q->next;
        ucmpi_request_t *o = q->owner;
        o->status = q->recv->status;
        if (o->status.MPI_ERROR == MPI_SUCCESS)
            o->status.MPI_ERROR = q->send->status.MPI_ERROR;
        ucmpi_request_set_complete(o);
        n++;
    }
    if (active == NULL)
        ucmpi_progress_unregister(pairs_progress);
    return n;
}

static void pair_destroy(ucmpi_request_t *r)
{
    pair_t *q = r->ext;
    ucmpi_request_free(q->send);
    ucmpi_request_free(q->recv);
    free(q->copy);
    free(q);
}

static const ucmpi_request_ops_t pair_ops = {.destroy = pair_destroy};

static int start_pair(const void *sbuf, MPI_Count scount, MPI_Datatype stype,
                      int dest, int stag, void *rbuf, MPI_Count rcount,
                      MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                      void *copy, MPI_Request *request, const char *fn)
{
    pair_t *q = calloc(1, sizeof(*q));
    ucmpi_request_t *o = q ? ucmpi_request_alloc(UCMPI_REQ_SEND, comm) : NULL;
    if (o == NULL) {
        free(q);
        free(copy);
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    q->owner = o;
    q->copy = copy;
    o->ext = q;
    o->ops = &pair_ops;
    ucmpi_irecv(rbuf, rcount, rtype, source, rtag, comm, UCMPI_CTX_P2P,
                &q->recv);
    ucmpi_isend(sbuf, scount, stype, dest, stag, comm, UCMPI_CTX_P2P,
                UCMPI_SEND_STANDARD, &q->send);
    ucmpi_lock();
    if (active == NULL)
        ucmpi_progress_register(pairs_progress);
    q->next = active;
    active = q;
    ucmpi_unlock();
    *request = o;
    return MPI_SUCCESS;
}

/* MPI_Isendrecv, or (replace) MPI_Isendrecv_replace, which sends a packed
 * copy of the buffer so that the receive may overwrite it at once. */
static int istart(const void *sbuf, MPI_Count scount, MPI_Datatype stype,
                  int dest, int stag, void *rbuf, MPI_Count rcount,
                  MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                  MPI_Request *request, bool replace, const char *fn)
{
    void *copy = NULL;
    int rc = ucmpi_p2p_check_send(sbuf, scount, stype, dest, stag, comm, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_p2p_check_recv(rbuf, rcount, rtype, source, rtag, comm,
                                  fn);
    if (rc == MPI_SUCCESS && request == NULL)
        rc = ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "request is NULL");
    if (rc != MPI_SUCCESS)
        return rc;
    stype = ucmpi_p2p_dt(stype);
    rtype = ucmpi_p2p_dt(rtype);
    if (replace) {
        size_t bytes = (size_t)scount * (size_t)stype->size;
        if ((copy = malloc(bytes ? bytes : 1)) == NULL)
            return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn,
                                  "cannot allocate %zu bytes", bytes);
        ucmpi_dt_pack(stype, sbuf, scount, copy);
        sbuf = copy;
        scount = (MPI_Count)bytes;
        stype = MPI_BYTE;
    }
    return start_pair(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype,
                      source, rtag, comm, copy, request, fn);
}

#pragma weak MPI_Isendrecv = PMPI_Isendrecv
int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   int dest, int sendtag, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, int source, int recvtag,
                   MPI_Comm comm, MPI_Request *request)
{
    return istart(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                  recvcount, recvtype, source, recvtag, comm, request, false,
                  "MPI_Isendrecv");
}

#pragma weak MPI_Isendrecv_c = PMPI_Isendrecv_c
int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, int dest, int sendtag,
                     void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int source, int recvtag,
                     MPI_Comm comm, MPI_Request *request)
{
    return istart(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                  recvcount, recvtype, source, recvtag, comm, request, false,
                  "MPI_Isendrecv_c");
}

#pragma weak MPI_Isendrecv_replace = PMPI_Isendrecv_replace
int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest,
                           int sendtag, int source, int recvtag,
                           MPI_Comm comm, MPI_Request *request)
{
    return istart(buf, count, dt, dest, sendtag, buf, count, dt, source,
                  recvtag, comm, request, true, "MPI_Isendrecv_replace");
}

#pragma weak MPI_Isendrecv_replace_c = PMPI_Isendrecv_replace_c
int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype dt,
                             int dest, int sendtag, int source, int recvtag,
                             MPI_Comm comm, MPI_Request *request)
{
    return istart(buf, count, dt, dest, sendtag, buf, count, dt, source,
                  recvtag, comm, request, true, "MPI_Isendrecv_replace_c");
}
