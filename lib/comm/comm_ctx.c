/* Context ids: the lowest id free on every participant, by AND of free masks;
 * overlapping agreements, stamps: docs/architecture.md "comm: context ids". */
#include "p2p/progress_api.h"
#include "p2p/pt2pt.h"
#include "comm/comm_internal.h"

#include <stdlib.h>
#include <string.h>

static uint64_t ctx_free[UCMPI_CTX_WORDS];
static int ctx_ready;
static uint64_t ctx_epoch;                 /* largest stamp seen */
static uint64_t ctx_stamps[UCMPI_CTX_IDS]; /* of the comm holding each id */

static void ctx_init(void)
{
    memset(ctx_free, 0xff, sizeof(ctx_free));
    ctx_free[0] &= ~(uint64_t)3;      /* world and self */
    ctx_free[UCMPI_CTX_ULFM / 64] &= ~((uint64_t)1 << (UCMPI_CTX_ULFM % 64));
    ctx_ready = 1;
}

static void ctx_mask(uint64_t *mask)
{
    ucmpi_lock();
    if (!ctx_ready)
        ctx_init();
    memcpy(mask, ctx_free, sizeof(ctx_free));
    ucmpi_unlock();
}

static int ctx_pick(const uint64_t *mask, int n, uint32_t *ids)
{
    int got = 0;
    for (int w = 0; w < UCMPI_CTX_WORDS && got < n; w++)
        for (int b = 0; b < 64 && got < n; b++)
            if (mask[w] >> b & 1)
                ids[got++] = (uint32_t)(w * 64 + b);
    if (got < n)
        return MPI_ERR_OTHER;
    ucmpi_lock();
    for (int i = 0; i < n; i++)
        ctx_free[ids[i] / 64] &= ~((uint64_t)1 << (ids[i] % 64));
    ucmpi_unlock();
    return MPI_SUCCESS;
}

void ucmpi_ctx_release(uint32_t id)
{
    if (id < 2 || id >= UCMPI_CTX_IDS)
        return;
    ucmpi_lock();
    ctx_free[id / 64] |= (uint64_t)1 << (id % 64);
    ucmpi_unlock();
}

/* Under the big lock: ids just reserved by an agreement of stamp st. */
static void stamp_ids(uint64_t st, int n, const uint32_t *ids)
{
    if (st > ctx_epoch)
        ctx_epoch = st;
    for (int i = 0; i < n; i++)
        ctx_stamps[ids[i]] = st;
}

uint64_t ucmpi_ctx_stamp(uint32_t id)
{
    uint64_t st = 0;
    ucmpi_lock();
    if (id < UCMPI_CTX_IDS)
        st = ctx_stamps[id];
    ucmpi_unlock();
    return st;
}

/* ---- Who may offer its real mask ---- */
typedef struct agree_op {
    struct agree_op *next;
    uint64_t key;
    int blocking;
    int rounds;               /* ended here; 0 while the first is in flight */
} agree_op_t;

#define EAGER_WORDS 1

/* All under the big lock (threads may agree on several comms at once). */
static agree_op_t *pending;       /* agreements in progress here */
static agree_op_t *lock_owner;
static uint64_t offered[UCMPI_CTX_WORDS];   /* lock owner's real mask */
static agree_op_t *eager_owner;   /* first round offering the eager word */
static uint64_t offered_eager[EAGER_WORDS];

/* Leaves out of m the ids offered by rounds in flight (other than op's). */
static void skip_offered(uint64_t *m, const agree_op_t *op)
{
    for (int w = 0; lock_owner != NULL && lock_owner != op &&
                    w < UCMPI_CTX_WORDS; w++)
        m[w] &= ~offered[w];
    for (int w = 0; eager_owner != NULL && eager_owner != op &&
                    w < EAGER_WORDS; w++)
        m[w] &= ~offered_eager[w];
}

/* The op's round ended (or it gave up): it offers nothing any more. */
static void drop_offers(agree_op_t *op)
{
    if (lock_owner == op)
        lock_owner = NULL;
    if (eager_owner == op)
        eager_owner = NULL;
}

static void pending_add(agree_op_t *op)
{
    ucmpi_lock();
    op->next = pending;
    pending = op;
    ucmpi_unlock();
}

