/* MPI_Reduce, MPI_Ireduce, MPI_Reduce_init: algorithm table, selection and
 * entry points. */
#include "coll/coll_drv.h"
#include "coll/coll_tune.h"
#include "coll/reduce/reduce.h"
#include "coll/allreduce/allreduce.h"
#include "coll/alias.h"

#include <stdlib.h>
#include <string.h>

static const ucmpi_coll_alg_t reduce_algs[] = {
    {UCMPI_REDUCE_BINOMIAL, "binomial",
     "binomial tree, log2(n) rounds; rank order for non-commutative ops"},
    {UCMPI_REDUCE_LINEAR, "linear",
     "root receives all contributions at once (small communicators)"},
    {UCMPI_REDUCE_SHM, "shm",
     "on-node shared segment: flags and buffers, no messages (blocking, small)"},
    {UCMPI_REDUCE_CHAIN, "chain",
     "pipelined chain in REDUCE_SEGMENT pieces: the vector once per link"},
};
#define NALGS ((int)(sizeof(reduce_algs) / sizeof(reduce_algs[0])))

/* Linear costs one round but n-1 receives and buffers at the root: only
 * for tiny communicators and messages.
 * NOT YET MEASURED: during this session the 2-core machine ran at load
 * 30-140 (bench/coll_bench latencies of tens of ms), so these are the
 * usual MPICH-style defaults.  Refine with, for each algorithm A:
 *   UCMPI_REDUCE_ALGORITHM=A mpiexec -n N <loop of MPI_Reduce>
 * (bench/coll_bench has no reduce yet). */

int ucmpi_reduce_select(ucmpi_comm_t *comm, int size, size_t nbytes,
                        MPI_Op op)
{
    int id = ucmpi_coll_alg_forced("REDUCE_ALGORITHM", reduce_algs, NALGS);

    if (id >= 0 && id != UCMPI_REDUCE_SHM)  /* shm: see reduce_common */
        return id;
    if (size <= ucmpi_thr_n(UCMPI_THR_REDUCE_LINEAR_MAX_RANKS) &&
        nbytes <= ucmpi_thr(UCMPI_THR_REDUCE_LINEAR_MAX_BYTES))
        return UCMPI_REDUCE_LINEAR;
    if (size >= ucmpi_thr_n(UCMPI_THR_REDUCE_CHAIN_MIN_RANKS) &&
        nbytes >= ucmpi_thr(UCMPI_THR_REDUCE_CHAIN_MIN_BYTES))
        return UCMPI_REDUCE_CHAIN;
    return UCMPI_REDUCE_BINOMIAL;
}

int ucmpi_reduce_build(ucmpi_sched_t *s, const void *mine, void *rbuf,
                       MPI_Count count, MPI_Datatype dt, MPI_Op op, int root,
                       const ucmpi_coll_grp_t *g, int alg)
{
    if (count == 0)
        return MPI_SUCCESS;
    if (g->size == 1) {
        int rc = ucmpi_sched_copy(s, mine, count, dt, rbuf, count, dt);
        return rc == MPI_SUCCESS ? ucmpi_sched_fence(s) : rc;
    }
    if (alg == UCMPI_REDUCE_LINEAR)
        return ucmpi_reduce_linear(s, mine, rbuf, count, dt, op, root, g);
    if (alg == UCMPI_REDUCE_CHAIN)
        return ucmpi_reduce_chain(s, mine, rbuf, count, dt, op, root, g,
                                  (size_t)ucmpi_config_long("REDUCE_SEGMENT"));
    return ucmpi_reduce_tree(s, mine, rbuf, count, dt, op, root, g, 2);
}

