/* Partitioned point-to-point (MPI-4.1 chapter 4); header pairing, one message a
 * round and the tag bits: docs/architecture.md, "lib/p2p internals". */
#include "p2p/progress_api.h"
#include "p2p/pt2pt.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"
#include "p2p/progress.h"
#include "p2p/tag.h"
#include "comm/comm_internal.h"
#include "ucp_glue/ucx.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define PART_SRC (1 << 20)       /* partitioned traffic */
#define DATA_SRC (1 << 19)       /* ... data (else header) */
#define PART_MAX_RANKS DATA_SRC

typedef struct {
    uint64_t bytes;              /* whole message */
    uint32_t channel;            /* tag of the data messages */
    uint32_t unused;
} part_hdr_t;

typedef struct part {
    ucmpi_request_t *req;        /* the user's request */
    int is_send;
    int partitions;
    part_hdr_t hdr;              /* sent, or received */
    ucmpi_request_t *hreq;       /* receive of the header (receiver) */
    int matched;                 /* receiver: header in, data tag known */
    int ready;                   /* sender: partitions ready this round */
    uint8_t *ready_map;          /* sender: which ones */
    struct part *next;           /* on the pending list */
} part_t;

/* Receives started before their header arrived, finished by the hook;
 * header receives that could not be cancelled at free. */
static part_t *pending;
static ucmpi_request_t *zombies;
static int hook_on;
static pthread_mutex_t part_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t next_channel;

static uint64_t data_tag(ucmpi_comm_t *c, int src, uint32_t channel)
{
    return ucmpi_tag_make(c->ctx, UCMPI_CTX_ACK, PART_SRC | DATA_SRC | src,
                          (int)channel);
}

/* Receiver: the header is in, post this round's data receive (part_lock
 * held).  The user's request is the UCX receive. */
static void post_data_recv(part_t *p)
{
    ucmpi_request_t *r = p->req;
    uint64_t tag, mask;

    ucmpi_tag_recv(r->comm->ctx, UCMPI_CTX_ACK,
                   PART_SRC | DATA_SRC | r->p2p.peer, (int)p->hdr.channel,
                   &tag, &mask);
    ucmpi_p2p_post_recv(r, tag, mask, 0, NULL);   /* errors complete r */
}

/* Receiver: has the header arrived? (part_lock held) */
static int try_match(part_t *p)
{
    if (p->matched)
        return 1;
    if (!ucmpi_request_is_complete(p->hreq))
        return 0;
    p->matched = 1;
    if (p->hreq->status.MPI_ERROR != MPI_SUCCESS)
        p->req->status.MPI_ERROR = p->hreq->status.MPI_ERROR;
    ucmpi_request_free(p->hreq);
    p->hreq = NULL;
    return 1;
}

static void unlink_pending(part_t *p)
{
    for (part_t **pp = &pending; *pp != NULL; pp = &(*pp)->next) {
        if (*pp == p) {
            *pp = p->next;
            break;
        }
    }
}

/* Progress hook for started receives whose header came in; unregisters when
 * idle, hook_on changes under part_lock so a new receive registers it again. */
static int part_progress(void)
{
    int events = 0, leave;

    ucmpi_p2p_mt_lock(&part_lock, true);
    for (part_t **pp = &pending; *pp != NULL;) {
        part_t *p = *pp;
        if (!try_match(p)) {
            pp = &p->next;
            continue;
        }
        *pp = p->next;
        if (p->req->status.MPI_ERROR != MPI_SUCCESS)
            ucmpi_request_set_complete(p->req);
        else
            post_data_recv(p);
        events++;
    }
    for (ucmpi_request_t **zp = &zombies; *zp != NULL;) {
        ucmpi_request_t *z = *zp;
        if (!ucmpi_request_is_complete(z)) {
            zp = &z->next_free;
            continue;
        }
        *zp = z->next_free;
        ucmpi_request_free(z);
        events++;
    }
    leave = hook_on && pending == NULL && zombies == NULL;
    if (leave)
        hook_on = 0;
    ucmpi_p2p_mt_lock(&part_lock, false);
    if (leave)
        ucmpi_progress_unregister(part_progress);
    return events;
}

/* After queueing on pending or zombies (part_lock held): 1 when the caller
 * must register the hook after dropping part_lock (it takes the big lock). */
static int want_hook(void)
{
    if (hook_on)
        return 0;
    hook_on = 1;
    return 1;
}

static void need_hook(int want)
{
    if (want)
        ucmpi_progress_register(part_progress);
}

/* ---- request operations ---- */

