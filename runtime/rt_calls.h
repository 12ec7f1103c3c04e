/*
 * Which MPI call a rank is blocked in, for mpiexec's --timeout report.
 * mpiexec creates one 64-byte slot per rank in a file of the job's private
 * directory (path in $UCMPI_CALL_SLOTS); each rank maps its own slot at
 * start-up, else it writes to a private one.  Cost on the fast path: MPI
 * entry points store their name pointer (ucmpi_rt_enter, one store); a
 * waiting loop that finds nothing to do publishes it (a copy only when the
 * call changed) and ends with ucmpi_rt_wait_done (one store).  No system
 * call anywhere.  The library knows the MPI names, the runtime only copies
 * strings.
 */
#ifndef UCMPI_RT_CALLS_H
#define UCMPI_RT_CALLS_H

#include <stdint.h>

#define UCMPI_RT_CALLS_ENV "UCMPI_CALL_SLOTS"

typedef struct {
    volatile uint32_t waiting;   /* 1: blocked inside the call named below */
    volatile uint32_t seq;       /* odd while `call` is rewritten */
    char call[56];               /* NUL-terminated */
} ucmpi_rt_slot_t;

_Static_assert(sizeof(ucmpi_rt_slot_t) == 64, "one cache line per rank");

/* (hidden: every blocking call stores to both, without the GOT) */
extern ucmpi_rt_slot_t *ucmpi_rt_slot __attribute__((visibility("hidden")));   /* never NULL */
extern const char *ucmpi_rt_call __attribute__((visibility("hidden")));        /* last entry point called */

/* Maps this rank's slot if the launcher made them (called by
 * ucmpi_rt_init; failures are silent: the report then lacks this rank). */
void ucmpi_rt_calls_map(int rank);
void ucmpi_rt_calls_unmap(void);
/* Slow path of ucmpi_rt_waiting: copies the name, marks waiting. */
void ucmpi_rt_calls_publish(void);

/* An MPI entry point (name: a string literal or other static string).
 * Also ends any wait whose loop forgot ucmpi_rt_wait_done. */
static inline void ucmpi_rt_enter(const char *fn)
{
    __atomic_store_n(&ucmpi_rt_call, fn, __ATOMIC_RELAXED);
    __atomic_store_n(&ucmpi_rt_slot->waiting, 0, __ATOMIC_RELAXED);
}

/* A waiting loop found nothing to do. */
static inline void ucmpi_rt_waiting(void)
{
    if (!ucmpi_rt_slot->waiting)
        ucmpi_rt_calls_publish();
}

/* A waiting loop ended. */
static inline void ucmpi_rt_wait_done(void)
{
    __atomic_store_n(&ucmpi_rt_slot->waiting, 0, __ATOMIC_RELAXED);
}

#endif /* UCMPI_RT_CALLS_H */