/* A non-root's part in the shm reduce at count 0: it records 0 bytes and
 * posts, as a contributor does (ucmpi_coll_shm_reduce); the root (and
 * every rank of a split reduce, or a voter) checks the records and fails
 * the call if counts differ.  It then checks the root's record too (the
 * root records before it posts, whichever path it takes: shm reduce,
 * split, vote), so that it fails as well instead of returning
 * MPI_SUCCESS; a wait only at 0 bytes.  UCMPI_SHM_FALLBACK: no segment. */
static int reduce_shm_zero(ucmpi_comm_t *comm, int root, const char *fn)
{
    ucmpi_coll_shm_t *sh;
    uint64_t k, theirs;
    int rc;

    if (!ucmpi_coll_shm_wanted(comm, UCMPI_SHM_REDUCE, 0))
        return UCMPI_SHM_FALLBACK;
    if ((rc = ucmpi_coll_shm_enter(comm, fn, &sh, &k)) != MPI_SUCCESS ||
        (rc = ucmpi_coll_shm_wait_room(sh, k, 0, fn)) != MPI_SUCCESS)
        return rc;
    ucmpi_coll_shm_set_size(sh, k, 0);
    ucmpi_coll_shm_post(sh, k);
    if ((rc = ucmpi_coll_shm_wait(sh, root, k, fn)) != MPI_SUCCESS)
        return rc;
    return ucmpi_coll_shm_check_root_size(sh, root, k, 0, &theirs, fn);
}

/* The count-0 rule (coll_util.h): count 0 on an intracomm of 2+ ranks
 * (root valid) takes part instead of returning at once; err: this rank's
 * arguments failed a check (reported), else MPI_SUCCESS.  Blocking with
 * a contiguous type on a comm with a shm segment, where the others take
 * the shm path or vote (reduce_shm): the root votes (every rank's record
 * checked), a non-root records 0 bytes.  Else the empty schedule around
 * the root. */
static int reduce_zero(ucmpi_comm_t *comm, MPI_Datatype dt, int root,
                       int mode, MPI_Request *req, const char *fn, int err)
{
    int rc;

    if (mode == UCMPI_COLL_BLOCKING && dt->contig &&
        (rc = comm->rank == root
                  ? ucmpi_reduction_shm_vote(comm, UCMPI_SHM_REDUCE, 0, fn)
                  : reduce_shm_zero(comm, root, fn)) != UCMPI_SHM_FALLBACK)
        return err != MPI_SUCCESS ? err : rc;
    return ucmpi_coll_run_empty_rooted(comm, root, mode, req, fn, err);
}

static int reduce_zero_applies(const ucmpi_comm_t *comm, MPI_Count count,
                               MPI_Datatype dt, int root)
{
    return count * dt->size == 0 && !comm->is_inter && comm->size > 1 &&
           root >= 0 && root < comm->size;
}

/* The blocking shm path of a contiguous type (UCMPI_SHM_FALLBACK: none,
 * go on to p2p).  A rank that does not take it (count 0, or too large
 * for it) while the segment exists votes with its bytes, as allreduce
 * does: if every rank passed the same, they all go on together (p2p, or
 * done at count 0); if not, the vote fails instead of some ranks waiting
 * in the segment and others on p2p.  (A non-root at count 0 records its
 * 0 bytes for the checking ranks: reduce_shm_zero.) */
static int reduce_shm(ucmpi_comm_t *comm, const void *sbuf, void *rbuf,
                      MPI_Count count, MPI_Datatype dt, MPI_Op op, int root,
                      const char *fn)
{
    size_t nbytes = (size_t)(count * dt->size);
    int rc;

    if (count > 0 && ucmpi_coll_shm_wanted(comm, UCMPI_SHM_REDUCE, nbytes) &&
        (rc = ucmpi_coll_shm_reduce(comm, sbuf, rbuf, count, dt, op, root,
                                    fn)) != UCMPI_SHM_FALLBACK)
        return rc;
    if (nbytes == 0 && comm->rank != root)
        return reduce_shm_zero(comm, root, fn);
    rc = ucmpi_reduction_shm_vote(comm, UCMPI_SHM_REDUCE, nbytes, fn);
    return rc == MPI_SUCCESS && nbytes > 0 ? UCMPI_SHM_FALLBACK : rc;
}

