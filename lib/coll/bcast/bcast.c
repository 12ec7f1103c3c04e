/* MPI_Bcast, MPI_Ibcast, MPI_Bcast_init: algorithm table, selection and
 * entry points. */
#include "coll/coll_drv.h"
#include "coll/coll_tune.h"
#include "coll/bcast/bcast.h"
#include "coll/xfer.h"

#include <stdlib.h>

static const ucmpi_coll_alg_t bcast_algs[] = {
    {UCMPI_BCAST_BINOMIAL, "binomial",
     "binomial tree: log2(n) rounds, for small messages"},
    {UCMPI_BCAST_SCATTER_ALLGATHER, "scatter_allgather",
     "binomial scatter + ring allgather (van de Geijn), medium/large"},
    {UCMPI_BCAST_CHAIN, "chain",
     "pipelined chain in segments, for large messages"},
    {UCMPI_BCAST_SHM, "shm",
     "on-node shared segment: flags and buffers, no messages (blocking, small)"},
};
#define NALGS ((int)(sizeof(bcast_algs) / sizeof(bcast_algs[0])))

/* Bytes per segment of the pipelined chain. */
#define CHAIN_SEGMENT (128 * 1024)


int ucmpi_bcast_select(ucmpi_comm_t *comm, int size, size_t nbytes)
{
    int id = ucmpi_coll_alg_forced("BCAST_ALGORITHM", bcast_algs, NALGS);

    if (id >= 0 && id != UCMPI_BCAST_SHM)  /* shm: see bcast_common */
        return id;
    if (size <= 2 || nbytes < ucmpi_thr(UCMPI_THR_BCAST_SMALL_BYTES))
        return UCMPI_BCAST_BINOMIAL;
    if (nbytes >= ucmpi_thr(UCMPI_THR_BCAST_CHAIN_MIN_BYTES))
        return UCMPI_BCAST_CHAIN;
    if (size >= ucmpi_thr_n(UCMPI_THR_BCAST_SA_MIN_RANKS))
        return UCMPI_BCAST_SCATTER_ALLGATHER;
    return UCMPI_BCAST_BINOMIAL;
}

int ucmpi_bcast_build(ucmpi_sched_t *s, void *buf, MPI_Count count,
                      MPI_Datatype dt, int root, const ucmpi_coll_grp_t *g,
                      int alg)
{
    if (g->size == 1 || count == 0)
        return MPI_SUCCESS;
    switch (alg) {
    case UCMPI_BCAST_SCATTER_ALLGATHER:
        return ucmpi_bcast_scatter_allgather(s, buf, count, dt, root, g);
    case UCMPI_BCAST_CHAIN:
        return ucmpi_bcast_chain(s, buf, count, dt, root, g, CHAIN_SEGMENT);
    default:
        return ucmpi_bcast_tree(s, buf, count, dt, root, g, 2);
    }
}

/* An intracomm bcast's schedule, signed with its root (as the intercomm
 * one and gather/scatter's are): a rank that names another root finds
 * the others' messages foreign and fails at once, where it would wait
 * for a parent of its own tree that never sends, or take another root's
 * data through a rank both trees share. */
static int bcast_build_signed(ucmpi_sched_t *s, void *buf, MPI_Count count,
                              MPI_Datatype dt, int root,
                              const ucmpi_coll_grp_t *g, int alg)
{
    ucmpi_sched_shape(s, (unsigned)root);
    return ucmpi_bcast_build(s, buf, count, dt, root, g, alg);
}

/* This rank's buffer failed a check (err); count, type and root are fine.
 * It still takes part, so that nobody waits for it: in the background, or
 * in the request a persistent init hands back.  A root has no data: its
 * messages are empty (ucmpi_sched_poison), which the others' exact
 * receives turn into an error (on the blocking shm path its byte count
 * says it sent nothing).  Another rank passes the data on through
 * scratch. */
static char bcast_nodata;

/* The count-0 rule (coll_util.h): 0 bytes still take part.  A blocking
 * call on a comm with a shm segment takes the shm path with 0 bytes, as
 * the others do with theirs: a non-root compares the root's byte count
 * with its own there, a zero root every rank's (shm_coll.c), and where
 * the others' bytes are past the shm limit they vote instead and see its
 * 0 (bcast_shm).  Over p2p, after that: the empty schedule. */
