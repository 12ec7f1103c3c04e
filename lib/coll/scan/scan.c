/* MPI_Scan, MPI_Exscan and their I and _init forms: algorithm table and
 * entry points (intracommunicators only, as the standard defines them). */
#include "coll/coll_alg.h"
#include "coll/scan/scan.h"
#include "coll/allreduce/allreduce.h"

/* a->root carries exclusive (scans have no root): 1 for MPI_Exscan. */
static int scan_rd(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(a->comm);

    if (a->rcount == 0)
        return MPI_SUCCESS;
    return ucmpi_scan_recdbl(s, ucmpi_coll_mine(a), a->rbuf, a->rcount,
                             a->rdt, a->op, &g, a->root);
}

static const ucmpi_coll_alg_t scan_algs[] = {
    {UCMPI_SCAN_RECURSIVE_DOUBLING, "recursive_doubling",
     "ceil(log2 n) partial exchanges; any op in rank order", scan_rd},
    {0, NULL, NULL, NULL}
};

/* Scan and exscan are cached and signed apart (root, shape), so ranks that
 * disagree stall and the probe finds the other side's messages. */
static int scan_start(ucmpi_coll_args_t *a)
{
    const char *fn = ucmpi_call_name();
    ucmpi_comm_t *comm = a->comm;
    MPI_Count count = a->rcount;
    MPI_Datatype dt = a->rdt;
    int rc;

    if (comm->is_inter)
        return ucmpi_err_comm(comm, MPI_ERR_COMM, fn,
                              "scans are not defined on intercommunicators");
    if ((rc = ucmpi_allreduce_check(a, fn)) != MPI_SUCCESS)
        return rc;
    (void)ucmpi_coll_alg_forced(scan_algs, "SCAN_ALGORITHM");
    /* the count-0 rule (coll_util.h): a zero rank hears from its partners */
    if (count * dt->size == 0 && comm->size > 1)
        return ucmpi_coll_run_empty(comm, a->mode, a->req, MPI_SUCCESS);
    ucmpi_sched_key_t key = {scan_algs, 0, a->root, a->sbuf, a->rbuf, count,
                             count, dt, dt, a->op, NULL, 0};
    return ucmpi_coll_alg_run(scan_algs, a, &key, scan_algs,
                              (unsigned)a->root);
}

static const ucmpi_coll_desc_t scan_desc = {
    .record = ucmpi_allreduce_record, .start = scan_start};

#define SCAN_PARAMS(ct)                                                      \
    (const void *sendbuf, void *recvbuf, ct count, MPI_Datatype datatype,    \
     MPI_Op op, MPI_Comm comm)
UCMPI_COLL_BASIC_FORMS(Scan, scan, , scan_desc, SCAN_PARAMS(int),
                       comm, sendbuf, recvbuf, count, datatype, op, 0)
UCMPI_COLL_BASIC_FORMS(Scan, scan, _c, scan_desc, SCAN_PARAMS(MPI_Count),
                       comm, sendbuf, recvbuf, count, datatype, op, 0)
UCMPI_COLL_BASIC_FORMS(Exscan, exscan, , scan_desc, SCAN_PARAMS(int),
                       comm, sendbuf, recvbuf, count, datatype, op, 1)
UCMPI_COLL_BASIC_FORMS(Exscan, exscan, _c, scan_desc, SCAN_PARAMS(MPI_Count),
                       comm, sendbuf, recvbuf, count, datatype, op, 1)
