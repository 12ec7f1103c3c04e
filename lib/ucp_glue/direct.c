/*
 * Blocking point-to-point of contiguous data straight on UCX, without a
 * ucmpi request: MPI_Send's and MPI_Recv's usual paths, whose few hundred
 * instructions a ping-pong's latency waits for (lib/p2p/p2p_api.c jumps here
 * after its argument checks).
 */
#include "glue.h"
#include "ucx.h"
#include "tag.h"
#include "p2p/p2p.h"
#include "p2p/p2p_inline.h"
#include "p2p/progress.h"

/* Waits for a UCX request posted without callback; once world_peer >= 0
 * is seen dead a receive (info != NULL) from it is cancelled, a send to it
 * is left to UCX (its memory is released when UCX is done with it, which
 * may be never), and *dead tells so.  The caller frees the request unless it
 * provided its memory. */
static inline __attribute__((always_inline)) ucs_status_t
wait_ucx_nofree(void *ucx_req, ucp_tag_recv_info_t *info, int world_peer,
                int *dead)
{
    ucp_worker_h worker = ucmpi_ucx.worker;
    ucmpi_wait_loop_t l;
    ucs_status_t st;

    /* a turn of this loop is what a message waits for on average: a
     * cheap status check, and UCX progress without the engine's call
     * when nothing else needs driving (see lib/p2p/progress.h) */
    ucmpi_wait_loop_init(&l);
    while ((st = ucp_request_check_status(ucx_req)) == UCS_INPROGRESS) {
        int n = l.fast ? (int)ucp_worker_progress(worker) : ucmpi_progress();
        unsigned spins = ucmpi_wait_loop_after(&l, n);
        if (spins % 1024 == 0 && spins != 0 && world_peer >= 0 && !*dead &&
            ucmpi_peer_failed(world_peer)) {
            *dead = 1;
            if (info == NULL) {               /* a send: see ucmpi_ucx_send_abandon */
                ucmpi_ucx_peer_gone(world_peer);
                st = UCS_ERR_CONNECTION_RESET;
                break;
            }
            ucp_request_cancel(worker, ucx_req);
        }
    }
    if (info != NULL)
        st = ucp_tag_recv_request_test(ucx_req, info);
    ucmpi_rt_wait_done();
    return st;
}

static ucs_status_t wait_ucx(void *ucx_req, ucp_tag_recv_info_t *info,
                             int world_peer, int *dead)
{
    ucs_status_t st = wait_ucx_nofree(ucx_req, info, world_peer, dead);

    ucp_request_free(ucx_req);
    return st;
}

/* Blocking send of a contiguous buffer.  FAST_CMPL tells UCX the caller
 * waits at once (what ucp_tag_send_nbr and Open MPI's MPI_Send do): it
 * then copies eagerly up to UCX_RNDV_SEND_NBR_THRESH (256 KiB) instead of
 * a rendezvous from ~8 KiB, 3-10x faster for 16-128 KiB on shared memory. */
static int send_contig_wait(void *ret, int world_dest, MPI_Comm comm,
                            const char *fn)
{
    int dead = 0, rc;
    ucs_status_t st = UCS_PTR_IS_ERR(ret)
                          ? UCS_PTR_STATUS(ret)
                          : wait_ucx(ret, NULL, world_dest, &dead);

    if (st != UCS_OK && (dead || ucmpi_peer_failed(world_dest)))
        rc = MPI_ERR_PROC_FAILED;     /* e.g. its shared memory is gone */
    else
        rc = ucmpi_ucx_mpi_error(st);
    return fn != NULL ? ucmpi_p2p_report(comm, rc, fn) : rc;
}

/* The parameters of a blocking send and what its rare outcomes need,
 * in one object whose address UCX gets: the compiler then keeps nothing
 * in registers across the UCX call (no saves and restores on the usual
 * path, which a message's latency waits for). */
typedef struct {
    ucp_request_param_t p;        /* UCX reads only what op_attr_mask names */
    MPI_Comm comm;
    const char *fn;
    int world_dest;
} send_frame_t;

static inline __attribute__((always_inline)) int
send_contig_post(ucp_ep_h ep, int world_dest, uint64_t tag, const void *buf,
                 size_t len, MPI_Comm comm, const char *fn)
{
    send_frame_t f;

    f.p.op_attr_mask = UCP_OP_ATTR_FLAG_FAST_CMPL;
    f.comm = comm;
    f.fn = fn;
    f.world_dest = world_dest;
    void *ret = ucp_tag_send_nbx(ep, buf, len, tag, &f.p);
    if (__builtin_expect(ret == NULL, 1))
        return MPI_SUCCESS;
    return send_contig_wait(ret, f.world_dest, f.comm, f.fn);
}

/* ucmpi_ucx_send_contig's other cases: a new endpoint, a dead peer, a
 * send large enough for the huge-page hook. */