static int start_send(ucmpi_request_t *r)
{
    part_t *p = r->ext;

    p->ready = 0;
    memset(p->ready_map, 0, (size_t)p->partitions);
    if (r->p2p.peer == MPI_PROC_NULL) {
        ucmpi_p2p_set_proc_null(r);
        return MPI_SUCCESS;
    }
    if (p->partitions == 0) {     /* nothing to mark ready: send now */
        ucmpi_p2p_post_send(r, r->p2p.world_peer,
                            data_tag(r->comm, r->comm->rank, p->hdr.channel));
    }
    return MPI_SUCCESS;
}

static int start_recv(ucmpi_request_t *r)
{
    part_t *p = r->ext;
    int later = 0;

    if (r->p2p.peer == MPI_PROC_NULL) {
        ucmpi_p2p_set_proc_null(r);
        return MPI_SUCCESS;
    }
    ucmpi_p2p_mt_lock(&part_lock, true);
    if (!try_match(p)) {
        p->next = pending;
        pending = p;
        later = want_hook();
    } else if (r->status.MPI_ERROR != MPI_SUCCESS) {
        ucmpi_request_set_complete(r);
    } else {
        post_data_recv(p);
    }
    ucmpi_p2p_mt_lock(&part_lock, false);
    need_hook(later);
    return MPI_SUCCESS;
}

static int part_cancel(ucmpi_request_t *r)
{
    return ucmpi_err_comm(r->comm, MPI_ERR_REQUEST, "MPI_Cancel",
                          "partitioned requests cannot be cancelled");
}

/* Give the user's source and tag, not the data message's envelope. */
static int on_complete(ucmpi_request_t *r)
{
    if (r->p2p.peer != MPI_PROC_NULL) {
        r->status.MPI_SOURCE = r->p2p.peer;
        r->status.MPI_TAG = r->p2p.tag;
    }
    return MPI_SUCCESS;
}

static void destroy(ucmpi_request_t *r)
{
    part_t *p = r->ext;
    int want = 0;

    if (p == NULL)
        return;
    ucmpi_p2p_mt_lock(&part_lock, true);
    unlink_pending(p);
    if (p->hreq != NULL) {
        if (!ucmpi_request_is_complete(p->hreq))
            ucmpi_ucx_cancel(&p->hreq->p2p.op);   /* never started: no sender yet */
        if (ucmpi_request_is_complete(p->hreq)) {
            ucmpi_request_free(p->hreq);
        } else {
            p->hreq->next_free = zombies;
            zombies = p->hreq;
            want = want_hook();
        }
    }
    ucmpi_p2p_mt_lock(&part_lock, false);
    need_hook(want);
    free(p->ready_map);
    free(p);
    r->ext = NULL;
}

static const ucmpi_request_ops_t send_ops = {
    .start = start_send, .cancel = part_cancel, .on_complete = on_complete,
    .destroy = destroy};
static const ucmpi_request_ops_t recv_ops = {
    .start = start_recv, .cancel = part_cancel, .on_complete = on_complete,
    .destroy = destroy};

/* ---- initialisation ---- */

static int check_init(const void *buf, int partitions, MPI_Count count,
                      MPI_Datatype dt, int peer, int tag, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request, int is_send,
                      const char *fn)
{
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = ucmpi_check_comm(comm, fn)) != MPI_SUCCESS)
        return rc;
    if (partitions < 0)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn,
                              "partitions %d is negative", partitions);
    if (count < 0)
        return ucmpi_err_comm(comm, MPI_ERR_COUNT, fn,
                              "count %lld is negative", (long long)count);
    if (partitions > 0 && count > INT64_MAX / partitions)
        return ucmpi_err_comm(comm, MPI_ERR_COUNT, fn,
                              "%d partitions of %lld elements overflow",
                              partitions, (long long)count);
    if (!is_send && peer == MPI_ANY_SOURCE)
        return ucmpi_err_comm(comm, MPI_ERR_RANK, fn,
                              "source MPI_ANY_SOURCE is not allowed");
    if (!is_send && tag == MPI_ANY_TAG)
        return ucmpi_err_comm(comm, MPI_ERR_TAG, fn,
                              "tag MPI_ANY_TAG is not allowed");
    rc = is_send ? ucmpi_p2p_check_send(buf, partitions * count, dt, peer,
                                        tag, comm, fn)
                 : ucmpi_p2p_check_recv(buf, partitions * count, dt, peer,
                                        tag, comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (info != MPI_INFO_NULL && !ucmpi_info_valid(info))
        return ucmpi_err_comm(comm, MPI_ERR_INFO, fn, "invalid info handle");
    if (request == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "request is NULL");
    if (comm->size > PART_MAX_RANKS || comm->remote_size > PART_MAX_RANKS)
        return ucmpi_err_comm(comm, MPI_ERR_COMM, fn,
                              "partitioned communication supports at most "
                              "%d ranks per communicator", PART_MAX_RANKS);
    return MPI_SUCCESS;
}

