/* What the collectives call of the machinery for erroneous programs; the
 * engine reaches it only through its hook (sched_impl.h). */
#ifndef UCMPI_COLL_CHECK_CHECK_H
#define UCMPI_COLL_CHECK_CHECK_H

#include "coll/sched.h"
#include "comm/comm.h"
#include "p2p/request.h"

/* Signs s with its algorithm and shape (intracomms): ranks that chose
 * differently never match, and a stalled run fails everywhere, no hang. */
void ucmpi_sched_sign(ucmpi_sched_t *s, const void *tab, size_t row, int n,
                      int alg, unsigned shape);
/* Names row alg of tab as what s runs (counters, MPI_T, ucmpi_tune)
 * without signing with it: the signature stays the collective's. */
void ucmpi_sched_name_run(ucmpi_sched_t *s, const void *tab, size_t row,
                          int n, int alg);
/* Signs s as an empty collective (meets only 0-byte ranks). */
void ucmpi_sched_sign_empty(ucmpi_sched_t *s);
/* Changes the shape of a signed s (a builder that learns it late). */
void ucmpi_sched_shape(ucmpi_sched_t *s, unsigned shape);
/* A rank whose arguments failed where it cannot know the others'
 * schedule tells every other rank and discards what they send it for seq. */
void ucmpi_sched_abort_peers(ucmpi_comm_t *comm, uint32_t seq);
/* A failed rank taking part in seq anyway tells the others if it stalls
 * soon after, so a rank waiting in another collective there fails. */
void ucmpi_sched_note_local(ucmpi_comm_t *comm, uint32_t seq);
/* The reason s fails (a request's, or a gate's: ucmpi_sched_req_why). */
void ucmpi_sched_set_why(ucmpi_sched_t *s, const char *why);
/* Why the last run that found the ranks disagreeing failed (once). */
const char *ucmpi_sched_abort_why(void);
/* Why a completed collective request failed ("MPI_Ibcast: ...") into buf:
 * 1, or 0 if not a failed schedule's. */
int ucmpi_sched_req_why(ucmpi_request_t *req, char *buf, size_t n);
/* What a collective that failed in err without an abort says. */
const char *ucmpi_sched_plain_why(int err);
#endif
