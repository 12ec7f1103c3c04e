/* The 64-bit UCP tag: [63] sync, [62:45] context id * 4 + sub-context, [44:24]
 * source, [23:0] MPI tag: docs/architecture.md, "lib/ucp_glue internals". */
#ifndef UCMPI_UCX_TAG_H
#define UCMPI_UCX_TAG_H

#include <stdint.h>

#define UCMPI_TAG_SYNC_BIT   63
#define UCMPI_TAG_CTX_SHIFT  45
#define UCMPI_TAG_CTX_BITS   18
#define UCMPI_TAG_SRC_SHIFT  24
#define UCMPI_TAG_SRC_BITS   21
#define UCMPI_TAG_TAG_BITS   24

#define UCMPI_TAG_FIELD(bits) ((UINT64_C(1) << (bits)) - 1)
#define UCMPI_TAG_SYNC        (UINT64_C(1) << UCMPI_TAG_SYNC_BIT)
#define UCMPI_TAG_MASK_CTX \
    (UCMPI_TAG_FIELD(UCMPI_TAG_CTX_BITS) << UCMPI_TAG_CTX_SHIFT)
#define UCMPI_TAG_MASK_SRC \
    (UCMPI_TAG_FIELD(UCMPI_TAG_SRC_BITS) << UCMPI_TAG_SRC_SHIFT)
#define UCMPI_TAG_MASK_TAG UCMPI_TAG_FIELD(UCMPI_TAG_TAG_BITS)
/* largest number of ranks a communicator may have */
#define UCMPI_TAG_MAX_RANKS (1 << UCMPI_TAG_SRC_BITS)
/* largest communicator context id (4 sub-contexts each) */
#define UCMPI_TAG_MAX_CTX ((1 << (UCMPI_TAG_CTX_BITS - 2)) - 1)

static inline uint64_t ucmpi_tag_make(uint32_t ctx, int sub, int src, int tag)
{
    return ((uint64_t)(ctx * 4 + sub) << UCMPI_TAG_CTX_SHIFT) |
           ((uint64_t)src << UCMPI_TAG_SRC_SHIFT) | (uint64_t)tag;
}

/* Receive tag and mask for (src, tag), either of which may be a wildcard
 * (negative: MPI_ANY_SOURCE / MPI_ANY_TAG). */
static inline void ucmpi_tag_recv(uint32_t ctx, int sub, int src, int tag,
                                  uint64_t *rtag, uint64_t *mask)
{
    *mask = UCMPI_TAG_MASK_CTX;
    *rtag = (uint64_t)(ctx * 4 + sub) << UCMPI_TAG_CTX_SHIFT;
    if (src >= 0) {
        *mask |= UCMPI_TAG_MASK_SRC;
        *rtag |= (uint64_t)src << UCMPI_TAG_SRC_SHIFT;
    }
    if (tag >= 0) {
        *mask |= UCMPI_TAG_MASK_TAG;
        *rtag |= (uint64_t)tag;
    }
}

/* Receive tag and mask for (src, tag) from a peer that never sets the sync
 * flag (an on-node peer): a full mask when neither is a wildcard. */
static inline void ucmpi_tag_recv_exact(uint32_t ctx, int sub, int src,
                                        int tag, uint64_t *rtag,
                                        uint64_t *mask)
{
    ucmpi_tag_recv(ctx, sub, src, tag, rtag, mask);
    if (src >= 0 && tag >= 0)
        *mask |= UCMPI_TAG_SYNC;
}

static inline int ucmpi_tag_src(uint64_t t)
{
    return (int)((t & UCMPI_TAG_MASK_SRC) >> UCMPI_TAG_SRC_SHIFT);
}

static inline int ucmpi_tag_tag(uint64_t t)
{
    return (int)(t & UCMPI_TAG_MASK_TAG);
}

static inline uint32_t ucmpi_tag_ctx(uint64_t t)
{
    return (uint32_t)((t & UCMPI_TAG_MASK_CTX) >> UCMPI_TAG_CTX_SHIFT) / 4;
}

static inline int ucmpi_tag_sub(uint64_t t)
{
    return (int)((t & UCMPI_TAG_MASK_CTX) >> UCMPI_TAG_CTX_SHIFT) % 4;
}

static inline int ucmpi_tag_is_sync(uint64_t t)
{
    return (t & UCMPI_TAG_SYNC) != 0;
}

#endif
