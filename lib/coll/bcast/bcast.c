/* MPI_Bcast, MPI_Ibcast, MPI_Bcast_init: algorithm table, selection and
 * entry points. */
#include "coll/coll_alg.h"
#include "coll/coll_tune.h"
#include "coll/bcast/bcast.h"
#include "coll/coll_hier.h"
#include "coll/xfer.h"
#include "core/check.h"

#include <stdlib.h>

/* Bytes per segment of the pipelined chain. */
#define CHAIN_SEGMENT (128 * 1024)

/* Signed with its root: a rank naming another root finds foreign messages and
 * fails at once instead of waiting for a parent that never sends. */
static ucmpi_coll_grp_t bc_signed(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_sched_shape(s, (unsigned)a->root);
    return ucmpi_coll_grp_comm(a->comm);
}

static int bc_binomial(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_coll_grp_t g = bc_signed(s, a);

    return ucmpi_bcast_tree(s, a->rbuf, a->rcount, a->rdt, a->root, &g, 2);
}

static int bc_scatter_allgather(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_coll_grp_t g = bc_signed(s, a);

    return ucmpi_bcast_scatter_allgather(s, a->rbuf, a->rcount, a->rdt,
                                         a->root, &g);
}

static int bc_chain(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_coll_grp_t g = bc_signed(s, a);

    return ucmpi_bcast_chain(s, a->rbuf, a->rcount, a->rdt, a->root, &g,
                             CHAIN_SEGMENT);
}

static int bc_hier(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    (void)bc_signed(s, a);
    return ucmpi_bcast_hier(s, a->comm, a->rbuf, a->rcount, a->rdt, a->root,
                            ucmpi_thr(UCMPI_THR_BCAST_CHAIN_MIN_BYTES),
                            CHAIN_SEGMENT);
}

/* One rank: nothing to send. */
static int bc_self(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    (void)bc_signed(s, a);
    return MPI_SUCCESS;
}

static int bc_inter(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return ucmpi_bcast_inter(s, a->comm, a->comm->local_comm, a->rbuf,
                             a->rcount, a->rdt, a->root);
}

/* The blocking shm row (s == NULL); past its limit the rank votes, so all go
 * on to p2p together or all fail instead of splitting (a hang). */
static inline int bc_shm(ucmpi_sched_t *s,
                         const ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *comm = a->comm;
    size_t nbytes = (size_t)(a->rcount * a->rdt->size);
    int rc;

    if (ucmpi_coll_shm_wanted(comm, UCMPI_SHM_BCAST, nbytes))
        return ucmpi_coll_shm_bcast(comm, a->rbuf, a->rcount, a->rdt,
                                    a->root, 0);
    rc = ucmpi_xfer_shm_vote(comm, UCMPI_SHM_BCAST, nbytes, 0,
                             ucmpi_call_name());
    if (rc != MPI_SUCCESS && rc != UCMPI_SHM_FALLBACK) {
        int drc = ucmpi_coll_shm_vote_drain(comm, a->root);
        return drc != MPI_SUCCESS ? drc : rc;
    }
    return rc == MPI_SUCCESS ? UCMPI_SHM_FALLBACK : rc;
}

static const ucmpi_coll_alg_t bcast_algs[] = {
    {UCMPI_BCAST_BINOMIAL, "binomial",
     "binomial tree: log2(n) rounds, for small messages", bc_binomial},
    {UCMPI_BCAST_SCATTER_ALLGATHER, "scatter_allgather",
     "binomial scatter + ring allgather (van de Geijn), medium/large",
     bc_scatter_allgather},
    {UCMPI_BCAST_CHAIN, "chain",
     "pipelined chain in segments, for large messages", bc_chain},
    {UCMPI_BCAST_SHM, "shm", UCMPI_COLL_SHM_DESC, bc_shm},
    {UCMPI_BCAST_HIERARCHICAL, "hierarchical",
     "node-aware: heads of the nodes, then each node (large: a chain "
     "grouped by node)", bc_hier},
    {0, NULL, NULL, NULL}
};
/* Not in the table (never forced): a 1-rank comm, intercommunicators. */
static const ucmpi_coll_alg_t bc_self_alg = {
    UCMPI_BCAST_BINOMIAL, "self", "one rank", bc_self};
