/* The schedule engine: embedded requests, receives before sends; blocking
 * runs inline, nonblocking on one list a progress hook advances. */
#include "coll/sched_impl.h"
#include "p2p/p2p.h"
#include "core/failure.h"
#include "p2p/progress_api.h"
#include "coll/coll_stats.h"

#include <stdlib.h>
#include <string.h>

const ucmpi_sched_hook_t *ucmpi_sched_hook;
static ucmpi_sched_t *active_head;
static int hook_registered;
static int in_progress;

static int sched_progress(void);

static int copy_step(const step_t *st)
{
    MPI_Count sbytes = st->count * st->dt->size;
    MPI_Count rbytes = st->rcount * st->rdt->size;
    size_t n = (size_t)(sbytes < rbytes ? sbytes : rbytes);

    if (n == 0)
        return MPI_SUCCESS;
    if (st->dt->contig && st->rdt->contig) {
        memmove((char *)st->dst + st->rdt->true_lb,
                (const char *)st->src + st->dt->true_lb, n);
        return MPI_SUCCESS;
    }
    if (st->rdt->contig) {
        ucmpi_dt_pack(st->dt, st->src, st->count,
                      (char *)st->dst + st->rdt->true_lb);
        return MPI_SUCCESS;
    }
    if (st->dt->contig) {
        ucmpi_dt_unpack(st->rdt, st->dst, st->rcount,
                        (const char *)st->src + st->dt->true_lb, n);
        return MPI_SUCCESS;
    }
    void *tmp = malloc((size_t)sbytes);
    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    ucmpi_dt_pack(st->dt, st->src, st->count, tmp);
    ucmpi_dt_unpack(st->rdt, st->dst, st->rcount, tmp, n);
    free(tmp);
    return MPI_SUCCESS;
}

static int local_step(const step_t *st)
{
    switch (st->kind) {
    case STEP_REDUCE:
        return ucmpi_op_apply(st->op, st->src, st->dst, st->count, st->dt);
    case STEP_CALL:
        return st->fn(st->dst);
    default:
        return copy_step(st);
    }
}

/* Posts transfer i in its embedded request (no references taken). */
static int post_xfer(ucmpi_sched_t *s, int i)
{
    step_t *st = &s->steps[i];
    ucmpi_request_t *r = &s->rq[i];
    ucmpi_comm_t *c = st->alt ? s->alt_comm : s->comm;
    int rc;

    memset(r, 0, sizeof(*r));
    r->magic = UCMPI_MAGIC_REQUEST;
    r->comm = c;
    r->status.MPI_SOURCE = MPI_ANY_SOURCE;
    r->status.MPI_TAG = MPI_ANY_TAG;
    r->p2p.count = st->countp ? *st->countp : st->count;
    r->p2p.dt = st->dt;
    /* a rank without data sends empty messages; after a loss they carry one
     * byte, which the receive reports (lost_upstream) */
    bool token = false;
    if (s->late_err != MPI_SUCCESS && st->kind == STEP_SEND) {
        /* (not from a rank whose own arguments failed) */
        token = s->lost && !s->poisoned && r->p2p.count * st->dt->size == 0;
        r->p2p.count = token;
        if (token)
            r->p2p.dt = MPI_BYTE;
    }
    r->p2p.peer = st->peer;
    r->p2p.tag = st->alt ? s->alt_tag : s->tag;
    r->p2p.ctx_sub = UCMPI_CTX_COLL;
    r->p2p.world_peer = -1;
    st->inflight = 1;
    s->npending++;
    if (st->kind == STEP_SEND) {
        r->kind = UCMPI_REQ_SEND;
        static const char loss_byte;
        r->p2p.buf = token ? (void *)&loss_byte
                           : st->countp ? *(void *const *)st->src : (void *)st->src;
        r->p2p.mode = UCMPI_SEND_STANDARD;
        rc = ucmpi_p2p_start_send(r, c, UCMPI_SEND_STANDARD);
    } else {
        r->kind = UCMPI_REQ_RECV;
        r->p2p.buf = st->countp ? *(void **)st->dst : st->dst;
        rc = ucmpi_p2p_start_recv(r, c);
    }
    /* a failed start already completed r with the error: reap reports it */
    return rc == MPI_SUCCESS || ucmpi_request_is_complete(r) ? MPI_SUCCESS
                                                             : rc;
}

