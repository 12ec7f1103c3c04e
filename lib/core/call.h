/* The MPI call a thread is in, named once per entry point for the errors below
 * it; a nonblocking request copies it, so MPI_Wait names the starting call. */
#ifndef UCMPI_CORE_CALL_H
#define UCMPI_CORE_CALL_H

#include <stddef.h>

#define UCMPI_CALL_DEPTH 8

typedef struct {
    const char *name;         /* "MPI_Allreduce": a static string */
    unsigned depth;           /* scopes open (ucmpi_call_open) */
    const char *outer[UCMPI_CALL_DEPTH];   /* their outer calls' names */
} ucmpi_call_t;

/* initial-exec: one %fs-relative access, no __tls_get_addr call */
extern _Thread_local ucmpi_call_t ucmpi_call_ctx
    __attribute__((tls_model("initial-exec"), visibility("hidden")));

/* Entry point `name` begins; returns the name of the call it is nested in
 * (an MPI function calling another through PMPI_), for ucmpi_call_leave. */
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

/* Names the entry point until it returns on every path (nesting stacks):
 *     UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_X"); */
static inline const char *ucmpi_call_open(const char *name)
{
    unsigned d = ucmpi_call_ctx.depth++;

    if (d < UCMPI_CALL_DEPTH)
        ucmpi_call_ctx.outer[d] = ucmpi_call_ctx.name;
    return ucmpi_call_ctx.name = name;
}

static inline void ucmpi_call_close(const char *const *fn)
{
    unsigned d = --ucmpi_call_ctx.depth;

    (void)fn;
    if (d < UCMPI_CALL_DEPTH)
        ucmpi_call_ctx.name = ucmpi_call_ctx.outer[d];
}
#define UCMPI_CALL_SCOPE __attribute__((cleanup(ucmpi_call_close)))

/* The current call's name, for messages ("MPI" outside any call). */
static inline const char *ucmpi_call_name(void)
{
    return ucmpi_call_ctx.name != NULL ? ucmpi_call_ctx.name : "MPI";
}

#endif
