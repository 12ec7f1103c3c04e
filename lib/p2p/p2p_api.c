/* Point-to-point entry points: argument checks, then the internal send/receive
 * of lib/p2p/p2p.c on the communicator's user context. */
#include "core/check.h"
#include "p2p/pt2pt.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"
#include "p2p/p2p_inline.h"

/* An empty buffer may be described with MPI_DATATYPE_NULL, whatever the
 * peer (MPI-4.1 sets no requirement on the type of a count-0 transfer). */
int ucmpi_p2p_check_buf(MPI_Comm comm, const void *buf, MPI_Count count,
                        MPI_Datatype dt, const char *fn)
{
    if (count == 0 && dt == MPI_DATATYPE_NULL)
        return MPI_SUCCESS;
    return ucmpi_check_buf(comm, buf, count, dt, fn);
}

int ucmpi_p2p_check_send(const void *buf, MPI_Count count, MPI_Datatype dt,
                         int dest, int tag, MPI_Comm comm, const char *fn)
{
    ucmpi_rt_enter(fn);           /* the fast check skips check_initialized */
    if (ucmpi_p2p_args_ok(buf, count, dt, dest, tag, comm, false))
        return MPI_SUCCESS;
    int rc = ucmpi_check_comm(comm, fn);
    if (rc == MPI_SUCCESS && comm->revoked)
        rc = ucmpi_err_comm(comm, MPI_ERR_REVOKED, fn, "the communicator was "
                            "revoked (MPIX_Comm_revoke)");
    if (rc == MPI_SUCCESS)
        rc = ucmpi_p2p_check_buf(comm, buf, count, dt, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_rank(comm, dest, 0, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_tag(comm, tag, 0, fn);
    return rc;
}

int ucmpi_p2p_check_recv(const void *buf, MPI_Count count, MPI_Datatype dt,
                         int src, int tag, MPI_Comm comm, const char *fn)
{
    ucmpi_rt_enter(fn);           /* the fast check skips check_initialized */
    if (ucmpi_p2p_args_ok(buf, count, dt, src, tag, comm, true))
        return MPI_SUCCESS;
    int rc = ucmpi_check_comm(comm, fn);
    if (rc == MPI_SUCCESS && comm->revoked)
        rc = ucmpi_err_comm(comm, MPI_ERR_REVOKED, fn, "the communicator was "
                            "revoked (MPIX_Comm_revoke)");
    if (rc == MPI_SUCCESS)
        rc = ucmpi_p2p_check_buf(comm, buf, count, dt, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_rank(comm, src, 1, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_tag(comm, tag, 1, fn);
    return rc;
}

/* The checks above with their usual outcome inline.  A call that cannot
 * block does not publish its name for --timeout (rt_calls.h). */
static inline int check_send(const void *buf, MPI_Count count,
                             MPI_Datatype dt, int dest, int tag,
                             MPI_Comm comm, bool blocking, const char *fn)
{
    if (__builtin_expect(ucmpi_p2p_args_ok(buf, count, dt, dest, tag, comm,
                                           false), 1)) {
        if (blocking)
            ucmpi_rt_enter(fn);
        return MPI_SUCCESS;
    }
    return ucmpi_p2p_check_send(buf, count, dt, dest, tag, comm, fn);
}

static inline int check_recv(const void *buf, MPI_Count count,
                             MPI_Datatype dt, int src, int tag,
                             MPI_Comm comm, bool blocking, const char *fn)
{
    if (__builtin_expect(ucmpi_p2p_args_ok(buf, count, dt, src, tag, comm,
                                           true), 1)) {
        if (blocking)
            ucmpi_rt_enter(fn);
        return MPI_SUCCESS;
    }
    return ucmpi_p2p_check_recv(buf, count, dt, src, tag, comm, fn);
}

static int check_req_out(MPI_Comm comm, MPI_Request *request, const char *fn)
{
    if (request != NULL)
        return MPI_SUCCESS;
    return ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "request is NULL");
}

/* Reports a failed blocking operation through the comm's handler. */
int ucmpi_p2p_report(MPI_Comm comm, int rc, const char *fn)
{
    if (rc == MPI_SUCCESS)
        return rc;
    return ucmpi_err_comm(comm, rc, fn, "%s",
                          rc == MPI_ERR_TRUNCATE
                              ? "message longer than the receive buffer"
                          : rc == MPI_ERR_PROC_FAILED
                              ? "the peer process failed"
                          : rc == MPI_ERR_TYPE
                              ? "the message ends inside an element of the "
                                "receive type (type signatures differ)"
                          : rc == MPI_ERR_REVOKED
                              ? "the communicator was revoked "
                                "(MPIX_Comm_revoke)"
                          : rc == MPI_ERR_PROC_FAILED_PENDING
                              ? "a process of the communicator failed and "
                                "the failure is not acknowledged "
                                "(MPIX_Comm_failure_ack): the MPI_ANY_SOURCE "
                                "receive stays pending"
                              : "communication failed");
}

/* Any blocking send, out of line, so the usual path needs no stack frame. */
static __attribute__((noinline)) int
blocking_send_slow(const void *buf, MPI_Count count, MPI_Datatype dt,
                   int dest, int tag, MPI_Comm comm, int mode, const char *fn)
{
    int rc = check_send(buf, count, dt, dest, tag, comm, true, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = ucmpi_send_mode(buf, count, ucmpi_p2p_dt(dt), dest, tag, comm,
                         UCMPI_CTX_P2P, mode);
    return ucmpi_p2p_report(comm, rc, fn);
}

/* A blocking entry point's slow path with its own six arguments: the
 * usual path then ends in a jump either way, with no stack frame. */
typedef int (*send_slow_t)(const void *buf, MPI_Count count, MPI_Datatype dt,
                           int dest, int tag, MPI_Comm comm);

/* The bodies below are forced inline into each entry point: one call
 * layer less on every message. */
static inline __attribute__((always_inline)) int
blocking_send(const void *buf, MPI_Count count, MPI_Datatype dt,
              int dest, int tag, MPI_Comm comm, int mode,
              const char *fn, send_slow_t slow)
{
    /* usual case: a tail call to the glue, which reports its own errors */
    if (__builtin_expect(mode != UCMPI_SEND_SYNC &&
                         ucmpi_p2p_args_ok(buf, count, dt, dest, tag, comm,
                                           false) && dt->contig &&
                         ucmpi_global.thread_level != MPI_THREAD_MULTIPLE,
                         1)) {
        size_t bytes = (size_t)(count * dt->size);
        int world = ucmpi_comm_peer_world(comm, dest);

        ucmpi_rt_enter(fn);
        ++ucmpi_p2p_peer_seq[world];  /* earlier sends no longer cancellable */
        return ucmpi_p2p_send_contig(
            world, ucmpi_tag_make(comm->ctx, UCMPI_CTX_P2P, comm->rank, tag),
            ucmpi_p2p_contig_addr(buf, dt, bytes), bytes, comm, fn);
    }
    if (slow != NULL)
        return slow(buf, count, dt, dest, tag, comm);
    return blocking_send_slow(buf, count, dt, dest, tag, comm, mode, fn);
}

static __attribute__((noinline)) int
send_slow_mpi(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
              int tag, MPI_Comm comm)
{
    return blocking_send_slow(buf, count, dt, dest, tag, comm,
                              UCMPI_SEND_STANDARD, "MPI_Send");
}

/* Any nonblocking send, out of line (see blocking_send_slow). */
static __attribute__((noinline)) int
nonblocking_send_slow(const void *buf, MPI_Count count, MPI_Datatype dt,
                      int dest, int tag, MPI_Comm comm, int mode,
                      MPI_Request *request, const char *fn)
{
    int rc = check_send(buf, count, dt, dest, tag, comm, false, fn);
    if (rc == MPI_SUCCESS)
        rc = check_req_out(comm, request, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_request_t *r = NULL;
    bool usual = (mode == UCMPI_SEND_STANDARD || mode == UCMPI_SEND_READY) &&
                 ucmpi_p2p_direct(dt, dest);   /* the inline path below */
    if (!usual || ucmpi_p2p_isend_user(buf, count, dt, dest, tag, comm, &r) < 0)
        ucmpi_isend(buf, count, ucmpi_p2p_dt(dt), dest, tag, comm,
                    UCMPI_CTX_P2P, mode, &r);
    if (r == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of requests");
    *request = r;   /* errors surface at completion, like transfer errors */
    return MPI_SUCCESS;
}

/* A nonblocking entry point's slow path with its own seven arguments
 * (nine would not fit the caller's frame; see send_slow_t). */
typedef int (*nb_slow_t)(const void *buf, MPI_Count count, MPI_Datatype dt,
                         int peer, int tag, MPI_Comm comm,
                         MPI_Request *request);

/* The usual nonblocking call: valid arguments naming a rank (or ANY_SOURCE),
 * contiguous predefined data, a pooled request, below THREAD_MULTIPLE. */
static inline bool nb_usual(const void *buf, MPI_Count count,
                            MPI_Datatype dt, int peer, int tag,
                            MPI_Comm comm, MPI_Request *request, bool recv)
{
    return ucmpi_p2p_args_ok(buf, count, dt, peer, tag, comm, recv) &&
           request != NULL && dt->contig && dt->predefined &&
           ucmpi_request_pool != NULL &&
           ucmpi_global.thread_level != MPI_THREAD_MULTIPLE;
}

/* The usual standard or ready send ends in a tail call to the glue, which
 * completes the request or hands it to UCX. */
static inline __attribute__((always_inline)) int
nonblocking_send(const void *buf, MPI_Count count, MPI_Datatype dt,
                 int dest, int tag, MPI_Comm comm, int mode,
                 MPI_Request *request, const char *fn, nb_slow_t slow)
{
    if (__builtin_expect((mode == UCMPI_SEND_STANDARD ||
                          mode == UCMPI_SEND_READY) &&
                         nb_usual(buf, count, dt, dest, tag, comm, request,
                                  false), 1)) {
        ucmpi_request_t *r = ucmpi_p2p_pop_fast(UCMPI_REQ_SEND, comm);
        *request = r;
        return ucmpi_p2p_isend_leaf(r, buf, count, dt, dest, tag, comm);
    }
    if (slow != NULL)
        return slow(buf, count, dt, dest, tag, comm, request);
    return nonblocking_send_slow(buf, count, dt, dest, tag, comm, mode,
                                 request, fn);
}

static __attribute__((noinline)) int
isend_slow(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
           int tag, MPI_Comm comm, MPI_Request *request)
{
    return nonblocking_send_slow(buf, count, dt, dest, tag, comm,
                                 UCMPI_SEND_STANDARD, request, "MPI_Isend");
}

#pragma weak MPI_Send = PMPI_Send
int PMPI_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
              MPI_Comm comm)
{
    return blocking_send(buf, count, dt, dest, tag, comm, UCMPI_SEND_STANDARD,
                         "MPI_Send", send_slow_mpi);
}

#pragma weak MPI_Ssend = PMPI_Ssend
int PMPI_Ssend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
               MPI_Comm comm)
{
    return blocking_send(buf, count, dt, dest, tag, comm, UCMPI_SEND_SYNC,
                         "MPI_Ssend", NULL);
}

#pragma weak MPI_Rsend = PMPI_Rsend
int PMPI_Rsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
               MPI_Comm comm)
{
    return blocking_send(buf, count, dt, dest, tag, comm, UCMPI_SEND_READY,
                         "MPI_Rsend", NULL);
}

#pragma weak MPI_Isend = PMPI_Isend
int PMPI_Isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
               MPI_Comm comm, MPI_Request *request)
{
    return nonblocking_send(buf, count, dt, dest, tag, comm,
                            UCMPI_SEND_STANDARD, request, "MPI_Isend",
                            isend_slow);
}

#pragma weak MPI_Issend = PMPI_Issend
int PMPI_Issend(const void *buf, int count, MPI_Datatype dt, int dest,
                int tag, MPI_Comm comm, MPI_Request *request)
{
    return nonblocking_send(buf, count, dt, dest, tag, comm, UCMPI_SEND_SYNC,
                            request, "MPI_Issend", NULL);
}

#pragma weak MPI_Irsend = PMPI_Irsend
int PMPI_Irsend(const void *buf, int count, MPI_Datatype dt, int dest,
                int tag, MPI_Comm comm, MPI_Request *request)
{
    return nonblocking_send(buf, count, dt, dest, tag, comm, UCMPI_SEND_READY,
                            request, "MPI_Irsend", NULL);
}

#pragma weak MPI_Send_c = PMPI_Send_c
int PMPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                int tag, MPI_Comm comm)
{
    return blocking_send(buf, count, dt, dest, tag, comm, UCMPI_SEND_STANDARD,
                         "MPI_Send_c", NULL);
}

#pragma weak MPI_Ssend_c = PMPI_Ssend_c
int PMPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                 int tag, MPI_Comm comm)
{
    return blocking_send(buf, count, dt, dest, tag, comm, UCMPI_SEND_SYNC,
                         "MPI_Ssend_c", NULL);
}

