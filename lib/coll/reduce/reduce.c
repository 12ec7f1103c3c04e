/* MPI_Reduce, MPI_Ireduce, MPI_Reduce_init: algorithm table, selection and
 * entry points. */
#include "coll/coll_alg.h"
#include "coll/coll_tune.h"
#include "coll/reduce/reduce.h"
#include "coll/coll_hier.h"
#include "coll/allreduce/allreduce.h"
#include "coll/alias.h"
#include "core/check.h"
#include "core/config.h"

#include <stdlib.h>
#include <string.h>

/* A non-root's shm reduce at count 0: records 0 bytes, posts, and checks the
 * root's record, so a count mismatch fails it too.  FALLBACK: no segment. */
static int reduce_shm_zero(ucmpi_comm_t *comm, int root)
{
    ucmpi_coll_shm_t *sh;
    uint64_t k, theirs;
    int rc;

    if (!ucmpi_coll_shm_wanted(comm, UCMPI_SHM_REDUCE, 0))
        return UCMPI_SHM_FALLBACK;
    if ((rc = ucmpi_coll_shm_enter(comm, &sh, &k)) != MPI_SUCCESS ||
        (rc = ucmpi_coll_shm_wait_room(sh, k, 0)) != MPI_SUCCESS)
        return rc;
    ucmpi_coll_shm_set_size(sh, k, 0);
    ucmpi_coll_shm_post(sh, k);
    if ((rc = ucmpi_coll_shm_wait(sh, root, k)) != MPI_SUCCESS)
        return rc;
    return ucmpi_coll_shm_check_root_size(sh, root, k, 0, &theirs);
}

/* The count-0 rule (err: this rank's check): on the shm path the root votes
 * and a non-root records 0 bytes, as others do; else the empty schedule. */
static int reduce_zero(ucmpi_comm_t *comm, MPI_Datatype dt, int root,
                       int mode, MPI_Request *req, int err)
{
    int rc;

    if (mode == UCMPI_COLL_BLOCKING && dt->contig &&
        (rc = comm->rank == root
                  ? ucmpi_reduction_shm_vote(comm, UCMPI_SHM_REDUCE, 0)
                  : reduce_shm_zero(comm, root)) != UCMPI_SHM_FALLBACK)
        return err != MPI_SUCCESS ? err : rc;
    return ucmpi_coll_run_empty_rooted(comm, root, mode, req, err);
}

static int reduce_zero_applies(const ucmpi_comm_t *comm, MPI_Count count,
                               MPI_Datatype dt, int root)
{
    return count * dt->size == 0 && !comm->is_inter && comm->size > 1 &&
           root >= 0 && root < comm->size;
}

static int rd_binomial(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(a->comm);

    return ucmpi_reduce_tree(s, ucmpi_coll_mine(a), a->rbuf, a->rcount,
                             a->rdt, a->op, a->root, &g, 2);
}

static int rd_linear(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(a->comm);

    return ucmpi_reduce_linear(s, ucmpi_coll_mine(a), a->rbuf, a->rcount,
                               a->rdt, a->op, a->root, &g);
}

static int rd_chain(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(a->comm);

    return ucmpi_reduce_chain(s, ucmpi_coll_mine(a), a->rbuf, a->rcount,
                              a->rdt, a->op, a->root, &g,
                              (size_t)ucmpi_config_long("REDUCE_SEGMENT"));
}

static int rd_hier(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return ucmpi_reduce_hier(s, a->comm, ucmpi_coll_mine(a), a->rbuf,
                             a->rcount, a->rdt, a->op, a->root,
                             ucmpi_thr(UCMPI_THR_REDUCE_CHAIN_MIN_BYTES),
                             (size_t)ucmpi_config_long("REDUCE_SEGMENT"));
}

static int rd_inter(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    if (a->rcount == 0)
        return MPI_SUCCESS;
    return ucmpi_reduce_inter(s, a->comm, a->comm->local_comm, a->sbuf,
                              a->rbuf, a->rcount, a->rdt, a->op, a->root);
}

/* The blocking shm row (s == NULL); a rank that does not take it votes with
 * its bytes, so a count mismatch fails all instead of splitting them. */
static inline int rd_shm(ucmpi_sched_t *s,
                         const ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *comm = a->comm;
    size_t nbytes = (size_t)(a->rcount * a->rdt->size);
    int rc;

    if (a->rcount > 0 &&
        ucmpi_coll_shm_wanted(comm, UCMPI_SHM_REDUCE, nbytes) &&
        (rc = ucmpi_coll_shm_reduce(comm, a->sbuf, a->rbuf, a->rcount,
                                    a->rdt, a->op, a->root)) !=
            UCMPI_SHM_FALLBACK)
        return rc;
    if (nbytes == 0 && a->rank != a->root)
        return reduce_shm_zero(comm, a->root);
    rc = ucmpi_reduction_shm_vote(comm, UCMPI_SHM_REDUCE, nbytes);
    return rc == MPI_SUCCESS && nbytes > 0 ? UCMPI_SHM_FALLBACK : rc;
}

