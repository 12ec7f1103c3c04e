/*
 * The shm path's segment: one per intracommunicator whose ranks share a
 * node, created at its first eligible collective (which every rank calls),
 * unlinked as soon as every rank mapped it (so a crash leaves nothing in
 * /dev/shm), unmapped when the comm is freed.  Also the flag protocol
 * (post, wait) and the selection (ucmpi_coll_shm_wanted).
 *
 * Layout: n flags, each alone in FLAG_STRIDE bytes (no false sharing, also
 * not with the adjacent-line prefetcher), then per rank NBUF buffers of
 * `slot` bytes (collective k uses buffer k % NBUF), then per rank NSMALL
 * buffers of UCMPI_COLL_SHM_SMALL bytes (a collective of that little
 * data uses small buffer k % NSMALL instead), then per rank NSMALL size
 * records (the bytes of the reduction a rank posted k for, at k % NSMALL:
 * a count that differs between ranks is caught, see
 * ucmpi_coll_shm_check_sizes), then, on an oversubscribed node only, per
 * rank NMED buffers of MED_BYTES (data up to that size uses medium
 * buffer k % NMED: see NMED).
 */
#include "coll/shm/shm.h"
#include "coll/coll.h"
#include "coll/coll_util.h"
#include "progress.h"
#include "coll/bcast/bcast.h"
#include "coll/allreduce/allreduce.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define FLAG_STRIDE 128
#define NAME_LEN 64
/* Flag checks before progress/idle calls, when not oversubscribed. */
#define SPIN_PURE 64
/* Oversubscribed: idle turns, each a yield (which hands the core to a
 * rank of the same session), before sleeping on the futex.  Session 5 (4
 * ranks, 2 cores, load 15-20, bcast/allreduce/alltoall 8 B-1 KiB, us):
 * sleeping at once 4-7/26-80/22-80; after 80-200 turns 0.5-1.2 (a few
 * 2-5)/7-120/8-55; never 0.5-20000/4-200/10-45.
 * Session 6, yields from the first idle turn (no spinning first: a
 * sched_yield costs ~1 us on this VM, a pause 44 ns, a switch ~2.5 us;
 * the old 64 pauses + 63 progress calls before the first yield cost 3-6
 * us per wait), 30 Nov 09:03 UTC, load 34, 3 interleaved runs each:
 *   SLEEP_AFTER 16|128|1024 (a temporary knob), mpiexec -n 8 of a loop of
 *   5000 MPI_Allreduce of 8 B, and -n 4 of 10000 MPI_Alltoall of 64 B
 * 8 ranks allreduce 47/51/285 us, 4 ranks alltoall 15/15/19 us: sleeping
 * after 16 or 128 yields a tie, never sleeping much worse at 8 ranks. */
#define SLEEP_AFTER 128
#define SLEEP_NS 1000000      /* longest futex sleep */
/* Buffers per rank: a writer may run NBUF-1 collectives ahead of its
 * slowest reader (a bcast root, reduce contributors), as eager p2p
 * messages let it; matters when ranks share cores (4 ranks on 2 cores,
 * bench/coll_bench -b bcast 8 B-4 KiB at load 7-14: 4 buffers 2.8 us,
 * 16 buffers 0.5-1.1 us; Open MPI 0.3-1.3 in the run before). */
#define NBUF 16
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
 * were slower at 2 ranks).  Session 8 (coll8), 30 Nov 14:23 UTC, load 18
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
/* a medium buffer free at k (everyone posted k - NMED + 1) also frees the
 * size record k % NSMALL (ucmpi_coll_shm_set_size) */
_Static_assert(NMED <= NSMALL, "size records outlive the medium ring");

struct ucmpi_coll_shm {
    int ok;                   /* 0: no segment, every call falls back */
    int n, me;
    size_t slot;              /* bytes of one data buffer */
    int deep;                 /* the NMED-deep medium ring is there */
    char *base;               /* the mapping (flags, then buffers) */
    size_t len;
    uint64_t seq;             /* number of the last collective begun */
    uint64_t writable;        /* every rank is known to have posted this */
    uint64_t tag_sink;        /* size_tag of data that fills its buffer */
    int *world;               /* world rank of each comm rank */
    ucmpi_comm_t *comm;       /* owner (outlives this state) */
};

/* ---- selection ---- */

static const char *const knobs[UCMPI_SHM_NKINDS] = {
    "BARRIER_ALGORITHM", "BCAST_ALGORITHM", "REDUCE_ALGORITHM",
    "ALLREDUCE_ALGORITHM", "ALLGATHER_ALGORITHM", "ALLTOALL_ALGORITHM",
    "REDUCE_SCATTER_ALGORITHM",
};

