/* Probe and matched probe.  ucp_tag_probe_nb does not progress the worker, so a
 * miss is followed by one progress call and a second look. */
#include "core/check.h"
#include "core/failure.h"
#include "p2p/request.h"
#include "p2p/progress_api.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"
#include "p2p/p2p_cancel.h"
#include "p2p/progress.h"
#include "p2p/tag.h"
#include "ucp_glue/ucx.h"

UCMPI_PREDEFINED(struct ucmpi_request_s, ucmpi_message_no_proc,
                 UCMPI_PAD_REQUEST) = {
    .obj = {.magic = UCMPI_MAGIC_REQUEST, .kind = UCMPI_REQ_MPROBE,
            .complete = 1}};

typedef struct {
    void *msg;                /* UCX message handle */
    uint64_t sender_tag;
    size_t len;
} matched_t;

/* A matched message's status (sender_tag, len), or MPI_PROC_NULL's. */
static void fill_status(MPI_Status *st, bool proc_null, uint64_t sender_tag,
                        size_t len)
{
    if (st == MPI_STATUS_IGNORE)
        return;
    st->MPI_SOURCE = proc_null ? MPI_PROC_NULL : ucmpi_tag_src(sender_tag);
    st->MPI_TAG = proc_null ? MPI_ANY_TAG : ucmpi_tag_tag(sender_tag);
    st->ucmpi_count = proc_null ? 0 : (MPI_Count)len;
    st->ucmpi_cancelled = 0;
}

