/* MPI_Scan, MPI_Exscan and their I and _init forms: algorithm table and
 * entry points (intracommunicators only, as the standard defines them). */
#include "coll/coll_alg.h"
#include "coll/scan/scan.h"
#include "coll/alias.h"
#include "core/check.h"

static int scan_rd(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(a->comm);

    if (a->rcount == 0)
        return MPI_SUCCESS;
    return ucmpi_scan_recdbl(s, ucmpi_coll_mine(a), a->rbuf, a->rcount,
                             a->rdt, a->op, &g, 0);
}

static int exscan_rd(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(a->comm);

    if (a->rcount == 0)
        return MPI_SUCCESS;
    return ucmpi_scan_recdbl(s, ucmpi_coll_mine(a), a->rbuf, a->rcount,
                             a->rdt, a->op, &g, 1);
}

static const ucmpi_coll_alg_t scan_algs[] = {
    {UCMPI_SCAN_RECURSIVE_DOUBLING, "recursive_doubling",
     "ceil(log2 n) partial exchanges; any op in rank order", scan_rd},
    {0, NULL, NULL, NULL}
};
static const ucmpi_coll_alg_t exscan_algs[] = {
    {UCMPI_SCAN_RECURSIVE_DOUBLING, "recursive_doubling",
     "ceil(log2 n) partial exchanges; any op in rank order", exscan_rd},
    {0, NULL, NULL, NULL}
};

/* Scan and exscan (tab): signed apart (shape), so that ranks that
 * disagree stall and the probe finds the other side's messages
 * (sched_abort.h). */
static int scan_start(ucmpi_coll_args_t *a, const ucmpi_coll_alg_t *tab,
                      int exclusive)
{
    const char *fn = ucmpi_call_name();
    ucmpi_comm_t *comm = a->comm;
    MPI_Count count = a->rcount;
    MPI_Datatype dt = a->rdt;
    int rc = MPI_SUCCESS;

    if (comm->is_inter)
        rc = ucmpi_err_comm(comm, MPI_ERR_COMM, fn,
                            "scans are not defined on intercommunicators");
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_count(comm, count, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_dt(comm, dt, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_coll_check_op(comm, a->op, dt);
    if (rc != MPI_SUCCESS)
        return rc;
    if (a->rbuf == MPI_IN_PLACE)
        return ucmpi_err_comm(comm, MPI_ERR_BUFFER, fn,
                              "MPI_IN_PLACE is only allowed as the send "
                              "buffer");
    if (a->sbuf != MPI_IN_PLACE &&
        (rc = ucmpi_coll_check_alias1(comm, a->sbuf, count, dt, a->rbuf,
                                      count, dt, fn)) != MPI_SUCCESS)
        return rc;
    (void)ucmpi_coll_alg_forced(scan_algs, "SCAN_ALGORITHM");
    /* the count-0 rule (coll_util.h): a zero rank hears from its partners */
    if (count * dt->size == 0 && comm->size > 1)
        return ucmpi_coll_run_empty(comm, a->mode, a->req, MPI_SUCCESS);
    ucmpi_sched_key_t key = {tab, 0, 0, a->sbuf, a->rbuf, count, count, dt,
                             dt, a->op, NULL, 0};
    return ucmpi_coll_alg_run(tab, a, &key, scan_algs, (unsigned)exclusive);
}

static int inclusive_start(ucmpi_coll_args_t *a)
{
    return scan_start(a, scan_algs, 0);
}

static int exclusive_start(ucmpi_coll_args_t *a)
{
    return scan_start(a, exscan_algs, 1);
}

static void scan_record(const ucmpi_coll_args_t *a,
                        ucmpi_coll_check_args_t *r)
{
    *r = (ucmpi_coll_check_args_t){
        .has_op = 1, .op = a->op, .op_dt = a->rdt,
        .send = {.count = a->rcount, .dt = a->rdt},
        .recv = {.count = a->rcount, .dt = a->rdt}};
}

static const ucmpi_coll_desc_t scan_desc = {
    .record = scan_record, .start = inclusive_start};
static const ucmpi_coll_desc_t exscan_desc = {
    .record = scan_record, .start = exclusive_start};

#pragma weak MPI_Scan = PMPI_Scan
int PMPI_Scan(const void *sendbuf, void *recvbuf, int count,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return ucmpi_coll_call_basic(&scan_desc, comm, sendbuf, recvbuf, count,
                                 datatype, op, 0, UCMPI_COLL_BLOCKING, NULL,
                                 "MPI_Scan");
}

#pragma weak MPI_Iscan = PMPI_Iscan
int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count,
               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               MPI_Request *request)
{
    return ucmpi_coll_call_basic(&scan_desc, comm, sendbuf, recvbuf, count,
                                 datatype, op, 0, UCMPI_COLL_NONBLOCKING,
                                 request, "MPI_Iscan");
}

#pragma weak MPI_Scan_init = PMPI_Scan_init
int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count,
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Info info, MPI_Request *request)
{
    return ucmpi_coll_call_basic(&scan_desc, comm, sendbuf, recvbuf, count,
                                 datatype, op, 0, UCMPI_COLL_PERSISTENT,
                                 request, "MPI_Scan_init");
}

