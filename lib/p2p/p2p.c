/* Internal point-to-point on a comm sub-context.  The receiver acknowledges a
 * synchronous send from progress (never in a UCX callback) once it matched. */
#include "core/failure.h"
#include "p2p/progress_api.h"
#include "p2p/pt2pt.h"
#include "datatype/datatype.h"
#include "core/config.h"
#include "p2p/p2p.h"
#include "p2p/p2p_inline.h"
#include "p2p/tag.h"
#include "p2p/p2p_cancel.h"
#include "core/hooks.h"

#include <stdlib.h>

typedef struct {
    int world_dest;
    uint64_t tag;
} ack_t;

static ack_t *acks;
int ucmpi_p2p_acks_pending;   /* read inline by the progress engine */
static int cap_acks;

/* A synchronous send matched a receive on c: queue its acknowledgement. */
static void queue_ack(ucmpi_comm_t *c, uint64_t sender_tag)
{
    int src = ucmpi_tag_src(sender_tag);

    if (ucmpi_p2p_acks_pending == cap_acks) {
        int n = cap_acks ? cap_acks * 2 : 16;
        ack_t *a = realloc(acks, sizeof(*a) * (size_t)n);
        if (a == NULL)
            ucmpi_abort(1, "ucmpi: out of memory queueing a send acknowledgement");
        acks = a;
        cap_acks = n;
    }
    ack_t *a = &acks[ucmpi_p2p_acks_pending++];
    a->world_dest = ucmpi_comm_peer_world(c, src);
    a->tag = ucmpi_tag_make(ucmpi_tag_ctx(sender_tag), UCMPI_CTX_ACK, c->rank,
                            ucmpi_tag_tag(sender_tag));
}

/* A blocking direct receive matched a synchronous send (lib/p2p/p2p_inline.h). */
void ucmpi_p2p_queue_sync_ack(ucmpi_comm_t *c, uint64_t sender_tag)
{
    ucmpi_lock();                 /* the queue is the progress engine's */
    queue_ack(c, sender_tag);
    ucmpi_unlock();
}

/* From a receive completion (a UCX callback: no progress here). */
void ucmpi_p2p_queue_ack(ucmpi_request_t *req, uint64_t sender_tag)
{
    queue_ack(req->comm, sender_tag);
}

int ucmpi_p2p_send_queued_acks(void)
{
    int n = ucmpi_p2p_acks_pending;

    if (n == 0)
        return 0;
    ucmpi_p2p_acks_pending = 0;
    for (int i = 0; i < n; i++)
        ucmpi_ucx_send_ack(acks[i].world_dest, acks[i].tag);
    return n;
}

static void p2p_finalize(void *unused)
{
    (void)unused;
    while (ucmpi_p2p_acks_pending > 0)
        ucmpi_progress();
    ucmpi_p2p_cancel_finalize();
    free(acks);
    acks = NULL;
    cap_acks = 0;
}

void ucmpi_p2p_set_proc_null(ucmpi_request_t *r)
{
    r->status.MPI_SOURCE = MPI_PROC_NULL;
    r->status.MPI_TAG = MPI_ANY_TAG;
    r->status.ucmpi_count = 0;
    ucmpi_request_set_complete(r);
}

/* Starts a send described in r. */
int ucmpi_p2p_start_send(ucmpi_request_t *r, ucmpi_comm_t *comm, int mode)
{
    uint64_t tag;

    if (r->p2p.peer == MPI_PROC_NULL) {
        ucmpi_p2p_set_proc_null(r);
        return MPI_SUCCESS;
    }
    tag = ucmpi_tag_make(comm->ctx, r->p2p.ctx_sub, comm->rank, r->p2p.tag);
    if (mode == UCMPI_SEND_SYNC)
        tag |= UCMPI_TAG_SYNC;
    r->p2p.world_peer = ucmpi_comm_peer_world(comm, r->p2p.peer);
    if (r->p2p.ctx_sub == UCMPI_CTX_P2P)
        ucmpi_p2p_number_send(r);   /* for MPI_Cancel (p2p_cancel.h) */
    return ucmpi_p2p_post_send(r, r->p2p.world_peer, tag);
}

int ucmpi_p2p_start_recv(ucmpi_request_t *r, ucmpi_comm_t *comm)
{
    return ucmpi_p2p_start_recv_inline(r, comm, false);
}

/* Internal standard/ready contiguous send (single-threaded levels): a request
 * only when UCX keeps the operation.  -1: use the generic path. */