/* An argument error on this rank where the others take the shm path
 * (decided from count and dt, valid when dt_ok): take the numbers they
 * take, with a "lost" size record, and return 1; 0 if they run p2p. */
static int reduce_shm_skip(ucmpi_comm_t *comm, int mode, MPI_Count count,
                           MPI_Datatype dt, int dt_ok)
{
    int shm = mode == UCMPI_COLL_BLOCKING && dt_ok && count > 0 &&
              dt->contig;
    /* the shm path may take several numbers (large: chunks), or none */
    int numbers = shm ? ucmpi_coll_shm_reduce_numbers(comm, count, dt) : 0;

    /* count or type unknown: on one node the others take the shm path
     * whatever their size (contiguous types: a guess), which the record
     * "lost" ends at its first number */
    if (mode == UCMPI_COLL_BLOCKING && (!dt_ok || count < 0) &&
        !comm->is_inter &&
        ucmpi_coll_shm_wanted(comm, UCMPI_SHM_REDUCE, 1))
        numbers = 1;
    /* a number taken with a "lost" size record: the root (and a split
     * reduce's every rank) reports it instead of reducing stale data */
    return numbers >= 1 &&
           ucmpi_coll_shm_skip(comm, numbers, "MPI_Reduce (skipped)") !=
               UCMPI_SHM_FALLBACK;
}

/* An argument error on this rank: keep comm's collective numbers in step
 * with the ranks that went ahead (the shm path's number when they take
 * it: decided from count and dt, valid when dt_ok). */
static int reduce_skip(ucmpi_comm_t *comm, int rc, int mode, MPI_Count count,
                       MPI_Datatype dt, int dt_ok, int root)
{
    if (reduce_shm_skip(comm, mode, count, dt, dt_ok))
        return rc;
    /* (no segment: the others run p2p too) */
    return ucmpi_coll_skip(comm, rc, -1, 0,
                           comm->is_inter && root >= 0 && count != 0);
}

/* A failed rank's part in the others' reduce schedule: zeros in (the
 * schedule outlives the call, so it must not read the user's buffers),
 * into scratch owned by the schedule. */
static int build_zero_reduce(ucmpi_sched_t *s, ucmpi_comm_t *comm,
                             MPI_Count count, MPI_Datatype dt, MPI_Op op,
                             int root, int alg)
{
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(comm);
    size_t ext = (size_t)(dt->extent > dt->true_extent ? dt->extent
                                                       : dt->true_extent);
    char *tmp = ucmpi_coll_tmpbuf(s, count, dt);

    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    memset(tmp + dt->true_lb, 0, (size_t)count * ext);
    if (alg < 0)                  /* the others' choice for this size */
        alg = ucmpi_reduce_select(comm, g.size, (size_t)(count * dt->size),
                                  op);
    return ucmpi_reduce_build(s, tmp, tmp, count, dt, op, root, &g, alg);
}

/* The root's buffers failed a check (count, type and op are fine): it
 * still takes part, into scratch that it drops, so that the others'
 * contributions past the rendezvous threshold (or beyond the shm path's
 * buffers) are taken and the communicator stays in step: in the
 * background, or in the request a persistent init hands back. */
