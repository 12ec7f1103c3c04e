/* Send cancellation (protocol: docs/architecture.md): the sender's side, the
 * receiver's stash, and the work UCX callbacks leave for progress. */
#include "core/failure.h"
#include "p2p/progress_api.h"
#include "p2p/pt2pt.h"
#include "p2p/p2p.h"
#include "p2p/p2p_cancel.h"
#include "p2p/tag.h"
#include "ucp_glue/ucx.h"

#include <stdlib.h>
#include <string.h>

uint32_t *ucmpi_p2p_peer_seq;
int ucmpi_p2p_stash_n;
int ucmpi_p2p_stash_guard, ucmpi_p2p_recv_posting, ucmpi_p2p_cancelling;

/* Unexpected messages taken out of UCX, oldest first. */
typedef struct stashed {
    void *msg;                /* UCX message handle */
    uint64_t tag;
    size_t len;
    struct stashed *next;
} stashed_t;

static stashed_t *stash, **stash_tail = &stash;

enum { WORK_DROP, WORK_REPLY, WORK_RESOLVE };
typedef struct work {
    int kind;
    void *msg;                /* WORK_DROP */
    ucmpi_cancel_msg_t m;     /* WORK_REPLY / WORK_RESOLVE */
    struct work *next;
} work_t;

static work_t *todo, **todo_tail = &todo;
static int hook_on;

uint32_t ucmpi_p2p_next_seq_mt(int world)
{
    uint32_t seq = __atomic_add_fetch(&ucmpi_p2p_peer_seq[world], 1,
                                      __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&ucmpi_p2p_cancelling, __ATOMIC_SEQ_CST)) {
        ucmpi_lock();         /* behind the cancel in progress */
        ucmpi_unlock();
    }
    return seq;
}

static void cancel_arrived(void *arg, const void *data, size_t n);
static void cancel_replied(void *arg, const void *data, size_t n);

int ucmpi_p2p_cancel_init(void)
{
    ucmpi_p2p_peer_seq = calloc((size_t)ucmpi_global.proc_cap,
                                sizeof(*ucmpi_p2p_peer_seq));
    if (ucmpi_p2p_peer_seq == NULL ||
        ucmpi_ucx_am_handler(UCMPI_AM_P2P_CANCEL, cancel_arrived, NULL) != 0 ||
        ucmpi_ucx_am_handler(UCMPI_AM_P2P_CANCEL_REPLY, cancel_replied,
                             NULL) != 0)
        return -1;
    return 0;
}

/* ---- the stash (receiver) ---- */
static void stash_push(void *msg, uint64_t tag, size_t len)
{
    stashed_t *e = malloc(sizeof(*e));
    if (e == NULL)
        ucmpi_abort(1, "ucmpi: out of memory stashing a message");
    *e = (stashed_t){msg, tag, len, NULL};
    *stash_tail = e;
    stash_tail = &e->next;
    ucmpi_p2p_stash_n++;
}

static void stash_unlink(stashed_t **p)
{
    stashed_t *e = *p;
    *p = e->next;
    if (stash_tail == &e->next)
        stash_tail = p;
    ucmpi_p2p_stash_n--;
    free(e);
}

/* Oldest stashed message matching (tag, mask), or NULL. */
static stashed_t **stash_find(uint64_t tag, uint64_t mask)
{
    for (stashed_t **p = &stash; *p != NULL; p = &(*p)->next)
        if (((*p)->tag & mask) == tag)
            return p;
    return NULL;
}

int ucmpi_p2p_stash_probe(uint64_t tag, uint64_t mask, int remove,
                          uint64_t *sender_tag, size_t *len, void **msg)
{
    ucmpi_lock();
    stashed_t **p = stash_find(tag, mask);
    if (p != NULL) {
        *sender_tag = (*p)->tag;
        *len = (*p)->len;
        if (remove) {
            *msg = (*p)->msg;
            stash_unlink(p);
        }
    }
    ucmpi_unlock();
    return p != NULL;
}

