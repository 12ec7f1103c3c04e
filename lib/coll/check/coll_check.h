/* UCMPI_COLL_CHECK=1 (debugging): ranks exchange argument records, then
 * verdicts, so all run or fail alike (docs/architecture.md, the check). */
#ifndef UCMPI_COLL_CHECK_H
#define UCMPI_COLL_CHECK_H

#include "datatype/datatype.h"
#include "coll/op.h"

/* Which ranks have a flow of data (coll_check_flow_t.who). */
enum { UCMPI_CCK_ANY, UCMPI_CCK_ROOT, UCMPI_CCK_NONROOT };

/* What this rank sends to (receives from) each peer: count x dt, counts[peer]
 * or counts[own rank] (self_index); dts[peer] for alltoallw. */
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
