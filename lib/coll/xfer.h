/* Data-movement collectives (gather, scatter, allgather, alltoall, neighbor):
 * forms, rooted selection, checks, failed-rank paths, the schedule tail. */
#ifndef UCMPI_COLL_XFER_H
#define UCMPI_COLL_XFER_H

#include "p2p/request.h"
#include "datatype/datatype.h"
#include "coll/sched.h"
#include "coll/coll_util.h"
#include "coll/alias.h"
#include "coll/coll_drv.h"
#include "coll/coll_alg.h"
#include "coll/shm/shm.h"

/* PMPI_/MPI_ <Stem><sfx>, I<stem><sfx>, <Stem>_init<sfx>: params are the
 * blocking form's, the rest fills the ucmpi_coll_args_t handed to desc. */
#define UCMPI_XFER_STR(x) #x
#define UCMPI_XFER_LIST(...) __VA_ARGS__
#define UCMPI_XFER_FORM(f, desc, mode, req, params, ...)                    \
    _Pragma(UCMPI_XFER_STR(weak MPI_##f = PMPI_##f))                         \
    int PMPI_##f params                                                      \
    {                                                                        \
        ucmpi_coll_args_t a = {__VA_ARGS__};                                 \
        return ucmpi_coll_call(&desc, &a, mode, req, "MPI_" #f);             \
    }
#define UCMPI_XFER_FORMS(Stem, stem, sfx, desc, params, ...)                 \
    UCMPI_XFER_FORM(Stem##sfx, desc, UCMPI_COLL_BLOCKING, NULL, params,      \
                    __VA_ARGS__)                                             \
    UCMPI_XFER_FORM(I##stem##sfx, desc, UCMPI_COLL_NONBLOCKING, request,     \
                    (UCMPI_XFER_LIST params, MPI_Request *request),          \
                    __VA_ARGS__)                                             \
    UCMPI_XFER_FORM(Stem##_init##sfx, desc, UCMPI_COLL_PERSISTENT, request,  \
                    (UCMPI_XFER_LIST params, MPI_Info info,                  \
                     MPI_Request *request), __VA_ARGS__)

/* The int and _c forms: P(count type, displ type) the buffer parameters,
 * F(sfx) their fill, extra the parameters after them and ... their fill. */
#define UCMPI_XFER_PAIR(Stem, stem, desc, cdesc, P, F, extra, ...)          \
    UCMPI_XFER_FORMS(Stem, stem, , desc,                                     \
                     (P(int, int), UCMPI_XFER_LIST extra), F(),             \
                     __VA_ARGS__)                                            \
    UCMPI_XFER_FORMS(Stem, stem, _c, cdesc,                                  \
                     (P(MPI_Count, MPI_Aint), UCMPI_XFER_LIST extra),        \
                     F(_c), __VA_ARGS__)

/* The buffer parameters and fills of the uniform, v and w forms. */
#define UCMPI_XFER_UNIFORM(ct, at)                                           \
    const void *sendbuf, ct sendcount, MPI_Datatype sendtype, void *recvbuf, \
        ct recvcount, MPI_Datatype recvtype
#define UCMPI_XFER_UNIFORM_FILL(sfx)                                         \
    .sbuf = sendbuf, .scount = sendcount, .sdt = sendtype, .rbuf = recvbuf,  \
    .rcount = recvcount, .rdt = recvtype, .comm = comm
#define UCMPI_XFER_RECVV(ct, at)                                             \
    const void *sendbuf, ct sendcount, MPI_Datatype sendtype, void *recvbuf, \
        const ct recvcounts[], const at displs[], MPI_Datatype recvtype
#define UCMPI_XFER_RECVV_FILL(sfx)                                           \
    .sbuf = sendbuf, .scount = sendcount, .sdt = sendtype, .rbuf = recvbuf,  \
    .rcounts##sfx = recvcounts, .rdispls##sfx = displs, .rdt = recvtype,     \
    .comm = comm
#define UCMPI_XFER_V(ct, at)                                                 \
    const void *sendbuf, const ct sendcounts[], const at sdispls[],          \
        MPI_Datatype sendtype, void *recvbuf, const ct recvcounts[],         \
        const at rdispls[], MPI_Datatype recvtype
#define UCMPI_XFER_V_FILL(sfx)                                               \
    .sbuf = sendbuf, .scounts##sfx = sendcounts, .sdispls##sfx = sdispls,    \
    .sdt = sendtype, .rbuf = recvbuf, .rcounts##sfx = recvcounts,            \
    .rdispls##sfx = rdispls, .rdt = recvtype, .comm = comm
#define UCMPI_XFER_W(ct, at)                                                 \
    const void *sendbuf, const ct sendcounts[], const at sdispls[],          \
        const MPI_Datatype sendtypes[], void *recvbuf, const ct recvcounts[], \
        const at rdispls[], const MPI_Datatype recvtypes[]
#define UCMPI_XFER_W_FILL(sfx)                                               \
    .sbuf = sendbuf, .scounts##sfx = sendcounts, .sdispls##sfx = sdispls,    \
    .sdt = MPI_BYTE, .sdts = sendtypes, .rbuf = recvbuf,                     \
    .rcounts##sfx = recvcounts, .rdispls##sfx = rdispls, .rdt = MPI_BYTE,    \
    .rdts = recvtypes, .comm = comm

/* A rooted collective: algs row 0 linear, row 1 the tree (from min_ranks
 * while n blocks < max_total, ucmpi_thr ids); docs/architecture.md. */
typedef struct ucmpi_xfer_rooted ucmpi_xfer_rooted_t;
struct ucmpi_xfer_rooted {
    const ucmpi_coll_alg_t *algs;
    const char *knob;
    int min_ranks, max_total;
    int gather, v;
    int (*failed)(const ucmpi_xfer_rooted_t *k, int err,
                  ucmpi_coll_args_t *a);
};

/* A rooted collective's checks, then its algorithm, the count-0 rule
 * (uniform forms) or its path of a failed rank. */
int ucmpi_xfer_rooted_start(const ucmpi_xfer_rooted_t *k,
                            ucmpi_coll_args_t *a);
/* The count-0 rule (coll_util.h) applies: the block (the root's side at
 * the root, else the own block) is 0 bytes on an intracomm of n > 1. */
int ucmpi_xfer_rooted_empty(const ucmpi_coll_args_t *a, int gather);
/* A failed non-root runs the others' algorithm poisoned (unknown: an
 * abort), so no one waits for it (docs/architecture.md).  Returns err. */
int ucmpi_xfer_rooted_nonroot(const ucmpi_xfer_rooted_t *k, ucmpi_comm_t *c,
                              int root, long long bs, int mode,
                              MPI_Request *req, int err);

/* Its algorithm for *a: linear on an intercomm, else the forced one, else
 * by block size (the root's side at the root, the own block elsewhere). */
const ucmpi_coll_alg_t *ucmpi_xfer_rooted_select(const ucmpi_xfer_rooted_t *k,
                                                 const ucmpi_coll_args_t *a);
/* The others' algorithm as a failed rank sees it (bs: block bytes, -1
 * unknown); NULL: unknown. */
const ucmpi_coll_alg_t *ucmpi_xfer_rooted_guess(const ucmpi_xfer_rooted_t *k,
                                                const ucmpi_coll_args_t *a,
                                                long long bs);

/* Signs s with alg and a's root (a failed rank's stand-ins too). */
void ucmpi_xfer_sign(ucmpi_sched_t *s, const ucmpi_coll_alg_t *alg,
                     const ucmpi_coll_args_t *a);

/* Tail of every entry point: builds alg's schedule over *a and runs it
 * per mode (request: the user's).  Reports failures on comm. */
int ucmpi_xfer_run(const ucmpi_coll_alg_t *alg, ucmpi_coll_args_t *a,
                   int mode, MPI_Request *request);

/* A failed rank still runs alg for the others' blocks, to the end, poisoned
 * or not (docs/architecture.md, failed ranks).  Returns err. */
int ucmpi_xfer_run_failed(const ucmpi_coll_alg_t *alg, ucmpi_coll_args_t *a,
                          int err, int poison);

/* The shm vote of a rank whose size leaves the shm path (docs/architecture):
 * MPI_SUCCESS all run p2p, UCMPI_SHM_FALLBACK no segment. */
enum { UCMPI_XFER_VOTE_QUIET = 1, UCMPI_XFER_VOTE_LOST = 2 };
int ucmpi_xfer_shm_vote(ucmpi_comm_t *comm, int kind, size_t nbytes,
                        int flags, const char *fn);

/* A failed allgather/alltoall rank takes the others' shm numbers (skip or
 * a quiet vote).  1: that ended the call; 0: on to p2p, poisoned. */
typedef int (*ucmpi_xfer_shm_skip_fn)(ucmpi_comm_t *comm, size_t nbytes,
                                      const char *fn);
int ucmpi_xfer_failed_shm(ucmpi_comm_t *comm, int kind, size_t nbytes,
                          MPI_Count count, ucmpi_xfer_shm_skip_fn skip);

/* Such a rank with no receive side: the voters of shm kind (-1: none)
 * fail, or the others' schedule gets an abort.  Returns rc. */
int ucmpi_xfer_lost(ucmpi_comm_t *comm, int rc, int kind, int mode,
                    MPI_Request *req);

/* The blocking shm path of allgather/alltoall, or the vote; inline for the
 * smallest calls.  UCMPI_SHM_FALLBACK: on to p2p. */
typedef int (*ucmpi_xfer_shm_fn)(ucmpi_comm_t *comm, const void *sbuf,
                                 MPI_Count scount, MPI_Datatype sdt,
                                 void *rbuf, MPI_Count rcount,
                                 MPI_Datatype rdt);
static inline int ucmpi_xfer_shm(const ucmpi_coll_args_t *a, int kind,
                                 size_t nbytes, ucmpi_xfer_shm_fn shm)
{
    const char *fn = ucmpi_call_name();
    int rc;

    if (a->rcount > 0 && ucmpi_coll_shm_wanted(a->comm, kind, nbytes))
        return shm(a->comm, a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount,
                   a->rdt);
    rc = ucmpi_xfer_shm_vote(a->comm, kind, nbytes, 0, fn);
    return rc == MPI_SUCCESS && a->rcount != 0 ? UCMPI_SHM_FALLBACK : rc;
}

/* Turns the v/w arrays of *a into a->sblk/a->rblk (scratch of s). */
int ucmpi_xfer_prepare(ucmpi_sched_t *s, ucmpi_coll_args_t *a);

/* Uniform blocks: n blocks of count x dt, one after the other at buf. */
ucmpi_xblk_t *ucmpi_xblk_uniform(ucmpi_sched_t *s, int n, const void *buf,
                                 MPI_Count count, MPI_Datatype dt);
/* Address of element block i (count elements each) of buf. */
static inline char *ucmpi_xfer_at(const void *buf, MPI_Count i,
                                  MPI_Count count, MPI_Datatype dt)
{
    return (char *)buf + i * count * dt->extent;
}
/* Packs (or unpacks) buf's n blocks (count x dt, bs bytes) at tmp in the
 * order r..n-1, 0..r-1 (the trees' and Bruck's). */
int ucmpi_xfer_rotate(ucmpi_sched_t *s, char *tmp, size_t bs, void *buf,
                      MPI_Count count, MPI_Datatype dt, int n, int r,
                      int pack);

/* Checks: the code reported on c (NULL: a failed rank asking, no report).
 * inplace: only an intracomm's sendbuf may be MPI_IN_PLACE. */
int ucmpi_xfer_check_inplace(ucmpi_comm_t *c, const void *sbuf,
                             const void *rbuf);
int ucmpi_xfer_check_buf(ucmpi_comm_t *c, MPI_Count count, MPI_Datatype dt,
                         const char *what);
/* A v or w side's arrays: present, counts >= 0, types valid. */
int ucmpi_xfer_check_blocks(ucmpi_comm_t *c, const ucmpi_coll_side_t *s,
                            const char *what);
/* Drops side send (else receive) of *a: this rank does not use it. */
static inline void ucmpi_xfer_drop(const int **counts, const int **displs,
                                   const MPI_Count **ccounts,
                                   const MPI_Aint **cdispls,
                                   const MPI_Datatype **dts,
                                   MPI_Datatype *dt, MPI_Count *count)
{
    *counts = *displs = NULL;
    *ccounts = NULL;
    *cdispls = NULL;
    *dts = NULL;
    *dt = MPI_BYTE;
    *count = 0;
}
static inline void ucmpi_xfer_drop_side(ucmpi_coll_args_t *a, int send)
{
    if (send)
        ucmpi_xfer_drop(&a->scounts, &a->sdispls, &a->scounts_c,
                        &a->sdispls_c, &a->sdts, &a->sdt, &a->scount);
    else
        ucmpi_xfer_drop(&a->rcounts, &a->rdispls, &a->rcounts_c,
                        &a->rdispls_c, &a->rdts, &a->rdt, &a->rcount);
}
static inline int ucmpi_xfer_buf_ok(MPI_Count count, MPI_Datatype dt)
{
    return ucmpi_xfer_check_buf(NULL, count, dt, NULL) == MPI_SUCCESS;
}
/* UCMPI_COLL_CHECK's record of allgather and alltoall. */
void ucmpi_xfer_record_uniform(const ucmpi_coll_args_t *u,
                               ucmpi_coll_check_args_t *r);
/* The block a rank sends itself must have the size it receives:
 * MPI_ERR_TRUNCATE when it sends more, MPI_ERR_COUNT when less. */
int ucmpi_xfer_check_match(ucmpi_comm_t *c, MPI_Count scount,
                           MPI_Datatype sdt, MPI_Count rcount,
                           MPI_Datatype rdt, const char *what);
/* The root side of a rooted collective (intercomm: MPI_ROOT)? */
static inline bool ucmpi_xfer_is_root(const ucmpi_comm_t *c, int root)
{
    return c->is_inter ? root == MPI_ROOT : root == c->rank;
}

#endif
