/* The collective abort protocol: see sched_abort.h. */
#include "coll/check/sched_abort.h"
#include "coll/coll_util.h"
#include "coll/check/sched_sig.h"
#include "p2p/p2p_cancel.h"
#include "p2p/tag.h"
#include "ucp_glue/ucx.h"
#include "p2p/progress_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* An abort message's payload (the tag holds only 16 bits of seq). */
typedef struct {
    uint32_t seq;
    uint8_t sig;              /* the sender's signature */
    uint8_t reason;           /* UCMPI_COLL_ABORT_* */
    uint8_t coll;             /* the sender's collective (0: unknown) */
    uint8_t pad;
    int32_t who;              /* _FINALIZE: the rank in MPI_Finalize */
    uint64_t stamp;           /* the sender's comm (comm_internal.h) */
} abort_msg_t;

static uint64_t ctx_bits(const ucmpi_comm_t *c)
{
    return ucmpi_tag_make(c->ctx, UCMPI_CTX_COLL, 0, 0);
}

/* The tag of this rank's abort messages (and notes, waits) of seq on c. */
static uint64_t abort_tag(const ucmpi_comm_t *c, uint32_t seq)
{
    return ucmpi_tag_make(c->ctx, UCMPI_CTX_COLL, c->rank,
                          ucmpi_coll_tag((int)seq, UCMPI_COLL_SIG_ABORT));
}

/* Whether sig is one of collective coll's at some shape the decoder
 * tries, coll's own shapes first (lib/p2p/tag.h). */
static int coll_signs(unsigned coll, unsigned sig)
{
    for (unsigned sh = 0; coll != 0 && sh < 64; sh++)
        for (unsigned alg = 0; alg < UCMPI_COLL_SIG_ALGS; alg++)
            if (ucmpi_coll_sig(coll, alg, sh) == sig)
                return 1;
    return 0;
}

/* What signature sig says, for this rank's own schedule (own) or for a
 * peer's message. */
static const char *alg_name(const ucmpi_coll_names_t *nm, unsigned sig,
                            int own, char *buf, size_t n)
{
    const char *alg;
    unsigned coll;

    if (sig == 0)
        return "an unsigned schedule (another collective)";
    if (sig == UCMPI_COLL_SIG_EMPTY)
        return "no data (0 bytes)";
    if ((alg = ucmpi_coll_sig_alg_name(nm, sig)) != NULL)
        return alg;
    if (own || coll_signs(nm->coll, sig))
        return own ? "this collective"
                   : "this collective with another root or shape";
    if ((coll = ucmpi_coll_sig_coll_of(sig)) != 0 && coll != nm->coll) {
        snprintf(buf, n, "another collective (MPI_%s)",
                 ucmpi_coll_sig_coll_name(coll));
        return buf;
    }
    return "another algorithm";
}

/* Whether m is news for a schedule of collective coll, signature sig
 * (a local error in this collective, a wait in this schedule: in step). */
static int is_news(const abort_msg_t *m, unsigned sig, unsigned coll)
{
    if (m->reason == UCMPI_COLL_ABORT_LOCAL)
        return m->coll != 0 && m->coll != coll;
    if (m->reason == UCMPI_COLL_ABORT_WAIT)
        return m->sig != sig;
    return 1;
}

/* An abort message of seq that is news, taken out of matching (stale ones
 * and others dropped): 1 and *m, else 0. */
static int take_abort(const ucmpi_comm_t *c, uint32_t seq, unsigned sig,
                      unsigned coll, int *src, abort_msg_t *m)
{
    uint64_t rtag = ctx_bits(c) |
                    (uint64_t)ucmpi_coll_tag((int)seq, UCMPI_COLL_SIG_ABORT);
    uint64_t mask = UCMPI_TAG_MASK_CTX | UCMPI_TAG_MASK_TAG, t;
    size_t len;
    void *msg;

    while (ucmpi_ucx_tag_probe(rtag, mask, 1, &t, &len, &msg)) {
        if (len != sizeof(*m)) {
            ucmpi_ucx_msg_discard(msg);
            continue;
        }
        /* (an earlier comm with this context id has another stamp) */
        if (ucmpi_ucx_msg_take(msg, m, sizeof(*m)) == 0 && m->seq == seq &&
            m->stamp == c->ctx_stamp && is_news(m, sig, coll)) {
            *src = ucmpi_tag_src(t);
            return 1;
        }
    }
    return 0;
}