static int reduce_root_failed(ucmpi_comm_t *comm, int err, const void *sbuf,
                              MPI_Count count, MPI_Datatype dt, MPI_Op op,
                              int root, int mode, MPI_Request *req,
                              const char *fn)
{
    size_t nbytes = (size_t)(count * dt->size);
    size_t ext = (size_t)(dt->extent > dt->true_extent ? dt->extent
                                                       : dt->true_extent);
    ucmpi_sched_t *s;
    char *tmp;
    int rc;

    if (reduce_zero_applies(comm, count, dt, root))
        return reduce_zero(comm, dt, root, mode, req, fn, err);
    if (mode != UCMPI_COLL_BLOCKING)
        *req = MPI_REQUEST_NULL;
    if (count == 0)
        return reduce_skip(comm, err, mode, count, dt, 1, root);
    if (mode == UCMPI_COLL_BLOCKING && dt->contig && !comm->is_inter &&
        ucmpi_coll_shm_wanted(comm, UCMPI_SHM_REDUCE, nbytes)) {
        tmp = calloc((size_t)count, ext);
        if (tmp == NULL)
            return reduce_skip(comm, err, mode, count, dt, 1, root);
        rc = ucmpi_coll_shm_reduce(comm, sbuf, tmp - dt->true_lb, count, dt,
                                   op, root, fn);
        free(tmp);
        if (rc != UCMPI_SHM_FALLBACK)
            return err;
    }
    if ((s = ucmpi_sched_create(comm)) == NULL)
        return reduce_skip(comm, err, mode, count, dt, 1, root);
    if (comm->is_inter) {
        /* MPI_ROOT: the result of the other group, dropped as it comes */
        rc = ucmpi_sched_recv(s, NULL, 0, MPI_BYTE, 0);
    } else {
        /* the root contributes zeros (its result is dropped anyway) */
        rc = build_zero_reduce(s, comm, count, dt, op, root, -1);
    }
    if (mode == UCMPI_COLL_PERSISTENT)
        return ucmpi_coll_persist_failed(s, rc, req, err);
    ucmpi_coll_release(s, rc);
    return err;
}

/* A non-root whose buffers failed a check (count, type and op are fine):
 * on the shm path it takes the number with a "lost" record
 * (reduce_skip); else it runs the others' schedule with zeros in and
 * every send empty (poisoned), so that its parent's exact receive passes
 * the loss up to the root, which reports it instead of waiting. */
static int reduce_nonroot_failed(ucmpi_comm_t *comm, int err,
                                 MPI_Count count, MPI_Datatype dt, MPI_Op op,
                                 int root, int mode, MPI_Request *req,
                                 const char *fn)
{
    size_t nbytes = (size_t)(count * dt->size);
    ucmpi_sched_t *s;
    int rc;

    if (reduce_zero_applies(comm, count, dt, root))
        return reduce_zero(comm, dt, root, mode, req, fn, err);
    if (mode != UCMPI_COLL_BLOCKING)
        *req = MPI_REQUEST_NULL;
    if (count == 0 || comm->is_inter ||
        (mode == UCMPI_COLL_BLOCKING && dt->contig &&
         ucmpi_coll_shm_wanted(comm, UCMPI_SHM_REDUCE, nbytes)) ||
        (s = ucmpi_sched_create(comm)) == NULL)
        return reduce_skip(comm, err, mode, count, dt, 1, root);
    rc = build_zero_reduce(s, comm, count, dt, op, root, -1);
    ucmpi_sched_poison(s);
    if (mode == UCMPI_COLL_PERSISTENT)
        return ucmpi_coll_persist_failed(s, rc, req, err);
    ucmpi_coll_release(s, rc);
    return err;
}

/* A rank of an intracomm whose count, type or op failed a check, where
 * the others run p2p: it runs their schedule poisoned (every send empty),
 * so its parent's exact receive passes the loss up to the root, and a
 * root takes (drops) what its children send.  With count and type valid
 * (a bad op) the shape is known; with either bad, only where the
 * algorithm does not depend on the size (forced binomial or linear, or 2
 * ranks where both are one message to the root), as one byte per rank
 * that takes whatever comes.  The op's commutativity shapes the tree: a
 * valid user op is kept, any other taken as commutative (MPI_SUM, never
 * applied: the schedule is poisoned).  Else it skips, as before. */