int ucmpi_p2p_stash_recv(ucmpi_request_t *r, uint64_t tag, uint64_t mask)
{
    uint64_t sender_tag;
    size_t len;
    void *msg;

    if (!ucmpi_p2p_stash_probe(tag, mask, 1, &sender_tag, &len, &msg))
        return 0;
    ucmpi_lock();
    ucmpi_p2p_post_recv(r, 0, 0, UCMPI_UCX_MSG, msg);   /* errors complete r */
    ucmpi_unlock();
    return 1;
}

/* ---- work left by UCX callbacks, done from the progress engine ---- */
static int run_work(void);

static void add_work(int kind, void *msg, const ucmpi_cancel_msg_t *m)
{
    work_t *w = calloc(1, sizeof(*w));
    if (w == NULL)
        ucmpi_abort(1, "ucmpi: out of memory in a send cancellation");
    w->kind = kind;
    w->msg = msg;
    if (m != NULL)
        w->m = *m;
    *todo_tail = w;
    todo_tail = &w->next;
    if (!hook_on) {
        hook_on = 1;
        ucmpi_progress_register(run_work);
    }
}

/* The sender learnt the outcome: r completes (its data may still move). */
static void resolve(const ucmpi_cancel_msg_t *m)
{
    ucmpi_request_t *r = (ucmpi_request_t *)(uintptr_t)m->req_id;
    ucmpi_request_t *user = r->p2p.bsend_owner;

    r->p2p.cancel = UCMPI_CANCEL_DONE;
    if (m->cancelled) {
        r->status.ucmpi_cancelled = 1;
        ucmpi_ucx_cancel(&r->p2p.ack_op);
    }
    /* a buffered send: the user's request waits for the outcome only */
    if (user != NULL && user->p2p.cancel == UCMPI_CANCEL_PENDING) {
        user->p2p.cancel = UCMPI_CANCEL_DONE;
        user->status.ucmpi_cancelled = m->cancelled != 0;
        ucmpi_request_set_complete(user);
    }
    ucmpi_p2p_op_done(r, 0);
}

static int run_work(void)
{
    int n = 0;

    ucmpi_lock();
    while (todo != NULL) {
        work_t *w = todo;
        todo = w->next;
        if (todo == NULL)
            todo_tail = &todo;
        if (w->kind == WORK_DROP)
            ucmpi_ucx_msg_discard(w->msg);
        else if (w->kind == WORK_REPLY)
            ucmpi_ucx_am_send(w->m.sender, UCMPI_AM_P2P_CANCEL_REPLY, &w->m,
                              sizeof(w->m));
        else
            resolve(&w->m);
        free(w);
        n++;
    }
    if (hook_on) {
        hook_on = 0;
        ucmpi_progress_unregister(run_work);
    }
    ucmpi_unlock();
    return n;
}

/* ---- receiver: a cancel request arrived (inside a UCX callback) ---- */
static void cancel_arrived(void *arg, const void *data, size_t n)
{
    ucmpi_cancel_msg_t mm;
    const ucmpi_cancel_msg_t *m = &mm;

    if (n != sizeof(mm))
        return;                   /* not ours */
    memcpy(&mm, data, sizeof(mm));
    const uint64_t from = UCMPI_TAG_MASK_CTX | UCMPI_TAG_MASK_SRC;
    ucmpi_cancel_msg_t reply = *m;
    uint64_t tag;
    size_t len;
    void *msg;

    /* MPI_THREAD_MULTIPLE: from now on receives post under the lock; one
     * posting without it right now could be passed by the stashing */
    if (ucmpi_global.thread_level == MPI_THREAD_MULTIPLE) {
        __atomic_store_n(&ucmpi_p2p_stash_guard, 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&ucmpi_p2p_recv_posting, __ATOMIC_SEQ_CST)) {
            reply.cancelled = 0;
            add_work(WORK_REPLY, NULL, &reply);
            return;
        }
    }
    /* everything still unexpected from this sender on this context, in
     * order, so the stash keeps the non-overtaking order of the rest */
    while (ucmpi_ucx_tag_probe(m->tag & from, from, 1, &tag, &len, &msg))
        stash_push(msg, tag, len);
    /* the newest of the envelope is the message (see p2p_cancel.h) */
    stashed_t **hit = NULL;
    for (stashed_t **p = &stash; *p != NULL; p = &(*p)->next)
        if ((((*p)->tag ^ m->tag) & ~UCMPI_TAG_SYNC) == 0)
            hit = p;
    reply.cancelled = hit != NULL && (*hit)->tag == m->tag &&
                      (*hit)->len == m->len;
    if (reply.cancelled) {
        add_work(WORK_DROP, (*hit)->msg, NULL);
        stash_unlink(hit);
    }
    add_work(WORK_REPLY, NULL, &reply);
}