/* Automatic selection: the shm path up to these bytes per rank (the
 * UCMPI_COLL_SHM_MAX_BYTES tunable overrides all of them), for 2, 3-4
 * and 5-8 ranks; data larger than one buffer goes in chunks for the
 * kinds in chunked[] (shm_large.c).  More than 8 ranks (not measurable
 * on this 2-core machine): up to one buffer and 64 KiB, reduce divided
 * by n-1 (the root combines all n vectors itself: reasoning, not
 * measured).
 *
 * Up to 64 KiB (session 3, 2026-11-30 00:33-01:47 UTC, load 7-22,
 * medians; shm with a 64 KiB slot against UCMPI_COLL_SHM=0):
 *   UCMPI_COLL_SHM_SLOT_BYTES=65536 UCMPI_<COLL>_ALGORITHM=shm
 *     mpiexec -n 2 bench/coll_bench -b <coll> -m 8 -M 65536 -t 0.05
 *   UCMPI_COLL_SHM=0 mpiexec -n 2 bench/coll_bench -b <coll> ...
 * 2 ranks: allreduce shm 0.10-0.21 us vs 0.23-0.38 up to 2 KiB, 0.46 vs
 * 0.74-5.9 at 4 KiB, 4-16 KiB a tie, 32/64 KiB 4.4/7.9 vs 10.3/13.8;
 * bcast 16-64 KiB 0.8-2.0 vs 3.8-6.8; allgather 2.4/3.8 vs 4.3/5.7 at
 * 32/64 KiB; alltoall 1.9-3.3 vs 4.3-5.5; reduce_scatter 0.11-0.13 vs
 * 0.23-0.28 up to 1 KiB, 1.8 vs 5.7 at 64 KiB.
 *
 * Beyond, and at 4 and 8 ranks (session 4, 2026-11-30 03:11-03:46 UTC,
 * load 18-37 from other work: min and median of 2-6 interleaved runs,
 * shm everywhere against p2p only, ratio shm/p2p):
 *   UCMPI_COLL_SHM_MAX_BYTES=1073741824|0 mpiexec -n N bench/coll_bench
 *     -b bcast,allreduce,allgather,alltoall -m 8 -M 4M -t 0.05
 * 2 ranks, 128 KiB-4 MiB (chunks against main's p2p algorithms): bcast
 *   0.22-0.32, allreduce 0.53-0.80, allgather 0.55-0.78, alltoall
 *   0.51-0.87: every size.
 * 4 ranks: bcast 0.05-0.24 from 16 KiB to 4 MiB (a tie below);
 *   allgather 0.2-0.64 from 32 KiB to 4 MiB (0.9 below); allreduce
 *   0.3-0.55 at 8-64 KiB, 0.6-1.35 from 128 KiB; alltoall (bytes a
 *   rank sends in all) a tie (0.9-1.1) from 2 to 32 KiB, 1.8-4.7 beyond.
 * 8 ranks: bcast 0.06-0.15 from 16 KiB to 2 MiB; allgather 0.12-0.64 to
 *   2 MiB; allreduce 0.3-0.77 up to 128 KiB, 1.1-2.1 (min) from 256 KiB;
 *   alltoall 0.5-0.6 up to 1 KiB, 0.9 at 2 KiB, 0.8-1.5 at 4-16 KiB,
 *   1.5-3.3 from 32 KiB.
 * Unmeasured at 3-8 ranks: reduce (n-1 rule kept).
 * reduce_scatter in chunks (shm_reduce.c; session 5, 2026-11-30 06:17 UTC,
 * load 24-28, two interleaved runs each, shm against the p2p algorithm):
 *   UCMPI_REDUCE_SCATTER_ALGORITHM=shm|ring_segmented mpiexec -n 2
 *     bench/coll_bench -b reduce_scatter -m 65536 -M 64M -t 0.1
 *   (-n 4: shm|auto -m 4096 -M 4M -t 0.05)
 * 2 ranks: 3.2-6.8 vs 7.5-13.8 us at 128 KiB, 27 vs 62 at 1 MiB, 156-175
 * vs 285 at 4 MiB, 427-535 vs 1092 at 8 MiB, 1358-1368 vs 16643 and
 * more at 16 MiB (the largest sizes swing 10x with the load); again at
 * 07:19 UTC (load 27, -m 128K -M 16M): a tie from 128 KiB to 4 MiB (51
 * vs 51-56 us at 1 MiB), 451-537 vs 694-717 at 8 MiB, 1312-1436 vs
 * 1733-15282 at 16 MiB; 4 ranks
 * (oversubscribed): shm 50-89 ms against 8-34 from 1 to 4 MiB, so the
 * one-buffer limit stays there.
 * The 4-8 rank runs of session 4 had each rank in a session of its own,
 * where the waits' yields handed nothing over (see ucmpi_coll_shm_post).
 * Since then (session 5, 06:53-06:55 UTC, load 42-44, 3 interleaved runs):
 *   UCMPI_ALLTOALL_ALGORITHM=shm | UCMPI_COLL_SHM=0 mpiexec -n 8
 *     bench/coll_bench -b alltoall -m 64 -M 64K -t 0.05
 * 8 ranks, alltoall (bytes a rank sends): shm 40-600 us at 512 B-8 KiB
 * (a few 10-100 ms stalls) against p2p 110 us-117 ms, mostly 1-80 ms; at
 * 16 KiB shm 157 us-106 ms vs p2p 347 us-87 ms: raised from 2 to 16 KiB
 * (beyond: not clear at this load).
 * Small sizes at 3-8 ranks, every count (session 6, after the waits
 * yield at once; 2026-11-30 09:40-09:42 UTC, load 30-31 from other
 * sessions; medians of 3 interleaved runs, ratio shm/p2p per size):
 *   mpiexec -n N bench/coll_bench -b allreduce,bcast,allgather,alltoall
 *     -m 8 -M 8192 -t 0.03   (and the same with UCMPI_COLL_SHM=0),
 *     N = 3..8
 * 8 B-8 KiB, median ratio over the 11 sizes (sizes where shm lost):
 *   n:         3        4        5        6        7        8
 *   allreduce  0.37(0)  0.40(1)  0.26(0)  0.46(1)  0.30(1)  0.22(1)
 *   bcast      0.37(0)  0.24(0)  0.28(0)  0.29(0)  0.27(0)  0.13(0)
 *   allgather  0.32(1)  0.34(1)  0.32(3)  0.34(0)  0.08(0)  0.39(0)
 *   alltoall   0.56(4)  0.42(0)  0.45(1)  0.21(0)  0.38(0)  0.35(1)
 * the lost sizes were single slow samples of a bimodal shm time (3 ranks
 * alltoall: 3.1 us or 9-20 us, p2p 5.7-6.7); 3 ranks, fixed-count loops
 * (20000 calls, 5 interleaved runs, load 28-30): alltoall 256 B shm 18.4
 * us vs p2p 23.6, allreduce 8 B 15.7 vs 28.6.  So shm at every small size
 * on every count (the table's 3-4 and 5-8 columns).
 * Large sizes since the chunked paths post once per group of 8 chunks
 * above 2 ranks and allreduce/reduce split the reduction (shm_reduce.c;
 * session 6, collL6, 09:09-09:12 UTC, load 28-32 from SCHED_IDLE tests,
 * 3 interleaved runs, median (min) of shm/p2p):
 *   UCMPI_<COLL>_ALGORITHM=shm | nothing  mpiexec -n N bench/coll_bench
 *     -b <coll> -m 16384 -M 4194304 -t 0.1
 * reduce: 2 ranks 0.23-0.35 (0.3) from 128 KiB to 1 MiB, 0.02-0.5 to 16
 *   MiB; 4 ranks 0.19-0.61 from 32 KiB to 128 KiB, 0.06-0.1 to 4 MiB; 8
 *   ranks 0.09-0.84 from 16 KiB to 64 KiB, 0.04-0.27 to 4 MiB: all sizes.
 * allreduce: 4 ranks 0.12-0.98 (0.16-0.56) from 128 KiB to 4 MiB; 8 ranks
 *   0.16-0.38 (0.11-0.76) from 128 KiB to 4 MiB: all sizes.
 * reduce_scatter: 4 ranks 0.08-0.46 from 128 KiB to 4 MiB except one
 *   1.7 at 512 KiB; 8 ranks 0.02-0.23 from 128 KiB to 4 MiB: all sizes.
 * alltoall: 4 ranks 0.18-0.4 from 64 to 256 KiB, 1.4 (0.55) at 512 KiB,
 *   2.8 (2.1) at 1 MiB; 8 ranks 0.05-0.52 from 64 to 512 KiB (one 0.83),
 *   0.6-1.0 at 1-2 MiB: up to 512 KiB.  (shm before and after grouping,
 *   4 ranks: alltoall 0.14-0.6x, allgather 0.35-0.54x from 256 KiB.)
 * 2 ranks beyond the 32 MiB L3, where two copies through the segment
 * cost more DRAM traffic than UCX's single CMA copy (09:38 UTC, load 44,
 * 3 interleaved runs, UCMPI_COLL_SHM=1|0, -m 4M -M 64M, shm/p2p median
 * (min)): bcast 32 MiB 0.53 (0.40), 64 MiB 2.8 (2.9); allgather (bytes
 * per rank) 16 MiB 0.87 (0.88), 32 MiB 1.9 (1.6); alltoall 32 MiB 1.5
 * (0.85), 64 MiB 1.7 (1.75): p2p above 32/16/32 MiB.
 * alltoall at 3-8 ranks beyond 512 KiB (session 7, collL7, 11:25-11:31
 * UTC, load 15-21 from other sessions; medians of 3-6 interleaved runs):
 *   UCMPI_ALLTOALL_ALGORITHM=shm | UCMPI_COLL_SHM=0 (p2p) | Open MPI
 *     mpiexec -n N bench/coll_bench -b alltoall -m 512K -M 4M -t 0.1
 *     (and -m S -M S -r 300..30 for the CPU time of the whole job)
 * us, shm / p2p / Open MPI: 4 ranks 1 MiB 228 / 348 / 516 (fixed count:
 * 275 / 2136 / 931, CPU 0.15 / 0.24 / 0.36 s), 2 MiB 753 / 2602 / 2792,
 * 4 MiB 3747 / 6543 / 6078 (fixed count 6021 / 12523 / 9705); 16 MiB
 * 20202 / 20520 / 21204 (a tie); 8 ranks 1 MiB 1756 / 7071 / 9320, 2 MiB
 * 6703 / 14170 / 9968, 4 MiB (fixed count) 12444 / 27653 / 15527: shm
 * up to 4 MiB (the largest size compare.sh runs at 8 ranks).  4 ranks
 * with 64 KiB buffers (SEG_BUDGET below; 11:46 UTC, load 33, 4
 * interleaved fixed-count runs, -m S -M S -r 12|6): 8 MiB 8110 / 27201 /
 * 20759, 16 MiB 21577 / 29841 / 26982: up to 16 MiB at 3-4 ranks.
 * 2 ranks: UCX rendezvous (one CMA copy, from huge pages since bw7's
 * lib/ucp_glue/hugepage.c) against shm above 2 MiB, session 7 (collL7),
 * load 30-57.  Single calls after a barrier (min / 10th percentile /
 * median of 300, a 30-line program not in the tree) favoured p2p: 4 MiB
 * 81 / 85 / 95 us against shm 119 / 124 / 130, 8 MiB 283-322 / 316-373
 * against 363-369 / 397-405, 16 MiB a tie.  But back-to-back calls, as
 * coll_bench (and compare.sh) runs them, favour shm, whose writer runs
 * into the next call (12:51 UTC, 3-5 interleaved fixed-count runs,
 * median of medians, UCMPI_ALLTOALL_ALGORITHM=shm | auto with p2p above
 * 2 MiB):  mpiexec -n 2 bench/coll_bench -b alltoall -m S -M S -r 1000
 *   3 MiB 105 vs 149 us, 4 MiB 137 vs 186 (Open MPI 254), 8 MiB 671 vs
 *   910.  So shm up to 32 MiB stays. */