static const ucmpi_coll_alg_t reduce_algs[] = {
    {UCMPI_REDUCE_BINOMIAL, "binomial",
     "binomial tree, log2(n) rounds; rank order for non-commutative ops",
     rd_binomial},
    {UCMPI_REDUCE_LINEAR, "linear",
     "root receives all contributions at once (small communicators)",
     rd_linear},
    {UCMPI_REDUCE_SHM, "shm", UCMPI_COLL_SHM_DESC, rd_shm},
    {UCMPI_REDUCE_CHAIN, "chain",
     "pipelined chain in REDUCE_SEGMENT pieces: the vector once per link",
     rd_chain},
    {UCMPI_REDUCE_HIERARCHICAL, "hierarchical",
     "node-aware: each node to its head, heads to the root (large, "
     "commutative: the chain grouped by node)", rd_hier},
    {0, NULL, NULL, NULL}
};
/* Not in the table (never forced): a 1-rank comm, intercommunicators. */
static const ucmpi_coll_alg_t rd_self_alg = {
    UCMPI_REDUCE_BINOMIAL, "self", "one rank", ucmpi_allreduce_self};
static const ucmpi_coll_alg_t rd_inter_alg = {
    -1, "inter", "reduce in the group to the root of the other", rd_inter};
#define ROW(id) (&reduce_algs[id])

/* The schedule row for *a (forced: NULL for none).  Linear: one round but n-1
 * buffers at the root, so only tiny comms and messages (docs/tuning.md). */
static const ucmpi_coll_alg_t *reduce_select(const ucmpi_coll_args_t *a,
                                             const ucmpi_coll_alg_t *forced)
{
    size_t nbytes = (size_t)(a->rcount * a->rdt->size);
    int size = a->size;
    const ucmpi_coll_alg_t *t;

    if (a->comm->is_inter)
        return &rd_inter_alg;
    if (size == 1)
        return &rd_self_alg;
    /* hierarchical keeps rank order only with nodes of consecutive ranks */
    int hier_ok = a->op->commute || ucmpi_hier_contiguous(a->comm);

    if (forced != NULL && forced->id == UCMPI_REDUCE_HIERARCHICAL && !hier_ok)
        return ROW(UCMPI_REDUCE_BINOMIAL);
    if (forced != NULL && forced->id != UCMPI_REDUCE_SHM)
        return forced;
    if ((t = ucmpi_coll_tuned(reduce_algs, "REDUCE_ALGORITHM", size,
                              nbytes)) != NULL)
        return t;
    if (hier_ok && ucmpi_hier_useful(a->comm))
        return ROW(UCMPI_REDUCE_HIERARCHICAL);
    if (size <= ucmpi_thr_n(UCMPI_THR_REDUCE_LINEAR_MAX_RANKS) &&
        nbytes <= ucmpi_thr(UCMPI_THR_REDUCE_LINEAR_MAX_BYTES))
        return ROW(UCMPI_REDUCE_LINEAR);
    if (size >= ucmpi_thr_n(UCMPI_THR_REDUCE_CHAIN_MIN_RANKS) &&
        nbytes >= ucmpi_thr(UCMPI_THR_REDUCE_CHAIN_MIN_BYTES))
        return ROW(UCMPI_REDUCE_CHAIN);
    return ROW(UCMPI_REDUCE_BINOMIAL);
}

static const ucmpi_coll_alg_t *reduce_forced(void)
{
    return ucmpi_coll_alg_forced(reduce_algs, "REDUCE_ALGORITHM");
}

/* A failed rank where the others take the shm path: their numbers with a
 * "lost" size record, 1; 0 if they run p2p (count, dt valid when dt_ok). */
static int reduce_shm_skip(ucmpi_comm_t *comm, int mode, MPI_Count count,
                           MPI_Datatype dt, int dt_ok)
{
    int shm = mode == UCMPI_COLL_BLOCKING && dt_ok && count > 0 &&
              dt->contig;
    /* the shm path may take several numbers (large: chunks), or none */
    int numbers = shm ? ucmpi_coll_shm_reduce_numbers(comm, count, dt) : 0;

    /* count or type unknown: on one node the others take shm at any size
     * (a guess), which the "lost" record ends at its first number */
    if (mode == UCMPI_COLL_BLOCKING && (!dt_ok || count < 0) &&
        !comm->is_inter &&
        ucmpi_coll_shm_wanted(comm, UCMPI_SHM_REDUCE, 1))
        numbers = 1;
    /* a number taken with a "lost" size record: the root (and a split
     * reduce's every rank) reports it instead of reducing stale data */
    return numbers >= 1 &&
           ucmpi_coll_shm_skip(comm, numbers) !=
               UCMPI_SHM_FALLBACK;
}

