/* Private to lib/coll/shm: the segment's layout and per-comm state, shared
 * by shm_seg.c and the flag protocol (shm_wait.c). */
#ifndef UCMPI_COLL_SHM_SEG_H
#define UCMPI_COLL_SHM_SEG_H

#include "coll/shm/shm.h"

#define FLAG_STRIDE 128
/* A writer may run NBUF-1 collectives ahead of its slowest reader, as
 * eager p2p lets it (matters when ranks share cores: docs/tuning.md). */
#define NBUF UCMPI_SHM_NBUF
/* Small data goes in a deeper ring, so oversubscribed ranks switch once
 * per many collectives. */
#define NSMALL 64
/* Oversubscribed, up to MED_BYTES also in a ring NMED deep (a bcast root runs
 * ahead); on own cores its cache footprint cost more (docs/tuning.md). */
#define NMED 64
#define MED_BYTES 8192
/* At 2 ranks the medium ring is always there, up to the 2-rank shm limit
 * (bcast of 8-32 KiB ~1.7x faster, docs/tuning.md). */
#define MED_BYTES_2 32768
/* a free medium buffer at k also frees size record k % NSMALL */
_Static_assert(NMED <= NSMALL, "size records outlive the medium ring");

struct ucmpi_coll_shm {
    int ok;                   /* 0: no segment, every call falls back */
    int n, me;
    size_t slot;              /* bytes of one data buffer */
    size_t med;               /* bytes of a medium buffer (0: no ring) */
    char *base;               /* the mapping (flags, then buffers) */
    size_t len;
    uint64_t seq;             /* number of the last collective begun */
    uint64_t writable;        /* every rank is known to have posted this */
    uint64_t tag_sink;        /* size_tag of data that fills its buffer */
    uint64_t call;            /* the current call's name in the size
                               * records: rec_call in shm_seg.c, for */
    const char *call_fn;      /* comm->coll.fn and */
    int call_root;            /* comm->coll.root */
    int *world;               /* world rank of each comm rank */
    ucmpi_comm_t *comm;       /* owner (outlives this state) */
    ucmpi_coll_shm_caps_t caps;   /* ucmpi_coll_shm_wanted's answers */
    /* where the rings start (layout in shm_seg.c; set with base): the
     * buffer of every small collective is an add and a multiply away */
    char *small, *med_ring;
    uint64_t *recs;
};

/* Rank r's flag line: 0-7 its last number, 8-11 sleepers, 16-31 invalid_marks
 * (rank 0: any_invalid 32-39), 40-55 its latest size records (size_word). */
static inline uint64_t *flag(ucmpi_coll_shm_t *sh, int r)
{
    return (uint64_t *)(sh->base + (size_t)r * FLAG_STRIDE);
}

static inline int medium(const ucmpi_coll_shm_t *sh, size_t nbytes)
{
    return nbytes > UCMPI_COLL_SHM_SMALL && nbytes <= sh->med;
}

#endif