#define ALL SIZE_MAX
static const size_t auto_max[UCMPI_SHM_NKINDS][3] = {
    /*                            2 ranks  3-4 ranks  5-8 ranks */
    [UCMPI_SHM_BARRIER] =        {0,       0,         0},
    [UCMPI_SHM_BCAST] =          {32 << 20, ALL,      ALL},
    [UCMPI_SHM_REDUCE] =         {ALL,     ALL,       ALL},
    [UCMPI_SHM_ALLREDUCE] =      {ALL,     ALL,       ALL},
    [UCMPI_SHM_ALLGATHER] =      {16 << 20, ALL,      ALL},
    [UCMPI_SHM_ALLTOALL] =       {32 << 20, 16 << 20,  4 << 20},
    [UCMPI_SHM_REDUCE_SCATTER] = {ALL,     ALL,       ALL},
};
#undef ALL

/* Kinds whose data may exceed one buffer (shm_large.c: chunks). */
static const char chunked[UCMPI_SHM_NKINDS] = {
    [UCMPI_SHM_BCAST] = 1, [UCMPI_SHM_ALLREDUCE] = 1,
    [UCMPI_SHM_ALLGATHER] = 1, [UCMPI_SHM_ALLTOALL] = 1,
    [UCMPI_SHM_REDUCE_SCATTER] = 1,       /* shm_reduce.c */
    [UCMPI_SHM_REDUCE] = 1,               /* split: shm_reduce.c */
};

enum { FORCE_UNKNOWN, FORCE_NONE, FORCE_SHM, FORCE_OTHER };