/* Starts round r: receives first (data lands in place, not in UCX's
 * unexpected queue); local steps run on the spot, in order. */
static int post_round(ucmpi_sched_t *s, int r)
{
    int beg = r ? s->ends[r - 1] : 0, end = s->ends[r];
    int rc = MPI_SUCCESS;

    s->pbeg = beg;
    s->pend = end;
    for (int i = beg; i < end && rc == MPI_SUCCESS;) {
        const step_t *st = &s->steps[i];
        if (!ucmpi_sched_step_is_xfer(st)) {
            /* after a short exact receive its data is not there */
            rc = s->late_err == MPI_SUCCESS ? local_step(st) : MPI_SUCCESS;
            i++;
            continue;
        }
        int j = i;
        while (j < end && ucmpi_sched_step_is_xfer(&s->steps[j]))
            j++;
        for (int k = i; k < j && rc == MPI_SUCCESS; k++)
            if (s->steps[k].kind == STEP_RECV)
                rc = post_xfer(s, k);
        for (int k = i; k < j && rc == MPI_SUCCESS; k++)
            if (s->steps[k].kind == STEP_SEND)
                rc = post_xfer(s, k);
        i = j;
    }
    return rc;
}

/* An empty message where data was due: the sender's schedule lost a peer
 * (proc_failed) and passes that on instead of data. */
static bool lost_upstream(const step_t *st, const ucmpi_request_t *rq)
{
    if (st->kind != STEP_RECV)
        return false;
    if (rq->p2p.count * rq->p2p.dt->size == 0)      /* post_xfer's token */
        return rq->status.MPI_ERROR == MPI_ERR_TRUNCATE;
    return rq->status.MPI_ERROR == MPI_SUCCESS && rq->status.ucmpi_count == 0;
}

/* A peer died or passed a loss on: go on with empty messages so the living
 * fail (MPI_ERR_PROC_FAILED / MPI_ERR_TRUNCATE) instead of hanging. */
static void pass_on_loss(ucmpi_sched_t *s, bool dead_peer)
{
    s->lost = 1;
    if (s->late_err != MPI_SUCCESS)
        return;
    /* (the remote group on an intercomm) */
    for (int r = 0; !dead_peer && r < s->comm->remote_size; r++)
        dead_peer = ucmpi_peer_failed(ucmpi_comm_peer_world(s->comm, r));
    s->late_err = dead_peer ? MPI_ERR_PROC_FAILED : MPI_ERR_TRUNCATE;
}

/* Collects completed transfers of the round in flight. */
static int reap(ucmpi_sched_t *s)
{
    int events = 0;

    for (int i = s->pbeg; i < s->pend && s->npending; i++) {
        step_t *st = &s->steps[i];
        if (!st->inflight || !ucmpi_request_is_complete(&s->rq[i]))
            continue;
        int e = s->rq[i].status.MPI_ERROR;
        if (e == MPI_ERR_PROC_FAILED || lost_upstream(st, &s->rq[i]))
            pass_on_loss(s, e == MPI_ERR_PROC_FAILED);
        /* an exact receive of the wrong length: go on (later steps serve
         * other ranks) with empty messages */
        else if (st->exact && (e == MPI_ERR_TRUNCATE || e == MPI_ERR_TYPE ||
                               (e == MPI_SUCCESS && s->rq[i].status.ucmpi_count !=
                                                        st->count * st->dt->size)))
            s->late_err = MPI_ERR_TRUNCATE;
        else if (e != MPI_SUCCESS && s->err == MPI_SUCCESS)
            s->err = e;
        st->inflight = 0;
        s->npending--;
        events++;
    }
    return events;
}

/* Reaps and posts rounds as far as s goes without waiting; returns the
 * events seen and clears s->running once the schedule is done. */
static int step_rounds(ucmpi_sched_t *s)
{
    int events = 0;

    if (__builtin_expect(s->hooked, 0) && s->next_round == 0 &&
        s->npending == 0 && ucmpi_sched_hook->held(s))
        return 0;
    for (;;) {
        if (s->npending) {
            events += reap(s);
            if (s->npending)
                return events;
        }
        /* An error stops the schedule once nothing is in flight. */
        if (s->err != MPI_SUCCESS || s->next_round >= s->nrounds) {
            if (s->err == MPI_SUCCESS)
                s->err = s->late_err;
            if (s->fail_err != MPI_SUCCESS)
                s->err = s->fail_err;
            s->running = 0;
            return events + 1;
        }
        int rc = post_round(s, s->next_round++);
        if (rc != MPI_SUCCESS)
            s->err = rc;
        events++;
    }
}