#pragma weak MPI_Exscan = PMPI_Exscan
int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return ucmpi_coll_call_basic(&exscan_desc, comm, sendbuf, recvbuf, count,
                                 datatype, op, 0, UCMPI_COLL_BLOCKING, NULL,
                                 "MPI_Exscan");
}

#pragma weak MPI_Iexscan = PMPI_Iexscan
int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count,
                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request *request)
{
    return ucmpi_coll_call_basic(&exscan_desc, comm, sendbuf, recvbuf, count,
                                 datatype, op, 0, UCMPI_COLL_NONBLOCKING,
                                 request, "MPI_Iexscan");
}

#pragma weak MPI_Exscan_init = PMPI_Exscan_init
int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request)
{
    return ucmpi_coll_call_basic(&exscan_desc, comm, sendbuf, recvbuf, count,
                                 datatype, op, 0, UCMPI_COLL_PERSISTENT,
                                 request, "MPI_Exscan_init");
}

/* Large-count (MPI-4) forms. */
#pragma weak MPI_Scan_c = PMPI_Scan_c
int PMPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return ucmpi_coll_call_basic(&scan_desc, comm, sendbuf, recvbuf, count,
                                 datatype, op, 0, UCMPI_COLL_BLOCKING, NULL,
                                 "MPI_Scan_c");
}

#pragma weak MPI_Iscan_c = PMPI_Iscan_c
int PMPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request *request)
{
    return ucmpi_coll_call_basic(&scan_desc, comm, sendbuf, recvbuf, count,
                                 datatype, op, 0, UCMPI_COLL_NONBLOCKING,
                                 request, "MPI_Iscan_c");
}

#pragma weak MPI_Scan_init_c = PMPI_Scan_init_c
int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request)
{
    return ucmpi_coll_call_basic(&scan_desc, comm, sendbuf, recvbuf, count,
                                 datatype, op, 0, UCMPI_COLL_PERSISTENT,
                                 request, "MPI_Scan_init_c");
}

#pragma weak MPI_Exscan_c = PMPI_Exscan_c
int PMPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return ucmpi_coll_call_basic(&exscan_desc, comm, sendbuf, recvbuf, count,
                                 datatype, op, 0, UCMPI_COLL_BLOCKING, NULL,
                                 "MPI_Exscan_c");
}

#pragma weak MPI_Iexscan_c = PMPI_Iexscan_c
int PMPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Request *request)
{
    return ucmpi_coll_call_basic(&exscan_desc, comm, sendbuf, recvbuf, count,
                                 datatype, op, 0, UCMPI_COLL_NONBLOCKING,
                                 request, "MPI_Iexscan_c");
}

#pragma weak MPI_Exscan_init_c = PMPI_Exscan_init_c
int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                       MPI_Info info, MPI_Request *request)
{
    return ucmpi_coll_call_basic(&exscan_desc, comm, sendbuf, recvbuf, count,
                                 datatype, op, 0, UCMPI_COLL_PERSISTENT,
                                 request, "MPI_Exscan_init_c");
}