static int forced(int kind)
{
    static int mode[UCMPI_SHM_NKINDS];
    static unsigned gen[UCMPI_SHM_NKINDS];     /* MPI_T may change knobs */
    unsigned g = __atomic_load_n(&ucmpi_coll_knob_generation,
                                 __ATOMIC_ACQUIRE);

    if (mode[kind] == FORCE_UNKNOWN || gen[kind] != g) {
        const char *v = ucmpi_coll_knob(knobs[kind]);
        gen[kind] = g;
        mode[kind] = v == NULL || v[0] == '\0' || strcmp(v, "auto") == 0
                         ? FORCE_NONE
                         : strcmp(v, "shm") == 0 ? FORCE_SHM : FORCE_OTHER;
    }
    return mode[kind];
}

static size_t slot_bytes(void)
{
    static long v = -1;

    if (v < 0) {
        long s = ucmpi_config_long("COLL_SHM_SLOT_BYTES");
        v = s < 64 ? 64 : (s + 63) / 64 * 64;
    }
    return (size_t)v;
}

/* A comm's buffer size: the tunable (64 KiB), cut so that the buffers of
 * a big comm stay within SEG_BUDGET (up to 8 ranks: 64 KiB, 16 ranks: 32
 * KiB), at least 4 KiB.  The segment is allocated whole at creation (see
 * create()).  8 MiB rather than 2 (session 7, collL7): the chunked paths
 * move 8 buffers per rank per flag round, and oversubscribed ranks pay
 * for every round; 16 KiB buffers at 8 ranks gave the alltoall of 512
 * KiB 4 rounds.  Fixed-count runs, 6 interleaved, 30 Nov 11:37 UTC, load
 * 25-27 (budget through a temporary knob):
 *   mpiexec -n 8 bench/coll_bench -b alltoall -m 512K -M 512K -r 300
 * median 389 us (2 MiB) / 284 (4 MiB) / 200 (8 MiB), Open MPI 1817; -n
 * 4 -m 1M -r 300: 275 (2 MiB) / 192 (4 MiB).  Time-budget runs of every
 * collective (-m 32K -M 4M/8M -t 0.05, 6 interleaved, load 22-24): from
 * 256 KiB on mostly faster with 8 MiB (4 ranks allreduce 1 MiB 919 -> 388
 * us, allgather 8 MiB 6667 -> 3448; 8 ranks allreduce 512 KiB 2239 ->
 * 409, bcast 2 MiB 1976 -> 1244), below a tie within the noise;
 * reduce_scatter at 4 ranks 1 MiB a tie in fixed-count runs (148 / 150
 * us).  The cost: creating the segment (ftruncate + posix_fallocate +
 * mmap of tmpfs) takes 3.1 ms for 8 MiB against 0.8 ms for 2 MiB, once
 * per comm of 8 ranks (2 ranks: 2 MiB as before). */
#define SEG_BUDGET ((size_t)8 << 20)
static size_t slot_for(int n)
{
    size_t s = slot_bytes(), cap = SEG_BUDGET / ((size_t)NBUF * n);

    cap = cap < 4096 ? 4096 : cap / 64 * 64;
    return s < cap ? s : cap;
}

size_t ucmpi_coll_shm_slot_size(int n)
{
    return slot_for(n);
}

static size_t auto_limit(int kind, int n)
{
    static long over = -2;          /* -2 unread, -1 unset */
    size_t lim, slot = slot_for(n);

    if (over == -2) {
        const char *v = ucmpi_config_str("COLL_SHM_MAX_BYTES");
        over = v == NULL || v[0] == '\0' ? -1 : strtol(v, NULL, 0);
    }
    if (over >= 0)
        return (size_t)over;
    lim = auto_max[kind][n == 2 ? 0 : n <= 4 ? 1 : 2];
    /* beyond one buffer only where measured, and not in the chunks of a
     * tiny tuned buffer (a flag round per few bytes) */
    if ((!chunked[kind] || n > 8 || slot < 4096) && lim > slot)
        lim = slot;
    if (n > 8 && lim > 65536)
        lim = 65536;
    if (kind == UCMPI_SHM_REDUCE)
        lim /= (size_t)n - 1;
    return lim;
}

int ucmpi_coll_shm_wanted(ucmpi_comm_t *comm, int kind, size_t nbytes)
{
    static int enabled = -1;
    int f = forced(kind);
    ucmpi_coll_shm_t **slot;
    const ucmpi_coll_layout_t *l;

    if (enabled < 0)
        enabled = ucmpi_config_long("COLL_SHM") != 0;
    if (!enabled || f == FORCE_OTHER || comm->is_inter || comm->size < 2 ||
        (nbytes > slot_for(comm->size) && !chunked[kind]))
        return 0;
    if (f == FORCE_NONE && kind != UCMPI_SHM_BARRIER &&
        nbytes > auto_limit(kind, comm->size))
        return 0;
    slot = (ucmpi_coll_shm_t **)ucmpi_coll_shm_slot(comm);
    if (slot == NULL)
        return 0;     /* no per-comm state (out of memory): cannot agree */
    if (*slot != NULL)
        return (*slot)->ok;
    /* not set up yet: every rank must take the set-up path together, so
     * decide from the node map even if the layout could not be built */
    l = ucmpi_coll_layout(comm);
    if (l != NULL)
        return l->nnodes == 1;
    for (int r = 1; r < comm->size && ucmpi_global.node_of != NULL; r++)
        if (ucmpi_global.node_of[ucmpi_comm_peer_world(comm, r)] !=
            ucmpi_global.node_of[ucmpi_comm_peer_world(comm, 0)])
            return 0;
    return 1;
}

/* ---- segment set-up ---- */

/* Rank 0 creates the segment (named by its pid, the context id and a
 * counter: unique on the node); "" when it could not. */