static int reduce_blind_failed(ucmpi_comm_t *comm, int err, MPI_Count count,
                               MPI_Datatype dt, int dt_ok, MPI_Op op,
                               int root, int mode, MPI_Request *req,
                               const char *fn)
{
    const char *why;
    int id = ucmpi_coll_alg_forced("REDUCE_ALGORITHM", reduce_algs, NALGS);
    int known = dt_ok && count >= 0;
    MPI_Op use = ucmpi_op_check(op, MPI_BYTE, &why) == MPI_SUCCESS
                     ? op : MPI_SUM;
    ucmpi_sched_t *s;
    int rc;

    if (req == NULL)              /* (the request check failed) */
        mode = UCMPI_COLL_BLOCKING;
    if (known && reduce_zero_applies(comm, count, dt, root))
        return reduce_zero(comm, dt, root, mode, req, fn, err);
    if (mode != UCMPI_COLL_BLOCKING)
        *req = MPI_REQUEST_NULL;
    if (comm->is_inter || root < 0 || root >= comm->size)
        return reduce_skip(comm, err, mode, count, dt, dt_ok, root);
    if (reduce_shm_skip(comm, mode, count, dt, dt_ok))
        return err;
    if (id < 0 && comm->size == 2 && (use->commute || root == 0))
        id = UCMPI_REDUCE_LINEAR;    /* = binomial: one send to the root */
    if (!known && id != UCMPI_REDUCE_BINOMIAL && id != UCMPI_REDUCE_LINEAR)
        return ucmpi_coll_skip_abort(comm, err, (int)mode, req);   /* algorithm unknown */
    if ((known && count == 0) ||  /* nothing to lose: they skip too */
        (s = ucmpi_sched_create(comm)) == NULL)
        return ucmpi_coll_skip(comm, err, -1, 0, 0);
    rc = known ? build_zero_reduce(s, comm, count, dt, use, root, -1)
               : build_zero_reduce(s, comm, 1, MPI_BYTE, use, root, id);
    ucmpi_sched_poison(s);
    if (mode == UCMPI_COLL_PERSISTENT)
        return ucmpi_coll_persist_failed(s, rc, req, err);
    ucmpi_coll_release(s, rc);
    return err;
}

