/*
 * An in-process stand-in for the core services the collectives use
 * (requests, progress, tag-matched p2p, a few datatypes and ops), so that
 * unit tests can run the real schedule builders and engine for n
 * simulated ranks in one process.  Sends complete only once matched
 * (rendezvous semantics), so schedules that rely on eager sends deadlock
 * here instead of passing by luck.
 */
#ifndef COLL_MOCK_H
#define COLL_MOCK_H

#include "p2p/request.h"
#include "coll/op.h"

#define MOCK_MAX_RANKS 16

/* comms[r] is rank r of a simulated intracommunicator of size n; node_of
 * (may be NULL: one node) gives the node of every rank. */
void mock_setup(int n, const int *node_of);
extern ucmpi_comm_t *mock_comms[MOCK_MAX_RANKS];

/* Progresses until every request in reqs[0..n) is complete; returns 0, or
 * -1 on deadlock (no progress possible). */
int mock_wait_all(ucmpi_request_t **reqs, int n);
/* Messages still unmatched (must be 0 after every collective). */
int mock_pending_messages(void);
/* Errors reported through ucmpi_error since setup. */
extern int mock_errors;
/* A persistent request's MPI_Start. */
int mock_start(ucmpi_request_t *req);

/* The non-commutative test op on MPI_2INT (affine maps mod 10007,
 * composed in rank order) and its element-wise reference. */
extern MPI_Op mock_op_affine;
void mock_affine(const int *in, int *inout, int n);

#endif
