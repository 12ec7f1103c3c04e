/*
 * What a schedule does when it cannot finish (sched_abort.h): a run that
 * stalls probes whether the ranks disagree or a peer it waits for is in
 * MPI_Finalize, then aborts (cancels its receives, tells the others,
 * drains what is left of its sequence in the background); a blocking
 * caller whose aborted run still holds sends returns after HELD_SEC and
 * the run finishes detached on the active list.  The engine (sched.c)
 * calls in here only off its fast path (sched_impl.h).
 */
#include "coll/sched_impl.h"
#include "coll/sched_abort.h"
#include "coll/sched_sig.h"
#include "p2p/tag.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The abort protocol (sched_abort.c) registers itself; the unit tests
 * link the engine without it, and a stalled schedule then just waits. */
static const ucmpi_sched_abort_ops_t *ab;

void ucmpi_sched_abort_register(const ucmpi_sched_abort_ops_t *ops)
{
    ab = ops;
}

static void check_peers(ucmpi_sched_t *s)
{
    for (int i = s->pbeg; i < s->pend; i++)
        if (s->steps[i].inflight && ucmpi_sched_step_is_xfer(&s->steps[i]))
            ucmpi_request_check_peer(&s->rq[i]);
}

static double now_sec(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void drain_later(ucmpi_comm_t *comm, uint32_t seq);

#define DRAIN_SEC 2.0
/* An aborted run's caller waits this long at most for its held sends
 * (the peers' drains answer them): the user may free a send buffer once
 * the call returned, and a peer still reading it would then fail. */
#define HELD_SEC (DRAIN_SEC + 1.0)

static char abort_why[256];
static int abort_news;            /* abort_why not yet reported */

const char *ucmpi_sched_abort_why(void)
{
    if (!abort_news)
        return NULL;
    abort_news = 0;
    return abort_why;
}

/* Tells the other ranks that s's sequence aborted (an abort message they
 * probe for, with reason UCMPI_COLL_ABORT_*; both groups of an intercomm)
 * unless reason is 0, and discards what is left of it for a while, on the
 * alternate comm too (an intercomm collective's local phases, under that
 * comm's own sequence number). */
static void abort_tell(ucmpi_sched_t *s, int reason, int who)
{
    if (reason != 0)
        ab->abort_send(s->comm, s->seq, s->sig, s->names.coll,
                              reason, who);
    drain_later(s->comm, s->seq);
    if (s->alt_comm != NULL)
        drain_later(s->alt_comm, s->alt_seq);
}

/* The ranks disagree: the run ends in err once its receives are cancelled
 * (its sends end when the peers discard them); what is left of its
 * sequence is discarded, and with a reason the other ranks are told
 * (abort_tell). */
static void sched_abort(ucmpi_sched_t *s, int err, int reason, int who,
                        const char *why)
{
    s->aborted = 1;
    s->held_until = now_sec() + HELD_SEC;
    /* a blocking caller reads it at once (ucmpi_sched_abort_why), a
     * user's request when it is waited for (ucmpi_sched_req_why); a run
     * in the background has no caller to tell */
    if (s->req != NULL || s->is_gate) {
        free(s->why);
        s->why = strdup(why);
    } else if (!s->orphaned) {
        snprintf(abort_why, sizeof(abort_why), "%s", why);
        abort_news = 1;
    }
    if (s->err == MPI_SUCCESS)
        s->err = err;
    for (int i = s->pbeg; i < s->pend; i++)
        if (s->steps[i].inflight && s->steps[i].kind == STEP_RECV)
            ab->abort_cancel(&s->rq[i]);
    ab->abort_drain(s->comm, s->seq);
    if (s->alt_comm != NULL)
        ab->abort_drain(s->alt_comm, s->alt_seq);
    abort_tell(s, reason, who);
    if (s->persistent)
        s->doomed = s->err;
}

/* A start of a persistent s that aborted before: its arguments have not
 * changed, so neither has the disagreement; it tells the others again
 * (their requests keep the same number and wait for this rank) and ends
 * in the error at once. */
void ucmpi_sched_abort_rerun(ucmpi_sched_t *s)
{
    s->next_round = s->nrounds;
    s->err = s->doomed;
    abort_tell(s, UCMPI_COLL_ABORT_MISMATCH, 0);
}

/* Messages of an aborted sequence sent before the peers learnt of it
 * may still be on their way (a rendezvous sender waits until they are
 * answered): a drain task on the active list discards them for
 * DRAIN_SEC, then ends. */

int ucmpi_sched_drain_step(ucmpi_sched_t *s)
{
    ab->abort_drain(s->comm, s->seq);
    /* (never into a later collective whose 16-bit number wrapped to seq) */
    if (now_sec() >= s->drain_until ||
        s->comm->coll_seq - s->seq >= (UCMPI_COLL_SEQ_MASK + 1) / 2)
        s->running = 0;
    return 0;
}

static void drain_later(ucmpi_comm_t *comm, uint32_t seq)
{
    ucmpi_sched_t *s = ucmpi_sched_alloc_bare(comm);

    if (s == NULL)
        return;
    s->seq = seq;
    s->drain_until = now_sec() + DRAIN_SEC;
    s->running = 1;
    ucmpi_sched_detach(s);
}

void ucmpi_sched_abort_peers(ucmpi_comm_t *comm, uint32_t seq)
{
    if (ab == NULL)
        return;
    ucmpi_lock();
    ab->abort_send(comm, seq, 0, ucmpi_coll_sig_comm_id(comm),
                          UCMPI_COLL_ABORT_ARGS, 0);
    drain_later(comm, seq);
    ucmpi_unlock();
}

/* The step of s's round in flight whose transfer is unfinished and whose
 * peer is in MPI_Finalize (lib/core/failure.c: asks it, once), or -1; at the
 * run's first stall, tells those peers that it waits for them (a peer in
 * another collective then fails: sched_abort.h).  Under the big lock. */
static int finalized_peer(ucmpi_sched_t *s)
{
    int found = -1, tell = !s->wait_told && ab != NULL;

    s->wait_told = 1;
    for (int i = s->pbeg; ab != NULL && i < s->pend; i++) {
        const step_t *st = &s->steps[i];
        ucmpi_comm_t *c = st->alt ? s->alt_comm : s->comm;
        if (!st->inflight || !ucmpi_sched_step_is_xfer(st) ||
            ucmpi_request_is_complete(&s->rq[i]))
            continue;
        if (tell)
            ab->wait_send(c, st->alt ? s->alt_seq : s->seq, s->sig,
                                 s->names.coll, st->peer);
        if (found < 0 && ab->peer_finalized(ucmpi_comm_peer_world(
                             c, st->peer)))
            found = i;
    }
    return found;
}

/* A rank that s waits for is in MPI_Finalize: it never joins this
 * collective (the ranks are out of step).  Known at two stall checks in
 * a row (the answer may overtake the last acknowledgement of a transfer
 * that is in fact done), s fails and tells the others. */
static void fail_on_finalized(ucmpi_sched_t *s)
{
    int i = finalized_peer(s);
    char why[sizeof(abort_why)];

    if (i < 0 || !s->fin_seen) {
        s->fin_seen = i >= 0;
        return;
    }
    snprintf(why, sizeof(why), "rank %d is in MPI_Finalize while this "
             "rank waits for it in MPI_%s: the ranks' collectives are out "
             "of step", s->steps[i].peer,
             ucmpi_coll_sig_coll_name(s->names.coll));
    sched_abort(s, MPI_ERR_OTHER, UCMPI_COLL_ABORT_FINALIZE,
                s->steps[i].peer, why);
}

/* Stall checks in a row (each UCMPI_COLL_STALL_SEC or more apart) that
 * see a peer ahead before a blocking run gives up on it: about a second,
 * as a peer that failed its own arguments may still serve this
 * collective in the background while it sends the next one's messages. */
#define LEFT_CHECKS 10

/* The step of blocking s's round in flight whose transfer is unfinished
 * and whose peer has sent this rank messages of a later collective, its
 * name in *later; or -1.  Under the big lock. */
static int left_peer(ucmpi_sched_t *s, const char **later)
{
    for (int i = s->pbeg; ab != NULL && i < s->pend; i++) {
        const step_t *st = &s->steps[i];
        if (!st->inflight || !ucmpi_sched_step_is_xfer(st) ||
            ucmpi_request_is_complete(&s->rq[i]))
            continue;
        if (ab->peer_left(st->alt ? s->alt_comm : s->comm,
                                 st->alt ? s->alt_seq : s->seq, st->peer,
                                 later))
            return i;
    }
    return -1;
}

/* A blocking run waits for a rank that has gone on to a later collective
 * (its own blocking call at this number ended: it called another
 * collective, or the same one with another root, and never sends what
 * this rank waits for), and its stall message (ucmpi_coll_wait_send) is
 * never read there.  Seen at LEFT_CHECKS stall checks in a row, s fails
 * and tells the others still at this number. */
static void fail_on_left(ucmpi_sched_t *s)
{
    const char *later = NULL;
    int i = left_peer(s, &later);
    char why[sizeof(abort_why)];

    if (i < 0) {
        s->left_seen = 0;
        return;
    }
    if (++s->left_seen < LEFT_CHECKS)
        return;
    snprintf(why, sizeof(why), "rank %d has left MPI_%s while this rank "
             "waits for it there (it sent this rank messages of a later "
             "collective%s%s): the ranks' calls differ (collective, "
             "root, counts or types)", s->steps[i].peer,
             ucmpi_coll_sig_coll_name(s->names.coll),
             later ? ", MPI_" : "", later ? later : "");
    sched_abort(s, MPI_ERR_OTHER, UCMPI_COLL_ABORT_MISMATCH, 0, why);
}

/* A blocking run that stalls answers the ranks that sent this rank stall
 * messages in the two collectives before (they may still wait for it
 * there, and this rank has left: its blocking call ended) with a stall
 * message of its own number, which their left_peer finds even where this
 * collective sends them nothing; a rank merely late drops it here as no
 * news.  At the 1st, 2nd, 4th, 8th ... stall check of the run (their
 * message may come later than this rank's first check). */
static void answer_behind(ucmpi_sched_t *s)
{
    ucmpi_comm_t *c = s->comm;
    unsigned n = ++s->stall_checks;

    if ((n & (n - 1)) != 0 || ab == NULL)
        return;
    for (int r = 0; r < c->remote_size; r++)
        if ((c->is_inter || r != c->rank) &&
            ab->peer_behind(c, s->seq, r))
            ab->wait_send(c, s->seq, s->sig, s->names.coll, r);
}

void ucmpi_sched_note_local(ucmpi_comm_t *comm, uint32_t seq)
{
    if (ab == NULL)
        return;
    ucmpi_lock();
    ab->note_record(comm, seq, ucmpi_coll_sig_comm_id(comm));
    ucmpi_unlock();
}

/* Every 1024th idle turn of a wait on s: once it has not moved for
 * UCMPI_COLL_STALL_SEC, probe whether the ranks disagree, or whether a
 * rank it waits for has gone to MPI_Finalize or (blocking: a blocking
 * run of this rank) to a later collective.  (A nonblocking peer may
 * legally be in a later collective before it serves this one.) */
static void stall_check(ucmpi_sched_t *s, int blocking)
{
    unsigned fp = (unsigned)s->next_round * 65599u + (unsigned)s->npending;
    double t = now_sec();
    int notify, err;
    char why[sizeof(abort_why)];

    if (ab == NULL || !s->running || s->aborted ||
        (s->gate != NULL && s->next_round == 0))  /* waits for its gate */
        return;
    if (fp != s->stall_fp || s->stall_t0 == 0) {
        s->stall_fp = fp;
        s->stall_t0 = t;
        s->fin_seen = 0;
        s->left_seen = 0;
        return;
    }
    if (t - s->stall_t0 < UCMPI_COLL_STALL_SEC)
        return;
    s->stall_t0 = t;
    ucmpi_lock();
    ab->note_announce(s->comm, s->seq);
    err = ab->stall_probe(s->comm, s->seq, s->sig, &s->names, why,
                          sizeof(why), &notify);
    if (err == MPI_SUCCESS && s->alt_comm != NULL)
        err = ab->stall_probe(s->alt_comm, s->alt_seq, s->sig, &s->names,
                              why, sizeof(why), &notify);
    if (err != MPI_SUCCESS)
        sched_abort(s, err, notify ? UCMPI_COLL_ABORT_MISMATCH : 0, 0, why);
    else
        fail_on_finalized(s);
    if (blocking && !s->aborted) {
        answer_behind(s);
        fail_on_left(s);
    }
    ucmpi_unlock();
}

/* An aborted run whose sends are still held (rendezvous to a rank that
 * has not discarded them yet) finishes on the active list, orphaned:
 * its caller returns the error now. */
void ucmpi_sched_detach(ucmpi_sched_t *s)
{
    ucmpi_lock();
    s->orphaned = 1;
    s->req = NULL;
    ucmpi_sched_activate(s);
    ucmpi_unlock();
}

int ucmpi_sched_hold_expired(const ucmpi_sched_t *s)
{
    return now_sec() >= s->held_until;
}

void ucmpi_sched_stall_tick(ucmpi_sched_t *s)
{
    check_peers(s);
    stall_check(s, 1);
}

/* After a stall check of s (its user's request req): once the run
 * aborted and its sends stayed held for HELD_SEC, req completes now and
 * the run ends on the active list (ucmpi_sched_detach); before, it
 * ends as any run does, once its sends are answered. */
static void complete_aborted(ucmpi_sched_t *s, ucmpi_request_t *req)
{
    if (!s->aborted || s->persistent || now_sec() < s->held_until)
        return;
    ucmpi_lock();
    if (s->req == req) {
        req->ext = NULL;
        s->req = NULL;
        s->orphaned = 1;
        ucmpi_sched_complete_req(req, s->err);
    }
    ucmpi_unlock();
}

/* Waiting loops call this now and then (through ucmpi_request_check_peer):
 * transfers of the round in flight whose peer died fail, and the schedule
 * then completes with MPI_ERR_PROC_FAILED instead of hanging; a run that
 * stalled on ranks that disagree aborts (stall_check). */
void ucmpi_sched_check_peers(ucmpi_request_t *req)
{
    ucmpi_sched_t *s = req->ext;

    if (s == NULL || !s->running)
        return;
    check_peers(s);
    stall_check(s, 0);
    complete_aborted(s, req);
}

/* The stall check of every nonblocking or persistent run on the active
 * list (from the progress hook, now and then: see sched_progress). */
void ucmpi_sched_poll_stalls(ucmpi_sched_t *head)
{
    for (ucmpi_sched_t *s = head; s; s = s->next) {
        if (!s->running || s->drain_until != 0)
            continue;
        /* (a run in the background too, e.g. a root that drains the
         * others' data after its own arguments failed: meeting another
         * collective's messages there, it tells the ranks that sent
         * them that they are out of step) */
        stall_check(s, 0);
        if (s->req != NULL)
            complete_aborted(s, s->req);
    }
}

const char *ucmpi_sched_plain_why(int err)
{
    if (err == MPI_ERR_TRUNCATE)
        return "a message of this collective did not have the size this "
               "rank's count and datatype give (they differ between ranks, "
               "or a peer's arguments failed a check)";
    return "collective failed";
}

int ucmpi_sched_req_why(ucmpi_request_t *req, char *buf, size_t n)
{
    ucmpi_sched_t *s = ucmpi_sched_of_req(req);
    int err = req->status.MPI_ERROR;

    if (s == NULL || err == MPI_SUCCESS || s->names.coll == 0)
        return 0;
    const char *name = ucmpi_coll_sig_coll_name(s->names.coll);
    const char *why = s->why != NULL ? s->why : ucmpi_sched_plain_why(err);

    /* the call that started it: MPI_Ibcast, or MPI_Bcast_init */
    if (s->persistent)
        snprintf(buf, n, "MPI_%s_init: %s", name, why);
    else
        snprintf(buf, n, "MPI_I%c%s: %s", tolower((unsigned char)name[0]),
                 name + 1, why);
    return 1;
}