static int reduce_start(ucmpi_coll_args_t *a)
{
    const char *fn = ucmpi_call_name();
    ucmpi_comm_t *comm = a->comm;
    const void *sbuf = a->sbuf;
    void *rbuf = a->rbuf;
    MPI_Count count = a->rcount;
    MPI_Datatype dt = a->rdt;
    MPI_Op op = a->op;
    int root = a->root, mode = a->mode;
    MPI_Request *req = a->req;
    ucmpi_comm_t *local = NULL;
    ucmpi_sched_t *s;
    int rc = MPI_SUCCESS;
    int am_root, dt_ok;

    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_count(comm, count, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_dt(comm, dt, fn);
    dt_ok = rc == MPI_SUCCESS;
    if (rc == MPI_SUCCESS)
        rc = ucmpi_coll_check_root(comm, root, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_coll_check_op(comm, op, dt, fn);
    if (rc != MPI_SUCCESS)
        return reduce_blind_failed(comm, rc, count, dt, dt_ok, op, root,
                                   mode, req, fn);
    am_root = comm->is_inter ? root == MPI_ROOT : root == comm->rank;
    if (rbuf == MPI_IN_PLACE ||
        (sbuf == MPI_IN_PLACE && (!am_root || comm->is_inter))) {
        rc = ucmpi_err_comm(comm, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is only "
                            "allowed as the root's send buffer of an "
                            "intracommunicator reduce");
        return am_root ? reduce_root_failed(comm, rc, sbuf, count, dt, op,
                                            root, mode, req, fn)
                       : reduce_nonroot_failed(comm, rc, count, dt, op, root,
                                               mode, req, fn);
    }
    /* only the root of an intracomm uses both buffers */
    if (am_root && !comm->is_inter && sbuf != MPI_IN_PLACE &&
        (rc = ucmpi_coll_check_alias1(comm, sbuf, count, dt, rbuf, count, dt,
                                      fn)) != MPI_SUCCESS)
        return reduce_root_failed(comm, rc, sbuf, count, dt, op, root, mode,
                                  req, fn);
    if (comm->is_inter && (rc = ucmpi_coll_local(comm, &local, fn)))
        return rc;
    if (mode == UCMPI_COLL_BLOCKING && dt->contig &&
        (rc = reduce_shm(comm, sbuf, rbuf, count, dt, op, root, fn)) !=
            UCMPI_SHM_FALLBACK)
        return rc;
    if (reduce_zero_applies(comm, count, dt, root))
        return ucmpi_coll_run_empty_rooted(comm, root, mode, req, fn,
                                           MPI_SUCCESS);
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(comm);
    int alg = local ? -1
                    : ucmpi_reduce_select(comm, g.size,
                                          (size_t)(count * dt->size), op);
    ucmpi_sched_key_t key = {reduce_algs, alg, root, sbuf, rbuf, count,
                             count, dt, dt, op, NULL, 0};
    if ((s = ucmpi_coll_cached(comm, mode, &key)) != NULL)
        return ucmpi_coll_run(comm, s, MPI_SUCCESS, mode, req, fn);
    s = ucmpi_sched_create(comm);
    if (s == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    if (local) {
        rc = count ? ucmpi_reduce_inter(s, comm, local, sbuf, rbuf, count, dt,
                                        op, root) : MPI_SUCCESS;
    } else {
        const void *mine = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
        rc = ucmpi_reduce_build(s, mine, rbuf, count, dt, op, root, &g, alg);
    }
    return ucmpi_coll_run_new(comm, s, rc, mode, req, fn, &key);
}

static void reduce_record(const ucmpi_coll_args_t *a,
                          ucmpi_coll_check_args_t *r)
{
    *r = (ucmpi_coll_check_args_t){
        .rooted = 1, .root = a->root, .has_op = 1, .op = a->op,
        .op_dt = a->rdt,
        .send = {.who = UCMPI_CCK_NONROOT, .to_root = 1, .count = a->rcount,
                 .dt = a->rdt},
        .recv = {.who = UCMPI_CCK_ROOT, .count = a->rcount, .dt = a->rdt}};
}

static const ucmpi_coll_desc_t reduce_desc = {
    .record = reduce_record, .start = reduce_start};

#pragma weak MPI_Reduce = PMPI_Reduce
int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, sendbuf, recvbuf,
                          count, datatype, op, root);
    return ucmpi_coll_call(&reduce_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Reduce");
}

#pragma weak MPI_Ireduce = PMPI_Ireduce
int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count,
                 MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, sendbuf, recvbuf,
                          count, datatype, op, root);
    return ucmpi_coll_call(&reduce_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ireduce");
}

#pragma weak MPI_Reduce_init = PMPI_Reduce_init
int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, sendbuf, recvbuf,
                          count, datatype, op, root);
    return ucmpi_coll_call(&reduce_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Reduce_init");
}

/* Large-count (MPI-4) forms. */
#pragma weak MPI_Reduce_c = PMPI_Reduce_c
int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                  MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, sendbuf, recvbuf,
                          count, datatype, op, root);
    return ucmpi_coll_call(&reduce_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Reduce_c");
}

#pragma weak MPI_Ireduce_c = PMPI_Ireduce_c
int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                   MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                   MPI_Request *request)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, sendbuf, recvbuf,
                          count, datatype, op, root);
    return ucmpi_coll_call(&reduce_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ireduce_c");
}

#pragma weak MPI_Reduce_init_c = PMPI_Reduce_init_c
int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, sendbuf, recvbuf,
                          count, datatype, op, root);
    return ucmpi_coll_call(&reduce_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Reduce_init_c");
}