static int check(int source, int tag, MPI_Comm comm, const char *fn)
{
    int rc = ucmpi_check_comm(comm, fn);
    if (rc == MPI_SUCCESS && comm->revoked)
        rc = ucmpi_err_comm(comm, MPI_ERR_REVOKED, fn, "the communicator was "
                            "revoked (MPIX_Comm_revoke)");
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_rank(comm, source, 1, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_tag(comm, tag, 1, fn);
    return rc;
}

/* The stash, then UCX (stashed messages are older), under one lock so
 * that another thread's stashing cannot pass us between them. */
static int look_once(uint64_t rtag, uint64_t mask, int remove, matched_t *m)
{
    ucmpi_lock();
    int found = ucmpi_p2p_stash_n != 0 &&
                ucmpi_p2p_stash_probe(rtag, mask, remove, &m->sender_tag,
                                      &m->len, &m->msg);
    if (!found)
        found = ucmpi_ucx_tag_probe(rtag, mask, remove, &m->sender_tag,
                                    &m->len, remove ? &m->msg : NULL);
    ucmpi_unlock();
    return found;
}

/* One look (two if progress found events after a miss); a miss of a
 * nonblocking probe may give the core away (lib/p2p/progress_poll.h). */
static int look(int source, int tag, MPI_Comm comm, int remove, matched_t *m,
                bool poll)
{
    uint64_t rtag, mask;

    ucmpi_tag_recv(comm->ctx, UCMPI_CTX_P2P, source, tag, &rtag, &mask);
    if (look_once(rtag, mask, remove, m))
        return 1;
    int n = ucmpi_progress();
    if (n != 0 && look_once(rtag, mask, remove, m))
        return 1;
    if (poll)
        ucmpi_progress_poll_miss(n);
    return 0;
}

/* Fault tolerance (ULFM) of a probe that found nothing: comm revoked
 * (MPI_ERR_REVOKED), its source dead, or for MPI_ANY_SOURCE a failure in comm
 * not acknowledged (MPI_ERR_PROC_FAILED, as ULFM says for probes); else 0.
 * Reported as fn. */
static int probe_failed(int source, MPI_Comm comm, const char *fn)
{
    int e = 0;

    if (comm->revoked)
        e = MPI_ERR_REVOKED;
    else if (source == MPI_ANY_SOURCE)
        e = ucmpi_failure_comm_check(comm, 1) != 0 ? MPI_ERR_PROC_FAILED : 0;
    else if (ucmpi_peer_failed(ucmpi_comm_peer_world(comm, source)))
        e = MPI_ERR_PROC_FAILED;
    if (e == 0)
        return 0;
    if (e == MPI_ERR_PROC_FAILED && source == MPI_ANY_SOURCE)
        return ucmpi_err_comm(comm, e, fn, "a process of the communicator "
                              "failed and the failure is not acknowledged "
                              "(MPIX_Comm_failure_ack)");
    return ucmpi_p2p_report(comm, e, fn);
}

/* A blocking probe: looks until found, checking for failures now and then. */
static int wait_look(int source, int tag, MPI_Comm comm, int remove,
                     matched_t *m, const char *fn)
{
    unsigned spins = 0;
    int rc = MPI_SUCCESS;

    while (!look(source, tag, comm, remove, m, false)) {
        ucmpi_progress_idle(++spins);
        if (spins % 1024 == 0 &&
            (rc = probe_failed(source, comm, fn)) != MPI_SUCCESS)
            break;
    }
    ucmpi_progress_wait_done();
    return rc;
}

/* A matched message becomes a request holding the UCX handle; a
 * synchronous sender is acknowledged now, since matching happened. */
static int make_message(MPI_Comm comm, matched_t *m, MPI_Message *message,
                        MPI_Status *status, const char *fn)
{
    ucmpi_request_t *r = ucmpi_request_alloc(UCMPI_REQ_MPROBE, comm);
    if (r == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of requests");
    r->p2p.op.ucx_req = m->msg;
    r->status.ucmpi_count = (MPI_Count)m->len;
    r->status.MPI_SOURCE = ucmpi_tag_src(m->sender_tag);
    r->status.MPI_TAG = ucmpi_tag_tag(m->sender_tag);
    if (ucmpi_tag_is_sync(m->sender_tag)) {
        r->p2p.mode = UCMPI_RECV_ACKED;   /* not again at the Mrecv */
        ucmpi_lock();
        ucmpi_p2p_queue_ack(r, m->sender_tag);
        ucmpi_unlock();
    }
    *message = r;
    fill_status(status, false, m->sender_tag, m->len);
    return MPI_SUCCESS;
}

/* flag NULL waits; message NULL only looks, else takes the message out.  test
 * and matched: which outputs the caller's form has (a NULL one is an error). */
static int probe(int source, int tag, MPI_Comm comm, int *flag,
                 MPI_Message *message, MPI_Status *status, const char *fn,
                 bool test, bool matched)
{
    int rc = check(source, tag, comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((test && flag == NULL) || (matched && message == NULL))
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "%s is NULL",
                              test && flag == NULL ? "flag" : "message");
    if (source == MPI_PROC_NULL) {
        if (flag != NULL)
            *flag = 1;
        if (message != NULL)
            *message = MPI_MESSAGE_NO_PROC;
        fill_status(status, true, 0, 0);
        return MPI_SUCCESS;
    }
    matched_t m;
    int remove = message != NULL;
    if (flag == NULL) {
        if ((rc = wait_look(source, tag, comm, remove, &m, fn)) != MPI_SUCCESS)
            return rc;
    } else if (!(*flag = look(source, tag, comm, remove, &m, true))) {
        return __builtin_expect(ucmpi_failure_poll_due(), 0)
                   ? probe_failed(source, comm, fn) : MPI_SUCCESS;
    }
    if (message != NULL)
        return make_message(comm, &m, message, status, fn);
    fill_status(status, false, m.sender_tag, m.len);
    return MPI_SUCCESS;
}

/* MPI_Iprobe's usual case: valid arguments, one thread, nothing stashed. */
static inline bool iprobe_usual(int source, int tag, MPI_Comm comm,
                                const int *flag)
{
    return ucmpi_global.initialized && !ucmpi_global.finalized &&
           comm != MPI_COMM_NULL && comm->magic == UCMPI_MAGIC_COMM &&
           !comm->revoked && flag != NULL &&
           ((unsigned)source < (unsigned)comm->remote_size ||
            source == MPI_ANY_SOURCE) &&
           ((unsigned)tag <= UCMPI_TAG_MAX || tag == MPI_ANY_TAG) &&
           ucmpi_global.thread_level != MPI_THREAD_MULTIPLE &&
           ucmpi_p2p_stash_n == 0;
}

/* A program may spin on MPI_Iprobe: its usual miss is one look, one
 * progress call and the poll backoff, without look()'s call layers. */
#pragma weak MPI_Iprobe = PMPI_Iprobe
int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
                MPI_Status *status)
{
    if (__builtin_expect(!iprobe_usual(source, tag, comm, flag), 0))
        return probe(source, tag, comm, flag, NULL, status, "MPI_Iprobe",
                     true, false);
    uint64_t rtag, mask;
    matched_t m;
    ucmpi_rt_enter("MPI_Iprobe");
    ucmpi_tag_recv(comm->ctx, UCMPI_CTX_P2P, source, tag, &rtag, &mask);
    *flag = ucmpi_ucx_tag_probe(rtag, mask, 0, &m.sender_tag, &m.len, NULL);
    if (!*flag) {
        int n = ucmpi_progress_fast();
        /* progress may have stashed a message: the full look then */
        if (n == 0 || !(*flag = look_once(rtag, mask, 0, &m))) {
            ucmpi_progress_poll_miss(n);
            return __builtin_expect(ucmpi_failure_poll_due(), 0)
                       ? probe_failed(source, comm, "MPI_Iprobe")
                       : MPI_SUCCESS;
        }
    }
    fill_status(status, false, m.sender_tag, m.len);
    return MPI_SUCCESS;
}

#pragma weak MPI_Probe = PMPI_Probe
int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    return probe(source, tag, comm, NULL, NULL, status, "MPI_Probe", false,
                 false);
}

