/*
 * Data-movement collectives (gather, scatter, allgather, alltoall and the
 * neighbor collectives): the entry-point forms, the rooted collectives'
 * selection, argument checks, the paths of a rank whose arguments failed,
 * and the shared schedule tail (blocking / nonblocking / persistent).
 */
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

/* UCMPI_XFER_FORMS(Stem, stem, sfx, desc, (params), fill) defines
 * PMPI_<Stem><sfx>, PMPI_I<stem><sfx> and PMPI_<Stem>_init<sfx> (sfx:
 * nothing or _c) and their MPI_ aliases; params is the blocking form's
 * parameter list, fill the designated initializers of the
 * ucmpi_coll_args_t each form hands to the driver with desc. */
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

/* The uniform forms' buffer parameters (count type ct) and their fill. */
#define UCMPI_XFER_UNIFORM(ct)                                               \
    const void *sendbuf, ct sendcount, MPI_Datatype sendtype, void *recvbuf, \
        ct recvcount, MPI_Datatype recvtype
#define UCMPI_XFER_UNIFORM_FILL                                              \
    .sbuf = sendbuf, .scount = sendcount, .sdt = sendtype, .rbuf = recvbuf,  \
    .rcount = recvcount, .rdt = recvtype, .comm = comm
/* A uniform collective's int and _c forms (descriptors desc, cdesc;
 * extra: parameters after the buffers, xfill: their fill). */
#define UCMPI_XFER_UNIFORM_FORMS(Stem, stem, desc, cdesc, extra, ...)        \
    UCMPI_XFER_FORMS(Stem, stem, , desc,                                     \
                     (UCMPI_XFER_UNIFORM(int), UCMPI_XFER_LIST extra),       \
                     UCMPI_XFER_UNIFORM_FILL, __VA_ARGS__)                   \
    UCMPI_XFER_FORMS(Stem, stem, _c, cdesc,                                  \
                     (UCMPI_XFER_UNIFORM(MPI_Count), UCMPI_XFER_LIST extra), \
                     UCMPI_XFER_UNIFORM_FILL, __VA_ARGS__)

/* v and w forms: count type ct, displacement type at; the fills name the
 * int forms' fields (sfx empty) or the _c forms' (sfx _c). */
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

/* A rooted collective (gather: data flows to the root; else scatter; and
 * their v forms): row 0 of algs is linear, row 1 the tree, chosen from
 * min_ranks ranks on while the n blocks stay under max_total bytes
 * (ucmpi_thr ids; -1: no limit). */
typedef struct {
    const ucmpi_coll_alg_t *algs;
    const char *knob;
    int min_ranks, max_total;
    int gather;
} ucmpi_xfer_rooted_t;

/* Its algorithm for *a (block size: the root's side at the root, the own
 * block elsewhere): linear on an intercomm, else the forced one, else by
 * size. */
const ucmpi_coll_alg_t *ucmpi_xfer_rooted_select(const ucmpi_xfer_rooted_t *k,
                                                 const ucmpi_coll_args_t *a);
/* The others' algorithm seen from a rank that lacks the block size: the
 * forced one, or linear below the tree's rank threshold; else NULL. */
const ucmpi_coll_alg_t *ucmpi_xfer_rooted_guess(const ucmpi_xfer_rooted_t *k,
                                                const ucmpi_coll_args_t *a);
/* gather (gather: 1) and scatter: the root, MPI_IN_PLACE (the root's
 * buffer never; the other side's only at an intracomm root) and the
 * non-root side's buffer where it is used. */
int ucmpi_xfer_check_rooted(const ucmpi_coll_args_t *a, int gather);
/* The root's own block mismatched (err, reported): it is dropped and the
 * others' blocks still move (ucmpi_xfer_run_anyway).  Returns err. */
int ucmpi_xfer_run_without_own(const ucmpi_xfer_rooted_t *k,
                               ucmpi_coll_args_t *a, int err);

/* Signs s with alg and a's root: every schedule built from a table row,
 * a failed rank's stand-ins included (only alg's name is known to the
 * mismatch messages). */
void ucmpi_xfer_sign(ucmpi_sched_t *s, const ucmpi_coll_alg_t *alg,
                     const ucmpi_coll_args_t *a);

/* Tail of every entry point: builds alg's schedule over *a and runs it
 * per mode (request: the user's).  Reports failures on comm. */
int ucmpi_xfer_run(const ucmpi_coll_alg_t *alg, ucmpi_coll_args_t *a,
                   int mode, MPI_Request *request);

