/*
 * Reductions over the comm's shared segment (protocol in shm.h): the
 * rank-order reduction of n operands that the shm reduce, allreduce and
 * reduce_scatter share, and reduce_scatter itself.
 *
 * A reduce_scatter goes in chunks (one when it fits) like alltoall (shm_large.c): in
 * chunk j every rank puts piece j (P elements) of each block in its
 * buffer, block d's at d * (slot / n), and reduces piece j of its own
 * block out of the n buffers.  So all ranks reduce at once, each only
 * its block, and the copies and reductions of successive chunks overlap
 * (a writer runs up to NBUF-1 chunks ahead).  Without MPI_IN_PLACE my
 * own block's operand is read straight from sbuf.  2 ranks: 0.4-1.0x
 * the p2p ring_segmented from 128 KiB to 4 MiB, 0.65-0.8x at 8-16 MiB
 * (the limit and its measurements are in shm_seg.c).
 */
#include "coll/shm/shm.h"

#include <stdlib.h>

/* rbuf = x[0] op x[1] op ... op x[n-1], in rank order (non-commutative
 * ops too); x[i] is rank i's packed operand (contiguous dt).  The first
 * step goes straight into rbuf (three operands: one pass fewer than a
 * copy and a reduction, the copy being as long as the reduction). */
int ucmpi_coll_shm_reduce_all(const char *const *x, void *rbuf,
                              MPI_Count count, MPI_Datatype dt, MPI_Op op,
                              int n)
{
    const char *out = (const char *)rbuf + dt->true_lb;
    int rc = MPI_SUCCESS, i = n - 2;

    if (n >= 2 && x[n - 1] != out)
        rc = ucmpi_op_apply3(op, x[i--] - dt->true_lb,
                             x[n - 1] - dt->true_lb, rbuf, count, dt);
    else if (x[n - 1] != out)
        memcpy((char *)out, x[n - 1], (size_t)(count * dt->size));
    for (; i >= 0 && rc == MPI_SUCCESS; i--)
        rc = ucmpi_op_apply(op, x[i] - dt->true_lb, rbuf, count, dt);
    return rc;
}

#define MAX_STACK_RANKS 64

/* Elements of one piece: a rank's share of a buffer, whole elements,
 * 64-byte multiples where an element divides 64 (aligned copies). */
static MPI_Count piece_elems(int n, size_t esize)
{
    size_t cs = ucmpi_coll_shm_slot_size(n) / (size_t)n;

    if (cs >= 64 && 64 % esize == 0)
        cs = cs / 64 * 64;
    return (MPI_Count)(cs / esize);
}

/* Packs piece j of each block I send (all but my own unless in place)
 * into my buffer for k. */
static void pack_pieces(char *mine, const char *in, const MPI_Count *counts,
                        const MPI_Count *displs, MPI_Count lo, MPI_Count p,
                        size_t esize, int n, int me, int inplace)
{
    for (int d = 0; d < n; d++) {
        if ((d == me && !inplace) || lo >= counts[d])
            continue;
        MPI_Count m = counts[d] - lo < p ? counts[d] - lo : p;
        memcpy(mine + (size_t)d * (size_t)p * esize,
               in + (size_t)(displs[d] + lo) * esize, (size_t)m * esize);
    }
}

int ucmpi_coll_shm_reduce_scatter_large(ucmpi_comm_t *comm, const void *sbuf,
                                        void *rbuf, const MPI_Count *counts,
                                        const MPI_Count *displs,
                                        MPI_Datatype dt, MPI_Op op,
                                        const char *fn)
{
    int n = comm->size, me = comm->rank, inplace = sbuf == MPI_IN_PLACE;
    size_t esize = (size_t)dt->size;
    MPI_Count p = piece_elems(n, esize), maxc = 0;
    const char *stack[MAX_STACK_RANKS], **x;
    /* the packed input: dt is contiguous (extent == size) */
    const char *in = (const char *)(inplace ? rbuf : sbuf) + dt->true_lb;
    int rc = MPI_SUCCESS;

    if (p == 0)                   /* (n, dt) alone: same answer everywhere */
        return UCMPI_SHM_FALLBACK;
    x = n <= MAX_STACK_RANKS ? stack : malloc(sizeof(char *) * (size_t)n);
    if (x == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    for (int d = 0; d < n; d++)
        maxc = counts[d] > maxc ? counts[d] : maxc;
    for (MPI_Count lo = 0; lo < maxc && rc == MPI_SUCCESS; lo += p) {
        ucmpi_coll_shm_t *sh;
        uint64_t k;

        rc = ucmpi_coll_shm_enter(comm, fn, &sh, &k);
        if (rc == UCMPI_SHM_FALLBACK && lo > 0)
            rc = ucmpi_err_comm(comm, MPI_ERR_OTHER, fn, "the shared-memory "
                                "segment went away during a collective");
        if (rc != MPI_SUCCESS ||
            (rc = ucmpi_coll_shm_wait_writable(sh, k, fn)) != MPI_SUCCESS)
            break;
        pack_pieces(ucmpi_coll_shm_buf(sh, me, k), in, counts, displs, lo, p,
                    esize, n, me, inplace);
        ucmpi_coll_shm_post(sh, k);
        if (lo >= counts[me])
            continue;             /* my block is done: nothing to read */
        MPI_Count m = counts[me] - lo < p ? counts[me] - lo : p;
        if ((rc = ucmpi_coll_shm_wait(sh, -1, k, fn)) != MPI_SUCCESS)
            break;
        for (int i = 0; i < n; i++)
            x[i] = ucmpi_coll_shm_buf(sh, i, k) +
                   (size_t)me * (size_t)p * esize;
        if (!inplace)
            x[me] = in + (size_t)(displs[me] + lo) * esize;
        rc = ucmpi_coll_shm_reduce_all(x, (char *)rbuf + (size_t)lo * esize,
                                       m, dt, op, n);
        if (rc != MPI_SUCCESS)
            rc = ucmpi_err_comm(comm, rc, fn, "reduction failed");
    }
    if (x != stack)
        free(x);
    return rc;
}