/* The sender sends its header now so pairs match in init order (16 bytes go
 * eagerly: the wait is local); the receiver posts its receive. */
static int header(part_t *p, ucmpi_comm_t *c, int tag)
{
    ucmpi_request_t *h = ucmpi_request_alloc(
        p->is_send ? UCMPI_REQ_SEND : UCMPI_REQ_RECV, c);
    uint64_t rtag, mask;

    if (h == NULL)
        return MPI_ERR_NO_MEM;
    h->p2p.buf = &p->hdr;
    h->p2p.count = sizeof(p->hdr);
    h->p2p.dt = MPI_BYTE;
    h->p2p.peer = p->req->p2p.peer;
    h->p2p.world_peer = p->req->p2p.world_peer;
    if (!p->is_send) {
        ucmpi_tag_recv(c->ctx, UCMPI_CTX_ACK, PART_SRC | h->p2p.peer, tag,
                       &rtag, &mask);
        p->hreq = h;
        ucmpi_p2p_post_recv(h, rtag, mask, 0, NULL);   /* errors complete h */
        return MPI_SUCCESS;
    }
    int rc = ucmpi_p2p_post_send(h, h->p2p.world_peer,
                                 ucmpi_tag_make(c->ctx, UCMPI_CTX_ACK,
                                                PART_SRC | c->rank, tag));
    if (rc == MPI_SUCCESS)
        rc = ucmpi_request_wait(h);
    ucmpi_request_free(h);
    return rc;
}

static int part_init(const void *buf, int partitions, MPI_Count count,
                     MPI_Datatype dt, int peer, int tag, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request, int is_send,
                     const char *fn)
{
    int rc = check_init(buf, partitions, count, dt, peer, tag, comm, info,
                        request, is_send, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_request_t *r = ucmpi_request_alloc(UCMPI_REQ_PART, comm);
    part_t *p = calloc(1, sizeof(*p));
    uint8_t *map = is_send ? calloc((size_t)partitions + 1, 1) : NULL;
    if (r == NULL || p == NULL || (is_send && map == NULL)) {
        free(p);
        free(map);
        if (r != NULL)
            ucmpi_request_free(r);
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    r->persistent = 1;
    r->complete = 1;
    r->ops = is_send ? &send_ops : &recv_ops;
    r->ext = p;
    r->p2p.buf = (void *)buf;
    r->p2p.count = partitions * count;
    dt = ucmpi_p2p_dt(dt);        /* an empty MPI_DATATYPE_NULL buffer */
    r->p2p.dt = dt;
    if (!dt->predefined)
        ucmpi_dt_retain(dt);
    r->p2p.peer = peer;
    r->p2p.tag = tag;
    r->p2p.ctx_sub = UCMPI_CTX_ACK;
    p->req = r;
    p->is_send = is_send;
    p->partitions = partitions;
    p->ready_map = map;
    p->hdr.bytes = (uint64_t)(partitions * count * dt->size);
    if (peer != MPI_PROC_NULL) {
        r->p2p.world_peer = ucmpi_comm_peer_world(comm, peer);
        if (is_send)
            p->hdr.channel =
                __atomic_fetch_add(&next_channel, 1, __ATOMIC_RELAXED) &
                UCMPI_TAG_MAX;
        rc = header(p, comm, tag);
        if (rc != MPI_SUCCESS) {
            ucmpi_request_free(r);
            return ucmpi_err_comm(comm, rc, fn, "cannot reach rank %d", peer);
        }
    }
    *request = r;
    return MPI_SUCCESS;
}

#pragma weak MPI_Psend_init = PMPI_Psend_init
int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count,
                    MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request)
{
    return part_init(buf, partitions, count, datatype, dest, tag, comm, info,
                     request, 1, "MPI_Psend_init");
}

#pragma weak MPI_Precv_init = PMPI_Precv_init
int PMPI_Precv_init(void *buf, int partitions, MPI_Count count,
                    MPI_Datatype datatype, int source, int tag,
                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return part_init(buf, partitions, count, datatype, source, tag, comm,
                     info, request, 0, "MPI_Precv_init");
}

/* ---- ready and arrived ---- */

static int check_part_request(MPI_Request r, const ucmpi_request_ops_t *ops,
                              const char *fn)
{
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (r == MPI_REQUEST_NULL || r->magic != UCMPI_MAGIC_REQUEST)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_REQUEST, fn,
                           "request %p is null or freed", (void *)r);
    if (r->ops != ops)
        return ucmpi_err_comm(r->comm, MPI_ERR_REQUEST, fn,
                              "request is not a partitioned %s request",
                              ops == &send_ops ? "send" : "receive");
    return MPI_SUCCESS;
}

