/* MPI_Reduce_scatter(_block), their I and _init forms: algorithm table,
 * selection and entry points. */
#include "coll/coll_drv.h"
#include "coll/coll_tune.h"
#include "coll/reduce_scatter/reduce_scatter.h"
#include "coll/allreduce/allreduce.h"
#include "coll/alias.h"

#include <stdlib.h>
#include <string.h>

static const ucmpi_coll_alg_t rs_algs[] = {
    {UCMPI_RS_RECURSIVE_HALVING, "recursive_halving",
     "recursive halving, log2(n) steps (commutative ops)"},
    {UCMPI_RS_RING, "ring",
     "ring, n-1 steps of one block (commutative ops, long vectors)"},
    {UCMPI_RS_PAIRWISE, "pairwise",
     "pairwise exchange, n-1 steps; any op in rank order"},
    {UCMPI_RS_RING_SEGMENTED, "ring_segmented",
     "ring in pipelined segments, no input copy (commutative, long)"},
    {UCMPI_RS_SHM, "shm",
     "on-node shared segment: flags and buffers, no messages (blocking, small)"},
};
#define NALGS ((int)(sizeof(rs_algs) / sizeof(rs_algs[0])))


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

/* ring_segmented replaces ring (no copy of the input); on 2 ranks it beat
 * recursive halving from 32 KiB (2 ranks, 1 MiB: 52 vs 148 us; MPICH 64):
 *   UCMPI_REDUCE_SCATTER_ALGORITHM=A mpiexec -n 2 bench/coll_bench
 *     -b reduce_scatter -m 32768 -M 16777216 */
static int rs_select(MPI_Op op, size_t total_bytes, int n)
{
    int id = ucmpi_coll_alg_forced("REDUCE_SCATTER_ALGORITHM", rs_algs, NALGS);

    if (!op->commute)
        return UCMPI_RS_PAIRWISE;
    if (id >= 0 && id != UCMPI_RS_SHM)    /* shm: see rs_common */
        return id;
    if (total_bytes >= ucmpi_thr(UCMPI_THR_RS_RING_MIN_BYTES) ||
        (n == 2 && total_bytes >= 32768))
        return UCMPI_RS_RING_SEGMENTED;
    return UCMPI_RS_RECURSIVE_HALVING;
}

/* The shm path: pieces of every block side by side (shm_reduce.c), so a
 * rank copies in only the blocks of the others (2 ranks: half the
 * vector) and reads its own operand from sbuf; the whole vector in one
 * buffer (shm_coll.c) only when a piece cannot hold one element. */