static int bcast_empty(ucmpi_comm_t *comm, const ucmpi_comm_t *local,
                       MPI_Count count, MPI_Datatype dt)
{
    return count * dt->size == 0 && local == NULL && comm->size > 1;
}

static int bcast_failed(ucmpi_comm_t *comm, ucmpi_comm_t *local, int err,
                        MPI_Count count, MPI_Datatype dt, int root, int mode,
                        MPI_Request *req, const char *fn)
{
    int am_root = comm->is_inter ? root == MPI_ROOT : root == comm->rank;
    size_t nbytes = (size_t)(count * dt->size);
    size_t ext = (size_t)(dt->extent > dt->true_extent ? dt->extent
                                                       : dt->true_extent);
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(comm);
    ucmpi_sched_t *s;
    char *tmp = NULL;
    int rc;

    if (mode == UCMPI_COLL_BLOCKING && !comm->is_inter &&
        ucmpi_coll_shm_wanted(comm, UCMPI_SHM_BCAST, nbytes)) {
        tmp = calloc(1, (size_t)count * ext + 1);
        if (tmp == NULL)
            return ucmpi_coll_skip(comm, err, UCMPI_SHM_BCAST, nbytes, 0);
        rc = ucmpi_coll_shm_bcast(comm, tmp - dt->true_lb, count, dt, root,
                                  1, fn);
        free(tmp);
        if (rc != UCMPI_SHM_FALLBACK)
            return err;
        tmp = NULL;
    } else if (mode == UCMPI_COLL_BLOCKING &&
               (rc = ucmpi_xfer_shm_vote(comm, UCMPI_SHM_BCAST, nbytes,
                                         UCMPI_XFER_VOTE_QUIET, fn)) !=
                   UCMPI_SHM_FALLBACK && rc != MPI_SUCCESS) {
        if (!am_root)
            (void)ucmpi_coll_shm_vote_drain(comm, root, fn);
        return err;    /* the others' vote failed too (bcast_shm) */
    }
    if (bcast_empty(comm, local, count, dt))
        return ucmpi_coll_run_empty(comm, mode, req, fn, err);
    if (mode != UCMPI_COLL_BLOCKING)
        *req = MPI_REQUEST_NULL;
    if ((s = ucmpi_sched_create(comm)) == NULL)
        return ucmpi_coll_skip(comm, err, -1, 0,
                               comm->is_inter && root >= 0);
    /* the root's steps never touch its buffer (empty sends, no copies):
     * any address that is not NULL (the builders' out-of-memory sign) */
    tmp = am_root ? &bcast_nodata : ucmpi_coll_tmpbuf(s, count, dt);
    if (tmp == NULL)
        rc = MPI_ERR_NO_MEM;
    else if (local != NULL)
        rc = ucmpi_bcast_inter(s, comm, local, tmp, count, dt, root);
    else
        rc = bcast_build_signed(s, tmp, count, dt, root, &g,
                                ucmpi_bcast_select(comm, g.size, nbytes));
    if (am_root)
        ucmpi_sched_poison(s);
    if (mode == UCMPI_COLL_PERSISTENT)
        return ucmpi_coll_persist_failed(s, rc, req, err);
    ucmpi_coll_release(s, rc);
    return err;
}

/* The blocking shm path (UCMPI_SHM_FALLBACK: go on to p2p).  Past the
 * shm limit (2 ranks: 512 KiB, shm_select.c) on a comm with a segment the
 * rank votes with its bytes, as allgather does: the ranks go on
 * to p2p together, or all fail, where one rank's count alone would have
 * put it in the segment and the others on p2p (a hang). */
static int bcast_shm(ucmpi_comm_t *comm, void *buf, MPI_Count count,
                     MPI_Datatype dt, int root, const char *fn)
{
    size_t nbytes = (size_t)(count * dt->size);
    int rc;

    if (ucmpi_coll_shm_wanted(comm, UCMPI_SHM_BCAST, nbytes))
        return ucmpi_coll_shm_bcast(comm, buf, count, dt, root, 0, fn);
    rc = ucmpi_xfer_shm_vote(comm, UCMPI_SHM_BCAST, nbytes, 0, fn);
    if (rc != MPI_SUCCESS && rc != UCMPI_SHM_FALLBACK) {
        int drc = ucmpi_coll_shm_vote_drain(comm, root, fn);
        return drc != MPI_SUCCESS ? drc : rc;
    }
    return rc == MPI_SUCCESS ? UCMPI_SHM_FALLBACK : rc;
}

