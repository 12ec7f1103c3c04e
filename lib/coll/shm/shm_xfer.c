/* Allgather and alltoall over the shared segment: pack once, post, and copy
 * out of the others' buffers once all posted. */
#include "coll/shm/shm.h"
#include "coll/coll_util.h"

static inline char *block(const void *buf, int i, MPI_Count count,
                          MPI_Datatype dt)
{
    return (char *)buf + (MPI_Aint)i * count * dt->extent;
}

int ucmpi_coll_shm_allgather(ucmpi_comm_t *comm, const void *sbuf,
                             MPI_Count scount, MPI_Datatype sdt, void *rbuf,
                             MPI_Count rcount, MPI_Datatype rdt)
{
    int rc, me = comm->rank;
    ucmpi_coll_shm_t *sh;
    size_t nbytes = (size_t)(rcount * rdt->size);
    uint64_t k;

    if (nbytes > ucmpi_coll_shm_slot_size(comm->size))
        return ucmpi_coll_shm_xfer_large(comm, sbuf, scount, sdt, rbuf,
                                         rcount, rdt, 0);
    if ((rc = ucmpi_coll_shm_enter(comm, &sh, &k)) != MPI_SUCCESS)
        return rc;
    rc = sbuf == MPI_IN_PLACE
             ? ucmpi_coll_shm_contribute(sh, k, me,
                                         block(rbuf, me, rcount, rdt),
                                         rcount, rdt, nbytes, 0)
             : ucmpi_coll_shm_contribute(sh, k, me, sbuf, scount, sdt,
                                         nbytes, 0);
    if (rc != MPI_SUCCESS)
        return rc;
    /* my own block while the others still write, straight from sbuf (its
     * lines in my buffer are being pulled by the others: docs/tuning.md) */
    if (sbuf != MPI_IN_PLACE && sdt->contig && rdt->contig)
        ucmpi_coll_shm_copy(block(rbuf, me, rcount, rdt) + rdt->true_lb,
                            (const char *)sbuf + sdt->true_lb, nbytes);
    else if (sbuf != MPI_IN_PLACE)
        ucmpi_coll_shm_unpack(block(rbuf, me, rcount, rdt), rcount, rdt,
                              ucmpi_coll_shm_data(sh, me, k, nbytes));
    /* every rank's block bytes (unchecked, other counts pass as data) */
    if ((rc = ucmpi_coll_shm_wait(sh, -1, k)) != MPI_SUCCESS ||
        (rc = ucmpi_coll_shm_check_valid(sh, k, 1)) != MPI_SUCCESS ||
        (rc = ucmpi_coll_shm_check_sizes(sh, k, nbytes)) != MPI_SUCCESS)
        return rc;
    for (int r = 0; r < comm->size; r++)
        if (r != me)
            ucmpi_coll_shm_unpack(block(rbuf, r, rcount, rdt), rcount, rdt,
                                  ucmpi_coll_shm_data(sh, r, k, nbytes));
    return MPI_SUCCESS;
}

/* Packs my outgoing blocks (block i at i * blk), but mine when skip_me. */
static void pack_blocks(char *mine, const void *sbuf, MPI_Count scount,
                        MPI_Datatype sdt, size_t blk, int n, int me,
                        int skip_me)
{
    if (!sdt->contig) {
        for (int i = 0; i < n; i++)
            if (i != me || !skip_me)
                ucmpi_coll_shm_pack(mine + (size_t)i * blk,
                                    block(sbuf, i, scount, sdt), scount, sdt);
        return;
    }
    const char *src = (const char *)sbuf + sdt->true_lb;
    if (!skip_me) {
        ucmpi_coll_shm_copy(mine, src, blk * (size_t)n);
        return;
    }
    ucmpi_coll_shm_copy(mine, src, blk * (size_t)me);     /* blocks < me */
    ucmpi_coll_shm_copy(mine + blk * (size_t)(me + 1),
                        src + blk * (size_t)(me + 1),
                        blk * (size_t)(n - me - 1));      /* blocks > me */
}

/* A rank's buffer holds its n outgoing blocks back to back; my own block
 * skips the segment when it can (a third of the bytes at 2 ranks). */
int ucmpi_coll_shm_alltoall(ucmpi_comm_t *comm, const void *sbuf,
                            MPI_Count scount, MPI_Datatype sdt, void *rbuf,
                            MPI_Count rcount, MPI_Datatype rdt)
{
    int rc, n = comm->size, me = comm->rank, inplace = sbuf == MPI_IN_PLACE;
    ucmpi_coll_shm_t *sh;
    size_t blk = (size_t)(rcount * rdt->size);
    uint64_t k;
    char *mine;

    if (blk * (size_t)n > ucmpi_coll_shm_slot_size(n))
        return ucmpi_coll_shm_xfer_large(comm, sbuf, scount, sdt, rbuf,
                                         rcount, rdt, 1);
    if ((rc = ucmpi_coll_shm_enter(comm, &sh, &k)) != MPI_SUCCESS)
        return rc;
    if (inplace) {                    /* everything is packed before use */
        sbuf = rbuf;
        scount = rcount;
        sdt = rdt;
    }
    int direct = inplace || (sdt->contig && rdt->contig);
    if ((rc = ucmpi_coll_shm_wait_room(sh, k, blk * (size_t)n)) !=
        MPI_SUCCESS)
        return rc;
    mine = ucmpi_coll_shm_data(sh, me, k, blk * (size_t)n);
    pack_blocks(mine, sbuf, scount, sdt, blk, n, me, direct);
    ucmpi_coll_shm_set_size(sh, k, blk * (size_t)n);
    ucmpi_coll_shm_post(sh, k);
    /* my own block while the others still write */
    if (!direct)
        ucmpi_coll_shm_unpack(block(rbuf, me, rcount, rdt), rcount, rdt,
                              mine + (size_t)me * blk);
    else if (!inplace)
        ucmpi_coll_shm_copy(block(rbuf, me, rcount, rdt) + rdt->true_lb,
                            block(sbuf, me, scount, sdt) + sdt->true_lb, blk);
    if ((rc = ucmpi_coll_shm_wait(sh, -1, k)) != MPI_SUCCESS ||
        (rc = ucmpi_coll_shm_check_valid(sh, k, 1)) != MPI_SUCCESS ||
        (rc = ucmpi_coll_shm_check_sizes(sh, k, blk * (size_t)n)) !=
            MPI_SUCCESS)
        return rc;
    for (int r = 0; r < n; r++)
        if (r != me)
            ucmpi_coll_shm_unpack(block(rbuf, r, rcount, rdt), rcount, rdt,
                                  ucmpi_coll_shm_data(sh, r, k,
                                                      blk * (size_t)n) +
                                      (size_t)me * blk);
    return MPI_SUCCESS;
}