#pragma weak MPI_Rsend_c = PMPI_Rsend_c
int PMPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                 int tag, MPI_Comm comm)
{
    return blocking_send(buf, count, dt, dest, tag, comm, UCMPI_SEND_READY,
                         "MPI_Rsend_c", NULL);
}

#pragma weak MPI_Isend_c = PMPI_Isend_c
int PMPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                 int tag, MPI_Comm comm, MPI_Request *request)
{
    return nonblocking_send(buf, count, dt, dest, tag, comm,
                            UCMPI_SEND_STANDARD, request, "MPI_Isend_c", NULL);
}

#pragma weak MPI_Issend_c = PMPI_Issend_c
int PMPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                  int tag, MPI_Comm comm, MPI_Request *request)
{
    return nonblocking_send(buf, count, dt, dest, tag, comm, UCMPI_SEND_SYNC,
                            request, "MPI_Issend_c", NULL);
}

#pragma weak MPI_Irsend_c = PMPI_Irsend_c
int PMPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                  int tag, MPI_Comm comm, MPI_Request *request)
{
    return nonblocking_send(buf, count, dt, dest, tag, comm, UCMPI_SEND_READY,
                            request, "MPI_Irsend_c", NULL);
}

/* Any blocking receive, out of line (see blocking_send_slow). */
static __attribute__((noinline)) int
recv_slow(void *buf, MPI_Count count, MPI_Datatype dt, int src, int tag,
          MPI_Comm comm, MPI_Status *status, const char *fn)
{
    int rc = check_recv(buf, count, dt, src, tag, comm, true, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = ucmpi_recv(buf, count, ucmpi_p2p_dt(dt), src, tag, comm,
                    UCMPI_CTX_P2P, status);
    return ucmpi_p2p_report(comm, rc, fn);
}

static inline __attribute__((always_inline)) int
recv_common(void *buf, MPI_Count count, MPI_Datatype dt, int src,
            int tag, MPI_Comm comm, MPI_Status *status,
            const char *fn)
{
    /* the usual case (see blocking_send): a tail call into the glue,
     * which reports errors as the call named here */
    if (__builtin_expect(ucmpi_p2p_args_ok(buf, count, dt, src, tag, comm,
                                           true) && dt->contig &&
                         ucmpi_global.thread_level != MPI_THREAD_MULTIPLE &&
                         ucmpi_p2p_stash_n == 0, 1)) {
        ucmpi_rt_enter(fn);
        return ucmpi_p2p_recv_user(buf, count, dt, src, tag, comm, status);
    }
    return recv_slow(buf, count, dt, src, tag, comm, status, fn);
}

static __attribute__((noinline)) int
irecv_slow(void *buf, MPI_Count count, MPI_Datatype dt, int src, int tag,
           MPI_Comm comm, MPI_Request *request, const char *fn)
{
    int rc = check_recv(buf, count, dt, src, tag, comm, false, fn);
    if (rc == MPI_SUCCESS)
        rc = check_req_out(comm, request, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_request_t *r;
    ucmpi_p2p_irecv_inline(buf, count, dt, src, tag, comm, UCMPI_CTX_P2P, &r);
    if (r == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of requests");
    *request = r;
    return MPI_SUCCESS;
}

/* The usual case (nothing stashed by a send cancellation) ends in a tail
 * call to the glue, as nonblocking_send. */
static inline __attribute__((always_inline)) int
irecv_common(void *buf, MPI_Count count, MPI_Datatype dt,
             int src, int tag, MPI_Comm comm, MPI_Request *request,
             const char *fn, nb_slow_t slow)
{
    if (__builtin_expect(nb_usual(buf, count, dt, src, tag, comm, request,
                                  true) && ucmpi_p2p_stash_n == 0, 1)) {
        ucmpi_request_t *r = ucmpi_p2p_pop_fast(UCMPI_REQ_RECV, comm);
        *request = r;
        return ucmpi_p2p_irecv_leaf(r, buf, count, dt, src, tag, comm);
    }
    if (slow != NULL)
        return slow(buf, count, dt, src, tag, comm, request);
    return irecv_slow(buf, count, dt, src, tag, comm, request, fn);
}

static __attribute__((noinline)) int
irecv_slow_mpi(const void *buf, MPI_Count count, MPI_Datatype dt, int src,
               int tag, MPI_Comm comm, MPI_Request *request)
{
    return irecv_slow((void *)buf, count, dt, src, tag, comm, request,
                      "MPI_Irecv");
}

#pragma weak MPI_Recv = PMPI_Recv
int PMPI_Recv(void *buf, int count, MPI_Datatype dt, int src, int tag,
              MPI_Comm comm, MPI_Status *status)
{
    return recv_common(buf, count, dt, src, tag, comm, status, "MPI_Recv");
}

#pragma weak MPI_Recv_c = PMPI_Recv_c
int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype dt, int src,
                int tag, MPI_Comm comm, MPI_Status *status)
{
    return recv_common(buf, count, dt, src, tag, comm, status, "MPI_Recv_c");
}

#pragma weak MPI_Irecv = PMPI_Irecv
int PMPI_Irecv(void *buf, int count, MPI_Datatype dt, int src, int tag,
               MPI_Comm comm, MPI_Request *request)
{
    return irecv_common(buf, count, dt, src, tag, comm, request, "MPI_Irecv",
                        irecv_slow_mpi);
}

#pragma weak MPI_Irecv_c = PMPI_Irecv_c
int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype dt, int src,
                 int tag, MPI_Comm comm, MPI_Request *request)
{
    return irecv_common(buf, count, dt, src, tag, comm, request,
                        "MPI_Irecv_c", NULL);
}

static int sendrecv_common(const void *sendbuf, MPI_Count sendcount,
                           MPI_Datatype sendtype, int dest, int sendtag,
                           void *recvbuf, MPI_Count recvcount,
                           MPI_Datatype recvtype, int source, int recvtag,
                           MPI_Comm comm, MPI_Status *status, const char *fn)
{
    int rc = ucmpi_p2p_check_send(sendbuf, sendcount, sendtype, dest, sendtag,
                                  comm, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_p2p_check_recv(recvbuf, recvcount, recvtype, source,
                                  recvtag, comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    sendtype = ucmpi_p2p_dt(sendtype);
    recvtype = ucmpi_p2p_dt(recvtype);
    ucmpi_request_t *rr, *sr;
    ucmpi_irecv(recvbuf, recvcount, recvtype, source, recvtag, comm,
                UCMPI_CTX_P2P, &rr);
    ucmpi_isend(sendbuf, sendcount, sendtype, dest, sendtag, comm,
                UCMPI_CTX_P2P, UCMPI_SEND_STANDARD, &sr);
    if (rr == NULL || sr == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of requests");
    int src = ucmpi_request_wait(sr);
    rc = ucmpi_request_wait(rr);
    if (status != MPI_STATUS_IGNORE) {
        int keep = status->MPI_ERROR;   /* not set by single completions */
        *status = rr->status;
        status->MPI_ERROR = keep;
    }
    ucmpi_request_free(sr);
    ucmpi_request_free(rr);
    return ucmpi_p2p_report(comm, rc != MPI_SUCCESS ? rc : src, fn);
}

#pragma weak MPI_Sendrecv = PMPI_Sendrecv
int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  int dest, int sendtag, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Status *status)
{
    return sendrecv_common(sendbuf, sendcount, sendtype, dest, sendtag,
                           recvbuf, recvcount, recvtype, source, recvtag,
                           comm, status, "MPI_Sendrecv");
}

#pragma weak MPI_Sendrecv_c = PMPI_Sendrecv_c
int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount,
                    MPI_Datatype sendtype, int dest, int sendtag,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm,
                    MPI_Status *status)
{
    return sendrecv_common(sendbuf, sendcount, sendtype, dest, sendtag,
                           recvbuf, recvcount, recvtype, source, recvtag,
                           comm, status, "MPI_Sendrecv_c");
}

static int replace_common(void *buf, MPI_Count count, MPI_Datatype dt,
                          int dest, int sendtag, int source, int recvtag,
                          MPI_Comm comm, MPI_Status *status, const char *fn)
{
    int rc = ucmpi_p2p_check_send(buf, count, dt, dest, sendtag, comm, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_rank(comm, source, 1, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_tag(comm, recvtag, 1, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    dt = ucmpi_p2p_dt(dt);
    /* send a packed copy so the receive may overwrite the buffer at once */
    size_t bytes = (size_t)count * (size_t)dt->size;
    void *copy = malloc(bytes ? bytes : 1);
    if (copy == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn,
                              "cannot allocate %zu bytes", bytes);
    ucmpi_dt_pack(dt, buf, count, copy);
    ucmpi_request_t *sr;
    ucmpi_isend(copy, (MPI_Count)bytes, MPI_BYTE, dest, sendtag, comm,
                UCMPI_CTX_P2P, UCMPI_SEND_STANDARD, &sr);
    rc = ucmpi_recv(buf, count, dt, source, recvtag, comm, UCMPI_CTX_P2P,
                    status);
    int src = sr ? ucmpi_request_wait(sr) : MPI_ERR_NO_MEM;
    ucmpi_request_free(sr);
    free(copy);
    return ucmpi_p2p_report(comm, rc != MPI_SUCCESS ? rc : src, fn);
}

#pragma weak MPI_Sendrecv_replace = PMPI_Sendrecv_replace
int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest,
                          int sendtag, int source, int recvtag, MPI_Comm comm,
                          MPI_Status *status)
{
    return replace_common(buf, count, dt, dest, sendtag, source, recvtag,
                          comm, status, "MPI_Sendrecv_replace");
}

#pragma weak MPI_Sendrecv_replace_c = PMPI_Sendrecv_replace_c
int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype dt,
                            int dest, int sendtag, int source, int recvtag,
                            MPI_Comm comm, MPI_Status *status)
{
    return replace_common(buf, count, dt, dest, sendtag, source, recvtag,
                          comm, status, "MPI_Sendrecv_replace_c");
}
