/* MPI_Reduce_scatter(_block), their I and _init forms: algorithm table,
 * selection and entry points. */
#include "coll/coll_alg.h"
#include "coll/coll_tune.h"
#include "coll/reduce_scatter/reduce_scatter.h"
#include "coll/allreduce/allreduce.h"
#include "coll/alias.h"
#include "coll/xfer.h"
#include "core/check.h"

#include <stdlib.h>
#include <string.h>

MPI_Count ucmpi_rs_displs(const MPI_Count *counts, int n, MPI_Count *displs)
{
    MPI_Count t = 0;

    for (int i = 0; i < n; i++) {
        displs[i] = t;
        t += counts[i];
    }
    displs[n] = t;
    return t;
}

/* Member i's count: recvcounts[i], or the _block forms' count. */
static MPI_Count rs_count(const ucmpi_coll_args_t *a, int i)
{
    return a->rcounts ? a->rcounts[i]
           : a->rcounts_c ? a->rcounts_c[i] : a->rcount;
}

/* Every member's count, in s's scratch (NULL: out of memory). */
static MPI_Count *rs_counts(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    MPI_Count *c = ucmpi_sched_alloc(s, (size_t)a->size * sizeof(*c));

    for (int i = 0; c != NULL && i < a->size; i++)
        c[i] = rs_count(a, i);
    return c;
}

/* The rows over the comm: alg(s, in, rbuf, counts, dt, op, g). */
typedef int (*rs_fn_t)(ucmpi_sched_t *, const void *, void *,
                       const MPI_Count *, MPI_Datatype, MPI_Op,
                       const ucmpi_coll_grp_t *);

static int rs_build(ucmpi_sched_t *s, const ucmpi_coll_args_t *a, rs_fn_t fn)
{
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(a->comm);
    MPI_Count *c = rs_counts(s, a);

    return c == NULL ? MPI_ERR_NO_MEM
                     : fn(s, ucmpi_coll_mine(a), a->rbuf, c, a->rdt, a->op,
                          &g);
}

static int rs_rh(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return rs_build(s, a, ucmpi_rs_recursive_halving);
}

static int rs_ring(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return rs_build(s, a, ucmpi_rs_ring);
}

static int rs_pairwise(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return rs_build(s, a, ucmpi_rs_pairwise);
}

static int rs_ring_seg(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return rs_build(s, a, ucmpi_rs_ring_seg);
}

/* One rank: its block is the whole vector. */
static int rs_self(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    MPI_Count n = rs_count(a, 0);

    if (ucmpi_coll_mine(a) == a->rbuf)
        return MPI_SUCCESS;
    return ucmpi_sched_copy(s, ucmpi_coll_mine(a), n, a->rdt, a->rbuf, n,
                            a->rdt);
}

static int rs_inter(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    MPI_Count *c = rs_counts(s, a);

    return c == NULL ? MPI_ERR_NO_MEM
                     : ucmpi_rs_inter(s, a->comm, a->comm->local_comm,
                                      a->sbuf, a->rbuf, c, a->rdt, a->op);
}

/* Total 0 where the algorithm of the others is not known. */
static int rs_none(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return MPI_SUCCESS;
}

/* The blocking shm row (s == NULL): a rank copies in only the others' blocks;
 * the whole vector in one buffer only when a piece cannot hold an element. */
static int rs_shm(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *comm = a->comm;
    int n = a->size, rc;
    MPI_Count stack[2 * 64 + 1], *counts = stack, total;

    /* n+1 displacements (ucmpi_rs_displs) after n counts */
    if (n > 64)
        counts = malloc(sizeof(MPI_Count) * (2 * (size_t)n + 1));
    if (counts == NULL)
        return ucmpi_coll_err(comm, MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; i < n; i++)
        counts[i] = rs_count(a, i);
    total = ucmpi_rs_displs(counts, n, counts + n);
    rc = ucmpi_coll_shm_reduce_scatter_large(comm, a->sbuf, a->rbuf, counts,
                                             counts + n, a->rdt, a->op);
    /* (n, dt) alone decide this (or no segment: the same answer again) */
    if (rc == UCMPI_SHM_FALLBACK &&
        (size_t)(total * a->rdt->size) <= ucmpi_coll_shm_slot_size(n))
        rc = ucmpi_coll_shm_reduce_scatter(comm, a->sbuf, a->rbuf, total,
                                           counts[n + a->rank],
                                           counts[a->rank], a->rdt, a->op);
    if (counts != stack)
        free(counts);
    return rc;
}

