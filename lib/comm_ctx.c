/*
 * Context ids.  Every process keeps a bitmask of the ids its live
 * communicators use; a new communicator takes the lowest id free on every
 * participant, found by a bitwise-AND allreduce of the free masks, and
 * reserves it at once.  Creation calls on overlapping groups are ordered
 * the same way on every process (they are collective), so two agreements
 * can never hand out one id twice.  Ids 0 and 1 are MPI_COMM_WORLD's and
 * MPI_COMM_SELF's.
 */
#include "ucmpi.h"
#include "comm_internal.h"

#include <string.h>

static uint64_t ctx_free[UCMPI_CTX_WORDS];
static int ctx_ready;

static void ctx_init(void)
{
    memset(ctx_free, 0xff, sizeof(ctx_free));
    ctx_free[0] &= ~(uint64_t)3;      /* world and self */
    ctx_ready = 1;
}

void ucmpi_ctx_mask(uint64_t *mask)
{
    ucmpi_lock();
    if (!ctx_ready)
        ctx_init();
    memcpy(mask, ctx_free, sizeof(ctx_free));
    ucmpi_unlock();
}

int ucmpi_ctx_pick(const uint64_t *mask, int n, uint32_t *ids)
{
    int got = 0;
    for (int w = 0; w < UCMPI_CTX_WORDS && got < n; w++)
        for (int b = 0; b < 64 && got < n; b++)
            if (mask[w] >> b & 1)
                ids[got++] = (uint32_t)(w * 64 + b);
    if (got < n)
        return MPI_ERR_OTHER;
    ucmpi_lock();
    for (int i = 0; i < n; i++)
        ctx_free[ids[i] / 64] &= ~((uint64_t)1 << (ids[i] % 64));
    ucmpi_unlock();
    return MPI_SUCCESS;
}

void ucmpi_ctx_release(uint32_t id)
{
    if (id < 2 || id >= UCMPI_CTX_IDS)
        return;
    ucmpi_lock();
    ctx_free[id / 64] |= (uint64_t)1 << (id % 64);
    ucmpi_unlock();
}

void ucmpi_ctx_finalize(void)
{
    ctx_ready = 0;
}

int ucmpi_ctx_agree(const ucmpi_cc_t *cc, int n, uint32_t *ids)
{
    uint64_t mask[UCMPI_CTX_WORDS];
    ucmpi_ctx_mask(mask);
    int rc = ucmpi_cc_allreduce_band(cc, mask, UCMPI_CTX_WORDS);
    return rc != MPI_SUCCESS ? rc : ucmpi_ctx_pick(mask, n, ids);
}

/*
 * Over an intercommunicator: AND within each group (on its local comm),
 * the two leaders (rank 0) exchange their masks, and `nx` extra ints,
 * over the intercomm, then each group broadcasts the result.  Every
 * member gets the remote group's extras in rx.
 */
int ucmpi_ctx_agree_inter(ucmpi_comm_t *inter, int n, uint32_t *ids,
                          const int *x, int *rx, int nx)
{
    struct {
        uint64_t mask[UCMPI_CTX_WORDS];
        int extra[UCMPI_CTX_MAX_EXTRA];
    } mine, theirs;
    ucmpi_cc_t cc;
    int tag = ucmpi_comm_next_coll_tag(inter);

    memset(&mine, 0, sizeof(mine));
    ucmpi_cc_init(&cc, inter->local_comm);
    ucmpi_ctx_mask(mine.mask);
    int rc = ucmpi_cc_allreduce_band(&cc, mine.mask, UCMPI_CTX_WORDS);
    if (rc != MPI_SUCCESS)
        return rc;
    if (inter->rank == 0) {
        memcpy(mine.extra, x, nx * sizeof(int));
        rc = ucmpi_cc_sendrecv(inter, UCMPI_CTX_COLL, tag, &mine,
                               sizeof(mine), &theirs, sizeof(theirs), 0);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    rc = ucmpi_cc_bcast(&cc, &theirs, sizeof(theirs), 0);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int w = 0; w < UCMPI_CTX_WORDS; w++)
        mine.mask[w] &= theirs.mask[w];
    memcpy(rx, theirs.extra, nx * sizeof(int));
    return ucmpi_ctx_pick(mine.mask, n, ids);
}
