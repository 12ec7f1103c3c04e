/* A stalled run probes for disagreeing or finalizing ranks, then aborts; a
 * blocking caller whose run still holds sends returns after HELD_SEC. */
#include "coll/check/sched_chk.h"
#include "coll/check/sched_abort.h"
#include "coll/check/sched_sig.h"
#include "p2p/tag.h"
#include "core/failure.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* An aborted run's caller waits this long at most for its held sends: the
 * user may free a send buffer once the call returned. */
#define HELD_SEC (DRAIN_SEC + 1.0)

/* Tells the others that s's sequence aborted (reason != 0) and discards
 * the rest of it for a while, on the alternate comm too. */
static void abort_tell(ucmpi_sched_t *s, int reason, int who)
{
    if (reason != 0)
        ucmpi_coll_abort_send(s->comm, s->seq, s->sig, s->names.coll,
                              reason, who);
    ucmpi_coll_drain_later(s->comm, s->seq);
    if (s->alt_comm != NULL)
        ucmpi_coll_drain_later(s->alt_comm, s->alt_seq);
}

/* The ranks disagree: the run ends in err once its receives are
 * cancelled (its sends end when the peers discard them). */
static void sched_abort(ucmpi_sched_t *s, int err, int reason, int who,
                        const char *why)
{
    ucmpi_sched_chk_t *k = s->chk;

    k->run.aborted = 1;
    k->run.held_until = ucmpi_coll_now() + HELD_SEC;
    s->wait_hook = 1;
    /* a run in the background has no caller to tell */
    if (s->req != NULL || k->is_gate) {
        ucmpi_sched_set_why(s, why);
    } else if (!s->orphaned) {
        ucmpi_sched_tell_why(why);
    }
    if (s->err == MPI_SUCCESS)
        s->err = err;
    for (int i = s->pbeg; i < s->pend; i++)
        if (s->steps[i].inflight && s->steps[i].kind == STEP_RECV)
            ucmpi_coll_abort_cancel(&s->rq[i]);
    ucmpi_coll_abort_drain(s->comm, s->seq);
    if (s->alt_comm != NULL)
        ucmpi_coll_abort_drain(s->alt_comm, s->alt_seq);
    abort_tell(s, reason, who);
    if (s->persistent)
        k->doomed = s->err;
}

/* A run of s begins: a fresh stall state; a persistent s that aborted
 * before has the same arguments: it tells the others again and fails. */
static void hook_run(ucmpi_sched_t *s)
{
    ucmpi_sched_chk_t *k = s->chk;

    memset(&k->run, 0, sizeof(k->run));
    if (k->doomed != 0) {
        s->next_round = s->nrounds;
        s->err = k->doomed;
        abort_tell(s, UCMPI_COLL_ABORT_MISMATCH, 0);
    } else if (k->why != NULL) {
        free(k->why);             /* a persistent run's earlier abort */
        k->why = NULL;
    }
    if (k->gate != NULL)
        ucmpi_sched_gate_launch(s);
    s->hooked = k->doomed != 0 || k->gate != NULL;
}

/* The unfinished step of s's round whose peer is in MPI_Finalize, or -1;
 * at the run's first stall, tells those peers it waits for them. */
static int finalized_peer(ucmpi_sched_t *s)
{
    int found = -1, tell = !s->chk->run.wait_told;

    s->chk->run.wait_told = 1;
    for (int i = s->pbeg; i < s->pend; i++) {
        const step_t *st = &s->steps[i];
        ucmpi_comm_t *c = st->alt ? s->alt_comm : s->comm;
        if (!st->inflight || !ucmpi_sched_step_is_xfer(st) ||
            ucmpi_request_is_complete(&s->rq[i]))
            continue;
        if (tell)
            ucmpi_coll_wait_send(c, st->alt ? s->alt_seq : s->seq, s->sig,
                                 s->names.coll, st->peer);
        if (found < 0 && ucmpi_peer_finalized(ucmpi_comm_peer_world(
                             c, st->peer)))
            found = i;
    }
    return found;
}

/* A rank s waits for is in MPI_Finalize: seen at two stall checks in a
 * row (the answer may overtake a last acknowledgement), s fails. */
static void fail_on_finalized(ucmpi_sched_t *s)
{
    int i = finalized_peer(s);
    char why[UCMPI_SCHED_WHY_LEN];

    if (i < 0 || !s->chk->run.fin_seen) {
        s->chk->run.fin_seen = i >= 0;
        return;
    }
    snprintf(why, sizeof(why), "rank %d is in MPI_Finalize while this "
             "rank waits for it in MPI_%s: the ranks' collectives are out "
             "of step", s->steps[i].peer,
             ucmpi_coll_sig_coll_name(s->names.coll));
    sched_abort(s, MPI_ERR_OTHER, UCMPI_COLL_ABORT_FINALIZE,
                s->steps[i].peer, why);
}

/* Stall checks in a row that see a peer ahead before a blocking run gives
 * up (about a second: a failed peer may still serve this collective). */
#define LEFT_CHECKS 10

/* The unfinished step of s's round whose peer sent messages of a later
 * collective (its name in *later), or -1. */
static int left_peer(ucmpi_sched_t *s, const char **later)
{
    for (int i = s->pbeg; i < s->pend; i++) {
        const step_t *st = &s->steps[i];
        if (!st->inflight || !ucmpi_sched_step_is_xfer(st) ||
            ucmpi_request_is_complete(&s->rq[i]))
            continue;
        if (ucmpi_coll_peer_left(st->alt ? s->alt_comm : s->comm,
                                 st->alt ? s->alt_seq : s->seq, st->peer,
                                 later))
            return i;
    }
    return -1;
}

