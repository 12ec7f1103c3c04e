/* The check machinery's state of a schedule (s->chk), allocated when first
 * needed so correct runs never pay for it.  Private to lib/coll/check. */
#ifndef UCMPI_COLL_SCHED_CHK_H
#define UCMPI_COLL_SCHED_CHK_H

#include "coll/sched_impl.h"

struct ucmpi_sched_chk {
    char *why;                /* a user's request's abort: why (malloc'd) */
    int doomed;               /* a persistent s that aborted: its error */
    ucmpi_sched_t *gate;      /* runs first, must pass (coll_check.h) */
    uint8_t is_gate;          /* s is some schedule's gate */
    struct {                  /* this run's; zeroed at each start */
        uint8_t aborted;      /* the run found the ranks disagree */
        int fin_seen;         /* a peer it waits for is in MPI_Finalize */
        int left_seen;        /* stall checks that saw a peer ahead */
        int wait_told;        /* its peers know it stalled */
        unsigned stall_checks;    /* (answer_behind) */
        unsigned stall_fp;    /* stall probe: progress seen at stall_t0 */
        double stall_t0;
        double held_until;    /* aborted: wait for held sends until then */
    } run;
};

/* s->chk, allocated zeroed if need be; NULL when out of memory. */
ucmpi_sched_chk_t *ucmpi_sched_chk(ucmpi_sched_t *s);

/* Signing a new schedule by its collective (sched_sig.c). */
void ucmpi_sched_sign_new(ucmpi_sched_t *s);

/* The reason a blocking caller's run aborted (ucmpi_sched_abort_why). */
#define UCMPI_SCHED_WHY_LEN 256
void ucmpi_sched_tell_why(const char *why);

/* UCMPI_COLL_CHECK gates: s takes its comm's pending one, a run launches it,
 * held is 1 while it runs (then 0, failure taken over), drop frees it. */
void ucmpi_sched_gate_take(ucmpi_sched_t *s);
void ucmpi_sched_gate_launch(ucmpi_sched_t *s);
int ucmpi_sched_gate_held(ucmpi_sched_t *s);
void ucmpi_sched_gate_drop(ucmpi_sched_t *s);

#endif
