/* MPIX_Comm_agree / MPIX_Comm_iagree: a fault-tolerant consensus on the AND
 * of a flag and on the set of failed members.  The coordinator is the lowest
 * member not known failed; every other member sends it its flag and what it
 * knows failed, and waits for the decision, which the coordinator sends in
 * rank order.  When the coordinator dies the next lowest takes over: a rank
 * that already had the decision is the lowest survivor (rank order), so it
 * hands that decision on, and a rank asked after it left the agreement
 * answers from the decisions it keeps.  docs/architecture.md, "Fault
 * tolerance (ULFM)". */
#include "comm/ulfm.h"
#include "comm/comm_internal.h"
#include "core/call.h"
#include "core/failure.h"
#include "p2p/progress_api.h"
#include "p2p/request.h"
#include "ucp_glue/ucx.h"
#include "mpi-ext.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* ---- messages that arrived (active messages), by (ctx, stamp, seq) ---- */

typedef struct inmsg {
    struct inmsg *next;
    size_t len;
    ucmpi_ulfm_wire_t m;      /* followed by its bitmap */
} inmsg_t;
static inmsg_t *inbox;

/* Decisions owed to ranks that asked after this one decided: sent from
 * progress (no sends inside a UCX callback). */
typedef struct reply {
    struct reply *next;
    uint32_t ctx, seq;
    uint64_t stamp;
    int dest;
} reply_t;
static reply_t *replies;
static int hook_on;

static size_t wire_len(int words)
{
    return sizeof(ucmpi_ulfm_wire_t) + (size_t)words * sizeof(uint64_t);
}

/* A message: the failed set (words) then the value (vwords). */
static void send_wire(ucmpi_comm_t *c, int dest, int kind, uint32_t seq,
                      const uint64_t *val, int vwords, const uint64_t *failed,
                      int words)
{
    size_t len = wire_len(words + vwords);
    ucmpi_ulfm_wire_t *m = calloc(1, len);

    if (m == NULL)
        return;
    *m = (ucmpi_ulfm_wire_t){.ctx = c->ctx, .kind = (uint32_t)kind,
                             .stamp = c->ctx_stamp, .seq = seq,
                             .src = c->rank, .flag = vwords};
    memcpy(m->failed, failed, (size_t)words * sizeof(uint64_t));
    memcpy(m->failed + words, val, (size_t)vwords * sizeof(uint64_t));
    (void)ucmpi_ucx_am_send(ucmpi_comm_peer_world(c, dest), UCMPI_AM_ULFM,
                            m, len);
    free(m);
}

static const ucmpi_ulfm_decision_t *decision_of(ucmpi_comm_t *c, uint32_t seq)
{
    ucmpi_ulfm_t *s = c->ft;
    const ucmpi_ulfm_decision_t *d;

    if (s == NULL)
        return NULL;
    d = &s->done[seq % UCMPI_ULFM_KEEP];
    return d->valid && d->seq == seq ? d : NULL;
}

static int send_replies(void)
{
    int n = 0;

    ucmpi_lock();
    while (replies != NULL) {
        reply_t *r = replies;
        ucmpi_comm_t *c = ucmpi_ulfm_comm_of(r->ctx, r->stamp);
        const ucmpi_ulfm_decision_t *d = c ? decision_of(c, r->seq) : NULL;
        replies = r->next;
        if (d != NULL)
            send_wire(c, r->dest, ULFM_DECIDE, r->seq, d->val, d->vwords,
                      d->failed, ((ucmpi_ulfm_t *)c->ft)->words);
        free(r);
        n++;
    }
    if (hook_on) {
        hook_on = 0;
        ucmpi_progress_unregister(send_replies);
    }
    ucmpi_unlock();
    return n;
}

void ucmpi_ulfm_agree_arrived(const void *data, size_t len)
{
    const ucmpi_ulfm_wire_t *m = data;
    ucmpi_comm_t *c = ucmpi_ulfm_comm_of(m->ctx, m->stamp);
    inmsg_t *in, **tail;

    if (m->kind == ULFM_CONTRIB && c != NULL && decision_of(c, m->seq)) {
        reply_t *r = malloc(sizeof(*r));
        if (r == NULL)
            return;
        *r = (reply_t){replies, m->ctx, m->seq, m->stamp, m->src};
        replies = r;
        if (!hook_on) {
            hook_on = 1;
            ucmpi_progress_register(send_replies);
        }
        return;
    }
    if ((in = malloc(sizeof(*in) - sizeof(in->m) + len)) == NULL)
        return;
    in->next = NULL;
    in->len = len;
    memcpy(&in->m, data, len);
    for (tail = &inbox; *tail != NULL; tail = &(*tail)->next)
        ;
    *tail = in;               /* in arrival order */
}

