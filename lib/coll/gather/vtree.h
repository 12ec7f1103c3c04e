/* Binomial trees for gatherv and scatterv.  Only the root knows every
 * count; an inner node of the tree learns the byte sizes of its subtree
 * while the schedule runs (gatherv: from its children, scatterv: from its
 * parent) as an array of one MPI_Count per subtree member, lays out its
 * buffer in a run-time step (ucmpi_sched_call) and moves the data with
 * run-time sized sends and receives (ucmpi_sched_*_dyn).
 *
 * Members are numbered relative to the root (position p = rank - root mod
 * n); the subtree of p is [p, p + sub(p)); its children are p + m for
 * m = 1, 2, 4, ... < sub(p).  Over every tree edge travel the child's own
 * block (straight between user buffers where possible) and, for inner
 * children, the packed blocks of the rest of its subtree in position
 * order ("rest"). */
#ifndef UCMPI_COLL_VTREE_H
#define UCMPI_COLL_VTREE_H

#include "coll/xfer.h"

typedef struct {
    int pos, cnt;             /* child position (relative), subtree size */
    void *own, *rest;         /* run time: where its blocks sit in buf */
    MPI_Count own_len, rest_len;
} ucmpi_vtree_child_t;

typedef struct {
    ucmpi_sched_t *s;
    int n, root, pos, sub;    /* my position and subtree size */
    int parent;               /* its rank (not at the root) */
    MPI_Count *bytes;         /* [sub]: block bytes by position - pos */
    int nchild;
    ucmpi_vtree_child_t *child;
    void *buf;                /* run time: rest of my subtree (pos+1..) */
    MPI_Count buf_len;
    size_t cap;
} ucmpi_vtree_t;

/* Tree shape and state for this rank (scratch of s); NULL: no memory. */
ucmpi_vtree_t *ucmpi_vtree_new(ucmpi_sched_t *s, int n, int root, int rank);
/* Comm rank of relative position p. */
static inline int ucmpi_vtree_rank(const ucmpi_vtree_t *t, int p)
{
    return (p + t->root) % t->n;
}
/* At the root: bytes[] of every position from the block list b, and
 * scratch for the rests (positions 1..n-1); NULL: no memory. */
char *ucmpi_vtree_root_init(ucmpi_vtree_t *t, const ucmpi_xblk_t *b);
/* Run-time step: lays out buf from t->bytes (a ucmpi_sched_call fn). */
int ucmpi_vtree_layout(void *t);
/* Sum of bytes[a..b). */
MPI_Count ucmpi_vtree_sum(const ucmpi_vtree_t *t, int a, int b);

int ucmpi_gatherv_binomial(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);
int ucmpi_scatterv_binomial(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);

#endif
