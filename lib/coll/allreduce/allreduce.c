/* MPI_Allreduce, MPI_Iallreduce, MPI_Allreduce_init: algorithm table,
 * selection and entry points. */
#include "coll/coll_drv.h"
#include "coll/coll_tune.h"
#include "coll/allreduce/allreduce.h"
#include "coll/alias.h"
#include "coll/coll.h"

static const ucmpi_coll_alg_t allreduce_algs[] = {
    {UCMPI_ALLREDUCE_RECURSIVE_DOUBLING, "recursive_doubling",
     "log2(n) whole-vector exchanges; any op, any n"},
    {UCMPI_ALLREDUCE_RABENSEIFNER, "rabenseifner",
     "recursive-halving reduce-scatter + recursive-doubling allgather"},
    {UCMPI_ALLREDUCE_RING, "ring",
     "ring reduce-scatter + ring allgather (bandwidth-optimal)"},
    {UCMPI_ALLREDUCE_REDUCE_BCAST, "reduce_bcast",
     "binomial reduce + binomial bcast, for tiny vectors"},
    {UCMPI_ALLREDUCE_HIERARCHICAL, "hierarchical",
     "reduce in node, allreduce among node leaders, bcast in node"},
    {UCMPI_ALLREDUCE_RING_SEGMENTED, "ring_segmented",
     "ring in pipelined segments, no vector-sized temporary (large)"},
    {UCMPI_ALLREDUCE_SHM, "shm",
     "on-node shared segment: flags and buffers, no messages (blocking, small)"},
};
#define NALGS ((int)(sizeof(allreduce_algs) / sizeof(allreduce_algs[0])))


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

int ucmpi_allreduce_select(ucmpi_comm_t *comm, size_t nbytes, MPI_Count count,
                           MPI_Op op)
{
    int id = ucmpi_coll_alg_forced("ALLREDUCE_ALGORITHM", allreduce_algs,
                                   NALGS);
    const ucmpi_coll_layout_t *l;

    if (id >= 0 && id != UCMPI_ALLREDUCE_SHM)  /* shm: allreduce_common */
        return op_ok(id, comm, op) ? id : UCMPI_ALLREDUCE_RECURSIVE_DOUBLING;
    l = ucmpi_coll_layout(comm);
    if (l != NULL && l->nnodes > 1 && l->nnodes < comm->size &&
        op_ok(UCMPI_ALLREDUCE_HIERARCHICAL, comm, op))
        return UCMPI_ALLREDUCE_HIERARCHICAL;
    if (!op->commute || nbytes <= ucmpi_thr(UCMPI_THR_ALLREDUCE_RD_MAX_BYTES) ||
        count < comm->size)
        return UCMPI_ALLREDUCE_RECURSIVE_DOUBLING;
    /* ring_segmented measured against the others (2 ranks, 32 KiB-64 MiB:
     * 0.6-0.95x Rabenseifner's time; 4 ranks, >= 1 MiB: 0.75x ring's):
     *   UCMPI_ALLREDUCE_ALGORITHM=A mpiexec -n N bench/coll_bench
     *     -b allreduce -m 8192 -M 67108864 */
    if (comm->size == 2 || nbytes >= ucmpi_thr(UCMPI_THR_ALLREDUCE_RING_MIN_BYTES))
        return UCMPI_ALLREDUCE_RING_SEGMENTED;
    return UCMPI_ALLREDUCE_RABENSEIFNER;
}

int ucmpi_allreduce_build(ucmpi_sched_t *s, ucmpi_comm_t *comm,
                          const void *mine, void *rbuf, MPI_Count count,
                          MPI_Datatype dt, MPI_Op op, int alg)
{
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(comm);

    if (count == 0)
        return MPI_SUCCESS;
    if (g.size == 1) {
        int rc = mine == rbuf ? MPI_SUCCESS
                 : ucmpi_sched_copy(s, mine, count, dt, rbuf, count, dt);
        return rc == MPI_SUCCESS ? ucmpi_sched_fence(s) : rc;
    }
    switch (alg) {
    case UCMPI_ALLREDUCE_RABENSEIFNER:
        return ucmpi_allreduce_rabenseifner(s, mine, rbuf, count, dt, op, &g);
    case UCMPI_ALLREDUCE_RING:
        return ucmpi_allreduce_ring(s, mine, rbuf, count, dt, op, &g);
    case UCMPI_ALLREDUCE_RING_SEGMENTED:
        return ucmpi_allreduce_ring_seg(s, mine, rbuf, count, dt, op, &g);
    case UCMPI_ALLREDUCE_REDUCE_BCAST:
        return ucmpi_allreduce_reduce_bcast(s, mine, rbuf, count, dt, op, &g);
    case UCMPI_ALLREDUCE_HIERARCHICAL:
        return ucmpi_allreduce_hierarchical(s, comm, mine, rbuf, count, dt, op);
    default:
        return ucmpi_allreduce_recdbl(s, mine, rbuf, count, dt, op, &g);
    }
}