static __attribute__((noinline)) int
send_contig_slow(int world_dest, uint64_t tag, const void *buf, size_t len,
                 MPI_Comm comm, const char *fn)
{
    ucp_ep_h ep = ucmpi_ucx_ep(world_dest);

    if (ep == NULL || ucmpi_ucx_peer_dead(world_dest))
        return fn != NULL ? ucmpi_p2p_report(comm, MPI_ERR_PROC_FAILED, fn)
                          : MPI_ERR_PROC_FAILED;
    if (len >= ucmpi_ucx_hugepage_min)
        ucmpi_ucx_hugepage_send(world_dest, buf, len);
    return send_contig_post(ep, world_dest, tag, buf, len, comm, fn);
}

int ucmpi_ucx_send_contig(int world_dest, uint64_t tag, const void *buf,
                          size_t len, MPI_Comm comm, const char *fn)
{
    ucp_ep_h ep = __atomic_load_n(&ucmpi_ucx.eps[world_dest],
                                  __ATOMIC_ACQUIRE);

    if (__builtin_expect(ep == NULL || ucmpi_ucx_peer_dead(world_dest) ||
                         len >= ucmpi_ucx_hugepage_min, 0))
        return send_contig_slow(world_dest, tag, buf, len, comm, fn);
    return send_contig_post(ep, world_dest, tag, buf, len, comm, fn);
}

/* Where a blocking receive's callback leaves the outcome. */
typedef struct {
    ucs_status_t status;          /* UCS_INPROGRESS until the callback ran */
    ucp_tag_recv_info_t info;
} recv_wait_t;

static void recv_wait_cb(void *ucx_req, ucs_status_t st,
                         const ucp_tag_recv_info_t *info, void *user_data)
{
    recv_wait_t *w = user_data;

    w->info = *info;
    w->status = st;
}

/* Waits for a single-threaded blocking receive: the callback runs inside
 * this thread's progress (or a cancel), and UCX is done with the request
 * once the call that ran it returned, so each turn reads a local instead
 * of calling ucp_request_check_status, and the envelope needs no
 * ucp_tag_recv_request_test (~40 instructions less per message, on the
 * path its latency waits for). */
static inline __attribute__((always_inline)) ucs_status_t
wait_recv_st(void *ucx_req, recv_wait_t *w,
                                 int world_peer, int *dead)
{
    ucp_worker_h worker = ucmpi_ucx.worker;
    ucmpi_wait_loop_t l;

    ucmpi_wait_loop_init(&l);
    while (__atomic_load_n(&w->status, __ATOMIC_RELAXED) == UCS_INPROGRESS) {
        int n = l.fast ? (int)ucp_worker_progress(worker) : ucmpi_progress();
        /* done: leave before the loop's bookkeeping (the path from the
         * callback to the caller is part of every message's latency) */
        if (__atomic_load_n(&w->status, __ATOMIC_RELAXED) != UCS_INPROGRESS)
            break;
        unsigned spins = ucmpi_wait_loop_after(&l, n);
        if (spins % 1024 == 0 && spins != 0 && world_peer >= 0 && !*dead &&
            ucmpi_peer_failed(world_peer)) {
            *dead = 1;
            ucp_request_cancel(worker, ucx_req);
        }
    }
    ucmpi_rt_wait_done();
    return w->status;
}

/* Blocking receive into a contiguous buffer, without immediate completion
 * (UCX 1.13 leaves param->recv_info unset then): the envelope comes from
 * the callback, or from ucp_tag_recv_request_test under
 * MPI_THREAD_MULTIPLE (another thread may run the callback while UCX
 * still owns the request).  The UCX request lives on this stack (as
 * ucp_tag_recv_nbr's did; Open MPI's MPI_Recv does the same): no request
 * pool get and free per message.  *sender_tag and *length are set unless
 * the result is MPI_ERR_PROC_FAILED or MPI_ERR_OTHER. */