static int rs_shm(ucmpi_comm_t *comm, const void *sbuf, void *rbuf,
                  const int *icounts, const MPI_Count *ccounts,
                  MPI_Count bcount, MPI_Count total, MPI_Datatype dt,
                  MPI_Op op, const char *fn)
{
    int n = comm->size, rc;
    MPI_Count stack[2 * 64 + 1], *counts = stack;

    /* n+1 displacements (ucmpi_rs_displs) after n counts */
    if (n > 64)
        counts = malloc(sizeof(MPI_Count) * (2 * (size_t)n + 1));
    if (counts == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    for (int i = 0; i < n; i++)
        counts[i] = icounts ? icounts[i] : ccounts ? ccounts[i] : bcount;
    ucmpi_rs_displs(counts, n, counts + n);
    rc = ucmpi_coll_shm_reduce_scatter_large(comm, sbuf, rbuf, counts,
                                             counts + n, dt, op, fn);
    /* (n, dt) alone decide this (or no segment: the same answer again) */
    if (rc == UCMPI_SHM_FALLBACK &&
        (size_t)(total * dt->size) <= ucmpi_coll_shm_slot_size(n))
        rc = ucmpi_coll_shm_reduce_scatter(comm, sbuf, rbuf, total,
                                           counts[n + comm->rank],
                                           counts[comm->rank], dt, op, fn);
    if (counts != stack)
        free(counts);
    return rc;
}

/* counts: local group sizes (n entries); for _block a uniform count. */
static int rs_start(ucmpi_coll_args_t *a)
{
    const char *fn = ucmpi_call_name();
    ucmpi_comm_t *comm = a->comm;
    const void *sbuf = a->sbuf;
    void *rbuf = a->rbuf;
    const int *icounts = a->rcounts;
    const MPI_Count *ccounts = a->rcounts_c;
    MPI_Count bcount = a->rcount;
    MPI_Datatype dt = a->rdt;
    MPI_Op op = a->op;
    int mode = a->mode;
    MPI_Request *req = a->req;
    ucmpi_comm_t *local = NULL;
    ucmpi_sched_t *s;
    MPI_Count *counts, total = 0;
    int rc = ucmpi_coll_check_comm(comm, fn), n;

    if (rc == MPI_SUCCESS && icounts == NULL && ccounts == NULL)
        rc = ucmpi_check_count(comm, bcount, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_dt(comm, dt, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_coll_check_op(comm, op, dt, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (rbuf == MPI_IN_PLACE || (sbuf == MPI_IN_PLACE && comm->is_inter))
        return ucmpi_err_comm(comm, MPI_ERR_BUFFER, fn,
                              "MPI_IN_PLACE is only allowed as the send "
                              "buffer of an intracommunicator call");
    if (comm->is_inter && (rc = ucmpi_coll_local(comm, &local, fn)))
        return rc;
    n = comm->size;
    for (int i = 0; i < n; i++) {
        MPI_Count c = icounts ? icounts[i] : ccounts ? ccounts[i] : bcount;
        if (c < 0)
            return ucmpi_err_comm(comm, MPI_ERR_COUNT, fn,
                                  "recvcounts[%d] = %lld is negative", i,
                                  (long long)c);
        total += c;
    }
    if (sbuf != MPI_IN_PLACE &&
        (rc = ucmpi_coll_check_alias1(comm, sbuf, total, dt, rbuf,
                                      icounts ? icounts[comm->rank]
                                      : ccounts ? ccounts[comm->rank]
                                                : bcount,
                                      dt, fn)) != MPI_SUCCESS)
        return rc;
    if (mode == UCMPI_COLL_BLOCKING && !local && dt->contig) {
        size_t nbytes = (size_t)(total * dt->size);
        if (total > 0 &&
            ucmpi_coll_shm_wanted(comm, UCMPI_SHM_REDUCE_SCATTER, nbytes)) {
            rc = rs_shm(comm, sbuf, rbuf, icounts, ccounts, bcount, total,
                        dt, op, fn);
            if (rc != UCMPI_SHM_FALLBACK)
                return rc;
        } else if ((rc = ucmpi_reduction_shm_vote(
                        comm, UCMPI_SHM_REDUCE_SCATTER, nbytes, fn)) !=
                   UCMPI_SHM_FALLBACK) {
            /* count 0 or past the shm limit: see the others' */
            if (rc != MPI_SUCCESS || total == 0)
                return rc;
        }
        rc = MPI_SUCCESS;               /* (UCMPI_SHM_FALLBACK) */
    }
    /* the selection depends on (op, total bytes), both in the key */
    ucmpi_sched_key_t key = {rs_algs, 0, 0, sbuf, rbuf, bcount, total, dt,
                             dt, op, icounts, icounts ? n : 0};
    if (ccounts == NULL &&
        (s = ucmpi_coll_cached(comm, mode, &key)) != NULL)
        return ucmpi_coll_run(comm, s, MPI_SUCCESS, mode, req, fn);
    s = ucmpi_sched_create(comm);
    if (s == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    counts = ucmpi_sched_alloc(s, n * sizeof(MPI_Count));
    if (counts == NULL)
        return ucmpi_coll_run(comm, s, MPI_ERR_NO_MEM, mode, req, fn);
    for (int i = 0; i < n; i++)
        counts[i] = icounts ? icounts[i] : ccounts ? ccounts[i] : bcount;
    if (local) {
        rc = ucmpi_rs_inter(s, comm, local, sbuf, rbuf, counts, dt, op);
    } else if (total > 0 ||
               rs_select(op, 0, n) == UCMPI_RS_RECURSIVE_HALVING ||
               rs_select(op, 0, n) == UCMPI_RS_PAIRWISE) {
        /* total 0: the ranks of an erroneous call with more went
         * ahead on the small-vector algorithm; run it too, empty (their
         * exact receives fail instead of waiting for this rank) */
        ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(comm);
        const void *in = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
        int alg = rs_select(op, (size_t)(total * dt->size), n);

        /* signed with the algorithm (ring_segmented adds its segment
         * count): ranks whose counts differ enough to choose different
         * ones never match each other's messages, and the stall probe
         * fails them (a recursive-halving rank 0 against ring_segmented
         * elsewhere hung at 4 and 5 ranks when the schedules were signed
         * by the collective only) */
        ucmpi_sched_sign(s, rs_algs, sizeof(rs_algs[0]), NALGS, alg, 0);
        if (n == 1) {
            rc = in == rbuf ? MPI_SUCCESS
                 : ucmpi_sched_copy(s, in, total, dt, rbuf, total, dt);
        } else {
            switch (alg) {
            case UCMPI_RS_RING:
                rc = ucmpi_rs_ring(s, in, rbuf, counts, dt, op, &g);
                break;
            case UCMPI_RS_RING_SEGMENTED:
                rc = ucmpi_rs_ring_seg(s, in, rbuf, counts, dt, op, &g);
                break;
            case UCMPI_RS_PAIRWISE:
                rc = ucmpi_rs_pairwise(s, in, rbuf, counts, dt, op, &g);
                break;
            default:
                rc = ucmpi_rs_recursive_halving(s, in, rbuf, counts, dt, op,
                                                &g);
            }
        }
    }
    return ucmpi_coll_run_new(comm, s, rc, mode, req, fn,
                              ccounts ? NULL : &key);
}

static int rs_check(const ucmpi_coll_args_t *a)
{
    if (a->rcounts == NULL && a->rcounts_c == NULL)
        return ucmpi_err_comm(a->comm, MPI_ERR_ARG, ucmpi_call_name(),
                              "recvcounts is NULL");
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

#pragma weak MPI_Reduce_scatter = PMPI_Reduce_scatter
int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf,
                        const int recvcounts[], MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .rbuf = recvbuf,
                           .rcounts = recvcounts, .rdt = datatype, .op = op};
    return ucmpi_coll_call(&rs_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Reduce_scatter");
}

#pragma weak MPI_Ireduce_scatter = PMPI_Ireduce_scatter
int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf,
                         const int recvcounts[], MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .rbuf = recvbuf,
                           .rcounts = recvcounts, .rdt = datatype, .op = op};
    return ucmpi_coll_call(&rs_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ireduce_scatter");
}

#pragma weak MPI_Reduce_scatter_init = PMPI_Reduce_scatter_init
int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf,
                             const int recvcounts[], MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .rbuf = recvbuf,
                           .rcounts = recvcounts, .rdt = datatype, .op = op};
    return ucmpi_coll_call(&rs_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Reduce_scatter_init");
}

#pragma weak MPI_Reduce_scatter_block = PMPI_Reduce_scatter_block
int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf,
                              int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = datatype, .op = op};
    return ucmpi_coll_call(&rsb_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Reduce_scatter_block");
}

#pragma weak MPI_Ireduce_scatter_block = PMPI_Ireduce_scatter_block
int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf,
                               int recvcount, MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = datatype, .op = op};
    return ucmpi_coll_call(&rsb_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ireduce_scatter_block");
}

#pragma weak MPI_Reduce_scatter_block_init = PMPI_Reduce_scatter_block_init
int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf,
                                   int recvcount, MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = datatype, .op = op};
    return ucmpi_coll_call(&rsb_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Reduce_scatter_block_init");
}