static int isend_direct(const void *buf, MPI_Count count, MPI_Datatype dt,
                        int dest, int tag, ucmpi_comm_t *comm, int ctx_sub,
                        ucmpi_request_t **req)
{
    ucmpi_request_t *r = ucmpi_request_pool;
    size_t bytes = (size_t)(count * dt->size);
    int world = ucmpi_comm_peer_world(comm, dest);
    ucmpi_ucx_xfer_t x = {.buf = ucmpi_p2p_contig_addr(buf, dt, bytes),
                          .len = bytes, .peer = world,
                          .tag = ucmpi_tag_make(comm->ctx, ctx_sub, comm->rank,
                                                tag)};

    if (__builtin_expect(r == NULL, 0)) {   /* grow the pool */
        if ((r = ucmpi_request_get_raw()) == NULL)
            return -1;
        ucmpi_request_put_raw(r);
    }
    /* callbacks run only inside progress: r is set up after the post */
    x.op = &r->p2p.op;
    r->p2p.op.done = ucmpi_p2p_send_done;
    ucmpi_p2p_count_send(world, x.tag, bytes);
    int rc = ucmpi_ucx_send(&x);
    if (__builtin_expect(rc == 0, 1)) {
        *req = &ucmpi_request_send_done;
        return MPI_SUCCESS;
    }
    void *ucx_req = r->p2p.op.ucx_req;
    ucmpi_request_pool = r->next_free;      /* r is still the head */
    ucmpi_request_init(r, UCMPI_REQ_SEND, comm);
    ucmpi_p2p_describe(r, buf, count, dt, dest, tag, ctx_sub);
    if (!dt->predefined)
        ucmpi_dt_retain(dt);
    r->p2p.mode = UCMPI_SEND_STANDARD;
    r->p2p.world_peer = world;
    *req = r;
    if (rc != UCMPI_UCX_POSTED) { /* failed at once: report at completion */
        r->status.MPI_ERROR = rc;
        ucmpi_request_set_complete(r);
        return rc;
    }
    r->p2p.op = (ucmpi_ucx_op_t){ucmpi_p2p_send_done, ucx_req};
    r->p2p.pending = 1;
    return MPI_SUCCESS;
}

int ucmpi_isend(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                int tag, ucmpi_comm_t *comm, int ctx_sub, int mode,
                ucmpi_request_t **req)
{
    if ((mode == UCMPI_SEND_STANDARD || mode == UCMPI_SEND_READY) &&
        ucmpi_p2p_direct(dt, dest)) {
        int rc = -1;
        if (ctx_sub == UCMPI_CTX_P2P)
            rc = ucmpi_p2p_isend_user(buf, count, dt, dest, tag, comm, req);
        else if (ucmpi_global.thread_level != MPI_THREAD_MULTIPLE)
            rc = isend_direct(buf, count, dt, dest, tag, comm, ctx_sub, req);
        if (rc >= 0)
            return rc;
    }

    ucmpi_request_t *r = ucmpi_request_alloc(UCMPI_REQ_SEND, comm);

    *req = r;
    if (r == NULL)
        return MPI_ERR_NO_MEM;
    ucmpi_p2p_describe(r, buf, count, dt, dest, tag, ctx_sub);
    if (dt != MPI_DATATYPE_NULL && !dt->predefined)
        ucmpi_dt_retain(dt);
    r->p2p.mode = mode;
    return ucmpi_p2p_start_send(r, comm, mode);
}

int ucmpi_irecv(void *buf, MPI_Count count, MPI_Datatype dt, int src,
                int tag, ucmpi_comm_t *comm, int ctx_sub,
                ucmpi_request_t **req)
{
    return ucmpi_p2p_irecv_inline(buf, count, dt, src, tag, comm, ctx_sub,
                                  req);
}

/* Blocking forms use a request on the stack: nothing to allocate. */
static void stack_request(ucmpi_request_t *r, int kind, ucmpi_comm_t *comm)
{
    ucmpi_request_zero(r);
    r->magic = UCMPI_MAGIC_REQUEST;
    r->kind = (uint8_t)kind;
    r->comm = comm;
    r->p2p.world_peer = -1;
}

int ucmpi_send_mode(const void *buf, MPI_Count count, MPI_Datatype dt,
                    int dest, int tag, ucmpi_comm_t *comm, int ctx_sub,
                    int mode)
{
    ucmpi_request_t r;

    if (mode != UCMPI_SEND_SYNC && ucmpi_p2p_direct(dt, dest))
        return ucmpi_p2p_send_direct(buf, count, dt, dest, tag, comm, ctx_sub,
                                     NULL);
    stack_request(&r, UCMPI_REQ_SEND, comm);
    ucmpi_p2p_describe(&r, buf, count, dt, dest, tag, ctx_sub);
    ucmpi_p2p_start_send(&r, comm, mode);
    return ucmpi_request_wait(&r);
}