/* ---- one agreement ---- */

struct ucmpi_ulfm_agree {
    ucmpi_comm_t *c;
    uint32_t seq;
    int words;
    int sent_to;              /* the coordinator this one told, or -1 */
    int vwords;
    uint64_t *acc_val;        /* AND of the values this one has */
    uint64_t *acc;            /* OR of the failed sets it has */
    uint8_t *got, *dead;      /* comm rank -> contributed / known failed */
    int nfailures;            /* failure.h's count when dead[] was made */
    unsigned polls;
    int decided;
    uint64_t *out, *out_val;
    /* iagree */
    struct ucmpi_ulfm_agree *next;
    ucmpi_request_t *req;
    int *user_flag;
};

void ucmpi_ulfm_agree_free(ucmpi_ulfm_agree_t *a)
{
    if (a == NULL)
        return;
    ucmpi_comm_release(a->c);
    free(a->acc);
    free(a->acc_val);
    free(a->out);
    free(a->out_val);
    free(a->got);
    free(a->dead);
    free(a);
}

ucmpi_ulfm_agree_t *ucmpi_ulfm_agree_start(ucmpi_comm_t *c,
                                           const uint64_t *val, int vwords)
{
    ucmpi_ulfm_t *s = ucmpi_ulfm_state(c);
    ucmpi_ulfm_agree_t *a = calloc(1, sizeof(*a));

    if (s == NULL || a == NULL) {
        free(a);
        return NULL;
    }
    ucmpi_comm_retain(c);
    a->c = c;
    a->seq = s->agree_seq++;
    a->words = s->words;
    a->sent_to = -1;
    a->vwords = vwords;
    a->nfailures = -1;
    a->acc = calloc((size_t)a->words, sizeof(uint64_t));
    a->out = calloc((size_t)a->words, sizeof(uint64_t));
    a->acc_val = malloc((size_t)vwords * sizeof(uint64_t));
    a->out_val = calloc((size_t)vwords, sizeof(uint64_t));
    a->got = calloc((size_t)c->size, 1);
    a->dead = calloc((size_t)c->size, 1);
    if (a->acc == NULL || a->out == NULL || a->got == NULL ||
        a->dead == NULL || a->acc_val == NULL || a->out_val == NULL) {
        ucmpi_ulfm_agree_free(a);
        return NULL;
    }
    memcpy(a->acc_val, val, (size_t)vwords * sizeof(uint64_t));
    return a;
}

/* Who is known failed: again when a failure was declared, and now and then
 * (a peer's pid, UCX errors). */
static void refresh_dead(ucmpi_ulfm_agree_t *a)
{
    int n = ucmpi_failure_count();

    if (n == a->nfailures && a->polls % 64 != 0)
        return;
    a->nfailures = n;
    for (int r = 0; r < a->c->size; r++)
        if (!a->dead[r] && ucmpi_ulfm_rank_failed(a->c, r))
            a->dead[r] = 1;
}

static void set_bit(uint64_t *m, int r)
{
    m[r / 64] |= (uint64_t)1 << (r % 64);
}

static int finish(ucmpi_ulfm_agree_t *a, const uint64_t *val,
                  const uint64_t *failed)
{
    ucmpi_comm_t *c = a->c;
    ucmpi_ulfm_t *s = c->ft;
    ucmpi_ulfm_decision_t *d = &s->done[a->seq % UCMPI_ULFM_KEEP];
    inmsg_t **p = &inbox;

    a->decided = 1;
    memcpy(a->out_val, val, (size_t)a->vwords * sizeof(uint64_t));
    memcpy(a->out, failed, (size_t)a->words * sizeof(uint64_t));
    free(d->failed);
    free(d->val);
    *d = (ucmpi_ulfm_decision_t){a->seq, 0, a->vwords, NULL, NULL};
    d->failed = malloc((size_t)a->words * sizeof(uint64_t));
    d->val = malloc((size_t)a->vwords * sizeof(uint64_t));
    if (d->failed != NULL && d->val != NULL) {
        memcpy(d->failed, failed, (size_t)a->words * sizeof(uint64_t));
        memcpy(d->val, val, (size_t)a->vwords * sizeof(uint64_t));
        d->valid = 1;
    }
    /* the ones that asked this rank (it became coordinator in their view) */
    while (*p != NULL) {
        inmsg_t *in = *p;
        if (in->m.ctx == c->ctx && in->m.stamp == c->ctx_stamp &&
            in->m.seq == a->seq && in->m.kind == ULFM_CONTRIB) {
            if (in->m.src != c->rank && in->m.src >= 0 && in->m.src < c->size)
                send_wire(c, in->m.src, ULFM_DECIDE, a->seq, val, a->vwords,
                          failed, a->words);
            *p = in->next;
            free(in);
        } else {
            p = &in->next;
        }
    }
    /* what the survivors agreed failed is known failed here too */
    for (int r = 0; r < c->size; r++)
        if (failed[r / 64] >> (r % 64) & 1)
            ucmpi_failure_declare(ucmpi_comm_peer_world(c, r));
    return 1;
}