static void pending_remove(agree_op_t *op)
{
    ucmpi_lock();
    for (agree_op_t **pp = &pending; *pp; pp = &(*pp)->next)
        if (*pp == op) {
            *pp = op->next;
            break;
        }
    drop_offers(op);
    ucmpi_unlock();
}

static int take_lock(agree_op_t *op)
{
    if (lock_owner == op)
        return 1;
    if (lock_owner != NULL || op->rounds == 0)
        return 0;
    for (agree_op_t *o = pending; o; o = o->next) {
        if (o == op || o->rounds == 0 || (op->blocking && !o->blocking))
            continue;
        if ((!op->blocking && o->blocking) || o->key < op->key)
            return 0;
    }
    lock_owner = op;
    return 1;
}

#define ROUND_WORDS UCMPI_CTX_ROUND_WORDS
#define STAMP_WORD (UCMPI_CTX_WORDS + 1)

/* The highest few free ids stay out of every offer: lone agreements
 * (agree_alone) take them while a round is in flight. */
#define LONE_RESERVE 8

static void keep_reserve(uint64_t *mask)
{
    int left = LONE_RESERVE, total = 0;
    for (int w = 0; w < UCMPI_CTX_WORDS; w++)
        total += __builtin_popcountll(mask[w]);
    if (total <= 2 * LONE_RESERVE)     /* nearly full: offer them all */
        return;
    for (int w = UCMPI_CTX_WORDS - 1; w >= 0 && left > 0; w--)
        while (mask[w] != 0 && left > 0) {
            mask[w] &= ~((uint64_t)1 << (63 - __builtin_clzll(mask[w])));
            left--;
        }
}

/* The last word is the all-real flag: every free id of every participant
 * was offered, so none in common means none left. */
static void fill_round(agree_op_t *op, uint64_t *buf)
{
    ucmpi_lock();
    memset(buf, 0, ROUND_WORDS * sizeof(uint64_t));
    buf[STAMP_WORD] = ~ctx_epoch;
    if (op->rounds == 0 && eager_owner == NULL) {
        uint64_t m[UCMPI_CTX_WORDS];
        ctx_mask(m);
        skip_offered(m, op);
        memcpy(buf, m, sizeof(offered_eager));
        memcpy(offered_eager, buf, sizeof(offered_eager));
        eager_owner = op;
    } else if (take_lock(op)) {
        ctx_mask(buf);
        keep_reserve(buf);
        skip_offered(buf, op);
        memcpy(offered, buf, sizeof(offered));
        if (eager_owner == NULL)
            buf[UCMPI_CTX_WORDS] = ~(uint64_t)0;
    }
    ucmpi_unlock();
}

/* MPI_SUCCESS with ids reserved, MPI_ERR_PENDING to retry, or an error
 * when every mask was real and still too few ids are free. */
static int end_round(agree_op_t *op, const uint64_t *buf, int n,
                     uint32_t *ids)
{
    int rc = MPI_ERR_PENDING, common = 0;
    ucmpi_lock();
    for (int w = 0; w < UCMPI_CTX_WORDS; w++)
        common += __builtin_popcountll(buf[w]);
    if (common >= n || buf[UCMPI_CTX_WORDS] != 0)
        rc = ctx_pick(buf, n, ids);
    if (rc == MPI_SUCCESS)
        stamp_ids(~buf[STAMP_WORD] + 1, n, ids);
    drop_offers(op);
    op->rounds++;
    ucmpi_unlock();
    return rc;
}

/* A lone participant takes ids the round in flight here did not offer; waiting
 * for the lock deadlocked against user locks (MPICH comm_dup_deadlock). */
static int agree_alone(int n, uint32_t *ids)
{
    uint64_t m[UCMPI_CTX_WORDS];
    ucmpi_lock();
    ctx_mask(m);
    skip_offered(m, NULL);
    int rc = ctx_pick(m, n, ids);
    if (rc == MPI_SUCCESS)
        stamp_ids(ctx_epoch + 1, n, ids);
    ucmpi_unlock();
    return rc;
}

/* ULFM's shrink agrees on an id with its own fault-tolerant agreement
 * (ulfm_shrink.c): what this process offers (free ids no round in flight
 * offered, and the complement of its epoch) ... */
