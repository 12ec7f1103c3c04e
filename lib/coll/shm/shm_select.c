/*
 * Which blocking collectives take the shm path (ucmpi_coll_shm_wanted),
 * and the size of the segment's buffers, which bounds it: forced
 * (UCMPI_<COLL>_ALGORITHM=shm or another algorithm) or automatic, up to
 * the measured per-kind limits below.  The segment itself: shm_seg.c;
 * its flag protocol: shm_wait.c.
 */
#include "coll/shm/shm.h"
#include "coll/coll.h"
#include "coll/coll_util.h"

#include <stdlib.h>
#include <string.h>

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
 *   910.  So shm up to 32 MiB stayed (until session 12, below).
 * 2 ranks, alltoall and reduce_scatter above 32 KiB: p2p (session 12,
 * perf12).  This VM flips between a fast and a slow period (0-64 B
 * latency ~0.1 vs ~0.5 us, every MPI alike): in the slow one, data one
 * core has just written costs the other core far more to read, and the
 * two copies through the segment (the writer's lines change every call)
 * ran 2-4x Open MPI's single CMA copy out of an unchanged sbuf; p2p is
 * that CMA copy (UCX rendezvous; huge pages from 1 MiB, hugepage.c).
 * Interleaved fixed-count runs of each library's own coll_bench, median
 * us over the rounds (per-run times are bimodal: the period):
 *   UCMPI_ALLTOALL_ALGORITHM=pairwise (or this table) | main's shm | Open
 *   MPI:  mpiexec -n 2 bench/coll_bench -b alltoall,reduce_scatter
 *     -m 16K -M 32M -i 40   (5 rounds, 1 Dec 02:06-02:12 UTC, load 13-17
 *     from SCHED_IDLE builds; -i 200 and 7 rounds for the fast run)
 * alltoall, p2p / shm / Open MPI: 32 KiB 14.8 / 8.0 / 15.6, 64 KiB 15.8 /
 *   20.5 / 14.7, 128 KiB 22.1 / 51.7 / 26.8, 512 KiB 70 / 175 / 106, 1
 *   MiB 138 / 459 / 140, 4 MiB 380 / 9556 / 7156, 32 MiB 16000 / 73306 /
 *   37470; reduce_scatter (p2p: ring_segmented) 32 KiB 16.1 / 16.4, 64
 *   KiB 15.6 / 28.5, 1 MiB 105 / 487 (MPICH 1341), 8 MiB 3773 / 15777
 *   (MPICH 11292).  In a fast-period run (02:18 UTC, load 26 of which
 *   SCHED_IDLE tests) shm won instead, by less: alltoall 64 KiB 17.4 /
 *   12.7 / 14.1, 128 KiB 24.6 / 22.0 / 18.5, 512 KiB 80.5 / 72.5 / 96.4;
 *   reduce_scatter 64 KiB 16.4 / 11.0, 512 KiB 80.0 / 61.8.  16 KiB
 *   stays shm: 8.8 / p2p 30.1 / Open MPI 24.2 (01:58 UTC, load 14),
 *   3.8 / 4.2 / 4.2 in the fast run.
 * 2 ranks, bcast and allgather above 32 KiB (a rank's bytes): p2p too
 * (session 13, perf13; at 2 ranks binomial and ring are one rendezvous
 * message each way, one CMA read of the sender's buffer; blocking calls
 * past the limit vote on the sizes first, bcast.c/allgather.c).  Medians
 * of interleaved fixed-count runs of each library's coll_bench, 1 Dec,
 * load 7-18 from other sessions' builds and tests (the VM's modes could
 * not be told apart from the load):
 *   UCMPI_BCAST_ALGORITHM=shm|binomial UCMPI_ALLGATHER_ALGORITHM=shm|ring
 *   (main's library) | Open MPI:  mpiexec -n 2 bench/coll_bench
 *   -b bcast,allgather -m 8 -M 64M -i 30  (10 rounds, 04:52-05:06 UTC;
 *   -M 1M -i 200: 12 rounds, 05:06-05:09)
 * bcast, shm / p2p / Open MPI, us: 16 KiB 17.8 / 13.1 / 12.7 (-i 200:
 *   13.4 / 13.0 / 11.3), 32 KiB 27.4 / 16.9 / 15.8 (26.8 / 15.9 / 16.5),
 *   64 KiB 32.2 / 23.1 / 24.1 (27.8 / 22.3 / 26.6), 128 KiB 77.7 / 38.8
 *   / 39.7, 1 MiB 454 / 130 / 322, 4 MiB 7143 / 618 / 11814, 64 MiB
 *   169970 / 34447 / 111057 (MPICH 92987); allgather (bytes gathered,
 *   half from each rank): 32 KiB 17.8 / 13.9 / 19.8 (17.4 / 15.4 /
 *   16.3), 64 KiB 23.9 / 17.8 / 26.6 (31.2 / 19.6 / 30.4), 1 MiB 300 /
 *   116 / 170, 4 MiB 3162 / 601 / 9836 (MPICH 7503), 64 MiB 130640 /
 *   34052 / 98629 (MPICH 63618).  Under that load p2p won from 8 KiB a
 *   rank (-i 200 runs); session 3's quiet runs (above) had shm 2-4x
 *   ahead at 16-64 KiB, so the limit is alltoall's.  Auto-selected, this table against
 *   main (05:22-05:29 UTC, load 17-18, 8 rounds, -m 8 -M 64M -i 20), us,
 *   new / main / Open MPI / MPICH: bcast 64 KiB 20.2 / 48.9 / 19.5 /
 *   22.1, 1 MiB 102 / 303 / 197 / 204, 4 MiB 463 / 2345 / 7761 / 3591;
 *   allgather 128 KiB 20.8 / 48.3 / 54.7 / 88.6, 1 MiB 95.6 / 368 / 153 /
 *   529, 8 MiB 6589 / 18717 / 13390 / 12662.
 * A quiet run in the fast mode (05:57 UTC, load 4, -M 128K -i 500, 8
 * rounds, every run fast: 8 B bcast shm 0.08-0.09 us) went the other
 * way: shm ahead at every size to 128 KiB, bcast 16 KiB shm / p2p /
 * Open MPI 2.8 / 5.2 / 5.1, 64 KiB 6.9 / 10.1 / 9.8, 128 KiB 12.2 /
 * 16.9 / 16.6; allgather 128 KiB gathered 8.6 / 12.7 / 14.7.  p2p
 * stays level with Open MPI in both modes; shm is 0.55-0.8x of it in
 * the fast mode and 1.4-4x in the slow one (bench/compare.sh at 05:50,
 * 2 of 3 rounds slow: bcast 32 KiB 19.6 us against Open MPI's 8.2).
 * 2-rank bcast up to 512 KiB: shm again (session 15, perf15).  The runs
 * above predate perf14's copy loop (shm.h: ucmpi_coll_shm_copy), whose
 * absence made the segment copies crawl at some buffer distances, and
 * bench.h's longer warm-up (the rings' first lap of page faults).  Median
 * of interleaved time-budget runs of each library's coll_bench, us, shm
 * (forced) / p2p (auto) / Open MPI / MPICH, 1 Dec 20:57-20:58 UTC, load
 * 5-6 from another session's nice-19 builds:
 *   UCMPI_BCAST_ALGORITHM=shm | nothing  mpiexec -n 2 bench/coll_bench
 *     -b bcast -m 32K -M 2M -t 0.3   (7 rounds; 5 rounds to 4 MiB)
 * 64 KiB 3.9 / 7.7 / 6.8 / 6.8, 128 KiB 6.3 / 9.8 / 9.2 / 9.3, 256 KiB
 * 11.2 / 14.3 / 13.8 / 14.2, 512 KiB 24.1 / 27.1 / 26.7 / 25.0 (5
 * rounds: 21.0 / 26.0 / 24.3 / 26.8), 1 MiB 48.8 / 54.7 / 75.3 / 70.0
 * (5 rounds: 41.6 / 30.6 / 64.2 / 59.6, p2p ahead): shm to 512 KiB.
 * 2-rank alltoall and reduce_scatter up to 64 KiB (one buffer): shm too
 * (perf15, the same kind of runs, 21:17 UTC, 7 rounds, -m 16K -M 256K,
 * UCMPI_ALLTOALL_ALGORITHM=shm UCMPI_REDUCE_SCATTER_ALGORITHM=shm |
 * nothing): alltoall 64 KiB 2.8 / 7.9 / 7.3 / 12.0, 128 KiB 6.0 / 9.4 /
 * 8.6 / 9.2, 256 KiB 12.3 / 12.6 / 12.7 / 13.2; reduce_scatter 64 KiB
 * 3.0 / 8.2 / 6.6 / 12.8, 128 KiB 5.8 / 10.8, 256 KiB 11.8 / 16.0.
 * 2-rank alltoall and reduce_scatter up to 256 KiB (perf16; their chunked
 * paths end the call at the first number against a p2p voter: every rank
 * checks every size record there, coll_shm_xfer_mismatch and
 * coll_allreduce_diverge cross this limit).  Interleaved time-budget
 * rounds of each library's coll_bench, medians, us, shm (forced) / p2p
 * (auto) / Open MPI / MPICH, 2 Dec 00:20-00:24 UTC, load 5-8 from another
 * session's builds:
 *   UCMPI_ALLTOALL_ALGORITHM=shm UCMPI_REDUCE_SCATTER_ALGORITHM=shm |
 *   nothing  mpiexec -n 2 bench/coll_bench -b alltoall,reduce_scatter
 *   -m 128K -M 2M -t 0.3   (9 rounds; 7 rounds from 64 KiB before)
 * alltoall 128 KiB 6.2 / 9.5 / 10.8 / 33.4 (7 rounds: 6.1 / 9.2 / 8.7),
 * 256 KiB 12.3 / 14.2 / 13.9 / 13.5 (11.7 / 14.1 / 13.1), 512 KiB 26.9 /
 * 24.5 / 27.9 / 26.1 (24.4 / 24.1 / 21.6), 1 MiB 52.3 / 55.6 (54.6 /
 * 51.5); reduce_scatter 128 KiB 6.6 / 9.4 / 14.5 (5.6 / 9.5), 256 KiB
 * 13.0 / 13.6 / 30.7 (11.5 / 14.8), 512 KiB 24.9 / 21.0 / 69.0 / 40.2
 * (21.5 / 22.8), 1 MiB 50.1 / 37.9 (45.4 / 54.2): p2p from 512 KiB. */
#define ALL SIZE_MAX
static const size_t auto_max[UCMPI_SHM_NKINDS][3] = {
    /*                            2 ranks  3-4 ranks  5-8 ranks */
    [UCMPI_SHM_BARRIER] =        {0,       0,         0},
    [UCMPI_SHM_BCAST] =          {512 << 10, ALL,     ALL},
    [UCMPI_SHM_REDUCE] =         {ALL,     ALL,       ALL},
    [UCMPI_SHM_ALLREDUCE] =      {ALL,     ALL,       ALL},
    [UCMPI_SHM_ALLGATHER] =      {32 << 10, ALL,      ALL},
    [UCMPI_SHM_ALLTOALL] =       {256 << 10, 16 << 20, 4 << 20},
    [UCMPI_SHM_REDUCE_SCATTER] = {256 << 10, ALL,     ALL},
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
 * KiB), at least 4 KiB.  The segment is allocated whole at creation
 * (create() in shm_seg.c).  8 MiB rather than 2 (session 7, collL7): the
 * chunked paths move 8 buffers per rank per flag round, and
 * oversubscribed ranks pay for every round; 16 KiB buffers at 8 ranks
 * gave the alltoall of 512 KiB 4 rounds.  Fixed-count runs, 6
 * interleaved, 30 Nov 11:37 UTC, load 25-27 (budget through a temporary
 * knob):
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
    size_t s = slot_bytes();
    size_t cap = SEG_BUDGET / ((size_t)UCMPI_SHM_NBUF * n);

    cap = cap < 4096 ? 4096 : cap / 64 * 64;
    return s < cap ? s : cap;
}

/* The last answer, (n << 32 | bytes) (one word: threads may race): a
 * comm's collectives ask it on every call, and slot_for divides. */
size_t ucmpi_coll_shm_slot_size(int n)
{
    static uint64_t last;
    uint64_t v = __atomic_load_n(&last, __ATOMIC_RELAXED);

    if (__builtin_expect(v >> 32 == (uint64_t)(unsigned)n, 1))
        return (size_t)(uint32_t)v;
    size_t s = slot_for(n);
    __atomic_store_n(&last, (uint64_t)(unsigned)n << 32 | s,
                     __ATOMIC_RELAXED);
    return s;
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

/* Bytes + 1 up to which kind takes the shm path on comm (0: never,
 * SIZE_MAX: any size), given that comm has its segment. */
static size_t cap_of(ucmpi_comm_t *comm, int kind, int f)
{
    size_t lim = chunked[kind] ? SIZE_MAX : slot_for(comm->size);

    if (f == FORCE_OTHER || comm->is_inter || comm->size < 2)
        return 0;
    if (f == FORCE_NONE && kind != UCMPI_SHM_BARRIER) {
        size_t a = auto_limit(kind, comm->size);
        lim = a < lim ? a : lim;
    }
    return lim == SIZE_MAX ? SIZE_MAX : lim + 1;
}

/* The answer without the per-comm cache (comm without a segment yet, or
 * a knob changed through MPI_T); fills the cache where comm has one. */
static __attribute__((noinline)) int
wanted_slow(ucmpi_comm_t *comm, int kind, size_t nbytes,
                       ucmpi_coll_shm_caps_t *c, unsigned gen)
{
    static int enabled = -1;

    if (enabled < 0)
        enabled = ucmpi_config_long("COLL_SHM") != 0;
    if (!enabled)
        return 0;
    if (c != NULL) {
        for (int i = 0; i < UCMPI_SHM_NKINDS; i++)
            c->cap[i] = cap_of(comm, i, forced(i));
        /* (a knob change after this load makes gen stale: recomputed) */
        c->gen = gen + 1;
        return nbytes < c->cap[kind];
    }
    return nbytes < cap_of(comm, kind, forced(kind)) &&
           ucmpi_coll_shm_ready(comm);
}

/* ~90 instructions per call before the cache (session 9's callgrind):
 * now a load, a compare and a lookup on a comm with a segment. */
int ucmpi_coll_shm_wanted(ucmpi_comm_t *comm, int kind, size_t nbytes)
{
    ucmpi_coll_shm_caps_t *c = ucmpi_coll_shm_caps(comm);
    unsigned gen = __atomic_load_n(&ucmpi_coll_knob_generation,
                                   __ATOMIC_ACQUIRE);

    if (__builtin_expect(c != NULL && c->gen == gen + 1, 1))
        return nbytes < c->cap[kind];
    return wanted_slow(comm, kind, nbytes, c, gen);
}