static const ucmpi_coll_alg_t bc_inter_alg = {
    -1, "inter", "root to the remote leader, bcast in its group", bc_inter};
#define ROW(id) (&bcast_algs[id])

/* The schedule row for *a (the shm row is the start's). */
static const ucmpi_coll_alg_t *bcast_select(const ucmpi_coll_args_t *a)
{
    const ucmpi_coll_alg_t *f =
        ucmpi_coll_alg_forced(bcast_algs, "BCAST_ALGORITHM");
    size_t nbytes = (size_t)(a->rcount * a->rdt->size);
    int size = a->size;
    const ucmpi_coll_alg_t *t;

    if (a->comm->is_inter)
        return &bc_inter_alg;
    if (size == 1 || a->rcount == 0)
        return &bc_self_alg;
    if (f != NULL && f->id != UCMPI_BCAST_SHM)
        return f;
    if ((t = ucmpi_coll_tuned(bcast_algs, "BCAST_ALGORITHM", size,
                              nbytes)) != NULL)
        return t;
    if (ucmpi_hier_useful(a->comm))
        return ROW(UCMPI_BCAST_HIERARCHICAL);
    if (size <= 2 || nbytes < ucmpi_thr(UCMPI_THR_BCAST_SMALL_BYTES))
        return ROW(UCMPI_BCAST_BINOMIAL);
    if (nbytes >= ucmpi_thr(UCMPI_THR_BCAST_CHAIN_MIN_BYTES))
        return ROW(UCMPI_BCAST_CHAIN);
    if (size >= ucmpi_thr_n(UCMPI_THR_BCAST_SA_MIN_RANKS))
        return ROW(UCMPI_BCAST_SCATTER_ALLGATHER);
    return ROW(UCMPI_BCAST_BINOMIAL);
}

/* The count-0 rule: on the shm path (bytes compared or voted) or in the
 * empty schedule. */
static int bcast_empty(const ucmpi_coll_args_t *a)
{
    return a->rcount * a->rdt->size == 0 && !a->comm->is_inter &&
           a->size > 1;
}

/* Only the buffer failed (err): a root sends empty messages the others' exact
 * receives fail on; another rank passes the data on through scratch. */
static char bcast_nodata;

static int bcast_failed(const ucmpi_coll_args_t *a, int err)
{
    ucmpi_comm_t *comm = a->comm;
    MPI_Count count = a->rcount;
    MPI_Datatype dt = a->rdt;
    int root = a->root, mode = a->mode;
    int am_root = comm->is_inter ? root == MPI_ROOT : root == comm->rank;
    size_t nbytes = (size_t)(count * dt->size);
    size_t ext = (size_t)(dt->extent > dt->true_extent ? dt->extent
                                                       : dt->true_extent);
    ucmpi_coll_args_t b = *a;     /* a's call into scratch */
    ucmpi_sched_t *s;
    char *tmp = NULL;
    int rc;

    if (mode == UCMPI_COLL_BLOCKING && !comm->is_inter &&
        ucmpi_coll_shm_wanted(comm, UCMPI_SHM_BCAST, nbytes)) {
        tmp = calloc(1, (size_t)count * ext + 1);
        if (tmp == NULL)
            return ucmpi_coll_skip(comm, err, UCMPI_SHM_BCAST, nbytes, 0);
        rc = ucmpi_coll_shm_bcast(comm, tmp - dt->true_lb, count, dt, root,
                                  1);
        free(tmp);
        if (rc != UCMPI_SHM_FALLBACK)
            return err;
    } else if (mode == UCMPI_COLL_BLOCKING &&
               (rc = ucmpi_xfer_shm_vote(comm, UCMPI_SHM_BCAST, nbytes,
                                         UCMPI_XFER_VOTE_QUIET,
                                         ucmpi_call_name())) !=
                   UCMPI_SHM_FALLBACK && rc != MPI_SUCCESS) {
        if (!am_root)
            (void)ucmpi_coll_shm_vote_drain(comm, root);
        return err;    /* the others' vote failed too (bc_shm) */
    }
    if (bcast_empty(a))
        return ucmpi_coll_run_empty(comm, mode, a->req, err);
    if (mode != UCMPI_COLL_BLOCKING)
        *a->req = MPI_REQUEST_NULL;
    if ((s = ucmpi_sched_create(comm)) == NULL)
        return ucmpi_coll_skip(comm, err, -1, 0,
                               comm->is_inter && root >= 0);
    /* the root's steps never touch its buffer (empty sends, no copies):
     * any address that is not NULL (the builders' out-of-memory sign) */
    b.rbuf = am_root ? &bcast_nodata : ucmpi_coll_tmpbuf(s, count, dt);
    rc = b.rbuf == NULL ? MPI_ERR_NO_MEM : bcast_select(&b)->build(s, &b);
    if (am_root)
        ucmpi_sched_poison(s);
    return ucmpi_coll_serve(s, rc, mode, a->req, err);
}