static void create(ucmpi_coll_shm_t *sh, uint32_t ctx, char *name)
{
    static unsigned counter;
    int fd;
    void *p = MAP_FAILED;

    snprintf(name, NAME_LEN, "/ucmpi-coll-%d-%u-%u", (int)getpid(),
             (unsigned)ctx, counter++);
    fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd >= 0) {
        /* allocated now: a full /dev/shm fails here (every rank falls
         * back) rather than with SIGBUS at a later first touch */
        if (ftruncate(fd, (off_t)sh->len) == 0 &&
            posix_fallocate(fd, 0, (off_t)sh->len) == 0)
            p = mmap(NULL, sh->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                     0);
        close(fd);
        if (p == MAP_FAILED)
            shm_unlink(name);
    }
    if (p == MAP_FAILED)
        name[0] = '\0';
    else
        sh->base = p;
}

static void attach(ucmpi_coll_shm_t *sh, const char *name)
{
    int fd = shm_open(name, O_RDWR, 0600);
    struct stat st;
    void *p = MAP_FAILED;

    if (fd < 0)
        return;
    if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sh->len)
        p = mmap(NULL, sh->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p != MAP_FAILED)
        sh->base = p;
}

/* Blocking p2p collectives on comm for the set-up (bcast of the name,
 * agreement that everyone mapped it). */
static int run_bcast(ucmpi_comm_t *comm, int *buf, int len)
{
    ucmpi_sched_t *s = ucmpi_sched_create(comm);
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(comm);
    int rc;

    if (s == NULL)
        return MPI_ERR_NO_MEM;
    rc = ucmpi_bcast_build(s, buf, len, MPI_INT, 0, &g,
                           UCMPI_BCAST_BINOMIAL);
    if (rc != MPI_SUCCESS) {
        ucmpi_sched_free(s);
        return rc;
    }
    return ucmpi_sched_run_blocking(s);
}

static int run_allsum(ucmpi_comm_t *comm, int *mine, int *all)
{
    ucmpi_sched_t *s = ucmpi_sched_create(comm);
    int rc;

    if (s == NULL)
        return MPI_ERR_NO_MEM;
    rc = ucmpi_allreduce_build(s, comm, mine, all, 1, MPI_INT, MPI_SUM,
                               UCMPI_ALLREDUCE_RECURSIVE_DOUBLING);
    if (rc != MPI_SUCCESS) {
        ucmpi_sched_free(s);
        return rc;
    }
    return ucmpi_sched_run_blocking(s);
}

/* Bytes of the segment (layout at the top of this file). */
static size_t seg_len(const ucmpi_coll_shm_t *sh)
{
    return (size_t)sh->n * (FLAG_STRIDE + NBUF * sh->slot +
                            NSMALL * UCMPI_COLL_SHM_SMALL +
                            NSMALL * sizeof(uint64_t) +
                            (sh->deep ? (size_t)NMED * MED_BYTES : 0));
}

/* Every rank maps the segment or every rank falls back (sh->ok).  A rank
 * that cannot take part (no memory for its state: `refuse`) still runs the
 * set-up's two collectives, voting no, so nobody is left waiting in them. */
static int setup(ucmpi_comm_t *comm, ucmpi_coll_shm_t *sh, int refuse)
{
    /* ints (any MPI has them): the name, then whether sh->deep */
    int namebuf[NAME_LEN / sizeof(int) + 1] = {0};
    char *name = (char *)namebuf;
    int mine, all = 0, rc;

    sh->comm = comm;
    sh->n = comm->size;
    sh->me = comm->rank;
    sh->slot = slot_for(sh->n);
    sh->world = refuse ? NULL : malloc(sizeof(int) * (size_t)sh->n);
    if (sh->world != NULL)
        for (int r = 0; r < sh->n; r++)
            sh->world[r] = ucmpi_comm_peer_world(comm, r);
    /* rank 0's wait mode picks the layout for all (only speed depends
     * on it: a rank launched with another UCMPI_WAIT_MODE follows) */
    namebuf[NAME_LEN / sizeof(int)] = !ucmpi_progress_polling;
    sh->deep = namebuf[NAME_LEN / sizeof(int)];
    sh->len = seg_len(sh);
    if (sh->me == 0 && sh->world != NULL)
        create(sh, comm->ctx, name);
    rc = run_bcast(comm, namebuf, NAME_LEN / sizeof(int) + 1);
    sh->deep = namebuf[NAME_LEN / sizeof(int)] != 0;
    sh->len = seg_len(sh);
    if (rc == MPI_SUCCESS && sh->me != 0 && name[0] != '\0' &&
        sh->world != NULL)
        attach(sh, name);
    mine = sh->base != NULL;
    /* every rank takes part in the vote, also after its bcast failed (a
     * dead peer: its sends were lost; core7): skipping it left the ranks
     * whose bcast worked waiting there for ever (MPICH ft/bcast) */
    int vote = run_allsum(comm, &mine, &all);
    rc = rc != MPI_SUCCESS ? rc : vote;
    if (sh->me == 0 && name[0] != '\0')
        shm_unlink(name);            /* all mapped it (or gave up) */
    sh->ok = rc == MPI_SUCCESS && all == sh->n;
    if (!sh->ok && sh->base != NULL) {
        munmap(sh->base, sh->len);
        sh->base = NULL;
    }
    return rc;
}

/* The state of comms whose set-up this rank could not allocate: the
 * segment is off for good there, as on the ranks it voted against. */
static ucmpi_coll_shm_t shm_off;

/* Testing: UCMPI_COLL_SHM_FAIL_RANK=<world rank> makes that rank's state
 * allocation fail in every set-up (-1: never). */
static int inject_failure(void)
{
    static long r = -2;

    if (r == -2)
        r = ucmpi_config_long("COLL_SHM_FAIL_RANK");
    return r >= 0 && r == ucmpi_global.world_rank;
}

static ucmpi_coll_shm_t *shm_get(ucmpi_comm_t *comm, int *rc,
                                 const char *fn)
{
    ucmpi_coll_shm_t **slot = (ucmpi_coll_shm_t **)ucmpi_coll_shm_slot(comm);

    *rc = MPI_SUCCESS;
    if (slot == NULL)
        return NULL;
    if (*slot == NULL) {
        ucmpi_coll_shm_t *sh = inject_failure() ? NULL
                                                : calloc(1, sizeof(*sh));
        ucmpi_coll_shm_t vote_no = {0};

        *slot = sh != NULL ? sh : &shm_off;
        /* a failed set-up (a peer died during it, a stale message
         * matched) falls back like a no vote: the ranks whose set-up
         * worked saw that vote or a failed vote themselves (the loss is
         * passed on), and the usual algorithm reports a dead peer on
         * every rank alike; an error here instead had this rank leave
         * the collective while the others ran it */
        (void)setup(comm, sh != NULL ? sh : &vote_no, sh == NULL);
    }
    (void)fn;
    return (*slot)->ok ? *slot : NULL;
}