static const ucmpi_coll_alg_t rs_algs[] = {
    {UCMPI_RS_RECURSIVE_HALVING, "recursive_halving",
     "recursive halving, log2(n) steps (commutative ops)", rs_rh},
    {UCMPI_RS_RING, "ring",
     "ring, n-1 steps of one block (commutative ops, long vectors)", rs_ring},
    {UCMPI_RS_PAIRWISE, "pairwise",
     "pairwise exchange, n-1 steps; any op in rank order", rs_pairwise},
    {UCMPI_RS_RING_SEGMENTED, "ring_segmented",
     "ring in pipelined segments, no input copy (commutative, long)",
     rs_ring_seg},
    {UCMPI_RS_SHM, "shm", UCMPI_COLL_SHM_DESC, rs_shm},
    {0, NULL, NULL, NULL}
};
/* Not in the table (never forced). */
static const ucmpi_coll_alg_t rs_self_alg = {
    UCMPI_RS_RECURSIVE_HALVING, "self", "one rank", rs_self};
static const ucmpi_coll_alg_t rs_inter_alg = {
    -1, "inter", "reduce to the leaders, exchange, scatterv", rs_inter};
static const ucmpi_coll_alg_t rs_none_alg = {
    -1, "none", "total 0 on large-vector rows", rs_none};
#define ROW(id) (&rs_algs[id])

/* ring_segmented replaces ring (no copy of the input); on 2 ranks from
 * 32 KiB (docs/tuning.md). */
static const ucmpi_coll_alg_t *rs_select(MPI_Op op, size_t total_bytes, int n)
{
    const ucmpi_coll_alg_t *f =
        ucmpi_coll_alg_forced(rs_algs, "REDUCE_SCATTER_ALGORITHM");

    if (!op->commute)
        return ROW(UCMPI_RS_PAIRWISE);
    if (f != NULL && f->id != UCMPI_RS_SHM)
        return f;
    if ((f = ucmpi_coll_tuned(rs_algs, "REDUCE_SCATTER_ALGORITHM", n,
                              total_bytes)) != NULL)
        return f;
    if (total_bytes >= ucmpi_thr(UCMPI_THR_RS_RING_MIN_BYTES) ||
        (n == 2 && total_bytes >= 32768))
        return ROW(UCMPI_RS_RING_SEGMENTED);
    return ROW(UCMPI_RS_RECURSIVE_HALVING);
}

/* The row for total elements (0: small-vector algorithm, empty); signed with
 * it and the segments, so ranks that differ fail in the stall probe. */
static const ucmpi_coll_alg_t *rs_choose(const ucmpi_coll_args_t *a,
                                         MPI_Count total)
{
    const ucmpi_coll_alg_t *alg;

    if (a->comm->is_inter)
        return &rs_inter_alg;
    alg = rs_select(a->op, (size_t)(total * a->rdt->size), a->size);
    if (total == 0 && alg->id != UCMPI_RS_RECURSIVE_HALVING &&
        alg->id != UCMPI_RS_PAIRWISE)
        return &rs_none_alg;
    return a->size == 1 ? &rs_self_alg : alg;
}