int ucmpi_reduction_shm_vote(ucmpi_comm_t *comm, int kind, size_t nbytes,
                             const char *fn)
{
    ucmpi_coll_shm_t *sh;
    uint64_t k;
    int rc;

    if (!ucmpi_coll_shm_wanted(comm, kind, 0))
        return UCMPI_SHM_FALLBACK;
    if ((rc = ucmpi_coll_shm_enter(comm, fn, &sh, &k)) != MPI_SUCCESS)
        return rc;
    /* the size record k % NSMALL is free once the small ring is */
    if ((rc = ucmpi_coll_shm_wait_room(sh, k, 0, fn)) != MPI_SUCCESS)
        return rc;
    ucmpi_coll_shm_set_size(sh, k, nbytes);
    ucmpi_coll_shm_post(sh, k);
    if ((rc = ucmpi_coll_shm_wait(sh, -1, k, fn)) != MPI_SUCCESS)
        return rc;
    return ucmpi_coll_shm_check_sizes(sh, k, nbytes, fn);
}

/* Count 0 on the p2p schedules: a count-0 rank runs
 * recursive doubling with empty messages, signed as such, whatever the
 * others chose: where they chose it too (small vectors) their exact
 * receives report its empty messages (and theirs fail its own); where
 * they chose another algorithm (forced, or large vectors) the signatures
 * differ and the stall probe fails every rank (sched_abort.h), instead of
 * this rank returning at once and leaving them waiting.  Ranks that all
 * pass 0 exchange empty messages (log2(n) rounds). */
static int allreduce_zero(ucmpi_sched_t *s, ucmpi_comm_t *comm,
                          const void *mine, void *rbuf, MPI_Datatype dt,
                          MPI_Op op)
{
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(comm);

    ucmpi_sched_sign(s, allreduce_algs, sizeof(allreduce_algs[0]), NALGS,
                     UCMPI_ALLREDUCE_RECURSIVE_DOUBLING, 0);
    if (g.size == 1)
        return MPI_SUCCESS;
    return ucmpi_allreduce_recdbl(s, mine, rbuf, 0, dt, op, &g);
}