/* Takes this agreement's messages: 1 when one carried the decision. */
static int take_messages(ucmpi_ulfm_agree_t *a)
{
    ucmpi_comm_t *c = a->c;
    inmsg_t **p = &inbox;

    while (*p != NULL) {
        inmsg_t *in = *p;
        const ucmpi_ulfm_wire_t *m = &in->m;
        if (m->ctx != c->ctx || m->stamp != c->ctx_stamp || m->seq != a->seq ||
            in->len < wire_len(a->words + a->vwords) || m->flag != a->vwords ||
            m->src < 0 || m->src >= c->size) {
            p = &in->next;
            continue;
        }
        if (m->kind == ULFM_DECIDE) {
            *p = in->next;
            finish(a, m->failed + a->words, m->failed);
            free(in);
            return 1;
        }
        if (m->kind == ULFM_CONTRIB) {
            /* kept (finish answers it) unless this rank coordinates */
            a->got[m->src] = 1;
            for (int w = 0; w < a->vwords; w++)
                a->acc_val[w] &= m->failed[a->words + w];
            for (int w = 0; w < a->words; w++)
                a->acc[w] |= m->failed[w];
        }
        p = &in->next;
    }
    return 0;
}

/* Testing only (test/fault/ulfm.sh): UCMPI_FT_TEST_COORD_DIE=n makes world
 * rank 0, as coordinator, die after sending its decision to n ranks. */
static void test_die(int sent)
{
    static int after = -2;

    if (after == -2) {
        const char *e = getenv("UCMPI_FT_TEST_COORD_DIE");
        after = e != NULL && ucmpi_global.world_rank == 0 ? atoi(e) : -1;
    }
    if (after > 0 && sent == after)
        raise(SIGKILL);
}

int ucmpi_ulfm_agree_test(ucmpi_ulfm_agree_t *a, uint64_t *val,
                          uint64_t *failed)
{
    ucmpi_comm_t *c = a->c;
    int coord = -1, rc;

    ucmpi_lock();
    if (!a->decided && !take_messages(a)) {
        a->polls++;
        refresh_dead(a);
        for (int r = 0; r < c->size && coord < 0; r++)
            if (r == c->rank || !a->dead[r])
                coord = r;
        if (coord == c->rank) {
            int missing = 0;
            for (int r = 0; r < c->size && !missing; r++)
                missing = r != c->rank && !a->dead[r] && !a->got[r];
            if (!missing) {
                for (int r = 0; r < c->size; r++)
                    if (a->dead[r])
                        set_bit(a->acc, r);
                /* in rank order: see the top of this file */
                for (int r = 0, sent = 0; r < c->size; r++)
                    if (r != c->rank && !a->dead[r]) {
                        send_wire(c, r, ULFM_DECIDE, a->seq, a->acc_val,
                                  a->vwords, a->acc, a->words);
                        test_die(++sent);
                    }
                finish(a, a->acc_val, a->acc);
            }
        } else if (a->sent_to != coord) {
            uint64_t *mine = calloc((size_t)a->words, sizeof(uint64_t));
            if (mine != NULL) {
                for (int r = 0; r < c->size; r++)
                    if (a->dead[r])
                        set_bit(mine, r);
                send_wire(c, coord, ULFM_CONTRIB, a->seq, a->acc_val,
                          a->vwords, mine, a->words);
                free(mine);
                a->sent_to = coord;
            }
        }
    }
    rc = a->decided;
    if (rc) {
        if (val != NULL)
            memcpy(val, a->out_val, (size_t)a->vwords * sizeof(uint64_t));
        if (failed != NULL)
            memcpy(failed, a->out, (size_t)a->words * sizeof(uint64_t));
    }
    ucmpi_unlock();
    return rc;
}

/* The error agree reports: MPIX_ERR_PROC_FAILED when a member the survivors
 * agreed failed is not acknowledged here. */
static int unacked_in(ucmpi_comm_t *c, const uint64_t *failed)
{
    ucmpi_ulfm_t *s;
    int rc = MPI_SUCCESS;

    ucmpi_lock();
    s = ucmpi_ulfm_state(c);
    for (int r = 0; s != NULL && r < c->size && rc == MPI_SUCCESS; r++) {
        int acked = 0;
        if (!(failed[r / 64] >> (r % 64) & 1))
            continue;
        for (int i = 0; i < s->nacked && !acked; i++)
            acked = s->failed[i] == r;
        if (!acked)
            rc = MPI_ERR_PROC_FAILED;
    }
    ucmpi_unlock();
    return rc;
}