/* A message of seq whose signature differs from sig in some bit (one
 * probe per bit): 1 and its tag, else 0. */
static int foreign(const ucmpi_comm_t *c, uint32_t seq, unsigned sig,
                   uint64_t *t)
{
    uint64_t base = ctx_bits(c) | ((uint64_t)seq & UCMPI_COLL_SEQ_MASK);
    size_t len;

    for (int b = 0; b < UCMPI_COLL_SIG_BITS; b++) {
        uint64_t bit = UINT64_C(1) << (UCMPI_COLL_SEQ_BITS + b);
        uint64_t want = ((uint64_t)sig << UCMPI_COLL_SEQ_BITS & bit) ^ bit;
        if (ucmpi_ucx_tag_probe(base | want,
                                UCMPI_TAG_MASK_CTX | UCMPI_COLL_SEQ_MASK | bit,
                                0, t, &len, NULL))
            return 1;
    }
    return 0;
}

/* The text of abort message m from rank src for a schedule with names nm
 * and signature sig; ranks out of step are named as such. */
static int abort_why(const abort_msg_t *m, int src,
                     const ucmpi_coll_names_t *nm, unsigned sig, char *why,
                     size_t n)
{
    char b[64], mine[48], theirs[48];

    /* (collective id 0: the library's own, e.g. a shm segment set-up) */
    snprintf(mine, sizeof(mine), nm->coll ? "MPI_%s" : "%s",
             nm->coll ? ucmpi_coll_sig_coll_name(nm->coll)
                      : "an internal collective");
    snprintf(theirs, sizeof(theirs), "MPI_%s",
             ucmpi_coll_sig_coll_name(m->coll));
    if (m->reason == UCMPI_COLL_ABORT_FINALIZE) {
        snprintf(why, n, "rank %d found rank %d in MPI_Finalize while "
                 "their %s waited for it: the ranks' collectives are out "
                 "of step", src, (int)m->who, m->coll ? theirs : mine);
        return MPI_ERR_OTHER;
    }
    if (m->coll != 0 && m->coll != nm->coll)
        snprintf(why, n, "rank %d %s %s at this point while this rank "
                 "called %s: collectives out of step", src,
                 m->reason == UCMPI_COLL_ABORT_LOCAL ? "failed"
                 : m->reason == UCMPI_COLL_ABORT_WAIT ? "waits in"
                                                     : "called",
                 theirs, mine);
    else if (m->reason == UCMPI_COLL_ABORT_ARGS)
        snprintf(why, n, "rank %d's arguments failed a check, and this "
                 "rank's schedule needed its data", src);
    else
        snprintf(why, n, "the ranks' calls differ (collective, counts, "
                 "types or root): rank %d %s; this rank chose %s", src,
                 m->reason == UCMPI_COLL_ABORT_WAIT
                     ? "waits for this rank under another signature"
                     : "found two signatures",
                 alg_name(nm, sig, 1, b, sizeof(b)));
    return MPI_ERR_TRUNCATE;
}

int ucmpi_coll_stall_probe(ucmpi_comm_t *c, uint32_t seq, unsigned sig,
                           const ucmpi_coll_names_t *names, char *why,
                           size_t n, int *notify)
{
    abort_msg_t m;
    uint64_t t;
    int src;
    char b1[64], b2[64];

    *notify = 0;
    if (take_abort(c, seq, sig, names->coll, &src, &m)) {
        /* (a note or wait of another collective: the others are told) */
        *notify = m.reason == UCMPI_COLL_ABORT_LOCAL ||
                  m.reason == UCMPI_COLL_ABORT_WAIT;
        return abort_why(&m, src, names, sig, why, n);
    }
    if (!foreign(c, seq, sig, &t) ||
        ucmpi_coll_tag_sig(t) == UCMPI_COLL_SIG_ABORT)
        return MPI_SUCCESS;
    snprintf(why, n, "the ranks' calls differ (collective, counts, types "
             "or root): rank %d chose %s (signature 0x%02x), this rank %s "
             "(0x%02x)",
             ucmpi_tag_src(t),
             alg_name(names, ucmpi_coll_tag_sig(t), 0, b1, sizeof(b1)),
             ucmpi_coll_tag_sig(t), alg_name(names, sig, 1, b2, sizeof(b2)),
             sig);
    *notify = 1;
    return MPI_ERR_TRUNCATE;
}

