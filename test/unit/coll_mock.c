/* See coll_mock.h. */
#include "coll_mock.h"
#include "coll/coll.h"
#include "coll/coll_util.h"
#include "p2p/p2p.h"
#include "core/check.h"
#include "core/failure.h"
#include "p2p/progress_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ucmpi_global_t ucmpi_global;
int mock_errors;
ucmpi_comm_t *mock_comms[MOCK_MAX_RANKS];
static ucmpi_comm_t comm_objs[MOCK_MAX_RANKS];
static ucmpi_group_t world_group;
static int node_tab[MOCK_MAX_RANKS];

#define DT(name, sz) \
    struct ucmpi_datatype_s ucmpi_dt_##name = { \
        .magic = UCMPI_MAGIC_DATATYPE, .refcount = 1, .predefined = 1, \
        .committed = 1, .contig = 1, .size = sz, .extent = sz, \
        .true_extent = sz }
DT(byte, 1);
DT(int, 4);
DT(double, 8);
DT(2int, 8);

#define OP(name, c) \
    struct ucmpi_op_s ucmpi_op_##name = { .magic = UCMPI_MAGIC_OP, \
        .refcount = 1, .predefined = 1, .commute = c }
OP(sum, 1);
OP(max, 1);
OP(band, 1);          /* reduce.c: a failed rank's stand-in op */

static void affine_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    mock_affine(in, inout, *len);
}
static struct ucmpi_op_s affine_op = { .magic = UCMPI_MAGIC_OP,
    .refcount = 1, .commute = 0, .id = -1, .user_fn = affine_fn };
MPI_Op mock_op_affine = &affine_op;

void mock_affine(const int *in, int *inout, int n)
{
    for (int i = 0; i < n; i++) {      /* inout = in o inout */
        long a = in[2 * i], b = in[2 * i + 1];
        long c = inout[2 * i], d = inout[2 * i + 1];
        inout[2 * i] = (int)(a * c % 10007);
        inout[2 * i + 1] = (int)((a * d + b) % 10007);
    }
}

int ucmpi_op_apply(MPI_Op op, const void *in, void *inout, MPI_Count count,
                   MPI_Datatype dt)
{
    if (op->user_fn) {
        int len = (int)count;
        op->user_fn((void *)in, inout, &len, &dt);
        return MPI_SUCCESS;
    }
    for (MPI_Count i = 0; i < count; i++) {
        if (dt == MPI_DOUBLE) {
            double *o = (double *)inout + i, x = ((const double *)in)[i];
            *o = op == MPI_SUM ? *o + x : (*o > x ? *o : x);
        } else {
            int *o = (int *)inout + i, x = ((const int *)in)[i];
            *o = op == MPI_SUM ? *o + x : (*o > x ? *o : x);
        }
    }
    return MPI_SUCCESS;
}

int ucmpi_op_apply3(MPI_Op op, const void *a, const void *b, void *out,
                    MPI_Count count, MPI_Datatype dt)
{
    memcpy((char *)out + dt->true_lb, (const char *)b + dt->true_lb,
           (size_t)(count * dt->size));
    return ucmpi_op_apply(op, a, out, count, dt);
}

int ucmpi_op_check(MPI_Op op, MPI_Datatype dt, const char **why)
{
    if (op == MPI_OP_NULL) {
        *why = "null op";
        return MPI_ERR_OP;
    }
    return MPI_SUCCESS;
}

void mock_setup(int n, const int *node_of)
{
    world_group = (ucmpi_group_t){.magic = UCMPI_MAGIC_GROUP, .refcount = 1,
        .size = n, .kind = UCMPI_GROUP_RANGE, .first = 0, .stride = 1};
    for (int r = 0; r < n; r++) {
        ucmpi_coll_comm_destroy(&comm_objs[r]);   /* no-op when empty */
        comm_objs[r] = (ucmpi_comm_t){.magic = UCMPI_MAGIC_COMM,
            .refcount = 1, .rank = r, .size = n, .remote_size = n,
            .group = &world_group, .remote_group = &world_group, .ctx = 7};
        mock_comms[r] = &comm_objs[r];
        node_tab[r] = node_of ? node_of[r] : 0;
    }
    ucmpi_global.node_of = node_tab;
    ucmpi_global.world_size = n;
    mock_errors = 0;
}

/* ---- requests and progress ---- */
ucmpi_request_t *ucmpi_request_alloc(int kind, ucmpi_comm_t *comm)
{
    ucmpi_request_t *r = calloc(1, sizeof(*r));
    r->magic = UCMPI_MAGIC_REQUEST;
    r->kind = (uint8_t)kind;
    r->comm = comm;
    return r;
}

