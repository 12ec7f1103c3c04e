/* MPI_Barrier, MPI_Ibarrier, MPI_Barrier_init: algorithm table, selection
 * and entry points. */
#include "coll/coll_alg.h"
#include "coll/barrier/barrier.h"
#include "coll/coll_hier.h"

static int ba_dissemination(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(a->comm);

    return ucmpi_barrier_dissemination(s, &g);
}

static int ba_knomial(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(a->comm);

    return ucmpi_barrier_knomial(s, &g, 4);
}

static int ba_hier(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return ucmpi_barrier_hier(s, a->comm);
}

static int ba_inter(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return ucmpi_barrier_inter(s, a->comm, a->comm->local_comm);
}

/* The blocking shm row (s == NULL). */
static inline int ba_shm(ucmpi_sched_t *s,
                         const ucmpi_coll_args_t *a)
{
    if (!ucmpi_coll_shm_wanted(a->comm, UCMPI_SHM_BARRIER, 0))
        return UCMPI_SHM_FALLBACK;
    return ucmpi_coll_shm_sizes(a->comm, 0);
}

static const ucmpi_coll_alg_t barrier_algs[] = {
    {UCMPI_BARRIER_DISSEMINATION, "dissemination",
     "ceil(log2 n) rounds of pairwise signals, any n", ba_dissemination},
    {UCMPI_BARRIER_KNOMIAL, "knomial", "radix-4 tree fan-in then fan-out",
     ba_knomial},
    {UCMPI_BARRIER_SHM, "shm", UCMPI_COLL_SHM_DESC, ba_shm},
    {UCMPI_BARRIER_HIERARCHICAL, "hierarchical",
     "node-aware: fan-in to node leaders, leaders' dissemination, fan-out",
     ba_hier},
    {0, NULL, NULL, NULL}
};
static const ucmpi_coll_alg_t ba_inter_alg = {
    -1, "inter", "the two groups signal through their leaders", ba_inter};

/* Dissemination at any size (ceil(log2 n) rounds vs the tree's 2 log4(n)); on
 * one node the blocking barrier takes the shm row (docs/tuning.md). */
static int barrier_start(ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *comm = a->comm;
    const ucmpi_coll_alg_t *alg;
    int rc;

    if (a->mode == UCMPI_COLL_BLOCKING &&
        (rc = barrier_algs[UCMPI_BARRIER_SHM].build(NULL, a)) !=
            UCMPI_SHM_FALLBACK)
        return rc;
    if ((rc = ucmpi_coll_check_local(comm)) != MPI_SUCCESS)
        return rc;
    if (comm->is_inter)
        alg = &ba_inter_alg;
    else if ((alg = ucmpi_coll_alg_forced(barrier_algs,
                                          "BARRIER_ALGORITHM")) == NULL ||
             alg->id == UCMPI_BARRIER_SHM) {
        alg = ucmpi_coll_tuned(barrier_algs, "BARRIER_ALGORITHM", a->size,
                               0);
        if (alg == NULL)
            alg = ucmpi_hier_useful(comm)
                      ? &barrier_algs[UCMPI_BARRIER_HIERARCHICAL]
                      : &barrier_algs[UCMPI_BARRIER_DISSEMINATION];
    }
    ucmpi_sched_key_t key = {barrier_algs, alg->id, 0, NULL, NULL, 0, 0,
                             NULL, NULL, MPI_OP_NULL, NULL, 0};
    return ucmpi_coll_alg_run(alg, a, &key, NULL, 0);
}

/* The count-0 rule (coll_util.h): the empty collective, signed EMPTY and
 * cached like a barrier. */
int ucmpi_coll_run_empty_rooted(ucmpi_comm_t *comm, int root, int mode,
                                MPI_Request *req, int err)
{
    static const char empty_key;
    ucmpi_sched_key_t key = {&empty_key, root >= 0, root, NULL, NULL, 0, 0,
                             NULL, NULL, MPI_OP_NULL, NULL, 0};
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(comm);
    ucmpi_sched_t *s;
    int rc;

    if (err != MPI_SUCCESS && mode != UCMPI_COLL_BLOCKING && req != NULL)
        *req = MPI_REQUEST_NULL;
    if (err == MPI_SUCCESS && (s = ucmpi_coll_cached(comm, mode, &key)))
        return ucmpi_coll_run(comm, s, MPI_SUCCESS, mode, req);
    if ((s = ucmpi_sched_create(comm)) == NULL)
        return err != MPI_SUCCESS ? err
                                  : ucmpi_coll_err(comm, MPI_ERR_NO_MEM,
                                                   "out of memory");
    ucmpi_sched_sign_empty(s);
    rc = root < 0 ? ucmpi_barrier_dissemination(s, &g)
                  : ucmpi_barrier_star(s, &g, root);
    if (err == MPI_SUCCESS)
        return ucmpi_coll_run_new(comm, s, rc, mode, req, &key);
    /* a failed rank serves the others and reports err: in the call, in the
     * background, or in a persistent init's request (if its check passed) */
    if (mode == UCMPI_COLL_PERSISTENT && req != NULL)
        return ucmpi_coll_persist_failed(s, rc, req, err);
    if (mode != UCMPI_COLL_BLOCKING)
        ucmpi_coll_release(s, rc);
    else if (rc != MPI_SUCCESS)
        ucmpi_sched_free(s);
    else
        (void)ucmpi_sched_run_blocking(s);
    return err;
}

static void barrier_record(const ucmpi_coll_args_t *a,
                           ucmpi_coll_check_args_t *r)
{
    (void)a;
    *r = (ucmpi_coll_check_args_t){0};
}

static const ucmpi_coll_desc_t barrier_desc = {
    .record = barrier_record, .start = barrier_start};

#pragma weak MPI_Barrier = PMPI_Barrier
int PMPI_Barrier(MPI_Comm comm)
{
    return ucmpi_coll_call_basic(&barrier_desc, comm, NULL, NULL, 0,
                                 MPI_DATATYPE_NULL, MPI_OP_NULL, 0,
                                 UCMPI_COLL_BLOCKING, NULL, "MPI_Barrier");
}

#pragma weak MPI_Ibarrier = PMPI_Ibarrier
int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    return ucmpi_coll_call_basic(&barrier_desc, comm, NULL, NULL, 0,
                                 MPI_DATATYPE_NULL, MPI_OP_NULL, 0,
                                 UCMPI_COLL_NONBLOCKING, request,
                                 "MPI_Ibarrier");
}

#pragma weak MPI_Barrier_init = PMPI_Barrier_init
int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return ucmpi_coll_call_basic(&barrier_desc, comm, NULL, NULL, 0,
                                 MPI_DATATYPE_NULL, MPI_OP_NULL, 0,
                                 UCMPI_COLL_PERSISTENT, request,
                                 "MPI_Barrier_init");
}