static int allreduce_start(ucmpi_coll_args_t *a)
{
    const char *fn = ucmpi_call_name();
    ucmpi_comm_t *comm = a->comm, *local = NULL;
    const void *sbuf = a->sbuf;
    void *rbuf = a->rbuf;
    MPI_Count count = a->rcount;
    MPI_Datatype dt = a->rdt;
    MPI_Op op = a->op;
    int mode = a->mode;
    MPI_Request *req = a->req;
    ucmpi_sched_t *s;
    int rc = ucmpi_check_count(comm, count, fn);

    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_dt(comm, dt, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_coll_check_op(comm, op, dt, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (rbuf == MPI_IN_PLACE || (sbuf == MPI_IN_PLACE && comm->is_inter))
        return ucmpi_err_comm(comm, MPI_ERR_BUFFER, fn,
                              "MPI_IN_PLACE is only allowed as the send "
                              "buffer of an intracommunicator allreduce");
    if (sbuf != MPI_IN_PLACE &&
        (rc = ucmpi_coll_check_alias1(comm, sbuf, count, dt, rbuf, count, dt,
                                      fn)) != MPI_SUCCESS)
        return rc;
    if (mode == UCMPI_COLL_BLOCKING && dt->contig) {
        size_t nbytes = (size_t)(count * dt->size);
        if (count > 0 &&
            ucmpi_coll_shm_wanted(comm, UCMPI_SHM_ALLREDUCE, nbytes)) {
            rc = ucmpi_coll_shm_allreduce(comm, sbuf, rbuf, count, dt, op,
                                          fn);
            if (rc != UCMPI_SHM_FALLBACK)
                return rc;
        } else if ((rc = ucmpi_reduction_shm_vote(comm, UCMPI_SHM_ALLREDUCE,
                                                  nbytes, fn)) !=
                   UCMPI_SHM_FALLBACK) {
            if (rc != MPI_SUCCESS || count == 0)
                return rc;       /* all passed 0: done */
        }
    }
    if (comm->is_inter && (rc = ucmpi_coll_local(comm, &local, fn)))
        return rc;
    int alg = local ? -1
                    : ucmpi_allreduce_select(comm, (size_t)(count * dt->size),
                                             count, op);
    ucmpi_sched_key_t key = {allreduce_algs, alg, 0, sbuf, rbuf, count,
                             count, dt, dt, op, NULL, 0};
    if ((s = ucmpi_coll_cached(comm, mode, &key)) != NULL)
        return ucmpi_coll_run(comm, s, MPI_SUCCESS, mode, req, fn);
    s = ucmpi_sched_create(comm);
    if (s == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    if (local) {
        rc = count ? ucmpi_allreduce_inter(s, comm, local, sbuf, rbuf, count,
                                           dt, op) : MPI_SUCCESS;
    } else {
        const void *mine = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
        if (count != 0)           /* (ring_segmented adds its segments) */
            ucmpi_sched_sign(s, allreduce_algs, sizeof(allreduce_algs[0]),
                             NALGS, alg, 0);
        rc = count == 0
                 ? allreduce_zero(s, comm, mine, rbuf, dt, op)
                 : ucmpi_allreduce_build(s, comm, mine, rbuf, count, dt, op,
                                         alg);
    }
    return ucmpi_coll_run_new(comm, s, rc, mode, req, fn, &key);
}

static void allreduce_record(const ucmpi_coll_args_t *a,
                             ucmpi_coll_check_args_t *r)
{
    *r = (ucmpi_coll_check_args_t){
        .has_op = 1, .op = a->op, .op_dt = a->rdt,
        .send = {.count = a->rcount, .dt = a->rdt},
        .recv = {.count = a->rcount, .dt = a->rdt}};
}

static const ucmpi_coll_desc_t allreduce_desc = {
    .record = allreduce_record, .start = allreduce_start};

#pragma weak MPI_Allreduce = PMPI_Allreduce
int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, sendbuf, recvbuf, count, datatype, op, 0);
    return ucmpi_coll_call(&allreduce_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Allreduce");
}

#pragma weak MPI_Iallreduce = PMPI_Iallreduce
int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Request *request)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, sendbuf, recvbuf, count, datatype, op, 0);
    return ucmpi_coll_call(&allreduce_desc, &a, UCMPI_COLL_NONBLOCKING,
                           request, "MPI_Iallreduce");
}

#pragma weak MPI_Allreduce_init = PMPI_Allreduce_init
int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count,
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, sendbuf, recvbuf, count, datatype, op, 0);
    return ucmpi_coll_call(&allreduce_desc, &a, UCMPI_COLL_PERSISTENT,
                           request, "MPI_Allreduce_init");
}

/* Large-count (MPI-4) forms. */
#pragma weak MPI_Allreduce_c = PMPI_Allreduce_c
int PMPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, sendbuf, recvbuf, count, datatype, op, 0);
    return ucmpi_coll_call(&allreduce_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Allreduce_c");
}

#pragma weak MPI_Iallreduce_c = PMPI_Iallreduce_c
int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                      MPI_Request *request)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, sendbuf, recvbuf, count, datatype, op, 0);
    return ucmpi_coll_call(&allreduce_desc, &a, UCMPI_COLL_NONBLOCKING,
                           request, "MPI_Iallreduce_c");
}

#pragma weak MPI_Allreduce_init_c = PMPI_Allreduce_init_c
int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                          MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, sendbuf, recvbuf, count, datatype, op, 0);
    return ucmpi_coll_call(&allreduce_desc, &a, UCMPI_COLL_PERSISTENT,
                           request, "MPI_Allreduce_init_c");
}