void ucmpi_request_free(ucmpi_request_t *req)
{
    if (req->ops && req->ops->destroy)
        req->ops->destroy(req);
    req->magic = UCMPI_MAGIC_FREED;
    free(req);
}

static ucmpi_progress_fn_t hooks[8];
static int nhooks;

void ucmpi_progress_register(ucmpi_progress_fn_t fn)
{
    hooks[nhooks++] = fn;
}
/* As lib/p2p/progress.c: the schedule engine's hook leaves when idle and
 * registers again at the next launch. */
void ucmpi_progress_unregister(ucmpi_progress_fn_t fn)
{
    for (int i = 0; i < nhooks; i++) {
        if (hooks[i] == fn) {
            hooks[i] = hooks[--nhooks];
            return;
        }
    }
}

int ucmpi_progress(void)
{
    int ev = 0;
    for (int i = 0; i < nhooks; i++)
        ev += hooks[i]();
    return ev;
}

void ucmpi_progress_idle(unsigned spins)
{
    (void)spins;
}

void ucmpi_progress_yield(void)
{
}

/* lib/p2p/progress.h: one process, nothing to share cores with (the shm
 * path's waits then never sleep on a futex) */
int ucmpi_progress_polling = 1;

/* lib/p2p/p2p_stats.h: the counters, off (the wait timer and the
 * per-communicator rows read them) */
ucmpi_p2p_stats_t ucmpi_p2p_stats;

void ucmpi_p2p_wait_open(void)
{
}

/* The --timeout call slot (runtime/rt_calls.h): a private one here. */
static ucmpi_rt_slot_t mock_slot;
ucmpi_rt_slot_t *ucmpi_rt_slot = &mock_slot;

int ucmpi_request_wait(ucmpi_request_t *req)
{
    return mock_wait_all(&req, 1) ? MPI_ERR_INTERN : req->status.MPI_ERROR;
}

int mock_wait_all(ucmpi_request_t **reqs, int n)
{
    for (int idle = 0; idle < 3;) {
        int done = 1;
        for (int i = 0; i < n; i++)
            done &= reqs[i] == NULL || ucmpi_request_is_complete(reqs[i]);
        if (done)
            return 0;
        idle = ucmpi_progress() ? 0 : idle + 1;
    }
    return -1;
}

int mock_start(ucmpi_request_t *req)
{
    return req->ops->start(req);
}

/* ---- p2p: rendezvous matching on (ctx, src, dst, tag) ---- */
typedef struct msg {
    struct msg *next;
    uint32_t ctx;
    int src, dst, tag;
    char *buf;
    size_t len;
    ucmpi_request_t *req;
} msg_t;
static msg_t *sends, *recvs;

static msg_t *take(msg_t **list, uint32_t ctx, int src, int dst, int tag)
{
    for (msg_t **p = list; *p; p = &(*p)->next)
        if ((*p)->ctx == ctx && (*p)->src == src && (*p)->dst == dst &&
            (*p)->tag == tag) {
            msg_t *m = *p;
            *p = m->next;
            return m;
        }
    return NULL;
}

static void append(msg_t **list, msg_t *m)
{
    while (*list)
        list = &(*list)->next;
    m->next = NULL;
    *list = m;
}

static void deliver(msg_t *snd, msg_t *rcv)
{
    if (snd->len != rcv->len) {
        fprintf(stderr, "mock: length mismatch %d->%d tag %d: %zu vs %zu\n",
                snd->src, snd->dst, snd->tag, snd->len, rcv->len);
        mock_errors++;
        rcv->req->status.MPI_ERROR = MPI_ERR_TRUNCATE;
    }
    memcpy(rcv->buf, snd->buf, snd->len < rcv->len ? snd->len : rcv->len);
    rcv->req->status.ucmpi_count =
        (MPI_Count)(snd->len < rcv->len ? snd->len : rcv->len);
    ucmpi_request_set_complete(snd->req);
    ucmpi_request_set_complete(rcv->req);
    free(snd);
    free(rcv);
}

static msg_t *mkmsg(ucmpi_comm_t *c, int ctx_sub, int src, int dst, int tag,
                    const void *buf, MPI_Count count, MPI_Datatype dt,
                    ucmpi_request_t *req)
{
    msg_t *m = calloc(1, sizeof(*m));
    m->ctx = c->ctx * 4 + ctx_sub;
    m->src = src;
    m->dst = dst;
    m->tag = tag;
    m->buf = (char *)buf + dt->true_lb;
    m->len = (size_t)(count * dt->size);
    m->req = req;
    return m;
}

