/*
 * The MPI call a thread is in.  An entry point names itself once
 * (ucmpi_call_enter); the functions below it read the name for their
 * error messages instead of taking it as a parameter.  Thread-local
 * (MPI_THREAD_MULTIPLE).  A nonblocking request copies the name when it
 * is created, so a failure reported at MPI_Wait names the call that
 * started it.
 */
#ifndef UCMPI_CORE_CALL_H
#define UCMPI_CORE_CALL_H

#include <stddef.h>

typedef struct {
    const char *name;         /* "MPI_Allreduce": a static string */
} ucmpi_call_t;

/* initial-exec: one %fs-relative access, no __tls_get_addr call */
extern _Thread_local ucmpi_call_t ucmpi_call_ctx
    __attribute__((tls_model("initial-exec"), visibility("hidden")));

/* Entry point `name` begins; returns the name of the call it is nested in
 * (an MPI function that calls another through PMPI_), for
 * ucmpi_call_leave. */
static inline const char *ucmpi_call_enter(const char *name)
{
    const char *outer = ucmpi_call_ctx.name;

    ucmpi_call_ctx.name = name;
    return outer;
}

static inline void ucmpi_call_leave(const char *outer)
{
    ucmpi_call_ctx.name = outer;
}

/* The current call's name, for messages ("MPI" outside any call). */
static inline const char *ucmpi_call_name(void)
{
    return ucmpi_call_ctx.name != NULL ? ucmpi_call_ctx.name : "MPI";
}

#endif
