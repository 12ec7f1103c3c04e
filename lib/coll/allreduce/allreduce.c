/* MPI_Allreduce, MPI_Iallreduce, MPI_Allreduce_init: algorithm table,
 * selection and entry points. */
#include "coll/coll_alg.h"
#include "coll/coll_tune.h"
#include "coll/allreduce/allreduce.h"
#include "coll/coll.h"

/* The rows over the whole comm: alg(s, mine, rbuf, count, dt, op, g). */
typedef int (*ar_fn_t)(ucmpi_sched_t *, const void *, void *, MPI_Count,
                       MPI_Datatype, MPI_Op, const ucmpi_coll_grp_t *);

static int ar_build(ucmpi_sched_t *s, const ucmpi_coll_args_t *a, ar_fn_t fn)
{
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(a->comm);

    return fn(s, ucmpi_coll_mine(a), a->rbuf, a->rcount, a->rdt, a->op, &g);
}

static int ar_recdbl(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return ar_build(s, a, ucmpi_allreduce_recdbl);
}

static int ar_rabenseifner(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return ar_build(s, a, ucmpi_allreduce_rabenseifner);
}

static int ar_ring(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return ar_build(s, a, ucmpi_allreduce_ring);
}

static int ar_reduce_bcast(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return ar_build(s, a, ucmpi_allreduce_reduce_bcast);
}

static int ar_hierarchical(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return ucmpi_allreduce_hierarchical(s, a->comm, ucmpi_coll_mine(a),
                                        a->rbuf, a->rcount, a->rdt, a->op);
}

static int ar_ring_seg(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return ar_build(s, a, ucmpi_allreduce_ring_seg);
}

/* The shm row (s == NULL: runs the blocking call, coll_alg.h). */
static inline int ar_shm(ucmpi_sched_t *s,
                         const ucmpi_coll_args_t *a)
{
    return ucmpi_coll_shm_allreduce(a->comm, a->sbuf, a->rbuf, a->rcount,
                                    a->rdt, a->op);
}

int ucmpi_allreduce_self(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    int rc = MPI_SUCCESS;

    if (a->rcount > 0 && ucmpi_coll_mine(a) != a->rbuf)
        rc = ucmpi_sched_copy(s, ucmpi_coll_mine(a), a->rcount, a->rdt,
                              a->rbuf, a->rcount, a->rdt);
    return rc == MPI_SUCCESS && a->rcount > 0 ? ucmpi_sched_fence(s) : rc;
}

static int ar_inter(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    if (a->rcount == 0)
        return MPI_SUCCESS;
    return ucmpi_allreduce_inter(s, a->comm, a->comm->local_comm, a->sbuf,
                                 a->rbuf, a->rcount, a->rdt, a->op);
}

static const ucmpi_coll_alg_t allreduce_algs[] = {
    {UCMPI_ALLREDUCE_RECURSIVE_DOUBLING, "recursive_doubling",
     "log2(n) whole-vector exchanges; any op, any n", ar_recdbl},
    {UCMPI_ALLREDUCE_RABENSEIFNER, "rabenseifner",
     "recursive-halving reduce-scatter + recursive-doubling allgather",
     ar_rabenseifner},
    {UCMPI_ALLREDUCE_RING, "ring",
     "ring reduce-scatter + ring allgather (bandwidth-optimal)", ar_ring},
    {UCMPI_ALLREDUCE_REDUCE_BCAST, "reduce_bcast",
     "binomial reduce + binomial bcast, for tiny vectors", ar_reduce_bcast},
    {UCMPI_ALLREDUCE_HIERARCHICAL, "hierarchical",
     "reduce in node, allreduce among node leaders, bcast in node",
     ar_hierarchical},
    {UCMPI_ALLREDUCE_RING_SEGMENTED, "ring_segmented",
     "ring in pipelined segments, no vector-sized temporary (large)",
     ar_ring_seg},
    {UCMPI_ALLREDUCE_SHM, "shm", UCMPI_COLL_SHM_DESC, ar_shm},
    {0, NULL, NULL, NULL}
};
/* Not in the table (never forced): a 1-rank comm, intercommunicators. */
static const ucmpi_coll_alg_t ar_self_alg = {
    UCMPI_ALLREDUCE_RECURSIVE_DOUBLING, "self", "one rank",
    ucmpi_allreduce_self};
static const ucmpi_coll_alg_t ar_inter_alg = {
    -1, "inter", "reduce in each group, leaders swap, bcast", ar_inter};
#define ROW(id) (&allreduce_algs[id])

/* Algorithms that may reorder operands need a commutative op. */
static int op_ok(int alg, ucmpi_comm_t *comm, MPI_Op op)
{
    if (op->commute)
        return 1;
    if (alg == UCMPI_ALLREDUCE_RABENSEIFNER || alg == UCMPI_ALLREDUCE_RING ||
        alg == UCMPI_ALLREDUCE_RING_SEGMENTED)
        return 0;
    if (alg == UCMPI_ALLREDUCE_HIERARCHICAL) {
        const ucmpi_coll_layout_t *l = ucmpi_coll_layout(comm);
        return l != NULL && l->contiguous;
    }
    return 1;
}