/* Large-count (MPI-4) forms. */
#pragma weak MPI_Reduce_scatter_c = PMPI_Reduce_scatter_c
int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf,
                          const MPI_Count recvcounts[], MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .rbuf = recvbuf,
                           .rcounts_c = recvcounts, .rdt = datatype, .op = op};
    return ucmpi_coll_call(&rs_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Reduce_scatter_c");
}

#pragma weak MPI_Ireduce_scatter_c = PMPI_Ireduce_scatter_c
int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf,
                           const MPI_Count recvcounts[], MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .rbuf = recvbuf,
                           .rcounts_c = recvcounts, .rdt = datatype, .op = op};
    return ucmpi_coll_call(&rs_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ireduce_scatter_c");
}

#pragma weak MPI_Reduce_scatter_init_c = PMPI_Reduce_scatter_init_c
int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf,
                               const MPI_Count recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Info info, MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .rbuf = recvbuf,
                           .rcounts_c = recvcounts, .rdt = datatype, .op = op};
    return ucmpi_coll_call(&rs_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Reduce_scatter_init_c");
}

#pragma weak MPI_Reduce_scatter_block_c = PMPI_Reduce_scatter_block_c
int PMPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf,
                                MPI_Count recvcount, MPI_Datatype datatype,
                                MPI_Op op, MPI_Comm comm)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = datatype, .op = op};
    return ucmpi_coll_call(&rsb_desc, &a, UCMPI_COLL_BLOCKING, NULL,
                           "MPI_Reduce_scatter_block_c");
}

#pragma weak MPI_Ireduce_scatter_block_c = PMPI_Ireduce_scatter_block_c
int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf,
                                 MPI_Count recvcount, MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm,
                                 MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = datatype, .op = op};
    return ucmpi_coll_call(&rsb_desc, &a, UCMPI_COLL_NONBLOCKING, request,
                           "MPI_Ireduce_scatter_block_c");
}

#pragma weak MPI_Reduce_scatter_block_init_c = PMPI_Reduce_scatter_block_init_c
int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf,
                                     MPI_Count recvcount,
                                     MPI_Datatype datatype, MPI_Op op,
                                     MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request)
{
    ucmpi_coll_args_t a = {.comm = comm, .sbuf = sendbuf, .rbuf = recvbuf,
                           .rcount = recvcount, .rdt = datatype, .op = op};
    return ucmpi_coll_call(&rsb_desc, &a, UCMPI_COLL_PERSISTENT, request,
                           "MPI_Reduce_scatter_block_init_c");
}
