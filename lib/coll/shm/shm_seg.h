/*
 * Private to lib/coll/shm: the segment's layout (see shm_seg.c) and the
 * per-comm state, shared by the segment (shm_seg.c) and the flag
 * protocol (shm_wait.c).
 */
#ifndef UCMPI_COLL_SHM_SEG_H
#define UCMPI_COLL_SHM_SEG_H

#include "coll/shm/shm.h"

#define FLAG_STRIDE 128
/* Buffers per rank: a writer may run NBUF-1 collectives ahead of its
 * slowest reader (a bcast root, reduce contributors), as eager p2p
 * messages let it; matters when ranks share cores (a small bcast at 4
 * ranks on 2 cores: 16 buffers 2.5-5x faster than 4, docs/tuning.md). */
#define NBUF UCMPI_SHM_NBUF
/* Data up to UCMPI_COLL_SHM_SMALL bytes goes in a deeper ring of NSMALL
 * small buffers per rank: a bcast root or the contributors of a reduce
 * then run up to NSMALL-1 collectives ahead, so that oversubscribed
 * ranks switch (~2.5 us a switch on this VM) once per many collectives. */
#define NSMALL 64
/* Oversubscribed (more ranks than cores, where every collective costs
 * switches), data up to MED_BYTES also goes in a ring NMED deep, so that
 * a bcast root runs up to NMED-1 collectives ahead as with eager p2p
 * messages (Open MPI's binomial bcast of 4-8 KiB at 4 ranks was faster
 * than a 16-deep ring).  Only there: with polling ranks on cores of their
 * own the deeper ring's cache footprint cost more than it saved
 * (UCMPI_COLL_SHM_SMALL in shm.h: 1 KiB buffers 64 deep were slower at 2
 * ranks; but see MED_BYTES_2).  Not limited to bcast and reduce: that
 * cost small 2-rank allreduces through code layout.  Measurements in
 * docs/tuning.md. */
#define NMED 64
#define MED_BYTES 8192
/* At 2 ranks the medium ring is there in every wait mode, with buffers
 * up to the 2-rank shm limit (32 KiB, shm_select.c): a bcast root that
 * runs 63 collectives ahead instead of 15 no longer stalls on its
 * reader, whose cache still held the 16-deep ring's lines.  Bcast of
 * 8-32 KiB ~1.6-1.9x faster, the other collectives unchanged
 * (docs/tuning.md); cost: 2 MiB more segment per rank on 2-rank comms. */
#define MED_BYTES_2 32768
/* a medium buffer free at k (everyone posted k - NMED + 1) also frees the
 * size record k % NSMALL (ucmpi_coll_shm_set_size) */
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

/* Rank r's flag: the number it posted last (bytes 0-7 of its FLAG_STRIDE
 * bytes), then how many ranks sleep on it (bytes 8-11), then the numbers
 * it took without valid data (bytes 16-31, invalid_marks; rank
 * 0's line also holds any_invalid at bytes 32-39), then a copy of its
 * latest size records (bytes 40-55: size_word in shm_seg.c). */
static inline uint64_t *flag(ucmpi_coll_shm_t *sh, int r)
{
    return (uint64_t *)(sh->base + (size_t)r * FLAG_STRIDE);
}

static inline int medium(const ucmpi_coll_shm_t *sh, size_t nbytes)
{
    return nbytes > UCMPI_COLL_SHM_SMALL && nbytes <= sh->med;
}

#endif