/* counts: local group sizes (n entries); for _block a uniform count. */
static int rs_start(ucmpi_coll_args_t *a)
{
    const char *fn = ucmpi_call_name();
    ucmpi_comm_t *comm = a->comm;
    const int *icounts = a->rcounts;
    MPI_Datatype dt = a->rdt;
    const ucmpi_coll_alg_t *alg;
    MPI_Count total = 0;
    int rc = MPI_SUCCESS, n = a->size;

    if (icounts == NULL && a->rcounts_c == NULL)
        rc = ucmpi_check_count(comm, a->rcount, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_dt(comm, dt, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_coll_check_op(comm, a->op, dt);
    if (rc != MPI_SUCCESS)
        return rc;
    if (a->rbuf == MPI_IN_PLACE ||
        (a->sbuf == MPI_IN_PLACE && comm->is_inter))
        return ucmpi_err_comm(comm, MPI_ERR_BUFFER, fn,
                              "MPI_IN_PLACE is only allowed as the send "
                              "buffer of an intracommunicator call");
    if ((rc = ucmpi_coll_check_local(comm)) != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < n; i++) {
        MPI_Count c = rs_count(a, i);
        if (c < 0)
            return ucmpi_err_comm(comm, MPI_ERR_COUNT, fn,
                                  "recvcounts[%d] = %lld is negative", i,
                                  (long long)c);
        total += c;
    }
    if (a->sbuf != MPI_IN_PLACE &&
        (rc = ucmpi_coll_check_alias1(comm, a->sbuf, total, dt, a->rbuf,
                                      rs_count(a, a->rank), dt, fn)) !=
            MPI_SUCCESS)
        return rc;
    if (a->mode == UCMPI_COLL_BLOCKING && !comm->is_inter && dt->contig &&
        (rc = ucmpi_reduction_shm(ROW(UCMPI_RS_SHM), a,
                                  UCMPI_SHM_REDUCE_SCATTER, total)) !=
            UCMPI_SHM_FALLBACK)
        return rc;
    alg = rs_choose(a, total);
    /* the selection depends on (op, total bytes), both in the key */
    ucmpi_sched_key_t key = {rs_algs, 0, 0, a->sbuf, a->rbuf, a->rcount,
                             total, dt, dt, a->op, icounts,
                             icounts ? n : 0};
    return ucmpi_coll_alg_run(alg, a, a->rcounts_c ? NULL : &key,
                              alg->id < 0 ? NULL : rs_algs, 0);
}

static int rs_check(const ucmpi_coll_args_t *a)
{
    if (a->rcounts == NULL && a->rcounts_c == NULL)
        return ucmpi_coll_err(a->comm, MPI_ERR_ARG, "recvcounts is NULL");
    return MPI_SUCCESS;
}

static void rs_record(const ucmpi_coll_args_t *a, ucmpi_coll_check_args_t *r)
{
    int vec = a->rcounts != NULL || a->rcounts_c != NULL;

    *r = (ucmpi_coll_check_args_t){
        .has_op = 1, .op = a->op, .op_dt = a->rdt,
        .send = {.vec = vec, .counts = a->rcounts, .ccounts = a->rcounts_c,
                 .count = a->rcount, .dt = a->rdt},
        .recv = {.vec = vec, .self_index = 1, .counts = a->rcounts,
                 .ccounts = a->rcounts_c, .count = a->rcount, .dt = a->rdt}};
}

static const ucmpi_coll_desc_t rs_desc = {
    .check = rs_check, .record = rs_record, .start = rs_start};
static const ucmpi_coll_desc_t rsb_desc = {
    .record = rs_record, .start = rs_start};

/* The entry points: recvcounts (int or _c forms) or one count for every
 * member (_block forms). */
#define RS_PARAMS(counts)                                                    \
    (const void *sendbuf, void *recvbuf, counts, MPI_Datatype datatype,      \
     MPI_Op op, MPI_Comm comm)
#define RS_FILL(field, counts)                                               \
    .comm = comm, .sbuf = sendbuf, .rbuf = recvbuf, .field = counts,         \
    .rdt = datatype, .op = op
UCMPI_XFER_FORMS(Reduce_scatter, reduce_scatter, , rs_desc,
                 RS_PARAMS(const int recvcounts[]),
                 RS_FILL(rcounts, recvcounts))
UCMPI_XFER_FORMS(Reduce_scatter, reduce_scatter, _c, rs_desc,
                 RS_PARAMS(const MPI_Count recvcounts[]),
                 RS_FILL(rcounts_c, recvcounts))
UCMPI_XFER_FORMS(Reduce_scatter_block, reduce_scatter_block, , rsb_desc,
                 RS_PARAMS(int recvcount), RS_FILL(rcount, recvcount))
UCMPI_XFER_FORMS(Reduce_scatter_block, reduce_scatter_block, _c, rsb_desc,
                 RS_PARAMS(MPI_Count recvcount), RS_FILL(rcount, recvcount))
