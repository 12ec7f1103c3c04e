/*
 * What the collectives call of the machinery for erroneous programs
 * (signatures, aborts, the reasons a collective failed); the engine
 * itself reaches it only through its hook (sched_impl.h).
 */
#ifndef UCMPI_COLL_CHECK_CHECK_H
#define UCMPI_COLL_CHECK_CHECK_H

#include "coll/sched.h"
#include "comm/comm.h"
#include "p2p/request.h"

/* Signs s with its algorithm (id alg of the table tab: n rows of row
 * bytes, each starting like ucmpi_coll_alg_t) and shape (anything else
 * that changes which messages the ranks exchange, e.g. a segment count):
 * ranks that chose differently then never match each other's messages,
 * and a stalled run finds out and fails on every rank instead of hanging
 * (sched_abort.h).  Intracomms only; unsigned schedules still take abort
 * messages. */
void ucmpi_sched_sign(ucmpi_sched_t *s, const void *tab, size_t row, int n,
                      int alg, unsigned shape);
/* Signs s as an empty collective (ucmpi_coll_run_empty): it meets only
 * ranks whose data is 0 bytes too. */
void ucmpi_sched_sign_empty(ucmpi_sched_t *s);
/* Changes the shape of a signed s (a builder that learns it late). */
void ucmpi_sched_shape(ucmpi_sched_t *s, unsigned shape);
/* A rank whose arguments failed where it cannot know the others'
 * schedule for collective seq of comm: tells every other rank (an abort
 * message their stalled schedules find) and discards what they send it
 * for that collective for a while (sched_abort.h). */
void ucmpi_sched_abort_peers(ucmpi_comm_t *comm, uint32_t seq);
/* A rank whose arguments failed a check but that takes part in
 * collective seq of comm anyway (a background drain, empty messages, a
 * failed persistent request, a skipped number) tells the others once one
 * of its schedules on comm stalls shortly after: one that waits in
 * another collective at that number (a program that expected the failed
 * call to consume nothing) then fails instead of waiting for ever; the
 * ranks of this collective ignore it (sched_abort.h).  No messages
 * otherwise. */
void ucmpi_sched_note_local(ucmpi_comm_t *comm, uint32_t seq);
/* The reason s fails (a request's, or a gate's: ucmpi_sched_req_why). */
void ucmpi_sched_set_why(ucmpi_sched_t *s, const char *why);
/* Why the last run that found the ranks disagreeing failed (once; NULL
 * when there is no news). */
const char *ucmpi_sched_abort_why(void);
/* The reason a completed collective request failed, as the blocking
 * call's error message gives it, prefixed by the call that started it
 * ("MPI_Ibcast: ..."), into buf: 1, or 0 when req is not a failed
 * schedule's (read it before the request is freed). */
int ucmpi_sched_req_why(ucmpi_request_t *req, char *buf, size_t n);
/* What a collective that failed in err without an abort says (no peer
 * told why): blocking calls and ucmpi_sched_req_why alike. */
const char *ucmpi_sched_plain_why(int err);
#endif
