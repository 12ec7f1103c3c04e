/* MPI_Barrier, MPI_Ibarrier, MPI_Barrier_init: algorithm table, selection
 * and entry points. */
#include "coll/coll_drv.h"
#include "coll/barrier/barrier.h"

static const ucmpi_coll_alg_t barrier_algs[] = {
    {UCMPI_BARRIER_DISSEMINATION, "dissemination",
     "ceil(log2 n) rounds of pairwise signals, any n"},
    {UCMPI_BARRIER_KNOMIAL, "knomial",
     "radix-4 tree fan-in then fan-out"},
    {UCMPI_BARRIER_SHM, "shm",
     "on-node shared segment: flags and buffers, no messages (blocking, small)"},
};
#define NALGS ((int)(sizeof(barrier_algs) / sizeof(barrier_algs[0])))

/* Dissemination on every size: ceil(log2 n) rounds against the tree's
 * 2*log4(n) (fan-in + fan-out).
 * NOT YET MEASURED: during this session the 2-core machine ran at load
 * 30-140 (bench/coll_bench latencies of tens of ms), so these are the
 * usual MPICH-style defaults.  Refine with, for each algorithm A:
 *   UCMPI_BARRIER_ALGORITHM=A mpiexec -n N <loop of MPI_Barrier>
 * (bench/coll_bench has no barrier yet).
 * On one node the blocking barrier takes the shm path (barrier_common):
 * it beat dissemination at 3-8 ranks (docs/tuning.md). */
int ucmpi_barrier_select(ucmpi_comm_t *comm)
{
    int id = ucmpi_coll_alg_forced("BARRIER_ALGORITHM", barrier_algs, NALGS);
    /* shm: taken by the blocking entry point when it can */
    return id >= 0 && id != UCMPI_BARRIER_SHM ? id
                                              : UCMPI_BARRIER_DISSEMINATION;
}

int ucmpi_barrier_build(ucmpi_sched_t *s, const ucmpi_coll_grp_t *g, int alg)
{
    if (alg == UCMPI_BARRIER_KNOMIAL)
        return ucmpi_barrier_knomial(s, g, 4);
    return ucmpi_barrier_dissemination(s, g);
}

static int barrier_start(ucmpi_coll_args_t *a)
{
    const char *fn = ucmpi_call_name();
    ucmpi_comm_t *comm = a->comm;
    int mode = a->mode, rc;
    MPI_Request *req = a->req;
    ucmpi_sched_t *s;

    if (mode == UCMPI_COLL_BLOCKING &&
        ucmpi_coll_shm_wanted(comm, UCMPI_SHM_BARRIER, 0) &&
        (rc = ucmpi_coll_shm_barrier(comm, fn)) != UCMPI_SHM_FALLBACK)
        return rc;
    ucmpi_comm_t *local = NULL;
    if (comm->is_inter && (rc = ucmpi_coll_local(comm, &local, fn)))
        return rc;
    int alg = local ? -1 : ucmpi_barrier_select(comm);
    ucmpi_sched_key_t key = {barrier_algs, alg, 0, NULL, NULL, 0, 0, NULL,
                             NULL, MPI_OP_NULL, NULL, 0};
    if ((s = ucmpi_coll_cached(comm, mode, &key)) != NULL)
        return ucmpi_coll_run(comm, s, MPI_SUCCESS, mode, req, fn);
    s = ucmpi_sched_create(comm);
    if (s == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    if (local) {
        rc = ucmpi_barrier_inter(s, comm, local);
    } else {
        ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(comm);
        rc = ucmpi_barrier_build(s, &g, alg);
    }
    return ucmpi_coll_run_new(comm, s, rc, mode, req, fn, &key);
}

/* The count-0 rule (coll_util.h): the empty collective, signed EMPTY and
 * cached like a barrier: the dissemination barrier (root < 0) or the star
 * around root. */
static int run_empty(ucmpi_comm_t *comm, int root, int mode,
                     MPI_Request *req, const char *fn, int err)
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
        return ucmpi_coll_run(comm, s, MPI_SUCCESS, mode, req, fn);
    if ((s = ucmpi_sched_create(comm)) == NULL)
        return err != MPI_SUCCESS ? err
                                  : ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn,
                                                   "out of memory");
    ucmpi_sched_sign_empty(s);
    rc = root < 0 ? ucmpi_barrier_dissemination(s, &g)
                  : ucmpi_barrier_star(s, &g, root);
    if (err == MPI_SUCCESS)
        return ucmpi_coll_run_new(comm, s, rc, mode, req, fn, &key);
    /* a rank whose arguments failed serves the others and reports err:
     * blocking, in the call; else in the background, or in the request a
     * persistent init hands back (none if the request check failed) */
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

int ucmpi_coll_run_empty(ucmpi_comm_t *comm, int mode, MPI_Request *req,
                         const char *fn, int err)
{
    return run_empty(comm, -1, mode, req, fn, err);
}

int ucmpi_coll_run_empty_rooted(ucmpi_comm_t *comm, int root, int mode,
                                MPI_Request *req, const char *fn, int err)
{
    return run_empty(comm, root, mode, req, fn, err);
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
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, NULL,
                          NULL, 0, MPI_DATATYPE_NULL, MPI_OP_NULL, 0);
    return ucmpi_coll_call(&barrier_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Barrier");
}

#pragma weak MPI_Ibarrier = PMPI_Ibarrier
int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, NULL,
                          NULL, 0, MPI_DATATYPE_NULL, MPI_OP_NULL, 0);
    return ucmpi_coll_call(&barrier_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ibarrier");
}

#pragma weak MPI_Barrier_init = PMPI_Barrier_init
int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, NULL,
                          NULL, 0, MPI_DATATYPE_NULL, MPI_OP_NULL, 0);
    return ucmpi_coll_call(&barrier_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Barrier_init");
}