/* A failed rank keeps comm's collective numbers in step with the others
 * (the shm number when they take it). */
static int reduce_skip(ucmpi_comm_t *comm, int rc, int mode, MPI_Count count,
                       MPI_Datatype dt, int dt_ok, int root)
{
    if (reduce_shm_skip(comm, mode, count, dt, dt_ok))
        return rc;
    /* (no segment: the others run p2p too) */
    return ucmpi_coll_skip(comm, rc, -1, 0,
                           comm->is_inter && root >= 0 && count != 0);
}

/* A failed rank's part in the others' schedule (alg NULL: theirs for this
 * size) on zeros in scratch: it outlives the call, so no user buffers. */
static int build_zero_reduce(ucmpi_sched_t *s, const ucmpi_coll_args_t *a,
                             MPI_Count count, MPI_Datatype dt, MPI_Op op,
                             const ucmpi_coll_alg_t *alg)
{
    size_t ext = (size_t)(dt->extent > dt->true_extent ? dt->extent
                                                       : dt->true_extent);
    ucmpi_coll_args_t b = *a;

    b.sbuf = b.rbuf = ucmpi_coll_tmpbuf(s, count, dt);
    if (b.rbuf == NULL)
        return MPI_ERR_NO_MEM;
    memset((char *)b.rbuf + dt->true_lb, 0, (size_t)count * ext);
    b.rcount = count;
    b.rdt = dt;
    b.op = op;
    if (alg == NULL)
        alg = reduce_select(&b, reduce_forced());
    return alg->build(s, &b);
}

/* This rank's buffers failed a check (count, type, op fine): see failed
 * reduce ranks in docs/architecture.md. */
static int reduce_buf_failed(const ucmpi_coll_args_t *a, int am_root, int err)
{
    ucmpi_comm_t *comm = a->comm;
    MPI_Count count = a->rcount;
    MPI_Datatype dt = a->rdt;
    int root = a->root, mode = a->mode;
    size_t nbytes = (size_t)(count * dt->size);
    size_t ext = (size_t)(dt->extent > dt->true_extent ? dt->extent
                                                       : dt->true_extent);
    int shm = mode == UCMPI_COLL_BLOCKING && dt->contig && !comm->is_inter &&
              ucmpi_coll_shm_wanted(comm, UCMPI_SHM_REDUCE, nbytes);
    ucmpi_sched_t *s;
    char *tmp;
    int rc;

    if (reduce_zero_applies(comm, count, dt, root))
        return reduce_zero(comm, dt, root, mode, a->req, err);
    if (mode != UCMPI_COLL_BLOCKING)
        *a->req = MPI_REQUEST_NULL;
    if (count == 0 || (!am_root && (comm->is_inter || shm)))
        return reduce_skip(comm, err, mode, count, dt, 1, root);
    if (am_root && shm) {
        tmp = calloc((size_t)count, ext);
        if (tmp == NULL)
            return reduce_skip(comm, err, mode, count, dt, 1, root);
        rc = ucmpi_coll_shm_reduce(comm, a->sbuf, tmp - dt->true_lb, count,
                                   dt, a->op, root);
        free(tmp);
        if (rc != UCMPI_SHM_FALLBACK)
            return err;
    }
    if ((s = ucmpi_sched_create(comm)) == NULL)
        return reduce_skip(comm, err, mode, count, dt, 1, root);
    /* MPI_ROOT: the result of the other group, dropped as it comes; an
     * intracomm root contributes zeros (its result is dropped anyway) */
    if (am_root && comm->is_inter)
        rc = ucmpi_sched_recv(s, NULL, 0, MPI_BYTE, 0);
    else
        rc = build_zero_reduce(s, a, count, dt, a->op, NULL);
    if (!am_root)
        ucmpi_sched_poison(s);
    return ucmpi_coll_serve(s, rc, mode, a->req, err);
}

/* Count, type or op failed a check: run the others' p2p schedule poisoned
 * where its shape is known, else skip (docs/architecture.md). */