static int check_partition(MPI_Request r, int partition, const char *fn)
{
    part_t *p = r->ext;

    if (partition < 0 || partition >= p->partitions)
        return ucmpi_err_comm(r->comm, MPI_ERR_ARG, fn,
                              "partition %d is not in [0, %d)", partition,
                              p->partitions);
    return MPI_SUCCESS;
}

/* Sender: marks one partition ready; the last one sends the buffer.
 * Threads may mark partitions concurrently (MPI_THREAD_MULTIPLE). */
static int mark_ready(MPI_Request r, int partition, const char *fn)
{
    part_t *p = r->ext;

    if (__atomic_exchange_n(&p->ready_map[partition], 1, __ATOMIC_ACQ_REL))
        return ucmpi_err_comm(r->comm, MPI_ERR_ARG, fn,
                              "partition %d is already ready in this round",
                              partition);
    if (__atomic_add_fetch(&p->ready, 1, __ATOMIC_ACQ_REL) != p->partitions ||
        r->p2p.peer == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int rc = ucmpi_p2p_post_send(r, r->p2p.world_peer,
                                 data_tag(r->comm, r->comm->rank,
                                          p->hdr.channel));
    if (rc != MPI_SUCCESS)
        return ucmpi_err_comm(r->comm, rc, fn, "cannot send to rank %d",
                              r->p2p.peer);
    return MPI_SUCCESS;
}

static int check_ready(MPI_Request r, const char *fn)
{
    int rc = check_part_request(r, &send_ops, fn);
    if (rc == MPI_SUCCESS && !r->active)
        rc = ucmpi_err_comm(r->comm, MPI_ERR_REQUEST, fn,
                            "request is not active (call MPI_Start first)");
    return rc;
}

static int ready_range(int partition_low, int partition_high,
                       MPI_Request request, const char *fn)
{
    int rc = check_ready(request, fn);
    if (rc == MPI_SUCCESS)
        rc = check_partition(request, partition_low, fn);
    if (rc == MPI_SUCCESS)
        rc = check_partition(request, partition_high, fn);
    if (rc == MPI_SUCCESS && partition_low > partition_high)
        rc = ucmpi_err_comm(request->comm, MPI_ERR_ARG, fn,
                            "partition_low %d is above partition_high %d",
                            partition_low, partition_high);
    for (int i = partition_low; rc == MPI_SUCCESS && i <= partition_high; i++)
        rc = mark_ready(request, i, fn);
    return rc;
}

#pragma weak MPI_Pready = PMPI_Pready
int PMPI_Pready(int partition, MPI_Request request)
{
    return ready_range(partition, partition, request, "MPI_Pready");
}

#pragma weak MPI_Pready_range = PMPI_Pready_range
int PMPI_Pready_range(int partition_low, int partition_high,
                      MPI_Request request)
{
    return ready_range(partition_low, partition_high, request,
                       "MPI_Pready_range");
}

#pragma weak MPI_Pready_list = PMPI_Pready_list
int PMPI_Pready_list(int length, const int array_of_partitions[],
                     MPI_Request request)
{
    const char *fn = "MPI_Pready_list";
    int rc = check_ready(request, fn);
    if (rc == MPI_SUCCESS && length < 0)
        rc = ucmpi_err_comm(request->comm, MPI_ERR_ARG, fn,
                            "length %d is negative", length);
    if (rc == MPI_SUCCESS && length > 0 && array_of_partitions == NULL)
        rc = ucmpi_err_comm(request->comm, MPI_ERR_ARG, fn,
                            "array_of_partitions is NULL");
    for (int i = 0; rc == MPI_SUCCESS && i < length; i++)
        rc = check_partition(request, array_of_partitions[i], fn);
    for (int i = 0; rc == MPI_SUCCESS && i < length; i++)
        rc = mark_ready(request, array_of_partitions[i], fn);
    return rc;
}

#pragma weak MPI_Parrived = PMPI_Parrived
int PMPI_Parrived(MPI_Request request, int partition, int *flag)
{
    const char *fn = "MPI_Parrived";
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (flag == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "flag is NULL");
    if (request == MPI_REQUEST_NULL) {      /* as for an inactive request */
        *flag = 1;
        return MPI_SUCCESS;
    }
    rc = check_part_request(request, &recv_ops, fn);
    if (rc == MPI_SUCCESS)
        rc = check_partition(request, partition, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!request->active || ucmpi_request_is_complete(request)) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    int n = ucmpi_progress();      /* runs the hook if the header is late */
    *flag = ucmpi_request_is_complete(request);
    if (!*flag)
        ucmpi_progress_poll_miss(n);
    return MPI_SUCCESS;
}
