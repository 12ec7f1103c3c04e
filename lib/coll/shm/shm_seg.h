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
 * messages let it; matters when ranks share cores (4 ranks on 2 cores,
 * bench/coll_bench -b bcast 8 B-4 KiB at load 7-14: 4 buffers 2.8 us,
 * 16 buffers 0.5-1.1 us; Open MPI 0.3-1.3 in the run before). */
#define NBUF UCMPI_SHM_NBUF
/* Data up to UCMPI_COLL_SHM_SMALL bytes goes in a deeper ring of NSMALL
 * small buffers per rank: a bcast root or the contributors of a reduce
 * then run up to NSMALL-1 collectives ahead, so that oversubscribed
 * ranks switch (~2.5 us a switch on this VM) once per many collectives. */
#define NSMALL 64
/* Oversubscribed (more ranks than cores, where every collective costs
 * switches), data up to MED_BYTES also goes in a ring NMED deep, so that
 * a bcast root runs up to NMED-1 collectives ahead as with eager p2p
 * messages (Open MPI's binomial bcast of 4-8 KiB at 4 ranks was 0.95 /
 * 0.89x ucmpi's in session 7's quiet table).  Only there: with polling
 * ranks on cores of their own the deeper ring's cache footprint cost more
 * than it saved (UCMPI_COLL_SHM_SMALL in shm.h: 1 KiB buffers 64 deep
 * were slower at 2 ranks; but see MED_BYTES_2).  Session 8 (coll8), 30
 * Nov 14:23 UTC, load 18
 * from other sessions, 6 interleaved rounds, median us, 16-deep ring
 * against a 64-deep one (a temporary knob; 32 KiB buffers) and Open MPI:
 *   mpiexec -n 4 bench/coll_bench -b bcast -m 1K -M 8K
 * 1 KiB 0.46 / 0.33 / 0.8, 2 KiB 0.45 / 0.24 / 0.47, 4 KiB 0.61 / 0.41 /
 * 0.9, 8 KiB 0.85 / 0.69 / 1.0.  (Limiting it to bcast and reduce, 799a1dd,
 * was reverted: it cost 2-rank polling allreduce/allgather of 8-64 B ~20
 * ns, 0.124 -> 0.145 us, a code-layout effect on the pause-quantized
 * wait, which broke allreduce <= 0.9x Open MPI; 15:48 UTC, 6 rounds.) */
#define NMED 64
#define MED_BYTES 8192
/* perf14: at 2 ranks the medium ring is there in every wait mode, with
 * buffers up to the 2-rank shm limit (32 KiB, shm_select.c): a bcast
 * root that runs 63 collectives ahead instead of 15 no longer stalls on
 * its reader, whose cache still held the 16-deep ring's lines (perf on a
 * 2-rank bcast of 8 KiB: the root spent 76% in its copy-in, the reader
 * 34% waiting; a 2-process prototype: 0.46-0.53 us with 64 buffers, 0.80-
 * 0.94 with 16).  Cost: 2 MiB more segment per rank on 2-rank comms.
 * 1 Dec 06:40-06:43 UTC, load 4-9 from other sessions, interleaved fixed-
 * count runs, medians (7-9 rounds), us, this / the 16-deep ring / Open MPI:
 *   mpiexec -n 2 bench/coll_bench -m 512 -M 32K -i 2000 (and -b bcast
 *   -m 8K -M 32K -i 3000)
 * bcast 4 KiB 1.46 / 1.50 / 1.25, 8 KiB 1.29 / 2.46 / 2.23, 16 KiB 2.06
 * / 3.58 / 5.29, 32 KiB 3.79 / 6.24 / 9.05; allreduce, allgather,
 * alltoall, reduce_scatter 512 B-32 KiB within 5% either way. */
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
 * it took without valid data (bytes 16-31, collerr8: invalid_marks; rank
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