static int bcast_start(ucmpi_coll_args_t *a)
{
    const char *fn = ucmpi_call_name();
    ucmpi_comm_t *comm = a->comm;
    void *buf = a->rbuf;
    MPI_Count count = a->rcount;
    MPI_Datatype dt = a->rdt;
    int root = a->root, mode = a->mode;
    MPI_Request *req = a->req;
    ucmpi_comm_t *local = NULL;
    ucmpi_sched_t *s;
    int rc = MPI_SUCCESS;

    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_count(comm, count, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_dt(comm, dt, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_coll_check_root(comm, root, fn);
    if (rc == MPI_SUCCESS && comm->is_inter)
        rc = ucmpi_coll_local(comm, &local, fn);
    if (rc != MPI_SUCCESS)
        return rc;    /* count, type and root agree: every rank fails */
    if (buf == MPI_IN_PLACE)
        rc = ucmpi_err_comm(comm, MPI_ERR_BUFFER, fn,
                            "MPI_IN_PLACE is not allowed in a bcast");
    else if (!comm->is_inter || root != MPI_PROC_NULL)
        rc = ucmpi_check_buf(comm, buf, count, dt, fn);
    if (rc != MPI_SUCCESS)
        return bcast_failed(comm, local, rc, count, dt, root, mode, req, fn);
    if (mode == UCMPI_COLL_BLOCKING &&
        (rc = bcast_shm(comm, buf, count, dt, root, fn)) !=
            UCMPI_SHM_FALLBACK)
        return rc;
    if (bcast_empty(comm, local, count, dt))
        return ucmpi_coll_run_empty(comm, mode, req, fn, MPI_SUCCESS);
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(comm);
    int alg = local ? -1
                    : ucmpi_bcast_select(comm, g.size,
                                         (size_t)(count * dt->size));
    ucmpi_sched_key_t key = {bcast_algs, alg, root, buf, buf, count, count,
                             dt, dt, MPI_OP_NULL, NULL, 0};
    if ((s = ucmpi_coll_cached(comm, mode, &key)) != NULL)
        return ucmpi_coll_run(comm, s, MPI_SUCCESS, mode, req, fn);
    s = ucmpi_sched_create(comm);
    if (s == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    if (local)
        rc = ucmpi_bcast_inter(s, comm, local, buf, count, dt, root);
    else
        rc = bcast_build_signed(s, buf, count, dt, root, &g, alg);
    return ucmpi_coll_run_new(comm, s, rc, mode, req, fn, &key);
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

#pragma weak MPI_Bcast = PMPI_Bcast
int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root,
               MPI_Comm comm)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, NULL, buffer,
                          count, datatype, MPI_OP_NULL, root);
    return ucmpi_coll_call(&bcast_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Bcast");
}

#pragma weak MPI_Ibcast = PMPI_Ibcast
int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root,
                MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, NULL, buffer,
                          count, datatype, MPI_OP_NULL, root);
    return ucmpi_coll_call(&bcast_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ibcast");
}

#pragma weak MPI_Bcast_init = PMPI_Bcast_init
int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root,
                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, NULL, buffer,
                          count, datatype, MPI_OP_NULL, root);
    return ucmpi_coll_call(&bcast_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Bcast_init");
}

/* Large-count (MPI-4) forms. */
#pragma weak MPI_Bcast_c = PMPI_Bcast_c
int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype,
                 int root, MPI_Comm comm)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, NULL, buffer,
                          count, datatype, MPI_OP_NULL, root);
    return ucmpi_coll_call(&bcast_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Bcast_c");
}

#pragma weak MPI_Ibcast_c = PMPI_Ibcast_c
int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype,
                  int root, MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, NULL, buffer,
                          count, datatype, MPI_OP_NULL, root);
    return ucmpi_coll_call(&bcast_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ibcast_c");
}

#pragma weak MPI_Bcast_init_c = PMPI_Bcast_init_c
int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype,
                      int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    ucmpi_coll_args_t a;

    ucmpi_coll_args_basic(&a, comm, NULL, buffer,
                          count, datatype, MPI_OP_NULL, root);
    return ucmpi_coll_call(&bcast_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Bcast_init_c");
}
