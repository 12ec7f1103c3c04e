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
/* Oversubscribed, data up to MED_BYTES also goes in a ring NMED deep (a
 * bcast root runs ahead as with eager p2p); with polling ranks on their
 * own cores its cache footprint cost more than it saved (docs/tuning.md). */
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

/* Rank r's flag line: bytes 0-7 the number it posted last, 8-11 its
 * sleepers, 16-31 invalid_marks (rank 0: any_invalid at 32-39), 40-55 a
 * copy of its latest size records (size_word in shm_seg.c). */
static inline uint64_t *flag(ucmpi_coll_shm_t *sh, int r)
{
    return (uint64_t *)(sh->base + (size_t)r * FLAG_STRIDE);
}

static inline int medium(const ucmpi_coll_shm_t *sh, size_t nbytes)
{
    return nbytes > UCMPI_COLL_SHM_SMALL && nbytes <= sh->med;
}

#endif