int ucmpi_send(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
               int tag, ucmpi_comm_t *comm, int ctx_sub)
{
    return ucmpi_send_mode(buf, count, dt, dest, tag, comm, ctx_sub,
                           UCMPI_SEND_STANDARD);
}

int ucmpi_recv(void *buf, MPI_Count count, MPI_Datatype dt, int src,
               int tag, ucmpi_comm_t *comm, int ctx_sub, MPI_Status *st)
{
    ucmpi_request_t r;
    int rc;

    /* messages a send cancellation stashed are received by the generic
     * path (they come before UCX's) */
    if (ucmpi_p2p_direct(dt, src)) {
        int how = ucmpi_p2p_recv_enter(0);   /* never locked: it blocks */
        if (how != UCMPI_RECV_NONE && ucmpi_p2p_stash_n == 0) {
            rc = ucmpi_p2p_recv_direct(buf, count, dt, src, tag, comm,
                                       ctx_sub, st);
            ucmpi_p2p_recv_exit(how);
            return rc;
        }
        ucmpi_p2p_recv_exit(how);
    }
    stack_request(&r, UCMPI_REQ_RECV, comm);
    r.status.MPI_SOURCE = MPI_ANY_SOURCE;
    r.status.MPI_TAG = MPI_ANY_TAG;
    ucmpi_p2p_describe(&r, buf, count, dt, src, tag, ctx_sub);
    ucmpi_p2p_start_recv(&r, comm);
    rc = ucmpi_request_wait(&r);
    if (st != MPI_STATUS_IGNORE) {
        *st = r.status;
        st->MPI_ERROR = rc;
    }
    return rc;
}

/* A receive that can no longer match: it ends with MPI_ERR_PROC_FAILED. */
static void fail_recv(ucmpi_request_t *r)
{
    ucmpi_lock();
    if (!ucmpi_request_is_complete(r)) {
        r->status.MPI_ERROR = MPI_ERR_PROC_FAILED;
        ucmpi_ucx_cancel(&r->p2p.op);
    }
    ucmpi_unlock();
}

/* Called now and then by waiting loops: a receive from or a send to a dead
 * peer fails with MPI_ERR_PROC_FAILED (see ucmpi_p2p_send_abandon). */
static void p2p_check_peer(void *arg)
{
    ucmpi_request_t *r = arg;

    if (r->kind == UCMPI_REQ_SEND) {
        ucmpi_p2p_cancel_check_peer(r);
        /* a send UCX still holds for a dead peer (rendezvous) */
        if (r->p2p.world_peer >= 0 && !ucmpi_request_is_complete(r) &&
            ucmpi_peer_failed(r->p2p.world_peer)) {
            ucmpi_ucx_peer_gone(r->p2p.world_peer);
            ucmpi_lock();
            ucmpi_p2p_send_abandon(r);
            ucmpi_unlock();
        }
        return;
    }
    if (r->kind != UCMPI_REQ_RECV || r->p2p.world_peer < 0 ||
        ucmpi_request_is_complete(r) || !ucmpi_peer_failed(r->p2p.world_peer))
        return;
    fail_recv(r);
}

bool ucmpi_p2p_anysrc_blocked(ucmpi_request_t *r)
{
    return r != NULL && r->kind == UCMPI_REQ_RECV &&
           r->p2p.peer == MPI_ANY_SOURCE && r->p2p.ctx_sub == UCMPI_CTX_P2P &&
           r->comm != NULL && !ucmpi_request_is_complete(r) &&
           ucmpi_failure_comm_check(r->comm, 1) == MPI_ERR_PROC_FAILED_PENDING;
}

void ucmpi_p2p_check_blocking(ucmpi_request_t *r)
{
    ucmpi_request_check_peer(r);
    if (!ucmpi_p2p_anysrc_blocked(r))
        return;
    fail_recv(r);
}

bool ucmpi_p2p_sync_flag_always;

static void p2p_init(void *rc)
{
    ucmpi_p2p_sync_flag_always = ucmpi_config_long("SYNC_FLAG_ALWAYS") != 0;
    ucmpi_p2p_xfer_init();
    if (ucmpi_p2p_cancel_init() != 0)
        *(int *)rc = -1;
}

__attribute__((constructor)) static void p2p_hooks(void)
{
    ucmpi_hook_add(UCMPI_HOOK_INIT, 0, p2p_init);
    ucmpi_hook_add(UCMPI_HOOK_FINALIZE_QUIESCE, UCMPI_HOOK_ORDER_P2P,
                   p2p_finalize);
    ucmpi_hook_add(UCMPI_HOOK_PEER_CHECK, 0, p2p_check_peer);
}
