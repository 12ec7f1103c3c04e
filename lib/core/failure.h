/* Failed and finalizing peers (lib/core/failure.c). */
#ifndef UCMPI_CORE_FAILURE_H
#define UCMPI_CORE_FAILURE_H

#include "core/base.h"

/* World rank r is known to have failed (declaring it when found so now). */
int ucmpi_peer_failed(int r);
/* The one place a failure becomes known (PMIx termination events, UCX peer
 * errors, a peer's pid gone): records world rank r as failed, in detection
 * order, and runs UCMPI_HOOK_PEER_FAILED.  Any thread; idempotent. */
void ucmpi_failure_declare(int r);
/* Failures declared so far, and the i-th in detection order (world rank). */
int ucmpi_failure_count(void);
int ucmpi_failure_nth(int i);
/* Fault tolerance of communicators (ULFM, lib/comm/ulfm*.c): the error a
 * waiting loop's operation on comm must end with now (MPI_ERR_REVOKED on a
 * revoked comm; MPI_ERR_PROC_FAILED_PENDING for an MPI_ANY_SOURCE receive
 * while a failure in comm is not acknowledged), else 0.  Slow paths only. */
struct ucmpi_comm_s;
int ucmpi_failure_comm_check(struct ucmpi_comm_s *comm, int any_source);
/* Test-style calls (MPI_Test*, MPI_Iprobe, MPI_Request_get_status) that find
 * nothing check their requests every UCMPI_FAILURE_POLL_EVERY misses, and at
 * the next miss after a failure or a revoke (ucmpi_failure_poke): a countdown
 * of plain loads and stores, the only cost without failures (a lost update
 * between threads only delays a check). */
#define UCMPI_FAILURE_POLL_EVERY 1024
extern int ucmpi_failure_poll_left __attribute__((visibility("hidden")));
static inline int ucmpi_failure_poll_due(void)
{
    /* signed: two threads racing past 0 cannot leave it huge */
    int n = __atomic_load_n(&ucmpi_failure_poll_left, __ATOMIC_RELAXED) - 1;

    __atomic_store_n(&ucmpi_failure_poll_left, n, __ATOMIC_RELAXED);
    if (__builtin_expect(n > 0, 1))
        return 0;
    __atomic_store_n(&ucmpi_failure_poll_left, UCMPI_FAILURE_POLL_EVERY,
                     __ATOMIC_RELAXED);
    return 1;
}
/* Something test-style calls should see happened (a revoke). */
void ucmpi_failure_poke(void);
void ucmpi_failure_set_comm_check(int (*fn)(struct ucmpi_comm_s *, int));
/* Another job's process at world rank r (>= world_size) has pid `pid`
 * (on this node: its death is then seen as the job's). */
void ucmpi_peer_set_pid(int r, int pid);
/* Another job's world rank r is no longer used (lib/comm/dpm_procs.c):
 * its pid and finalize state are forgotten.  1 if it was declared failed
 * (the failure order keeps it: r must never name another process). */
int ucmpi_peer_forget(int r);
/* World rank r's pid when known (this node), else 0. */
int ucmpi_peer_pid(int r);
/* World rank r is known to be in MPI_Finalize (asked by stalled waiting loops:
 * the first call for r sends the question; slow paths only). */
int ucmpi_peer_finalized(int r);
/* MPI_Finalize: the job's barrier, answering those questions from its
 * start (0, or -1 when a peer failed); stop answering (end). */
int ucmpi_fin_barrier(void);
void ucmpi_fin_end(void);
/* After the last fence (every process flushed its endpoints): drops the
 * answers that came after this process's barrier. */
void ucmpi_fin_drop(void);

#endif