/* The engine's path: a request described by its p2p block. */
int ucmpi_p2p_start_send(ucmpi_request_t *req, ucmpi_comm_t *comm, int mode)
{
    int dest = req->p2p.peer, tag = req->p2p.tag;
    msg_t *s = mkmsg(comm, req->p2p.ctx_sub, comm->rank, dest, tag,
                     req->p2p.buf, req->p2p.count, req->p2p.dt, req);
    msg_t *r = take(&recvs, s->ctx, s->src, s->dst, tag);
    (void)mode;
    if (dest < 0 || dest >= comm->size || tag < 0 || tag > UCMPI_TAG_MAX)
        mock_errors++;
    if (r)
        deliver(s, r);
    else
        append(&sends, s);
    return MPI_SUCCESS;
}

int ucmpi_p2p_start_recv(ucmpi_request_t *req, ucmpi_comm_t *comm)
{
    int src = req->p2p.peer, tag = req->p2p.tag;
    msg_t *r = mkmsg(comm, req->p2p.ctx_sub, src, comm->rank, tag,
                     req->p2p.buf, req->p2p.count, req->p2p.dt, req);
    msg_t *s = take(&sends, r->ctx, src, r->dst, tag);
    if (src < 0 || src >= comm->size)
        mock_errors++;
    if (s)
        deliver(s, r);
    else
        append(&recvs, r);
    return MPI_SUCCESS;
}

static void describe(ucmpi_request_t *r, const void *buf, MPI_Count count,
                     MPI_Datatype dt, int peer, int tag, int ctx_sub)
{
    r->p2p.buf = (void *)buf;
    r->p2p.count = count;
    r->p2p.dt = dt;
    r->p2p.peer = peer;
    r->p2p.tag = tag;
    r->p2p.ctx_sub = ctx_sub;
}

int ucmpi_isend(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                int tag, ucmpi_comm_t *comm, int ctx_sub, int mode,
                ucmpi_request_t **req)
{
    *req = ucmpi_request_alloc(UCMPI_REQ_SEND, comm);
    describe(*req, buf, count, dt, dest, tag, ctx_sub);
    return ucmpi_p2p_start_send(*req, comm, mode);
}

int ucmpi_irecv(void *buf, MPI_Count count, MPI_Datatype dt, int src,
                int tag, ucmpi_comm_t *comm, int ctx_sub,
                ucmpi_request_t **req)
{
    *req = ucmpi_request_alloc(UCMPI_REQ_RECV, comm);
    describe(*req, buf, count, dt, src, tag, ctx_sub);
    return ucmpi_p2p_start_recv(*req, comm);
}

int mock_pending_messages(void)
{
    int n = 0;
    for (msg_t *m = sends; m; m = m->next)
        n++;
    for (msg_t *m = recvs; m; m = m->next)
        n++;
    return n;
}

/* ---- datatypes (contiguous only here) ---- */
size_t ucmpi_dt_pack(MPI_Datatype dt, const void *buf, MPI_Count count,
                     void *dst)
{
    memcpy(dst, (const char *)buf + dt->true_lb, count * dt->size);
    return count * dt->size;
}

size_t ucmpi_dt_unpack(MPI_Datatype dt, void *buf, MPI_Count count,
                       const void *src, size_t len)
{
    memcpy((char *)buf + dt->true_lb, src, len);
    return len;
}

/* the shm path's chunks (lib/coll/shm/shm_large.c) and the alias check's
 * run comparison (lib/coll/alias.c) use cursors only for non-contiguous
 * types, which the simulator never has */
ucmpi_dt_cursor_t *ucmpi_dt_cursor_create(MPI_Datatype dt, const void *buf,
                                          MPI_Count count)
{
    (void)dt, (void)buf, (void)count;
    return NULL;
}

size_t ucmpi_dt_cursor_pack(ucmpi_dt_cursor_t *c, size_t offset, void *dst,
                            size_t len)
{
    (void)c, (void)offset, (void)dst, (void)len;
    return 0;
}

size_t ucmpi_dt_cursor_unpack(ucmpi_dt_cursor_t *c, size_t offset,
                              const void *src, size_t len)
{
    (void)c, (void)offset, (void)src, (void)len;
    return 0;
}