static int bcast_start(ucmpi_coll_args_t *a)
{
    const char *fn = ucmpi_call_name();
    ucmpi_comm_t *comm = a->comm;
    int rc = ucmpi_check_count(comm, a->rcount, fn);

    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_dt(comm, a->rdt, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_coll_check_root(comm, a->root);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_coll_check_local(comm);
    if (rc != MPI_SUCCESS)
        return rc;    /* count, type and root agree: every rank fails */
    if (a->rbuf == MPI_IN_PLACE)
        rc = ucmpi_err_comm(comm, MPI_ERR_BUFFER, fn,
                            "MPI_IN_PLACE is not allowed in a bcast");
    else if (!comm->is_inter || a->root != MPI_PROC_NULL)
        rc = ucmpi_check_buf(comm, a->rbuf, a->rcount, a->rdt, fn);
    if (rc != MPI_SUCCESS)
        return bcast_failed(a, rc);
    if (a->mode == UCMPI_COLL_BLOCKING &&
        (rc = ROW(UCMPI_BCAST_SHM)->build(NULL, a)) != UCMPI_SHM_FALLBACK)
        return rc;
    if (bcast_empty(a))
        return ucmpi_coll_run_empty(comm, a->mode, a->req, MPI_SUCCESS);
    const ucmpi_coll_alg_t *alg = bcast_select(a);
    ucmpi_sched_key_t key = {bcast_algs, alg->id, a->root, a->rbuf, a->rbuf,
                             a->rcount, a->rcount, a->rdt, a->rdt,
                             MPI_OP_NULL, NULL, 0};
    return ucmpi_coll_alg_run(alg, a, &key, NULL, 0);
}

static void bcast_record(const ucmpi_coll_args_t *a,
                         ucmpi_coll_check_args_t *r)
{
    *r = (ucmpi_coll_check_args_t){
        .rooted = 1, .root = a->root,
        .send = {.who = UCMPI_CCK_ROOT, .count = a->rcount, .dt = a->rdt},
        .recv = {.who = UCMPI_CCK_NONROOT, .to_root = 1, .count = a->rcount,
                 .dt = a->rdt}};
}

static const ucmpi_coll_desc_t bcast_desc = {
    .record = bcast_record, .start = bcast_start};

UCMPI_COLL_BASIC_FORMS(Bcast, bcast, , bcast_desc,
                       (void *buffer, int count, MPI_Datatype datatype,
                        int root, MPI_Comm comm),
                       comm, NULL, buffer, count, datatype, MPI_OP_NULL, root)
UCMPI_COLL_BASIC_FORMS(Bcast, bcast, _c, bcast_desc,
                       (void *buffer, MPI_Count count, MPI_Datatype datatype,
                        int root, MPI_Comm comm),
                       comm, NULL, buffer, count, datatype, MPI_OP_NULL, root)