/* A rooted collective whose root's own block failed its check (err,
 * reported): the others went ahead and may wait for its data or hold
 * sends to it, so the collective still runs for their blocks, to the end
 * before returning (the user may free the buffers once the call failed);
 * a persistent init hands back a request that runs it on each start and
 * completes in err, else *request becomes MPI_REQUEST_NULL.  Returns err. */
int ucmpi_xfer_run_anyway(const ucmpi_coll_alg_t *alg, ucmpi_coll_args_t *a,
                          int mode, MPI_Request *request, int err);
/* The same for a rank of allgather/alltoall (everyone sends to everyone)
 * whose arguments failed (its receive side valid): it runs the others'
 * algorithm poisoned, taking what they send and sending them empty
 * messages, which their receives report as MPI_ERR_TRUNCATE instead of
 * waiting for ever.  Returns err. */
int ucmpi_xfer_run_poisoned(const ucmpi_coll_alg_t *alg, ucmpi_coll_args_t *a,
                            int mode, MPI_Request *request, int err);

/* A blocking allgather/alltoall (shm kind `kind`, nbytes per rank as the
 * shm path counts them) on a comm with a shm segment whose size leaves
 * the shm path while another rank's may take it: it takes the shm number
 * the others' call takes, marked invalid (a shm-path reader reports
 * MPI_ERR_TRUNCATE), records its bytes and checks that every rank voted
 * alike; else MPI_ERR_TRUNCATE, reported.  MPI_SUCCESS: all run the p2p
 * schedules; UCMPI_SHM_FALLBACK: no segment.  Flags: QUIET, a rank whose
 * arguments failed (reported): a mismatch is returned, not reported;
 * LOST, such a rank with no usable receive side: the others report
 * MPI_ERR_OTHER. */
enum { UCMPI_XFER_VOTE_QUIET = 1, UCMPI_XFER_VOTE_LOST = 2 };
int ucmpi_xfer_shm_vote(ucmpi_comm_t *comm, int kind, size_t nbytes,
                        int flags, const char *fn);

/* A blocking allgather/alltoall rank whose arguments failed (reported),
 * with a usable receive side of nbytes: takes the shm numbers of the
 * others' call, by `skip` (their shm path) or a quiet vote.  1: that
 * ended the call here; 0: on to the p2p schedule, poisoned. */
typedef int (*ucmpi_xfer_shm_skip_fn)(ucmpi_comm_t *comm, size_t nbytes,
                                      const char *fn);
int ucmpi_xfer_failed_shm(ucmpi_comm_t *comm, int kind, size_t nbytes,
                          MPI_Count count, ucmpi_xfer_shm_skip_fn skip);

/* Such a rank with no usable receive side (its size unknown): the voters
 * of shm kind (-1: none) fail, or the others' schedule gets an abort
 * (ucmpi_coll_skip_abort).  Returns rc. */
int ucmpi_xfer_lost(ucmpi_comm_t *comm, int rc, int kind, int mode,
                    MPI_Request *req);

/* The blocking shm path of allgather/alltoall (nbytes per rank as the shm
 * path counts them): the shm collective's result, or the shm vote's when
 * this rank's size leaves the path; UCMPI_SHM_FALLBACK: on to the p2p
 * schedule.  Inline: the smallest collectives' path. */
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
/* Packs (pack) or unpacks the n blocks of buf (count x dt, bs bytes each)
 * at tmp in the order r..n-1, 0..r-1 (the trees' and Bruck's order). */
int ucmpi_xfer_rotate(ucmpi_sched_t *s, char *tmp, size_t bs, void *buf,
                      MPI_Count count, MPI_Datatype dt, int n, int r,
                      int pack);

/* Argument checks of the entry points: MPI_SUCCESS or the code reported
 * on c; with c NULL (a failed rank asking what it can still use) nothing
 * is reported.  `what` names the argument in messages. */
/* allgather/alltoall: only sendbuf may be MPI_IN_PLACE, not on an
 * intercommunicator */
int ucmpi_xfer_check_inplace(ucmpi_comm_t *c, const void *sbuf,
                             const void *rbuf);
int ucmpi_xfer_check_buf(ucmpi_comm_t *c, MPI_Count count, MPI_Datatype dt,
                         const char *what);
/* A v or w side's arrays: present, counts >= 0, types valid. */
int ucmpi_xfer_check_blocks(ucmpi_comm_t *c, const ucmpi_coll_side_t *s,
                            const char *what);
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
/* Is this rank the root side of a rooted collective (intercomm: MPI_ROOT,
 * intracomm: rank == root)?  Inert ranks (MPI_PROC_NULL) do nothing. */
static inline bool ucmpi_xfer_is_root(const ucmpi_comm_t *c, int root)
{
    return c->is_inter ? root == MPI_ROOT : root == c->rank;
}

#endif