void ucmpi_ctx_offer(uint64_t *mask, uint64_t *not_epoch)
{
    ucmpi_lock();
    ctx_mask(mask);
    skip_offered(mask, NULL);
    *not_epoch = ~ctx_epoch;
    ucmpi_unlock();
}

/* ... and taking the id agreed, with the stamp that follows from the epochs
 * (0, or -1 when it went meanwhile: the shrink then tries again). */
int ucmpi_ctx_take(uint32_t id, uint64_t not_epoch)
{
    uint64_t bit = (uint64_t)1 << (id % 64);
    int rc = -1;

    ucmpi_lock();
    if (id < UCMPI_CTX_IDS && (ctx_free[id / 64] & bit)) {
        uint64_t m[UCMPI_CTX_WORDS] = {0};
        m[id / 64] = bit;
        skip_offered(m, NULL);
        if (m[id / 64] != 0) {
            ctx_free[id / 64] &= ~bit;
            stamp_ids(~not_epoch + 1, 1, &id);
            rc = 0;
        }
    }
    ucmpi_unlock();
    return rc;
}

int ucmpi_ctx_agree(const ucmpi_cc_t *cc, int n, uint32_t *ids)
{
    return ucmpi_ctx_agree_gather(cc, n, ids, NULL, NULL, 0);
}

int ucmpi_ctx_agree_gather(const ucmpi_cc_t *cc, int n, uint32_t *ids,
                           const void *in, void *out, size_t bytes)
{
    if (cc->size == 1 && agree_alone(n, ids) == MPI_SUCCESS) {
        if (bytes > 0)
            memcpy(out, in, bytes);
        return MPI_SUCCESS;
    }
    agree_op_t op = {.key = ((uint64_t)cc->comm->ctx << 32) |
                            (uint32_t)cc->tag,
                     .blocking = 1};
    uint64_t buf[ROUND_WORDS];
    int rc;

    pending_add(&op);
    do {
        fill_round(&op, buf);
        rc = ucmpi_cc_allgather_band(cc, in, out, bytes, buf, ROUND_WORDS);
        bytes = 0;                /* gathered with the first round */
        if (rc == MPI_SUCCESS)
            rc = end_round(&op, buf, n, ids);
        if (rc == MPI_ERR_PENDING)
            ucmpi_progress();
    } while (rc == MPI_ERR_PENDING);
    pending_remove(&op);
    return rc;
}

/* Over an intercomm: AND in each group, the leaders swap masks and `nx` extra
 * ints, each group broadcasts; rx gets the remote group's extras. */
int ucmpi_ctx_agree_inter(ucmpi_comm_t *inter, int n, uint32_t *ids,
                          const int *x, int *rx, int nx)
{
    ucmpi_cc_t cc;
    int tag = ucmpi_comm_next_coll_tag(inter);
    ucmpi_cc_link_t l = {inter, UCMPI_CTX_COLL, tag, 0, 0};

    ucmpi_cc_init(&cc, inter->local_comm);
    return ucmpi_ctx_agree_link(&cc, &l, ((uint64_t)inter->ctx << 32) |
                                (uint32_t)tag, n, ids, x, rx, nx);
}

