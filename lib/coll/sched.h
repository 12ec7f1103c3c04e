/*
 * Collective schedules: an algorithm adds send, receive, reduce and copy
 * steps; ucmpi_sched_fence() separates rounds (a step starts only after
 * every step of the previous rounds completed).  One engine runs every
 * schedule: blocking = build + start + wait, nonblocking = build + start,
 * persistent = build once, start many times.
 */
#ifndef UCMPI_COLL_SCHED_H
#define UCMPI_COLL_SCHED_H

#include "ucmpi.h"

typedef struct ucmpi_sched ucmpi_sched_t;

/* A schedule over comm's collective context.  Takes the next collective
 * sequence number of comm, which all members take in the same order. */
ucmpi_sched_t *ucmpi_sched_create(ucmpi_comm_t *comm);

/* Steps.  Ranks are comm ranks (remote group for intercomms). */
int ucmpi_sched_send(ucmpi_sched_t *s, const void *buf, MPI_Count count,
                     MPI_Datatype dt, int peer);
int ucmpi_sched_recv(ucmpi_sched_t *s, void *buf, MPI_Count count,
                     MPI_Datatype dt, int peer);
/* inout[i] = in[i] op inout[i] (in is the left operand: rank order). */
int ucmpi_sched_reduce(ucmpi_sched_t *s, const void *in, void *inout,
                       MPI_Count count, MPI_Datatype dt, MPI_Op op);
int ucmpi_sched_copy(ucmpi_sched_t *s, const void *src, MPI_Count scount,
                     MPI_Datatype sdt, void *dst, MPI_Count rcount,
                     MPI_Datatype rdt);
/* Round boundary. */
int ucmpi_sched_fence(ucmpi_sched_t *s);
/* Scratch memory released with the schedule. */
void *ucmpi_sched_alloc(ucmpi_sched_t *s, size_t bytes);

/* Run: returns a request completed when the schedule is done.  persistent=1
 * keeps the schedule for further ucmpi_sched_restart() calls (MPI_Start). */
int ucmpi_sched_start(ucmpi_sched_t *s, int persistent,
                      ucmpi_request_t **req);
/* Build + start + wait. */
int ucmpi_sched_run_blocking(ucmpi_sched_t *s);
void ucmpi_sched_free(ucmpi_sched_t *s);

#endif