static int reduce_blind_failed(const ucmpi_coll_args_t *a, int err,
                               int dt_ok)
{
    ucmpi_comm_t *comm = a->comm;
    MPI_Count count = a->rcount;
    MPI_Datatype dt = a->rdt;
    int root = a->root, mode = a->mode;
    const char *why;
    const ucmpi_coll_alg_t *alg = reduce_forced();
    int known = dt_ok && count >= 0;
    MPI_Op use = ucmpi_op_check(a->op, MPI_BYTE, &why) == MPI_SUCCESS
                     ? a->op : MPI_SUM;
    ucmpi_sched_t *s;
    int rc;

    if (a->req == NULL)           /* (the request check failed) */
        mode = UCMPI_COLL_BLOCKING;
    if (known && reduce_zero_applies(comm, count, dt, root))
        return reduce_zero(comm, dt, root, mode, a->req, err);
    if (mode != UCMPI_COLL_BLOCKING)
        *a->req = MPI_REQUEST_NULL;
    if (comm->is_inter || root < 0 || root >= comm->size)
        return reduce_skip(comm, err, mode, count, dt, dt_ok, root);
    if (reduce_shm_skip(comm, mode, count, dt, dt_ok))
        return err;
    if (alg == NULL && comm->size == 2 && (use->commute || root == 0))
        alg = ROW(UCMPI_REDUCE_LINEAR); /* = binomial: one send to root */
    if (!known && (alg == NULL || (alg->id != UCMPI_REDUCE_BINOMIAL &&
                                   alg->id != UCMPI_REDUCE_LINEAR)))
        return ucmpi_coll_skip_abort(comm, err, mode, a->req);
    if ((known && count == 0) ||  /* nothing to lose: they skip too */
        (s = ucmpi_sched_create(comm)) == NULL)
        return ucmpi_coll_skip(comm, err, -1, 0, 0);
    rc = known ? build_zero_reduce(s, a, count, dt, use, NULL)
               : build_zero_reduce(s, a, 1, MPI_BYTE, use, alg);
    ucmpi_sched_poison(s);
    return ucmpi_coll_serve(s, rc, mode, a->req, err);
}

static int reduce_start(ucmpi_coll_args_t *a)
{
    const char *fn = ucmpi_call_name();
    ucmpi_comm_t *comm = a->comm;
    MPI_Count count = a->rcount;
    MPI_Datatype dt = a->rdt;
    int root = a->root, rc = ucmpi_check_count(comm, count, fn);
    int am_root, dt_ok;

    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_dt(comm, dt, fn);
    dt_ok = rc == MPI_SUCCESS;
    if (rc == MPI_SUCCESS)
        rc = ucmpi_coll_check_root(comm, root);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_coll_check_op(comm, a->op, dt);
    if (rc != MPI_SUCCESS)
        return reduce_blind_failed(a, rc, dt_ok);
    am_root = comm->is_inter ? root == MPI_ROOT : root == a->rank;
    if (a->rbuf == MPI_IN_PLACE ||
        (a->sbuf == MPI_IN_PLACE && (!am_root || comm->is_inter))) {
        rc = ucmpi_err_comm(comm, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is only "
                            "allowed as the root's send buffer of an "
                            "intracommunicator reduce");
        return reduce_buf_failed(a, am_root, rc);
    }
    /* only the root of an intracomm uses both buffers */
    if (am_root && !comm->is_inter && a->sbuf != MPI_IN_PLACE &&
        (rc = ucmpi_coll_check_alias1(comm, a->sbuf, count, dt, a->rbuf,
                                      count, dt, fn)) != MPI_SUCCESS)
        return reduce_buf_failed(a, 1, rc);
    if ((rc = ucmpi_coll_check_local(comm)) != MPI_SUCCESS)
        return rc;
    if (a->mode == UCMPI_COLL_BLOCKING && dt->contig &&
        (rc = ROW(UCMPI_REDUCE_SHM)->build(NULL, a)) != UCMPI_SHM_FALLBACK)
        return rc;
    if (reduce_zero_applies(comm, count, dt, root))
        return ucmpi_coll_run_empty_rooted(comm, root, a->mode, a->req,
                                           MPI_SUCCESS);
    const ucmpi_coll_alg_t *alg = reduce_select(a, reduce_forced());
    ucmpi_sched_key_t key = {reduce_algs, alg->id, root, a->sbuf, a->rbuf,
                             count, count, dt, dt, a->op, NULL, 0};
    return ucmpi_coll_alg_run(alg, a, &key, NULL, 0);
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

UCMPI_COLL_BASIC_FORMS(Reduce, reduce, , reduce_desc,
                       (const void *sendbuf, void *recvbuf, int count,
                        MPI_Datatype datatype, MPI_Op op, int root,
                        MPI_Comm comm),
                       comm, sendbuf, recvbuf, count, datatype, op, root)
UCMPI_COLL_BASIC_FORMS(Reduce, reduce, _c, reduce_desc,
                       (const void *sendbuf, void *recvbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op, int root,
                        MPI_Comm comm),
                       comm, sendbuf, recvbuf, count, datatype, op, root)