int ucmpi_sched_prepare(ucmpi_sched_t *s)
{
    int rc = ucmpi_sched_fence(s);

    if (rc != MPI_SUCCESS)
        return rc;
    if (s->nsteps > s->rq_cap) {
        ucmpi_request_t *n = malloc(sizeof(*n) * (size_t)s->nsteps);
        if (n == NULL)
            return MPI_ERR_NO_MEM;
        if (s->rq != s->inl_rq)
            free(s->rq);
        s->rq = n;
        s->rq_cap = s->nsteps;
    }
    return MPI_SUCCESS;
}

static void reset_run(ucmpi_sched_t *s)
{
    s->next_round = 0;
    s->npending = 0;
    s->pbeg = s->pend = 0;
    s->err = MPI_SUCCESS;
    s->late_err = s->poisoned ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    s->lost = 0;
    s->wait_hook = 0;
    s->running = 1;
    if (__builtin_expect(ucmpi_coll_stats.on, 0))
        ucmpi_coll_count_run(s);
    if (__builtin_expect(s->hooked, 0))
        ucmpi_sched_hook->run(s);
}

/* --- nonblocking and persistent: the active list --- */

static void active_remove(ucmpi_sched_t *s)
{
    if (s->prev)
        s->prev->next = s->next;
    else
        active_head = s->next;
    if (s->next)
        s->next->prev = s->prev;
    s->prev = s->next = NULL;
}

void ucmpi_sched_complete_req(ucmpi_request_t *req, int err)
{
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    req->status.MPI_ERROR = err;
    req->status.ucmpi_cancelled = 0;
    req->status.ucmpi_count = 0;
    ucmpi_request_set_complete(req);
}

/* Done: complete the request, then drop launch()'s references (which may
 * destroy the comm and its cache). */
static void finish(ucmpi_sched_t *s)
{
    ucmpi_request_t *req = s->req;
    ucmpi_comm_t *comm = s->comm, *alt = s->alt_comm;

    active_remove(s);
    if (s->orphaned) {            /* request already gone */
        s->orphaned = 0;
        ucmpi_sched_free(s);
    } else if (req != NULL) {     /* (a gate has none) */
        ucmpi_sched_complete_req(req, s->err);
    }
    if (alt != NULL)
        ucmpi_comm_release(alt);
    ucmpi_comm_release(comm);
}

static int advance(ucmpi_sched_t *s)
{
    int events = step_rounds(s);

    if (!s->running)
        finish(s);
    return events;
}

/* The hook leaves once no schedule runs (while registered, p2p waits take
 * the full progress path); runs under the big lock. */
static int sched_progress(void)
{
    int events = 0;

    if (in_progress)
        return 0;                 /* a reduction or isend re-entered us */
    in_progress = 1;
    for (ucmpi_sched_t *s = active_head, *n; s; s = n) {
        n = s->next;
        events += advance(s);
    }
    /* a program that only polls (MPI_Test) gets its stall checks here */
    static unsigned idle_turns;
    if (events == 0 && ++idle_turns % 1024 == 0 && ucmpi_sched_hook)
        for (ucmpi_sched_t *s = active_head; s; s = s->next)
            if (s->running)
                ucmpi_sched_hook->stalled(s, 0);
    in_progress = 0;
    if (active_head == NULL && hook_registered) {
        hook_registered = 0;
        ucmpi_progress_unregister(sched_progress);
    }
    return events;
}

/* Puts s on the active list (under the big lock); the comms outlive its
 * traffic even if the user frees request and comm meanwhile. */
static void activate(ucmpi_sched_t *s)
{
    ucmpi_comm_retain(s->comm);
    if (s->alt_comm != NULL)
        ucmpi_comm_retain(s->alt_comm);
    if (!hook_registered) {
        ucmpi_progress_register(sched_progress);
        hook_registered = 1;
    }
    s->next = active_head;
    s->prev = NULL;
    if (active_head)
        active_head->prev = s;
    active_head = s;
}

