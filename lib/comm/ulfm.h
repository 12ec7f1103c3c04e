/* Fault tolerance of communicators (ULFM, include/mpi-ext.h): per-comm
 * failure bookkeeping, revoke, agree, shrink.  docs/architecture.md,
 * "Fault tolerance (ULFM)". */
#ifndef UCMPI_COMM_ULFM_H
#define UCMPI_COMM_ULFM_H

#include "comm/comm.h"

#include <stdint.h>

/* The outcome of an agreement, kept to answer ranks that ask late. */
typedef struct {
    uint32_t seq;
    int valid, vwords;
    uint64_t *failed, *val;
} ucmpi_ulfm_decision_t;

#define UCMPI_ULFM_KEEP 8     /* decisions kept per comm */

typedef struct {
    int *rank_of;             /* world rank -> comm rank, -1: not a member */
    int *failed;              /* comm ranks that failed, detection order */
    int nfailed;
    int scanned;              /* global failures looked at (failure.h) */
    int nacked;               /* the first nacked of failed[] acknowledged */
    int words;                /* uint64_t words of a comm-rank bitmap */
    uint32_t agree_seq;       /* agreements started here */
    uint32_t shrink_seq;      /* shrinks started here */
    ucmpi_ulfm_decision_t done[UCMPI_ULFM_KEEP];
} ucmpi_ulfm_t;

/* c's state, made on first use (NULL when out of memory); brings the
 * failed list up to date. */
ucmpi_ulfm_t *ucmpi_ulfm_state(ucmpi_comm_t *c);
/* The checks every MPIX_ call makes on its comm (intracomms only, so far). */
int ucmpi_ulfm_check_comm(MPI_Comm comm, const char *fn);
/* Live communicator of context id ctx and stamp (revoke and agreement
 * messages name theirs), or NULL. */
ucmpi_comm_t *ucmpi_ulfm_comm_of(uint32_t ctx, uint64_t stamp);
/* Comm rank r of c is known failed. */
int ucmpi_ulfm_rank_failed(ucmpi_comm_t *c, int r);
/* Marks c revoked (pending operations fail from their waiting loops). */
void ucmpi_ulfm_mark_revoked(ucmpi_comm_t *c);
/* A revoke notice for (ctx, stamp) that came before the comm was built here. */
int ucmpi_ulfm_revoke_pending(uint32_t ctx, uint64_t stamp);

/* Agreement (ulfm_agree.c): the AND of val[vwords] over the survivors and
 * the set of failed comm ranks (a bitmap of ucmpi_ulfm_t.words words), the
 * same on every survivor.  vwords must be the same on all. */
typedef struct ucmpi_ulfm_agree ucmpi_ulfm_agree_t;
ucmpi_ulfm_agree_t *ucmpi_ulfm_agree_start(ucmpi_comm_t *c,
                                           const uint64_t *val, int vwords);
/* One step: 1 once decided (then val and failed hold the outcome; either
 * may be NULL). */
int ucmpi_ulfm_agree_test(ucmpi_ulfm_agree_t *a, uint64_t *val,
                          uint64_t *failed);
/* Steps (and progresses) until decided. */
int ucmpi_ulfm_agree_wait(ucmpi_ulfm_agree_t *a, uint64_t *val,
                          uint64_t *failed);
void ucmpi_ulfm_agree_free(ucmpi_ulfm_agree_t *a);
/* A message of an agreement arrived (active message handler). */
void ucmpi_ulfm_agree_arrived(const void *data, size_t len);

/* The active-message format shared by revoke and agreement. */
typedef struct {
    uint32_t ctx, kind;
    uint64_t stamp;
    uint32_t seq;
    int32_t src, flag;        /* flag: agreements' value words */
    uint64_t failed[];        /* agreements: failed set, then the value */
} ucmpi_ulfm_wire_t;
enum { ULFM_REVOKE = 1, ULFM_CONTRIB = 2, ULFM_DECIDE = 3 };

#endif
