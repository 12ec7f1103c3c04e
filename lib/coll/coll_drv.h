/*
 * The collective driver.  Every MPI collective entry point (blocking,
 * nonblocking, persistent; int and _c forms) fills one ucmpi_coll_args_t
 * and calls ucmpi_coll_call() with its collective's descriptor and the
 * mode.  The driver names the call (core/call.h), validates the
 * communicator and request, runs the optional argument check
 * (UCMPI_COLL_CHECK, registered through ucmpi_coll_check_register) and
 * hands the arguments to the collective's `start`: its own argument
 * checks, the shared-memory path, selection from its algorithm table,
 * then the schedule (built, or reused from the cache) run per mode.
 */
#ifndef UCMPI_COLL_DRV_H
#define UCMPI_COLL_DRV_H

#include "core/call.h"
#include "p2p/request.h"
#include "datatype/datatype.h"
#include "coll/op.h"
#include "coll/check/coll_check.h"
#include "coll/coll_util.h"

/* One peer's piece of a message: count elements of dt at buf. */
typedef struct {
    char *buf;
    MPI_Count count;
    MPI_Datatype dt;
} ucmpi_xblk_t;

static inline size_t ucmpi_xblk_bytes(const ucmpi_xblk_t *b)
{
    return (size_t)b->count * (size_t)b->dt->size;
}

/* A collective call's arguments, as the user gave them and as the
 * algorithms see them.  Uniform forms fill sbuf/scount/sdt and
 * rbuf/rcount/rdt (one-buffer collectives: rbuf, rcount, rdt); v/w forms
 * the arrays (int forms) or their _c counterparts (large-count forms),
 * which the data-movement tail turns into the per-peer block lists.
 * Entry points zero-fill it, except those of ucmpi_coll_args_basic. */
typedef struct {
    ucmpi_comm_t *comm;
    int mode;                 /* UCMPI_COLL_BLOCKING/NONBLOCKING/PERSISTENT */
    MPI_Request *req;         /* the user's request (not blocking) */
    int rank, size;           /* local rank, local group size */
    int root;                 /* rooted collectives */
    MPI_Op op;                /* reductions */
    const void *sbuf;         /* MPI_IN_PLACE allowed where the MPI call does */
    MPI_Count scount;
    MPI_Datatype sdt;
    void *rbuf;
    MPI_Count rcount;
    MPI_Datatype rdt;
    const int *scounts, *sdispls, *rcounts, *rdispls;
    const MPI_Datatype *sdts, *rdts;
    const MPI_Aint *sadispls, *radispls; /* neighbor_alltoallw's bytes */
    int nsblk, nrblk;         /* entries of the arrays */
    const MPI_Count *scounts_c, *rcounts_c;
    const MPI_Aint *sdispls_c, *rdispls_c;
    ucmpi_xblk_t *sblk;       /* per-peer send pieces (NULL: uniform) */
    ucmpi_xblk_t *rblk;       /* per-peer receive pieces (NULL: uniform) */
    /* neighbor collectives: the topology's peers */
    int indeg, outdeg;
    const int *srcs, *dsts;
    int cart;                 /* cartesian: see neighbor_exchange.c */
} ucmpi_coll_args_t;

/* The arguments of a one-buffer or reduction collective (bcast, reduce,
 * allreduce, barrier), whose check, record and start functions read only
 * these and the driver's fields (mode, req, rank, size); the rest of *a
 * stays unset: zero-filling the whole struct (a rep stos) measurably slowed
 * the smallest shm collectives (docs/tuning.md). */
static inline void ucmpi_coll_args_basic(ucmpi_coll_args_t *a, MPI_Comm comm,
                                         const void *sbuf, void *rbuf,
                                         MPI_Count count, MPI_Datatype dt,
                                         MPI_Op op, int root)
{
    a->comm = comm;
    a->sbuf = sbuf;
    a->rbuf = rbuf;
    a->scount = a->rcount = count;
    a->sdt = a->rdt = dt;
    a->op = op;
    a->root = root;
    a->sblk = a->rblk = NULL;
}

/* A collective, described once. */
typedef struct {
    /* Checks that must pass before the arguments mean anything to the
     * other ranks (NULL: none); the rest are start's. */
    int (*check)(const ucmpi_coll_args_t *a);
    /* What UCMPI_COLL_CHECK compares across ranks (NULL: not checked). */
    void (*record)(const ucmpi_coll_args_t *a, ucmpi_coll_check_args_t *r);
    /* The collective's own checks, shm path, selection, build and run;
     * comm is valid and the request pointer checked. */
    int (*start)(ucmpi_coll_args_t *a);
} ucmpi_coll_desc_t;