/* The schedule row for *a; count 0 takes recursive doubling, empty, whatever
 * the others chose: their exact receives or the stall probe fail them. */
static const ucmpi_coll_alg_t *allreduce_select(const ucmpi_coll_args_t *a)
{
    const ucmpi_coll_alg_t *f =
        ucmpi_coll_alg_forced(allreduce_algs, "ALLREDUCE_ALGORITHM");
    ucmpi_comm_t *comm = a->comm;
    size_t nbytes = (size_t)(a->rcount * a->rdt->size);
    const ucmpi_coll_layout_t *l;
    const ucmpi_coll_alg_t *t;

    if (a->size == 1)
        return &ar_self_alg;
    if (a->rcount == 0)
        return ROW(UCMPI_ALLREDUCE_RECURSIVE_DOUBLING);
    if (f != NULL && f->id != UCMPI_ALLREDUCE_SHM)
        return op_ok(f->id, comm, a->op)
                   ? f : ROW(UCMPI_ALLREDUCE_RECURSIVE_DOUBLING);
    if ((t = ucmpi_coll_tuned(allreduce_algs, "ALLREDUCE_ALGORITHM",
                              a->size, nbytes)) != NULL &&
        op_ok(t->id, comm, a->op))
        return t;
    l = ucmpi_coll_layout(comm);
    if (l != NULL && l->nnodes > 1 && l->nnodes < comm->size &&
        op_ok(UCMPI_ALLREDUCE_HIERARCHICAL, comm, a->op))
        return ROW(UCMPI_ALLREDUCE_HIERARCHICAL);
    if (!a->op->commute ||
        nbytes <= ucmpi_thr(UCMPI_THR_ALLREDUCE_RD_MAX_BYTES) ||
        a->rcount < comm->size)
        return ROW(UCMPI_ALLREDUCE_RECURSIVE_DOUBLING);
    /* ring_segmented: measured against the others in docs/tuning.md */
    if (comm->size == 2 ||
        nbytes >= ucmpi_thr(UCMPI_THR_ALLREDUCE_RING_MIN_BYTES))
        return ROW(UCMPI_ALLREDUCE_RING_SEGMENTED);
    return ROW(UCMPI_ALLREDUCE_RABENSEIFNER);
}

int ucmpi_reduction_shm_vote(ucmpi_comm_t *comm, int kind, size_t nbytes)
{
    if (!ucmpi_coll_shm_wanted(comm, kind, 0))
        return UCMPI_SHM_FALLBACK;
    return ucmpi_coll_shm_sizes(comm, nbytes);
}

static int allreduce_start(ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *comm = a->comm;
    MPI_Count count = a->rcount;
    MPI_Datatype dt = a->rdt;
    const ucmpi_coll_alg_t *alg;
    int rc = ucmpi_allreduce_check(a, ucmpi_call_name());

    if (rc != MPI_SUCCESS)
        return rc;
    if (a->mode == UCMPI_COLL_BLOCKING && dt->contig &&
        (rc = ucmpi_reduction_shm(ROW(UCMPI_ALLREDUCE_SHM), a,
                                  UCMPI_SHM_ALLREDUCE, count)) !=
            UCMPI_SHM_FALLBACK)
        return rc;
    if ((rc = ucmpi_coll_check_local(comm)) != MPI_SUCCESS)
        return rc;
    alg = comm->is_inter ? &ar_inter_alg : allreduce_select(a);
    ucmpi_sched_key_t key = {allreduce_algs, alg->id, 0, a->sbuf, a->rbuf,
                             count, count, dt, dt, a->op, NULL, 0};
    return ucmpi_coll_alg_run(alg, a, &key,
                              comm->is_inter ? NULL : allreduce_algs, 0);
}

void ucmpi_allreduce_record(const ucmpi_coll_args_t *a,
                            ucmpi_coll_check_args_t *r)
{
    *r = (ucmpi_coll_check_args_t){
        .has_op = 1, .op = a->op, .op_dt = a->rdt,
        .send = {.count = a->rcount, .dt = a->rdt},
        .recv = {.count = a->rcount, .dt = a->rdt}};
}

static const ucmpi_coll_desc_t allreduce_desc = {
    .record = ucmpi_allreduce_record, .start = allreduce_start};

UCMPI_COLL_BASIC_FORMS(Allreduce, allreduce, , allreduce_desc,
                       (const void *sendbuf, void *recvbuf, int count,
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
                       comm, sendbuf, recvbuf, count, datatype, op, 0)
UCMPI_COLL_BASIC_FORMS(Allreduce, allreduce, _c, allreduce_desc,
                       (const void *sendbuf, void *recvbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
                       comm, sendbuf, recvbuf, count, datatype, op, 0)