size_t ucmpi_dt_cursor_iov(ucmpi_dt_cursor_t *c, size_t offset, size_t len,
                           ucmpi_dt_iov_t *iov, size_t maxn, size_t *nout)
{
    (void)c, (void)offset, (void)len, (void)iov, (void)maxn;
    *nout = 0;
    return 0;
}

void ucmpi_dt_cursor_destroy(ucmpi_dt_cursor_t *c) { (void)c; }

/* ---- errors and argument checks ---- */
int ucmpi_error(int obj_kind, void *obj, int code, const char *fn,
                const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "mock error %s: ", fn);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    mock_errors++;
    return code;
}

int ucmpi_check_initialized(const char *fn) { return MPI_SUCCESS; }
int ucmpi_check_comm(MPI_Comm comm, const char *fn)
{
    return comm ? MPI_SUCCESS : MPI_ERR_COMM;
}
int ucmpi_check_count(ucmpi_comm_t *comm, MPI_Count count, const char *fn)
{
    return count < 0 ? ucmpi_error(1, comm, MPI_ERR_COUNT, fn, "count")
                     : MPI_SUCCESS;
}
int ucmpi_check_dt(ucmpi_comm_t *comm, MPI_Datatype dt, const char *fn)
{
    return dt ? MPI_SUCCESS : MPI_ERR_TYPE;
}
int ucmpi_check_buf(ucmpi_comm_t *comm, const void *buf, MPI_Count count,
                    MPI_Datatype dt, const char *fn)
{
    return MPI_SUCCESS;
}
int ucmpi_dt_check(MPI_Datatype dt, int need_commit, const char **why)
{
    (void)need_commit;
    if (dt == MPI_DATATYPE_NULL) {
        *why = "null datatype";
        return MPI_ERR_TYPE;
    }
    return MPI_SUCCESS;
}
void ucmpi_comm_retain(ucmpi_comm_t *c) { c->refcount++; }
void ucmpi_comm_release(ucmpi_comm_t *c) { c->refcount--; }
void ucmpi_lock(void) {}
void ucmpi_unlock(void) {}
void ucmpi_dt_retain(MPI_Datatype dt) { dt->refcount++; }
void ucmpi_dt_release(MPI_Datatype dt) { dt->refcount--; }
void ucmpi_op_retain(MPI_Op op) { op->refcount++; }
void ucmpi_op_release(MPI_Op op) { op->refcount--; }

/* The mock has no processes that can die. */
void ucmpi_request_check_peer(ucmpi_request_t *req)
{
    (void)req;
}
int ucmpi_peer_failed(int r)
{
    (void)r;
    return 0;
}
/* ... nor revoked communicators (ULFM). */
int ucmpi_failure_comm_check(struct ucmpi_comm_s *comm, int any_source)
{
    (void)comm;
    (void)any_source;
    return 0;
}
/* ... nor processes in MPI_Finalize, nor ranks out of step. */
int ucmpi_peer_finalized(int r)
{
    (void)r;
    return 0;
}
int ucmpi_coll_peer_ahead(ucmpi_comm_t *c, int peer, const char **name)
{
    (void)c;
    (void)peer;
    (void)name;
    return 0;
}

/* lib/coll/coll_fail.c, without the shm path and the request layer: a
 * failed rank's schedule is dropped instead of run in the background,
 * and a skip takes only the collective's tags. */
int ucmpi_coll_skip(ucmpi_comm_t *comm, int rc, int shm_kind, size_t nbytes,
                    int local_too)
{
    (void)shm_kind;
    (void)nbytes;
    ucmpi_sched_note_local(comm, comm->coll_seq);
    (void)ucmpi_comm_next_coll_tag(comm);
    if (local_too && comm->is_inter && comm->local_comm != NULL)
        (void)ucmpi_comm_next_coll_tag(comm->local_comm);
    return rc;
}

void ucmpi_coll_release(ucmpi_sched_t *s, int build_rc)
{
    (void)build_rc;
    ucmpi_sched_note_local(ucmpi_sched_comm(s), ucmpi_sched_seq(s));
    ucmpi_sched_free(s);
}

/* The abort protocol (lib/coll/check/sched_abort.c) needs the UCX glue:
 * nobody here is told of a local error. */
void ucmpi_sched_abort_peers(ucmpi_comm_t *c, uint32_t seq)
{
    (void)c;
    (void)seq;
}
void ucmpi_sched_note_local(ucmpi_comm_t *c, uint32_t seq)
{
    (void)c;
    (void)seq;
}