/* A blocking run waits for a rank that went on to a later collective and
 * will never send what it waits for: at LEFT_CHECKS checks, s fails. */
static void fail_on_left(ucmpi_sched_t *s)
{
    const char *later = NULL;
    int i = left_peer(s, &later);
    char why[UCMPI_SCHED_WHY_LEN];

    if (i < 0) {
        s->chk->run.left_seen = 0;
        return;
    }
    if (++s->chk->run.left_seen < LEFT_CHECKS)
        return;
    snprintf(why, sizeof(why), "rank %d has left MPI_%s while this rank "
             "waits for it there (it sent this rank messages of a later "
             "collective%s%s): the ranks' calls differ (collective, "
             "root, counts or types)", s->steps[i].peer,
             ucmpi_coll_sig_coll_name(s->names.coll),
             later ? ", MPI_" : "", later ? later : "");
    sched_abort(s, MPI_ERR_OTHER, UCMPI_COLL_ABORT_MISMATCH, 0, why);
}

/* A stalled blocking run answers stall messages of the two collectives before
 * (it left them) with its own number, at the 1st, 2nd, 4th, ... check. */
static void answer_behind(ucmpi_sched_t *s)
{
    ucmpi_comm_t *c = s->comm;
    unsigned n = ++s->chk->run.stall_checks;

    if ((n & (n - 1)) != 0)
        return;
    for (int r = 0; r < c->remote_size; r++)
        if ((c->is_inter || r != c->rank) &&
            ucmpi_coll_peer_behind(c, s->seq, r))
            ucmpi_coll_wait_send(c, s->seq, s->sig, s->names.coll, r);
}

/* s stalled UCMPI_COLL_STALL_SEC: do the ranks disagree, or is a peer in
 * MPI_Finalize or (blocking; nonblocking may be) in a later collective? */
static void stall_check(ucmpi_sched_t *s, int blocking)
{
    unsigned fp = (unsigned)s->next_round * 65599u + (unsigned)s->npending;
    double t = ucmpi_coll_now();
    int notify, err;
    char why[UCMPI_SCHED_WHY_LEN];
    ucmpi_sched_chk_t *k;

    if (!s->running || (k = ucmpi_sched_chk(s)) == NULL || k->run.aborted ||
        (k->gate != NULL && s->next_round == 0))  /* waits for its gate */
        return;
    if (fp != k->run.stall_fp || k->run.stall_t0 == 0) {
        k->run.stall_fp = fp;
        k->run.stall_t0 = t;
        k->run.fin_seen = 0;
        k->run.left_seen = 0;
        return;
    }
    if (t - k->run.stall_t0 < UCMPI_COLL_STALL_SEC)
        return;
    k->run.stall_t0 = t;
    ucmpi_lock();
    ucmpi_coll_note_announce(s->comm, s->seq);
    err = ucmpi_coll_stall_probe(s->comm, s->seq, s->sig, &s->names, why,
                                 sizeof(why), &notify);
    if (err == MPI_SUCCESS && s->alt_comm != NULL)
        err = ucmpi_coll_stall_probe(s->alt_comm, s->alt_seq, s->sig,
                                     &s->names, why, sizeof(why), &notify);
    if (err != MPI_SUCCESS)
        sched_abort(s, err, notify ? UCMPI_COLL_ABORT_MISMATCH : 0, 0, why);
    else
        fail_on_finalized(s);
    if (blocking && !k->run.aborted) {
        answer_behind(s);
        fail_on_left(s);
    }
    ucmpi_unlock();
}

/* Nonblocking s aborted and held its sends HELD_SEC: its request
 * completes now and the run ends orphaned on the active list. */
static void complete_aborted(ucmpi_sched_t *s)
{
    ucmpi_request_t *req = s->req;

    if (req == NULL || !s->chk->run.aborted || s->persistent ||
        ucmpi_coll_now() < s->chk->run.held_until)
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

/* --- the engine's hook (sched_impl.h) --- */

/* Every 1024th idle turn of a wait on s (a run in the background too). */
static void hook_stalled(ucmpi_sched_t *s, int blocking)
{
    stall_check(s, blocking);
    if (!blocking && s->chk != NULL)
        complete_aborted(s);
}

static int hook_give_up(ucmpi_sched_t *s)
{
    return s->chk->run.aborted && ucmpi_coll_now() >= s->chk->run.held_until;
}

/* A rank whose arguments failed takes part in s anyway: noted. */
static void hook_failed(ucmpi_sched_t *s)
{
    ucmpi_sched_note_local(s->comm, s->seq);
}

static void hook_release(ucmpi_sched_t *s, int destroy)
{
    ucmpi_sched_gate_drop(s);
    if (!destroy)
        return;
    free(s->chk->why);
    free(s->chk);
    s->chk = NULL;
}

static int hook_held(ucmpi_sched_t *s)
{
    return s->chk->gate != NULL && ucmpi_sched_gate_held(s);
}

static const ucmpi_sched_hook_t hook = {
    .create = ucmpi_sched_sign_new,
    .take = ucmpi_sched_gate_take,
    .run = hook_run,
    .held = hook_held,
    .stalled = hook_stalled,
    .give_up = hook_give_up,
    .failed = hook_failed,
    .release = hook_release,
};

/* The machinery plugs into the engine when the library is loaded. */
__attribute__((constructor)) static void hook_register(void)
{
    ucmpi_sched_hook = &hook;
}