/* The optional argument-check module (coll_check.c) plugs in here. */
typedef struct {
    const int *state;         /* 0: off, else call begin (< 0: unknown) */
    int (*begin)(ucmpi_comm_t *comm, int mode,
                 const ucmpi_coll_check_args_t *a);
    void (*end)(ucmpi_comm_t *comm);
} ucmpi_coll_check_hook_t;
void ucmpi_coll_check_register(const ucmpi_coll_check_hook_t *h);


/* The registered hook (NULL: the module is not linked in). */
extern const ucmpi_coll_check_hook_t *ucmpi_coll_check_hook;

/* The driver's UCMPI_COLL_CHECK path (coll_drv.c). */
int ucmpi_coll_call_checked(const ucmpi_coll_desc_t *d, ucmpi_coll_args_t *a,
                            const ucmpi_coll_check_hook_t *h,
                            const char *name);

/* Runs the call `name` (a static string) of collective d with *a in
 * mode; req is the user's request for the nonblocking and persistent
 * modes.  Errors go through the communicator's handler.  Inline, so
 * that each entry point calls its own (static const) descriptor's check
 * and start directly: out of line, its frame, indirect calls and reloads
 * cost the smallest collectives measurably (docs/tuning.md). */
static inline __attribute__((always_inline)) int
ucmpi_coll_call(const ucmpi_coll_desc_t *d, ucmpi_coll_args_t *a, int mode,
                MPI_Request *req, const char *name)
{
    const char *outer = ucmpi_call_enter(name);
    const ucmpi_coll_check_hook_t *h = ucmpi_coll_check_hook;
    ucmpi_comm_t *comm = a->comm;
    int rc = ucmpi_coll_check_comm(comm);

    if (rc == MPI_SUCCESS) {
        a->mode = mode;
        a->req = req;
        a->rank = comm->rank;
        a->size = comm->size;
        if (d->check != NULL)
            rc = d->check(a);
    }
    if (rc == MPI_SUCCESS) {
        if (__builtin_expect(h != NULL && *h->state != 0, 0) &&
            d->record != NULL)
            rc = ucmpi_coll_call_checked(d, a, h, name);
        else if ((rc = ucmpi_coll_check_req(comm, mode, req)) ==
                 MPI_SUCCESS)
            rc = d->start(a);
    }
    ucmpi_call_leave(outer);
    return rc;
}

/* An entry point of a collective of ucmpi_coll_args_basic: fills *a and
 * calls the driver. */
static inline __attribute__((always_inline)) int
ucmpi_coll_call_basic(const ucmpi_coll_desc_t *d, MPI_Comm comm,
                      const void *sbuf, void *rbuf, MPI_Count count,
                      MPI_Datatype dt, MPI_Op op, int root, int mode,
                      MPI_Request *req, const char *name)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, sbuf, rbuf, count, dt, op, root);
    return ucmpi_coll_call(d, &a, mode, req, name);
}

/* Entry points of a basic collective, as UCMPI_XFER_FORMS (xfer.h) for
 * the others: UCMPI_COLL_BASIC_FORMS(Stem, stem, sfx, desc, (params),
 * args) defines PMPI_<Stem><sfx>, PMPI_I<stem><sfx> and
 * PMPI_<Stem>_init<sfx> with their MPI_ aliases; params is the blocking
 * form's parameter list, args ucmpi_coll_call_basic's from comm to root. */
#define UCMPI_COLL_STR(x) #x
#define UCMPI_COLL_LIST(...) __VA_ARGS__
#define UCMPI_COLL_BASIC_FORM(f, desc, mode, req, params, ...)              \
    _Pragma(UCMPI_COLL_STR(weak MPI_##f = PMPI_##f))                         \
    int PMPI_##f params                                                      \
    {                                                                        \
        return ucmpi_coll_call_basic(&desc, __VA_ARGS__, mode, req,          \
                                     "MPI_" #f);                             \
    }
#define UCMPI_COLL_BASIC_FORMS(Stem, stem, sfx, desc, params, ...)           \
    UCMPI_COLL_BASIC_FORM(Stem##sfx, desc, UCMPI_COLL_BLOCKING, NULL,        \
                          params, __VA_ARGS__)                               \
    UCMPI_COLL_BASIC_FORM(I##stem##sfx, desc, UCMPI_COLL_NONBLOCKING,        \
                          request,                                           \
                          (UCMPI_COLL_LIST params, MPI_Request *request),    \
                          __VA_ARGS__)                                       \
    UCMPI_COLL_BASIC_FORM(Stem##_init##sfx, desc, UCMPI_COLL_PERSISTENT,     \
                          request, (UCMPI_COLL_LIST params, MPI_Info info,   \
                                    MPI_Request *request), __VA_ARGS__)

#endif