/* Blocking: runs a to its decision. */
int ucmpi_ulfm_agree_wait(ucmpi_ulfm_agree_t *a, uint64_t *val,
                          uint64_t *failed)
{
    unsigned spins = 0;

    while (!ucmpi_ulfm_agree_test(a, val, failed)) {
        if (ucmpi_progress() != 0)
            continue;
        ucmpi_progress_idle(++spins);
    }
    ucmpi_progress_wait_done();
    return MPI_SUCCESS;
}

#pragma weak MPIX_Comm_agree = PMPIX_Comm_agree
int PMPIX_Comm_agree(MPI_Comm comm, int *flag)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPIX_Comm_agree");
    int rc = ucmpi_ulfm_check_comm(comm, fn);
    ucmpi_ulfm_agree_t *a;

    if (rc == MPI_SUCCESS && flag == NULL)
        rc = ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "flag is NULL");
    if (rc != MPI_SUCCESS)
        return rc;
    uint64_t v = (uint32_t)*flag;
    ucmpi_rt_enter(fn);
    ucmpi_lock();
    a = ucmpi_ulfm_agree_start(comm, &v, 1);
    ucmpi_unlock();
    if (a == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    ucmpi_ulfm_agree_wait(a, &v, NULL);
    *flag = (int)(uint32_t)v;
    rc = unacked_in(comm, a->out);
    ucmpi_ulfm_agree_free(a);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_comm(comm, rc, fn, "a process of the communicator "
                              "failed and is not acknowledged "
                              "(MPIX_Comm_ack_failed); the flag is agreed");
    return MPI_SUCCESS;
}

/* ---- iagree: advanced by a progress hook while any is pending ---- */

static ucmpi_ulfm_agree_t *nb_list;
static int nb_hook_on;

static int nb_progress(void)
{
    int n = 0;

    for (ucmpi_ulfm_agree_t **p = &nb_list; *p != NULL;) {
        ucmpi_ulfm_agree_t *a = *p;
        uint64_t v;
        if (!ucmpi_ulfm_agree_test(a, &v, NULL)) {
            p = &a->next;
            continue;
        }
        *p = a->next;
        *a->user_flag = (int)(uint32_t)v;
        a->req->status.MPI_ERROR = unacked_in(a->c, a->out);
        ucmpi_request_set_complete(a->req);
        ucmpi_ulfm_agree_free(a);
        n++;
    }
    if (nb_list == NULL && nb_hook_on) {
        nb_hook_on = 0;
        ucmpi_progress_unregister(nb_progress);
    }
    return n;
}

#pragma weak MPIX_Comm_iagree = PMPIX_Comm_iagree
int PMPIX_Comm_iagree(MPI_Comm comm, int *flag, MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPIX_Comm_iagree");
    int rc = ucmpi_ulfm_check_comm(comm, fn);
    ucmpi_ulfm_agree_t *a;
    ucmpi_request_t *req;

    if (rc == MPI_SUCCESS && (flag == NULL || request == NULL))
        rc = ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "flag or request is NULL");
    if (rc != MPI_SUCCESS)
        return rc;
    req = ucmpi_request_alloc(UCMPI_REQ_COLL, NULL);
    if (req == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    req->status.MPI_ERROR = MPI_SUCCESS;
    uint64_t v = (uint32_t)*flag;
    ucmpi_lock();
    a = ucmpi_ulfm_agree_start(comm, &v, 1);
    if (a != NULL) {
        a->req = req;
        a->user_flag = flag;
        a->next = nb_list;
        nb_list = a;
    }
    ucmpi_unlock();
    if (a == NULL) {
        ucmpi_request_free(req);
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    if (!nb_hook_on) {
        nb_hook_on = 1;
        ucmpi_progress_register(nb_progress);
    }
    *request = req;
    return MPI_SUCCESS;
}

/* Messages left at the end (agreements nobody ran any more). */
static void agree_finalize(void *unused)
{
    while (inbox != NULL) {
        inmsg_t *in = inbox;
        inbox = in->next;
        free(in);
    }
    while (replies != NULL) {
        reply_t *r = replies;
        replies = r->next;
        free(r);
    }
}

__attribute__((constructor)) static void ulfm_agree_hooks(void)
{
    ucmpi_hook_add(UCMPI_HOOK_FINALIZE_LAST, 0, agree_finalize);
}