void ucmpi_coll_abort_send(ucmpi_comm_t *c, uint32_t seq, unsigned sig,
                           unsigned coll, int reason, int who)
{
    abort_msg_t m = {seq, (uint8_t)sig, (uint8_t)reason, (uint8_t)coll, 0,
                     who, c->ctx_stamp};
    uint64_t tag = abort_tag(c, seq);

    for (int r = 0; r < c->remote_size; r++)
        if (c->is_inter || r != c->rank)
            (void)ucmpi_ucx_send_copy(ucmpi_comm_peer_world(c, r), tag, &m,
                                      sizeof(m));
    /* intercomms: this rank's own group may wait too */
    for (int r = 0; c->is_inter && r < c->size; r++)
        if (r != c->rank)
            (void)ucmpi_ucx_send_copy(ucmpi_group_world(c->group, r), tag,
                                      &m, sizeof(m));
}

void ucmpi_coll_wait_send(ucmpi_comm_t *c, uint32_t seq, unsigned sig,
                          unsigned coll, int peer)
{
    abort_msg_t m = {seq, (uint8_t)sig, UCMPI_COLL_ABORT_WAIT, (uint8_t)coll,
                     0, -1, c->ctx_stamp};

    (void)ucmpi_ucx_send_copy(ucmpi_comm_peer_world(c, peer),
                              abort_tag(c, seq), &m, sizeof(m));
}

void ucmpi_coll_abort_drain(ucmpi_comm_t *c, uint32_t seq)
{
    uint64_t rtag = ctx_bits(c) | ((uint64_t)seq & UCMPI_COLL_SEQ_MASK), t;
    size_t len;
    void *msg;

    while (ucmpi_ucx_tag_probe(rtag, UCMPI_TAG_MASK_CTX | UCMPI_COLL_SEQ_MASK,
                               1, &t, &len, &msg))
        ucmpi_ucx_msg_discard(msg);
}

/* The last local errors (a desync shows within a few collectives). */
#define NOTES 8
#define NOTE_WINDOW 16u
static struct {
    ucmpi_comm_t *comm;       /* compared, never followed: may be freed */
    uint32_t ctx, seq;
    unsigned coll;
} notes[NOTES];
static unsigned notes_next;

static void note_record(ucmpi_comm_t *c, uint32_t seq, unsigned coll)
{
    unsigned i = notes_next++ % NOTES;

    notes[i].comm = c;
    notes[i].ctx = c->ctx;
    notes[i].seq = seq;
    notes[i].coll = coll;
}

void ucmpi_coll_note_announce(ucmpi_comm_t *c, uint32_t seq)
{
    for (int i = 0; i < NOTES; i++) {
        if (notes[i].comm != c || notes[i].ctx != c->ctx ||
            seq - notes[i].seq >= NOTE_WINDOW)
            continue;
        ucmpi_coll_abort_send(c, notes[i].seq, 0, notes[i].coll,
                              UCMPI_COLL_ABORT_LOCAL, 0);
        notes[i].comm = NULL;
    }
}

/* Whether peer sent (behind) an abort, note or stall message of seq - 1
 * or seq - 2, or (else) any message of seq + 1 or seq + 2; its tag in *t. */
static int peer_sent(ucmpi_comm_t *c, uint32_t seq, int peer, int behind,
                     uint64_t *t)
{
    size_t len;

    for (uint32_t d = 1; d <= 2; d++) {
        int bits = behind ? ucmpi_coll_tag((int)(seq - d),
                                           UCMPI_COLL_SIG_ABORT)
                          : (int)((seq + d) & UCMPI_COLL_SEQ_MASK);
        if (ucmpi_ucx_tag_probe(
                ucmpi_tag_make(c->ctx, UCMPI_CTX_COLL, peer, bits),
                UCMPI_TAG_MASK_CTX | UCMPI_TAG_MASK_SRC |
                    (behind ? UCMPI_TAG_MASK_TAG : UCMPI_COLL_SEQ_MASK),
                0, t, &len, NULL))
            return 1;
    }
    return 0;
}