static void cancel_replied(void *arg, const void *data, size_t n)
{
    ucmpi_cancel_msg_t m;

    if (n != sizeof(m))
        return;
    memcpy(&m, data, sizeof(m));
    add_work(WORK_RESOLVE, NULL, &m);
}

/* ---- sender ---- */
void ucmpi_p2p_cancel_send(ucmpi_request_t *r)
{
    ucmpi_comm_t *c = r->comm;
    int wp = r->p2p.world_peer;

    if (c == NULL || wp < 0 || r->p2p.peer == MPI_PROC_NULL)
        return;
    ucmpi_lock();
    if (r->p2p.cancel != UCMPI_CANCEL_NONE ||
        r->status.MPI_ERROR != MPI_SUCCESS) {
        ucmpi_unlock();      /* cancelled already (another thread?) */
        return;
    }
    r->p2p.cancel = UCMPI_CANCEL_DONE;
    /* sends numbered from now on wait until the cancel message is out */
    __atomic_add_fetch(&ucmpi_p2p_cancelling, 1, __ATOMIC_SEQ_CST);
    if (r->p2p.seq != __atomic_load_n(&ucmpi_p2p_peer_seq[wp],
                                      __ATOMIC_SEQ_CST)) {
        __atomic_sub_fetch(&ucmpi_p2p_cancelling, 1, __ATOMIC_SEQ_CST);
        ucmpi_unlock();      /* a later send to the peer: not identifiable */
        return;
    }
    ucmpi_cancel_msg_t m = {
        .req_id = (uintptr_t)r,
        .tag = ucmpi_tag_make(c->ctx, r->p2p.ctx_sub, c->rank, r->p2p.tag),
        .len = (uint64_t)(r->p2p.count * r->p2p.dt->size),
        .sender = ucmpi_global.world_rank,
    };
    if (r->p2p.mode == UCMPI_SEND_SYNC && !ucmpi_p2p_sync_by_ucx(wp))
        m.tag |= UCMPI_TAG_SYNC;   /* on-node: UCX's sync send, no flag */
    /* the reply is one more operation of the request */
    if (ucmpi_request_is_complete(r)) {
        r->p2p.pending = 1;
        r->complete = 0;
    } else {
        r->p2p.pending++;
    }
    r->p2p.cancel = UCMPI_CANCEL_PENDING;
    if (ucmpi_ucx_am_send(wp, UCMPI_AM_P2P_CANCEL, &m, sizeof(m)) !=
        MPI_SUCCESS) {
        r->p2p.cancel = UCMPI_CANCEL_DONE;
        ucmpi_p2p_op_done(r, 0);
    }
    __atomic_sub_fetch(&ucmpi_p2p_cancelling, 1, __ATOMIC_SEQ_CST);
    ucmpi_unlock();
}

void ucmpi_p2p_cancel_check_peer(ucmpi_request_t *r)
{
    ucmpi_lock();
    if (r->p2p.cancel == UCMPI_CANCEL_PENDING && r->p2p.world_peer >= 0 &&
        ucmpi_peer_failed(r->p2p.world_peer)) {
        ucmpi_cancel_msg_t m = {.req_id = (uintptr_t)r};
        if (r->status.MPI_ERROR == MPI_SUCCESS)
            r->status.MPI_ERROR = MPI_ERR_PROC_FAILED;
        resolve(&m);
    }
    ucmpi_unlock();
}

void ucmpi_p2p_cancel_finalize(void)
{
    while (todo != NULL)
        ucmpi_progress();
    /* messages nobody received: hand them back to UCX */
    while (stash != NULL) {
        ucmpi_ucx_msg_discard(stash->msg);
        stash_unlink(&stash);
    }
    ucmpi_progress();
    free(ucmpi_p2p_peer_seq);
    ucmpi_p2p_peer_seq = NULL;
}