void ucmpi_sched_kick(ucmpi_sched_t *s)
{
    reset_run(s);
    activate(s);
    if (!in_progress) {
        in_progress = 1;
        advance(s);
        in_progress = 0;
    }
}

static int launch(ucmpi_sched_t *s)
{
    s->req->complete = 0;
    ucmpi_lock();
    /* (posts the first round(s) now: latency matters for small messages) */
    ucmpi_sched_kick(s);
    ucmpi_unlock();
    return MPI_SUCCESS;
}

static int req_start(ucmpi_request_t *req)
{
    ucmpi_sched_t *s = req->ext;

    if (s->running)
        return MPI_ERR_REQUEST;
    req->active = 1;
    return launch(s);
}

static void req_destroy(ucmpi_request_t *req)
{
    ucmpi_sched_t *s = req->ext;

    req->ext = NULL;
    if (s == NULL)
        return;
    if (s->running) {             /* freed while in flight: finish first */
        s->orphaned = 1;
        s->req = NULL;
    } else {
        ucmpi_sched_free(s);
    }
}

static const ucmpi_request_ops_t sched_req_ops = {
    .start = req_start,
    .destroy = req_destroy,
    .why = ucmpi_sched_req_why,
};

ucmpi_sched_t *ucmpi_sched_of_req(const ucmpi_request_t *req)
{
    return req->ops == &sched_req_ops ? req->ext : NULL;
}

int ucmpi_sched_start(ucmpi_sched_t *s, int persistent,
                      ucmpi_request_t **req)
{
    int rc = ucmpi_sched_prepare(s);

    if (rc != MPI_SUCCESS)
        return rc;
    if (__builtin_expect(s->comm->coll.check_gate != NULL, 0))
        ucmpi_sched_hook->take(s);
    s->req = ucmpi_request_alloc(UCMPI_REQ_COLL, s->comm);
    if (s->req == NULL)
        return MPI_ERR_NO_MEM;
    s->req->ops = &sched_req_ops;
    s->req->ext = s;
    s->persistent = (uint8_t)persistent;
    s->req->persistent = (uint8_t)persistent;
    *req = s->req;
    if (persistent) {
        s->req->active = 0;
        ucmpi_request_set_complete(s->req);   /* inactive */
        return MPI_SUCCESS;
    }
    return launch(s);
}

/* A waiting loop's idle check: transfers whose peer died fail, then the
 * hook's stall check. */
static void stall_tick(ucmpi_sched_t *s, int blocking)
{
    for (int i = s->pbeg; i < s->pend; i++)
        if (s->steps[i].inflight && ucmpi_sched_step_is_xfer(&s->steps[i]))
            ucmpi_request_check_peer(&s->rq[i]);
    if (ucmpi_sched_hook != NULL)
        ucmpi_sched_hook->stalled(s, blocking);
}

void ucmpi_sched_check_peers(ucmpi_request_t *req)
{
    ucmpi_sched_t *s = req->ext;

    if (s != NULL && s->running)
        stall_tick(s, 0);
}

/* s finishes orphaned on the active list (its caller returns now). */
static void detach(ucmpi_sched_t *s)
{
    ucmpi_lock();
    s->orphaned = 1;
    s->req = NULL;
    activate(s);
    ucmpi_unlock();
}

int ucmpi_sched_run_blocking(ucmpi_sched_t *s)
{
    unsigned spins = 0;
    int rc = ucmpi_sched_prepare(s);

    if (rc != MPI_SUCCESS) {
        ucmpi_sched_free(s);
        return rc;
    }
    ucmpi_lock();
    if (__builtin_expect(s->comm->coll.check_gate != NULL, 0))
        ucmpi_sched_hook->take(s);
    reset_run(s);
    step_rounds(s);
    ucmpi_unlock();
    while (s->running && (!s->wait_hook || !ucmpi_sched_hook->give_up(s))) {
        if (ucmpi_progress() != 0) {
            spins = 0;
        } else {
            ucmpi_progress_idle(++spins);
            if (spins % 1024 == 0)
                stall_tick(s, 1);
        }
        ucmpi_lock();
        step_rounds(s);
        ucmpi_unlock();
    }
    ucmpi_progress_wait_done();   /* no longer blocked here (--timeout report) */
    rc = s->err;
    if (s->running)
        detach(s);
    else
        ucmpi_sched_free(s);
    return rc;
}