int ucmpi_coll_peer_left(ucmpi_comm_t *c, uint32_t seq, int peer,
                         const char **name)
{
    uint64_t t;

    /* (any message of peer's at a later number says as much as its data) */
    if (!peer_sent(c, seq, peer, 0, &t))
        return 0;
    unsigned sig = ucmpi_coll_tag_sig(t);
    unsigned coll = sig == UCMPI_COLL_SIG_ABORT ? 0
                                                : ucmpi_coll_sig_coll_of(sig);
    *name = coll ? ucmpi_coll_sig_coll_name(coll) : NULL;
    return 1;
}

int ucmpi_coll_peer_behind(ucmpi_comm_t *c, uint32_t seq, int peer)
{
    uint64_t t;

    return peer_sent(c, seq, peer, 1, &t);
}

int ucmpi_coll_peer_ahead(ucmpi_comm_t *c, int peer, const char **name)
{
    uint64_t t;
    size_t len;

    /* (not aborts or notes: one probe per signature bit, as in foreign()) */
    for (uint32_t d = 0; d < 2; d++) {
        uint64_t base = ucmpi_tag_make(c->ctx, UCMPI_CTX_COLL, peer,
                                       (int)((c->coll_seq + d) &
                                             UCMPI_COLL_SEQ_MASK));
        for (int b = 0; b < UCMPI_COLL_SIG_BITS; b++) {
            uint64_t bit = UINT64_C(1) << (UCMPI_COLL_SEQ_BITS + b);
            if (ucmpi_ucx_tag_probe(base, UCMPI_TAG_MASK_CTX |
                                              UCMPI_TAG_MASK_SRC |
                                              UCMPI_COLL_SEQ_MASK | bit,
                                    0, &t, &len, NULL)) {
                *name = ucmpi_coll_sig_coll_name(
                    ucmpi_coll_sig_coll_of(ucmpi_coll_tag_sig(t)));
                return 1;
            }
        }
    }
    return 0;
}

void ucmpi_coll_abort_cancel(ucmpi_request_t *r)
{
    if (!ucmpi_request_is_complete(r))
        ucmpi_ucx_cancel(&r->p2p.op);
}

/* An aborted sequence's late messages (rendezvous senders wait) are discarded
 * for DRAIN_SEC, never into a later call whose number wrapped to seq. */
typedef struct drain {
    struct drain *next;
    ucmpi_comm_t *comm;
    uint32_t seq;
    double until;
} drain_t;
static drain_t *drains;

static int drain_progress(void)
{
    double t = ucmpi_coll_now();

    for (drain_t **p = &drains, *d; (d = *p) != NULL;) {
        ucmpi_coll_abort_drain(d->comm, d->seq);
        if (t < d->until &&
            d->comm->coll_seq - d->seq < (UCMPI_COLL_SEQ_MASK + 1) / 2) {
            p = &d->next;
            continue;
        }
        *p = d->next;
        ucmpi_comm_release(d->comm);
        free(d);
    }
    if (drains == NULL)
        ucmpi_progress_unregister(drain_progress);
    return 0;
}

void ucmpi_coll_drain_later(ucmpi_comm_t *comm, uint32_t seq)
{
    drain_t *d = malloc(sizeof(*d));

    if (d == NULL)
        return;
    *d = (drain_t){drains, comm, seq, ucmpi_coll_now() + DRAIN_SEC};
    ucmpi_comm_retain(comm);
    if (drains == NULL)
        ucmpi_progress_register(drain_progress);
    drains = d;
}

void ucmpi_sched_abort_peers(ucmpi_comm_t *comm, uint32_t seq)
{
    ucmpi_lock();
    ucmpi_coll_abort_send(comm, seq, 0, ucmpi_coll_sig_comm_id(comm),
                          UCMPI_COLL_ABORT_ARGS, 0);
    ucmpi_coll_drain_later(comm, seq);
    ucmpi_unlock();
}

void ucmpi_sched_note_local(ucmpi_comm_t *comm, uint32_t seq)
{
    ucmpi_lock();
    note_record(comm, seq, ucmpi_coll_sig_comm_id(comm));
    ucmpi_unlock();
}
