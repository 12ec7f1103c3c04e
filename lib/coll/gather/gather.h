/* Gather and scatter algorithms (schedule builders): each shape is one
 * implementation with a direction (gather: the blocks flow to the root). */
#ifndef UCMPI_COLL_GATHER_H
#define UCMPI_COLL_GATHER_H

#include "coll/xfer.h"

/* The root receives from (sends to) every rank in one round; v forms
 * (a->rblk, a->sblk) and intercommunicators too. */
int ucmpi_gather_linear(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);
int ucmpi_scatter_linear(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);
/* Binomial tree relative to the root; a subtree's blocks travel packed in
 * one message.  Intracommunicator, uniform counts. */
int ucmpi_gather_binomial(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);
int ucmpi_scatter_binomial(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);
/* The v forms' binomial trees (below). */
int ucmpi_gatherv_binomial(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);
int ucmpi_scatterv_binomial(ucmpi_sched_t *s, const ucmpi_coll_args_t *a);

/* Sends block b to peer, or (exact: a short message is an error) receives
 * it from peer. */
static inline int ucmpi_xblk_move(ucmpi_sched_t *s, const ucmpi_xblk_t *b,
                                  int send, int peer)
{
    return send ? ucmpi_sched_send(s, b->buf, b->count, b->dt, peer)
                : ucmpi_sched_recv_exact(s, b->buf, b->count, b->dt, peer);
}

/* The v forms' binomial trees learn subtree bytes at run time; p's subtree is
 * [p, p + sub), children p + 1, 2, 4...; an edge: own block + "rest". */
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

#endif
