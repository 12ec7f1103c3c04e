/* The collective driver: an entry point fills ucmpi_coll_args_t; the driver
 * checks comm and request, runs UCMPI_COLL_CHECK, then the `start`. */
#ifndef UCMPI_COLL_DRV_H
#define UCMPI_COLL_DRV_H

#include "core/call.h"
#include "p2p/request.h"
#include "datatype/datatype.h"
#include "coll/op.h"
#include "coll/check/coll_check.h"
#include "coll/coll_util.h"
#include "coll/coll_stats.h"

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

/* A call's arguments (uniform: buf/count/dt; v/w: the arrays, turned into
 * per-peer blocks).  Zero-filled, except by ucmpi_coll_call_basic. */
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

/* A collective, described once. */
typedef struct {
    /* checks that must pass before the arguments mean anything to the
     * other ranks (NULL: none) */
    int (*check)(const ucmpi_coll_args_t *a);
    /* What UCMPI_COLL_CHECK compares across ranks (NULL: not checked). */
    void (*record)(const ucmpi_coll_args_t *a, ucmpi_coll_check_args_t *r);
    /* the rest: own checks, shm path, selection, build and run */
    int (*start)(ucmpi_coll_args_t *a);
} ucmpi_coll_desc_t;

/* While MPI_T or the profile counts: a call's start(a), then its count
 * (coll_stats.c). */
int ucmpi_coll_start_counted(int (*start)(ucmpi_coll_args_t *a),
                             ucmpi_coll_args_t *a);

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

/* Runs call `name` (static) of d; inline, so each entry point calls its own
 * descriptor's functions directly (docs/tuning.md). */
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
            rc = __builtin_expect(ucmpi_coll_stats.on, 0)
                     ? ucmpi_coll_start_counted(d->start, a)
                     : d->start(a);
    }
    ucmpi_call_leave(outer);
    return rc;
}

/* bcast, reduce, allreduce, barrier: only these fields are set, since
 * zero-filling the struct slowed the smallest shm calls (docs/tuning.md). */
static inline __attribute__((always_inline)) int
ucmpi_coll_call_basic(const ucmpi_coll_desc_t *d, MPI_Comm comm,
                      const void *sbuf, void *rbuf, MPI_Count count,
                      MPI_Datatype dt, MPI_Op op, int root, int mode,
                      MPI_Request *req, const char *name)
{
    ucmpi_coll_args_t a;

    a.comm = comm;
    a.sbuf = sbuf;
    a.rbuf = rbuf;
    a.scount = a.rcount = count;
    a.sdt = a.rdt = dt;
    a.op = op;
    a.root = root;
    a.sblk = a.rblk = NULL;
    return ucmpi_coll_call(d, &a, mode, req, name);
}

/* A basic collective's forms, as UCMPI_XFER_FORMS (xfer.h); args are
 * ucmpi_coll_call_basic's from comm to root. */
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
