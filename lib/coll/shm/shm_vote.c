/* The shm vote (coll/xfer.h), here because every collective with a shm path
 * links the shm code. */
#include "coll/xfer.h"
#include "coll/shm/shm.h"

/* A voter's record at k: its bytes with k on top (never a shm rank's). */
static uint64_t vote_record(uint64_t k, size_t nbytes)
{
    return k << 40 ^ (uint64_t)nbytes;
}

int ucmpi_xfer_shm_vote(ucmpi_comm_t *comm, int kind, size_t nbytes,
                        int flags, const char *fn)
{
    ucmpi_coll_shm_t *sh;
    uint64_t k, mine;
    int rc;

    if (!ucmpi_coll_shm_wanted(comm, kind, 0))
        return UCMPI_SHM_FALLBACK;
    if ((rc = ucmpi_coll_shm_enter(comm, &sh, &k)) != MPI_SUCCESS)
        return rc;
    if ((rc = ucmpi_coll_shm_wait_room(sh, k, 0)) != MPI_SUCCESS)
        return rc;
    mine = flags & UCMPI_XFER_VOTE_LOST ? UCMPI_COLL_SHM_SIZE_LOST
                                        : vote_record(k, nbytes);
    ucmpi_coll_shm_set_size(sh, k, mine);
    ucmpi_coll_shm_mark_invalid(sh, k, 1);    /* shm readers: truncation */
    ucmpi_coll_shm_post(sh, k);
    if ((rc = ucmpi_coll_shm_wait(sh, -1, k)) != MPI_SUCCESS)
        return rc;
    for (int r = 0; r < comm->size; r++) {
        uint64_t theirs = ucmpi_coll_shm_size_of(sh, r, k);
        if (r == comm->rank || theirs == mine)
            continue;
        if (flags & (UCMPI_XFER_VOTE_QUIET | UCMPI_XFER_VOTE_LOST))
            return MPI_ERR_TRUNCATE;
        if (theirs == UCMPI_COLL_SHM_SIZE_LOST)
            return ucmpi_coll_err(comm, MPI_ERR_OTHER, "rank %d could "
                                  "not take part (its arguments failed a "
                                  "check)", r);
        if (theirs >> 40 == (k & ((1ULL << 24) - 1)))
            return ucmpi_coll_err(comm, MPI_ERR_TRUNCATE, "rank %d "
                                  "passed %llu bytes, this rank %llu: the "
                                  "counts or types of the ranks differ", r,
                                  (unsigned long long)(theirs ^ k << 40),
                                  (unsigned long long)nbytes);
        return ucmpi_coll_err(comm, MPI_ERR_TRUNCATE, "rank %d passed "
                              "few enough bytes for the shared-memory path, "
                              "this rank %llu: the counts or types of the "
                              "ranks differ", r, (unsigned long long)nbytes);
    }
    return MPI_SUCCESS;
}