int ucmpi_ctx_agree_link(const ucmpi_cc_t *cc, const ucmpi_cc_link_t *l,
                         uint64_t key, int n, uint32_t *ids, const int *x,
                         int *rx, int nx)
{
    struct {
        uint64_t mask[ROUND_WORDS];
        int extra[UCMPI_CTX_MAX_EXTRA];
    } mine, theirs;
    /* only the extras in use travel */
    size_t bytes = sizeof(mine.mask) + nx * sizeof(int);
    agree_op_t op = {.key = key, .blocking = 1};
    int rc;

    pending_add(&op);
    do {
        memset(&mine, 0, sizeof(mine));
        fill_round(&op, mine.mask);
        rc = ucmpi_cc_allreduce_band(cc, mine.mask, ROUND_WORDS);
        if (rc == MPI_SUCCESS) {
            memcpy(mine.extra, x, nx * sizeof(int));
            rc = ucmpi_cc_swap_bcast(cc, l, &mine, bytes, &theirs, bytes);
        }
        if (rc != MPI_SUCCESS)
            break;
        for (int w = 0; w < ROUND_WORDS; w++)
            mine.mask[w] &= theirs.mask[w];
        memcpy(rx, theirs.extra, nx * sizeof(int));
        rc = end_round(&op, mine.mask, n, ids);
        if (rc == MPI_ERR_PENDING)
            ucmpi_progress();
    } while (rc == MPI_ERR_PENDING);
    pending_remove(&op);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Nonblocking agreement (MPI_Comm_idup): the same rounds as a state   */
/* machine of steps (binomial reduce and broadcast over the local      */
/* group, leaders' exchange for intercomms), advanced by progress.     */
/* ------------------------------------------------------------------ */
enum { ST_SEND, ST_RECV_AND, ST_RECV, ST_XCHG_AND };

typedef struct {
    int kind, peer;           /* peer: participant index (XCHG: comm rank) */
} nb_step_t;

typedef struct ucmpi_ctx_nb {
    agree_op_t op;            /* pending list entry */
    struct ucmpi_ctx_nb *next_nb;
    ucmpi_cc_t cc;            /* local channel */
    ucmpi_comm_t *inter;      /* intercomm whose leaders exchange, or NULL */
    int xtag;
    int n, step, nsteps, rc, done;
    nb_step_t steps[130];
    ucmpi_request_t *req, *req2;
    uint32_t ids[2];
    uint64_t buf[ROUND_WORDS], tmp[ROUND_WORDS];
    void (*complete)(int rc, const uint32_t *ids, void *arg);
    void *arg;
} ucmpi_ctx_nb_t;

static ucmpi_ctx_nb_t *nb_list;
static int nb_registered;

/* Binomial reduce to 0, [leaders' exchange], binomial broadcast from 0. */
static void plan_steps(ucmpi_ctx_nb_t *nb)
{
    int n = nb->cc.size, me = nb->cc.rank, k = 0, mask;
    for (mask = 1; mask < n; mask <<= 1) {
        if (me & mask) {
            nb->steps[k++] = (nb_step_t){ST_SEND, me - mask};
            break;
        }
        if (me + mask < n)
            nb->steps[k++] = (nb_step_t){ST_RECV_AND, me + mask};
    }
    if (nb->inter != NULL && me == 0)
        nb->steps[k++] = (nb_step_t){ST_XCHG_AND, 0};
    for (mask = 1; mask < n; mask <<= 1)
        if (me & mask) {
            nb->steps[k++] = (nb_step_t){ST_RECV, me - mask};
            break;
        }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (me + mask < n)
            nb->steps[k++] = (nb_step_t){ST_SEND, me + mask};
    nb->nsteps = k;
}

static int nb_post(ucmpi_ctx_nb_t *nb)
{
    nb_step_t *s = &nb->steps[nb->step];
    const ucmpi_cc_t *cc = &nb->cc;
    MPI_Count bytes = sizeof(nb->buf);
    int peer = cc->map ? cc->map[s->peer] : s->peer;

    switch (s->kind) {
    case ST_SEND:
        return ucmpi_isend(nb->buf, bytes, MPI_BYTE, peer, cc->tag, cc->comm,
                           cc->sub, UCMPI_SEND_STANDARD, &nb->req);
    case ST_RECV:
        return ucmpi_irecv(nb->buf, bytes, MPI_BYTE, peer, cc->tag, cc->comm,
                           cc->sub, &nb->req);
    case ST_RECV_AND:
        return ucmpi_irecv(nb->tmp, bytes, MPI_BYTE, peer, cc->tag, cc->comm,
                           cc->sub, &nb->req);
    default: {
        int rc = ucmpi_irecv(nb->tmp, bytes, MPI_BYTE, 0, nb->xtag, nb->inter,
                             UCMPI_CTX_COLL, &nb->req2);
        int rc2 = ucmpi_isend(nb->buf, bytes, MPI_BYTE, 0, nb->xtag,
                              nb->inter, UCMPI_CTX_COLL, UCMPI_SEND_STANDARD,
                              &nb->req);
        return rc != MPI_SUCCESS ? rc : rc2;
    }
    }
}

static int take_done(ucmpi_request_t **r)
{
    int rc = MPI_SUCCESS;
    if (*r != NULL) {
        rc = (*r)->status.MPI_ERROR;
        ucmpi_request_free(*r);
        *r = NULL;
    }
    return rc;
}

static void nb_fail(ucmpi_ctx_nb_t *nb, int rc)
{
    nb->rc = rc;
    nb->done = 1;
    drop_offers(&nb->op);
}

/* Advances one agreement; returns 1 when it made progress. */
static int nb_advance(ucmpi_ctx_nb_t *nb)
{
    int moved = 0;
    for (;;) {
        if (nb->req == NULL) {
            if (nb->step == 0)
                fill_round(&nb->op, nb->buf);
            if (nb->step == nb->nsteps) {
                nb->rc = end_round(&nb->op, nb->buf, nb->n, nb->ids);
                if (nb->rc != MPI_ERR_PENDING)
                    nb->done = 1;
                nb->step = 0;        /* else: next round */
                return 1;
            }
            int rc = nb_post(nb);
            if (rc != MPI_SUCCESS || nb->req == NULL) {
                take_done(&nb->req2);
                take_done(&nb->req);
                nb_fail(nb, rc != MPI_SUCCESS ? rc : MPI_ERR_INTERN);
                return 1;
            }
            moved = 1;
        }
        if (!ucmpi_request_is_complete(nb->req) ||
            (nb->req2 != NULL && !ucmpi_request_is_complete(nb->req2)))
            return moved;
        int rc = take_done(&nb->req), rc2 = take_done(&nb->req2);
        if (rc != MPI_SUCCESS || rc2 != MPI_SUCCESS) {
            nb_fail(nb, rc != MPI_SUCCESS ? rc : rc2);
            return 1;
        }
        int kind = nb->steps[nb->step].kind;
        if (kind == ST_RECV_AND || kind == ST_XCHG_AND)
            for (int w = 0; w < ROUND_WORDS; w++)
                nb->buf[w] &= nb->tmp[w];
        nb->step++;
        moved = 1;
    }
}

static int nb_progress(void)
{
    static int busy;          /* completion callbacks may call progress */
    int events = 0;
    if (busy)
        return 0;
    busy = 1;
    ucmpi_ctx_nb_t **pp = &nb_list;
    while (*pp != NULL) {
        ucmpi_ctx_nb_t *nb = *pp;
        events += nb_advance(nb);
        if (nb->done) {
            *pp = nb->next_nb;
            pending_remove(&nb->op);
            nb->complete(nb->rc, nb->ids, nb->arg);
            free(nb);
        } else {
            pp = &nb->next_nb;
        }
    }
    busy = 0;
    /* a registered hook takes every wait off its fast path: leave when
     * idle (hooks run under the big lock, which agree_nb holds too) */
    if (nb_list == NULL && nb_registered) {
        nb_registered = 0;
        ucmpi_progress_unregister(nb_progress);
    }
    return events;
}

/* Starts an agreement on n ids over comm c (both groups when c is an
 * intercomm); complete(rc, ids, arg) runs from progress. */
int ucmpi_ctx_agree_nb(ucmpi_comm_t *c, int n,
                       void (*complete)(int rc, const uint32_t *ids,
                                        void *arg),
                       void *arg)
{
    ucmpi_ctx_nb_t *nb = calloc(1, sizeof(*nb));
    if (nb == NULL)
        return MPI_ERR_NO_MEM;
    if (c->is_inter) {
        nb->inter = c;
        nb->xtag = ucmpi_comm_next_coll_tag(c);
        ucmpi_cc_init(&nb->cc, c->local_comm);
    } else {
        ucmpi_cc_init(&nb->cc, c);
    }
    nb->op.key = ((uint64_t)c->ctx << 32) |
                 (uint32_t)(c->is_inter ? nb->xtag : nb->cc.tag);
    nb->n = n;
    nb->complete = complete;
    nb->arg = arg;
    plan_steps(nb);
    pending_add(&nb->op);
    ucmpi_lock();
    nb->next_nb = nb_list;
    nb_list = nb;
    if (!nb_registered) {
        ucmpi_progress_register(nb_progress);
        nb_registered = 1;
    }
    ucmpi_unlock();
    return MPI_SUCCESS;
}