#pragma weak MPI_Improbe = PMPI_Improbe
int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag,
                 MPI_Message *message, MPI_Status *status)
{
    return probe(source, tag, comm, flag, message, status, "MPI_Improbe",
                 true, true);
}

#pragma weak MPI_Mprobe = PMPI_Mprobe
int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
                MPI_Status *status)
{
    return probe(source, tag, comm, NULL, message, status, "MPI_Mprobe",
                 false, true);
}

/* Turns a matched message into a running receive into (buf, count, dt). */
static int start_matched(void *buf, MPI_Count count, MPI_Datatype dt,
                         MPI_Message *message, ucmpi_request_t **out,
                         const char *fn)
{
    ucmpi_request_t *r = message ? *message : NULL;
    int rc = ucmpi_check_initialized(fn);

    if (rc != MPI_SUCCESS)
        return rc;
    if (r == NULL || r->magic != UCMPI_MAGIC_REQUEST ||
        r->kind != UCMPI_REQ_MPROBE)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_REQUEST, fn,
                           "message is not a matched message (%p)", (void *)r);
    ucmpi_comm_t *comm = r == MPI_MESSAGE_NO_PROC ? &ucmpi_comm_world : r->comm;
    rc = ucmpi_p2p_check_buf(comm, buf, count, dt, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    dt = ucmpi_p2p_dt(dt);
    *message = MPI_MESSAGE_NULL;
    if (r == MPI_MESSAGE_NO_PROC) {
        r = ucmpi_request_alloc(UCMPI_REQ_RECV, NULL);
        if (r == NULL)
            return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of requests");
        ucmpi_p2p_set_proc_null(r);
        *out = r;
        return MPI_SUCCESS;
    }
    void *msg = r->p2p.op.ucx_req;
    r->kind = UCMPI_REQ_RECV;
    r->p2p.op.ucx_req = NULL;
    r->p2p.buf = buf;
    r->p2p.count = count;
    r->p2p.dt = dt;
    ucmpi_dt_retain(dt);
    r->p2p.peer = r->status.MPI_SOURCE;
    ucmpi_lock();
    ucmpi_p2p_post_recv(r, 0, 0, UCMPI_UCX_MSG, msg);   /* errors complete r */
    ucmpi_unlock();
    *out = r;
    return MPI_SUCCESS;
}

static int imrecv_common(void *buf, MPI_Count count, MPI_Datatype dt,
                         MPI_Message *message, MPI_Request *request,
                         const char *fn)
{
    ucmpi_request_t *r;
    if (request == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "request is NULL");
    int rc = start_matched(buf, count, dt, message, &r, fn);
    if (rc == MPI_SUCCESS)
        *request = r;
    return rc;
}

static int mrecv_common(void *buf, MPI_Count count, MPI_Datatype dt,
                        MPI_Message *message, MPI_Status *status,
                        const char *fn)
{
    ucmpi_request_t *r;
    int rc = start_matched(buf, count, dt, message, &r, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = ucmpi_request_wait(r);
    if (status != MPI_STATUS_IGNORE) {
        int keep = status->MPI_ERROR;   /* not set by single completions */
        *status = r->status;
        status->MPI_ERROR = keep;
    }
    ucmpi_comm_t *comm = r->comm ? r->comm : &ucmpi_comm_world;
    ucmpi_comm_retain(comm);
    ucmpi_request_free(r);
    rc = ucmpi_p2p_report(comm, rc, fn);
    ucmpi_comm_release(comm);
    return rc;
}

#pragma weak MPI_Imrecv = PMPI_Imrecv
int PMPI_Imrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *message,
                MPI_Request *request)
{
    return imrecv_common(buf, count, dt, message, request, "MPI_Imrecv");
}

#pragma weak MPI_Imrecv_c = PMPI_Imrecv_c
int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype dt,
                  MPI_Message *message, MPI_Request *request)
{
    return imrecv_common(buf, count, dt, message, request, "MPI_Imrecv_c");
}

#pragma weak MPI_Mrecv = PMPI_Mrecv
int PMPI_Mrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *message,
               MPI_Status *status)
{
    return mrecv_common(buf, count, dt, message, status, "MPI_Mrecv");
}

#pragma weak MPI_Mrecv_c = PMPI_Mrecv_c
int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype dt,
                 MPI_Message *message, MPI_Status *status)
{
    return mrecv_common(buf, count, dt, message, status, "MPI_Mrecv_c");
}