int ucmpi_ucx_recv_contig(void *buf, size_t len, uint64_t tag, uint64_t mask,
                          int world_peer, uint64_t *sender_tag,
                          size_t *length)
{
    ucp_request_param_t p;        /* UCX reads only what op_attr_mask names */
    recv_wait_t w;
    ucs_status_t st;
    int dead = 0;
    /* UCX puts its request just in front of p.request */
    char req_mem[ucmpi_ucx.req_size] __attribute__((aligned(16)));

    p.op_attr_mask = UCP_OP_ATTR_FLAG_NO_IMM_CMPL |
                     UCP_OP_ATTR_FIELD_REQUEST;
    p.request = req_mem + sizeof(req_mem);
    if (__builtin_expect(len >= ucmpi_ucx_hugepage_min, 0))
        ucmpi_ucx_hugepage_recv(world_peer, buf, len);
    if (__builtin_expect(!ucmpi_ucx.multi_thread, 1)) {
        w.status = UCS_INPROGRESS;
        p.op_attr_mask |= UCP_OP_ATTR_FIELD_CALLBACK |
                          UCP_OP_ATTR_FIELD_USER_DATA;
        p.cb.recv = recv_wait_cb;
        p.user_data = &w;
    }
    void *ret = ucp_tag_recv_nbx(ucmpi_ucx.worker, buf, len, tag, mask, &p);
    if (UCS_PTR_IS_ERR(ret))
        return ucmpi_ucx_mpi_error(UCS_PTR_STATUS(ret));
    /* finished only once UCX is done with req_mem (a cancel completes it) */
    if (__builtin_expect(!ucmpi_ucx.multi_thread, 1))
        st = wait_recv_st(ret, &w, world_peer, &dead);
    else
        st = wait_ucx_nofree(ret, &w.info, world_peer, &dead);
    if (dead && st != UCS_OK)
        return MPI_ERR_PROC_FAILED;
    if (st != UCS_OK && st != UCS_ERR_MESSAGE_TRUNCATED)
        return ucmpi_ucx_mpi_error(st);
    *sender_tag = w.info.sender_tag;
    *length = w.info.length;
    return w.info.length > len ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

/* MPI_Recv's usual case in one frame, from the post to the status (the
 * way back from the callback to the user is part of every message's
 * latency): src a rank or MPI_ANY_SOURCE, contiguous data, below
 * MPI_THREAD_MULTIPLE, the stash empty, UCX's request fits the room on
 * this stack.  As ucmpi_p2p_recv_direct plus the entry point's report,
 * which names the call the entry point published (ucmpi_rt_call). */
int ucmpi_ucx_recv_user(void *buf, MPI_Count count, MPI_Datatype dt, int src,
                        int tag, MPI_Comm comm, MPI_Status *st)
{
    size_t cap = (size_t)(count * dt->size);
    int world = src >= 0 ? ucmpi_comm_peer_world(comm, src) : -1;
    void *addr = ucmpi_p2p_contig_addr(buf, dt, cap);
    const char *fn = ucmpi_rt_call;
    ucp_request_param_t p;
    recv_wait_t w;
    uint64_t t, mask;
    ucs_status_t s;
    int dead = 0, rc;
    /* UCX puts its request just in front of p.request */
    char req_mem[UCMPI_REQ_UCX_ROOM] __attribute__((aligned(16)));

    if (__builtin_expect(ucmpi_ucx.req_size > sizeof(req_mem), 0)) {
        rc = ucmpi_p2p_recv_direct(buf, count, dt, src, tag, comm,
                                   UCMPI_CTX_P2P, st);
        return ucmpi_p2p_report(comm, rc, fn);
    }
    if (world >= 0)
        ucmpi_p2p_recv_tag(comm, UCMPI_CTX_P2P, src, world, tag, cap, &t,
                           &mask);
    else
        ucmpi_tag_recv(comm->ctx, UCMPI_CTX_P2P, src, tag, &t, &mask);
    if (__builtin_expect(cap >= ucmpi_ucx_hugepage_min, 0))
        ucmpi_ucx_hugepage_recv(world, addr, cap);
    p.op_attr_mask = UCP_OP_ATTR_FLAG_NO_IMM_CMPL | UCP_OP_ATTR_FIELD_REQUEST |
                     UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
    p.request = req_mem + sizeof(req_mem);
    p.cb.recv = recv_wait_cb;
    p.user_data = &w;
    w.status = UCS_INPROGRESS;
    void *ret = ucp_tag_recv_nbx(ucmpi_ucx.worker, addr, cap, t, mask, &p);
    bool posted = !UCS_PTR_IS_ERR(ret);

    /* outcome as ucmpi_ucx_recv_contig's */
    if (!posted) {
        rc = ucmpi_ucx_mpi_error(UCS_PTR_STATUS(ret));
    } else {
        s = wait_recv_st(ret, &w, world, &dead);
        if (__builtin_expect(s == UCS_OK, 1) || s == UCS_ERR_MESSAGE_TRUNCATED)
            rc = w.info.length > cap ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
        else
            rc = dead ? MPI_ERR_PROC_FAILED : ucmpi_ucx_mpi_error(s);
    }
    /* from here as ucmpi_p2p_recv_direct (a truncated message matched) */
    bool matched = posted && (rc == MPI_SUCCESS || rc == MPI_ERR_TRUNCATE);
    size_t len = matched ? w.info.length : 0;

    if (matched && __builtin_expect(ucmpi_tag_is_sync(w.info.sender_tag), 0))
        ucmpi_p2p_queue_sync_ack(comm, w.info.sender_tag);
    if (__builtin_expect(rc == MPI_SUCCESS && len < cap, 0) &&
        ucmpi_dt_partial(dt, len))
        rc = MPI_ERR_TYPE;
    if (st != MPI_STATUS_IGNORE) {
        *st = ucmpi_empty_status;
        if (matched) {
            st->MPI_SOURCE = ucmpi_tag_src(w.info.sender_tag);
            st->MPI_TAG = ucmpi_tag_tag(w.info.sender_tag);
            st->ucmpi_count = (MPI_Count)(len < cap ? len : cap);
        }
        st->MPI_ERROR = rc;
    }
    return __builtin_expect(rc == MPI_SUCCESS, 1)
               ? rc : ucmpi_p2p_report(comm, rc, fn);
}