void ucmpi_coll_shm_free(void *p)
{
    ucmpi_coll_shm_t *sh = p;

    if (sh == NULL || sh == &shm_off)
        return;
    if (sh->base != NULL)
        munmap(sh->base, sh->len);
    free(sh->world);
    free(sh);
}

/* ---- flags ---- */

/* Rank r's flag: the number it posted last (bytes 0-7 of its FLAG_STRIDE
 * bytes), then how many ranks sleep on it (bytes 8-11), then the numbers
 * it took without valid data (bytes 16-31, collerr8: invalid_marks; rank
 * 0's line also holds any_invalid at bytes 32-39). */
static inline uint64_t *flag(ucmpi_coll_shm_t *sh, int r)
{
    return (uint64_t *)(sh->base + (size_t)r * FLAG_STRIDE);
}

static inline uint32_t *sleepers(ucmpi_coll_shm_t *sh, int r)
{
    return (uint32_t *)(sh->base + (size_t)r * FLAG_STRIDE + 8);
}

/* The futex word of a flag: its low 32 bits (they change at every post). */
static inline uint32_t *flag_word(uint64_t *f)
{
    return (uint32_t *)f + (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    __asm__ __volatile__("" ::: "memory");
#endif
}

int ucmpi_coll_shm_enter(ucmpi_comm_t *comm, const char *fn,
                         ucmpi_coll_shm_t **sh, uint64_t *k)
{
    int rc;

    *sh = shm_get(comm, &rc, fn);
    if (*sh == NULL)
        return rc != MPI_SUCCESS ? rc : UCMPI_SHM_FALLBACK;
    *k = ++(*sh)->seq;
    return MPI_SUCCESS;
}

char *ucmpi_coll_shm_buf(ucmpi_coll_shm_t *sh, int r, uint64_t k)
{
    return sh->base + (size_t)sh->n * FLAG_STRIDE +
           ((size_t)r * NBUF + k % NBUF) * sh->slot;
}

/* Which ring data of nbytes goes in. */
static inline int medium(const ucmpi_coll_shm_t *sh, size_t nbytes)
{
    return sh->deep && nbytes > UCMPI_COLL_SHM_SMALL && nbytes <= MED_BYTES;
}

/* A contribution's copy of its size record, (k << 32 | bytes), in the
 * last word of the cache line that holds its data's end (or of the line
 * after, if that word is data), inside the buffer: a line that travels
 * with the data.  Reading the size record's own line cost a 2-rank bcast
 * of 8 B ~8 ns of 37 (this: ~2).  Data that leaves no word in its buffer
 * writes to a private sink and the reader finds no tag there: then, as
 * on any mismatch, ucmpi_coll_shm_check_root_size reads the record. */
static inline uint64_t *size_tag(ucmpi_coll_shm_t *sh, int r, uint64_t k,
                                 size_t nbytes)
{
    static const uint64_t nowhere = 0;
    size_t cap = medium(sh, nbytes)                 ? MED_BYTES
                 : nbytes > UCMPI_COLL_SHM_SMALL ? sh->slot
                                                   : UCMPI_COLL_SHM_SMALL;
    size_t pos = (nbytes + 8 + 63) / 64 * 64 - 8;

    if (pos + 8 > cap)
        return r == sh->me ? &sh->tag_sink : (uint64_t *)&nowhere;
    return (uint64_t *)(ucmpi_coll_shm_data(sh, r, k, nbytes) + pos);
}

int ucmpi_coll_shm_root_size_ok(ucmpi_coll_shm_t *sh, int root, uint64_t k,
                                size_t nbytes)
{
    return *size_tag(sh, root, k, nbytes) == (k << 32 | nbytes);
}

char *ucmpi_coll_shm_data(ucmpi_coll_shm_t *sh, int r, uint64_t k,
                          size_t nbytes)
{
    if (medium(sh, nbytes))
        return sh->base +
               (size_t)sh->n * (FLAG_STRIDE + NBUF * sh->slot +
                                NSMALL * UCMPI_COLL_SHM_SMALL +
                                NSMALL * sizeof(uint64_t)) +
               ((size_t)r * NMED + k % NMED) * MED_BYTES;
    if (nbytes > UCMPI_COLL_SHM_SMALL)
        return ucmpi_coll_shm_buf(sh, r, k);
    return sh->base + (size_t)sh->n * (FLAG_STRIDE + NBUF * sh->slot) +
           ((size_t)r * NSMALL + k % NSMALL) * UCMPI_COLL_SHM_SMALL;
}

/* Oversubscribed (ranks > cores), a waiter that spun and yielded in
 * vain sleeps on the flag (a shared futex): the rank it waits for is
 * then off the CPU, and yields only help within one scheduling group
 * (ranks of different sessions, as under hydra-like launchers, yielded
 * for a whole slice: 4 ranks, bcast 8 B 0.2-12 ms per call at load 15).
 * The poster wakes sleepers: a full barrier between its store and its
 * look at the sleeper count, matching the waiter's increment-then-recheck,
 * so a wake is never lost (and futex_wait rechecks the value itself). */
void ucmpi_coll_shm_post(ucmpi_coll_shm_t *sh, uint64_t k)
{
    uint64_t *f = flag(sh, sh->me);

    if (ucmpi_progress_polling) {
        __atomic_store_n(f, k, __ATOMIC_RELEASE);
        return;
    }
    __atomic_store_n(f, k, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(sleepers(sh, sh->me), __ATOMIC_SEQ_CST) != 0)
        syscall(SYS_futex, flag_word(f), FUTEX_WAKE, INT32_MAX, NULL, NULL,
                0);
}

/* Sleeps until rank r's flag moves past `seen` (or a bounded time: the
 * progress engine and the dead-peer check still run now and then). */
static void sleep_on(ucmpi_coll_shm_t *sh, int r, uint64_t seen)
{
    uint64_t *f = flag(sh, r);
    struct timespec ts = {0, SLEEP_NS};

    __atomic_add_fetch(sleepers(sh, r), 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(f, __ATOMIC_SEQ_CST) == seen)
        syscall(SYS_futex, flag_word(f), FUTEX_WAIT, (uint32_t)seen, &ts,
                NULL, 0);
    __atomic_sub_fetch(sleepers(sh, r), 1, __ATOMIC_RELAXED);
}

/* First rank from `from` on (not me) whose flag is below k; n if none. */
static inline int pending(ucmpi_coll_shm_t *sh, int from, uint64_t k)
{
    for (int i = from; i < sh->n; i++)
        if (i != sh->me && __atomic_load_n(flag(sh, i), __ATOMIC_ACQUIRE) < k)
            return i;
    return sh->n;
}

/* Waits until rank r (every other rank when r < 0) posted >= k: one
 * idle count for the whole wait, however many ranks it waits for.  Not
 * oversubscribed, it spins a little, then keeps the progress engine going
 * (other requests of this rank may be what a peer waits for).
 * Oversubscribed, every idle turn yields at once (the rank waited for
 * most likely needs this core), and after SLEEP_AFTER of them the rank
 * sleeps on the flag it waits for.  Checks now and then that the peer
 * still lives. */
static int wait_slow(ucmpi_coll_shm_t *sh, int r, uint64_t k, const char *fn)
{
    int cur = r >= 0 ? r : pending(sh, 0, k);
    unsigned spins = ucmpi_progress_polling ? 0 : SPIN_PURE, idle = 0;
    int rc = MPI_SUCCESS;
    uint64_t v;

    while (cur < sh->n) {
        v = __atomic_load_n(flag(sh, cur), __ATOMIC_ACQUIRE);
        if (v >= k) {
            cur = r >= 0 ? sh->n : pending(sh, cur + 1, k);
            continue;
        }
        if (spins < SPIN_PURE) {
            spins++;
            cpu_relax();
            continue;
        }
        if (ucmpi_progress() != 0)
            continue;
        idle++;
        if (ucmpi_progress_polling)
            ucmpi_progress_idle(idle);
        else if (idle < SLEEP_AFTER)
            ucmpi_progress_yield();
        else
            sleep_on(sh, cur, v);
        /* sleeping turns last up to SLEEP_NS each: look more often */
        if ((idle % 1024 == 0 || (idle >= SLEEP_AFTER && idle % 16 == 0)) &&
            ucmpi_peer_failed(sh->world[cur])) {
            rc = MPI_ERR_PROC_FAILED;
            break;
        }
    }
    if (idle > 0)
        ucmpi_rt_wait_done();
    if (rc != MPI_SUCCESS) {
        sh->ok = 0;                   /* the sequence is broken for good */
        return ucmpi_err_comm(sh->comm, rc, fn, "rank %d died during a "
                              "shared-memory collective", cur);
    }
    return MPI_SUCCESS;
}

int ucmpi_coll_shm_wait(ucmpi_coll_shm_t *sh, int r, uint64_t k,
                        const char *fn)
{
    if (r >= 0)
        return __atomic_load_n(flag(sh, r), __ATOMIC_ACQUIRE) >= k
                   ? MPI_SUCCESS
                   : wait_slow(sh, r, k, fn);
    if (pending(sh, 0, k) < sh->n) {
        int rc = wait_slow(sh, -1, k, fn);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    /* every flag is >= k now (what they are exactly: for writability) */
    uint64_t lo = UINT64_MAX;
    for (int i = 0; i < sh->n; i++) {
        uint64_t v = i == sh->me ? UINT64_MAX
                                 : __atomic_load_n(flag(sh, i), __ATOMIC_ACQUIRE);
        lo = v < lo ? v : lo;
    }
    if (sh->writable < lo)
        sh->writable = lo;
    return MPI_SUCCESS;
}

/* Buffer k % depth was last used by collective k - depth (or earlier),
 * which every rank finished once it posted k - depth + 1. */
static int wait_ring(ucmpi_coll_shm_t *sh, uint64_t k, uint64_t depth,
                     const char *fn)
{
    if (k < depth || sh->writable >= k - (depth - 1))
        return MPI_SUCCESS;
    return ucmpi_coll_shm_wait(sh, -1, k - (depth - 1), fn);
}

int ucmpi_coll_shm_wait_writable(ucmpi_coll_shm_t *sh, uint64_t k,
                                 const char *fn)
{
    return wait_ring(sh, k, NBUF, fn);
}

int ucmpi_coll_shm_wait_room(ucmpi_coll_shm_t *sh, uint64_t k,
                             size_t nbytes, const char *fn)
{
    return wait_ring(sh, k,
                     medium(sh, nbytes)              ? NMED
                     : nbytes > UCMPI_COLL_SHM_SMALL ? NBUF
                                                     : NSMALL,
                     fn);
}

int ucmpi_coll_shm_contribute(ucmpi_coll_shm_t *sh, uint64_t k, int me,
                              const void *buf, MPI_Count count,
                              MPI_Datatype dt, uint64_t sig, const char *fn)
{
    size_t nbytes = (size_t)(count * dt->size);
    int rc = ucmpi_coll_shm_wait_room(sh, k, nbytes, fn);

    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_coll_shm_pack(ucmpi_coll_shm_data(sh, me, k, nbytes), buf, count,
                        dt);
    ucmpi_coll_shm_set_size(sh, k, sig);
    if (sig == nbytes)
        *size_tag(sh, me, k, nbytes) = k << 32 | nbytes;
    ucmpi_coll_shm_post(sh, k);
    return MPI_SUCCESS;
}

/* ---- collerr8: numbers taken without valid data (see shm.h) ---- */

/* [0]: bit j % 64 set: number j carried no valid data, for the numbers j
 * of the window [hi - 64, hi); [1]: hi (zeroed: nothing marked) */
static inline uint64_t *invalid_marks(ucmpi_coll_shm_t *sh, int r)
{
    return (uint64_t *)(sh->base + (size_t)r * FLAG_STRIDE + 16);
}

/* Bytes 32-39 of rank 0's flag line, which every wait reads anyway: the
 * highest window end any rank marked (only ever grows). */
static inline uint64_t *any_invalid(ucmpi_coll_shm_t *sh)
{
    return (uint64_t *)(sh->base + 32);
}

/* The numbers between my last mark and k0 carried data: their bits are
 * cleared, those of [k0, k0 + m) set, then the window moves (release:
 * a reader that sees the new hi sees the new bits). */
void ucmpi_coll_shm_mark_invalid(ucmpi_coll_shm_t *sh, uint64_t k0,
                                 uint64_t m)
{
    uint64_t *w = invalid_marks(sh, sh->me);
    uint64_t bits = w[0], hi = w[1];

    for (uint64_t j = hi + 64 <= k0 ? k0 - 64 : hi; j < k0; j++)
        bits &= ~(1ULL << (j % 64));
    for (uint64_t j = m > 64 ? k0 + m - 64 : k0; j < k0 + m; j++)
        bits |= 1ULL << (j % 64);
    w[0] = bits;
    __atomic_store_n(&w[1], k0 + m, __ATOMIC_RELEASE);
    /* the readers' one-word test: the highest hi of any rank */
    uint64_t *any = any_invalid(sh);
    uint64_t cur = __atomic_load_n(any, __ATOMIC_RELAXED);

    while (cur < k0 + m &&
           !__atomic_compare_exchange_n(any, &cur, k0 + m, false,
                                        __ATOMIC_RELEASE, __ATOMIC_RELAXED))
        ;
}

/* Which rank marked one of k .. k+g-1 (rare: some rank marked numbers). */
static int check_marks(ucmpi_coll_shm_t *sh, uint64_t k, uint64_t g,
                       const char *fn)
{
    for (int r = 0; r < sh->n; r++) {
        const uint64_t *w = invalid_marks(sh, r);
        uint64_t hi = __atomic_load_n(&w[1], __ATOMIC_ACQUIRE);

        /* (a marker runs at most NBUF numbers ahead of my wait) */
        if (__builtin_expect(hi <= k, 1) || r == sh->me)
            continue;
        for (uint64_t j = k; j < k + g && j < hi; j++)
            if (j + 64 >= hi && (w[0] >> (j % 64)) & 1)
                return ucmpi_err_comm(sh->comm, MPI_ERR_TRUNCATE, fn,
                                      "rank %d sent no block: its own "
                                      "arguments failed a check", r);
    }
    return MPI_SUCCESS;
}

int ucmpi_coll_shm_check_valid(ucmpi_coll_shm_t *sh, uint64_t k, uint64_t g,
                               const char *fn)
{
    if (__builtin_expect(__atomic_load_n(any_invalid(sh), __ATOMIC_ACQUIRE) <=
                             k, 1))
        return MPI_SUCCESS;
    return check_marks(sh, k, g, fn);
}

/* ---- core7: every rank's byte count, so a mismatch is an error ---- */

static inline uint64_t *size_rec(ucmpi_coll_shm_t *sh, int r, uint64_t k)
{
    return (uint64_t *)(sh->base +
                          (size_t)sh->n * (FLAG_STRIDE + NBUF * sh->slot +
                                           NSMALL * UCMPI_COLL_SHM_SMALL)) +
           (size_t)r * NSMALL + k % NSMALL;
}

/* Record k % NSMALL was last read in collective k - NSMALL, which every
 * rank finished once the ring is writable at k (the callers wait). */
void ucmpi_coll_shm_set_size(ucmpi_coll_shm_t *sh, uint64_t k,
                             uint64_t nbytes)
{
    *size_rec(sh, sh->me, k) = nbytes;
}

/* Rank r recorded `theirs` where this rank has nbytes. */
static int size_error(ucmpi_coll_shm_t *sh, int r, uint64_t theirs,
                      uint64_t nbytes, const char *fn)
{
    if (theirs == UCMPI_COLL_SHM_SIZE_LOST)
        return ucmpi_err_comm(sh->comm, MPI_ERR_OTHER, fn, "rank %d could "
                              "not take part (its arguments failed a check)",
                              r);
    return ucmpi_err_comm(sh->comm, MPI_ERR_TRUNCATE, fn, "rank %d passed "
                          "%llu bytes, this rank %llu: the counts or types "
                          "of the ranks differ", r,
                          (unsigned long long)theirs,
                          (unsigned long long)nbytes);
}

/* The ranks of a call of another size may have entered more numbers than
 * k, but posted none beyond it: going back to k (the numbers entered but
 * not posted are free again) ends the call at k on every rank, the ones
 * that do not check (contributors of a whole-vector reduce) included. */
int ucmpi_coll_shm_check_sizes(ucmpi_coll_shm_t *sh, uint64_t k,
                               uint64_t nbytes, const char *fn)
{
    uint64_t theirs = nbytes;
    int bad = sh->n;

    for (int r = 0; r < sh->n; r++)
        if (r != sh->me && *size_rec(sh, r, k) != nbytes) {
            bad = r;
            theirs = *size_rec(sh, r, k);
            break;
        }
    if (__builtin_expect(bad == sh->n, 1))
        return MPI_SUCCESS;
    sh->seq = k;
    return size_error(sh, bad, theirs, nbytes, fn);
}

int ucmpi_coll_shm_check_root_size(ucmpi_coll_shm_t *sh, int root,
                                   uint64_t k, uint64_t nbytes,
                                   uint64_t *theirs, const char *fn)
{
    *theirs = *size_rec(sh, root, k);
    if (__builtin_expect(*theirs == nbytes, 1))
        return MPI_SUCCESS;
    return size_error(sh, root, *theirs, nbytes, fn);
}

/* xfer9: rank r's size record for k, read without a check (the vote of
 * ucmpi_xfer_shm_vote compares records that encode k). */
uint64_t ucmpi_coll_shm_size_of(ucmpi_coll_shm_t *sh, int r, uint64_t k)
{
    return *size_rec(sh, r, k);
}
