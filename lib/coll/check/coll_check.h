/*
 * The collective argument check (UCMPI_COLL_CHECK=1, a debugging mode):
 * before an intracommunicator collective runs, its ranks exchange a small
 * record of their arguments (which collective, root, op, and for every
 * peer the bytes and type signature it sends that peer and expects from
 * it), each rank judges what it received, and the ranks exchange their
 * verdicts, so that every rank takes the same decision: run, or fail the
 * call with one error class and one message (no data moved).  Mismatches
 * the default mode cannot see (an op or root that differs, two
 * collectives whose 8-bit tag signatures collide, MPI_INT against
 * MPI_FLOAT, v-form counts) then fail on every rank.
 *
 * The exchange is a schedule of its own (signed "Coll_check", one
 * collective sequence number before the call's): a blocking call runs it
 * to completion first; a nonblocking or persistent one gates its
 * schedule on it (ucmpi_sched_gate: nothing is posted until the check
 * passed, re-run at each MPI_Start), so the call stays nonblocking.
 * Intercommunicator and neighbor collectives are not checked.
 *
 * The module plugs into the collective driver through its check hook
 * (coll_drv.h); with the knob at 0 a call pays one predictable branch.
 */
#ifndef UCMPI_COLL_CHECK_H
#define UCMPI_COLL_CHECK_H

#include "datatype/datatype.h"
#include "coll/op.h"

/* Which ranks have a flow of data (coll_check_flow_t.who). */
enum { UCMPI_CCK_ANY, UCMPI_CCK_ROOT, UCMPI_CCK_NONROOT };

/* What this rank sends to (or receives from) its peers, as its arguments
 * say: count elements of dt per peer, or counts[peer] (int or MPI_Count
 * array), or counts[own rank] for every peer (self_index: reduce_scatter,
 * allgatherv in place); dts[peer] for alltoallw. */
typedef struct {
    unsigned char who;        /* ranks that have this flow (UCMPI_CCK_*) */
    unsigned char to_root;    /* its only peer is the root */
    unsigned char self_index;
    unsigned char vec;        /* counts or ccounts is needed (v forms) */
    MPI_Count count;
    const int *counts;
    const MPI_Count *ccounts;
    MPI_Datatype dt;
    const MPI_Datatype *dts;
} ucmpi_coll_check_flow_t;

/* A collective call's arguments, as the check compares them. */
typedef struct {
    int rooted;               /* a rooted collective (root is its root) */
    int root;
    int has_op;
    MPI_Op op;
    MPI_Datatype op_dt;       /* the type op is applied to */
    ucmpi_coll_check_flow_t send, recv;
} ucmpi_coll_check_args_t;

/* -1 until the knob is read (the first collective), then 0 or 1. */
extern int ucmpi_coll_check_state;

#endif
