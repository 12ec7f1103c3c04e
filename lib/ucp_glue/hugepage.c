/*
 * Large messages between ranks of one node: huge pages under the buffers.
 *
 * UCX (1.13) moves a rendezvous message between ranks of one node with
 * CMA: the receiver's process_vm_readv() pins the sender's pages and
 * copies from them.  Pinning costs ~230 ns per 4 KiB page on this VM, so
 * from base pages the copy runs at ~12 GB/s against ~45 GB/s from
 * transparent huge pages (docs/tuning.md).  Open MPI and MPICH move it
 * the same way, so all three
 * ran at the base-page rate on malloc'd buffers (THP is "madvise" on
 * Debian).  A buffer the user sends again and again from is worth
 * collapsing into huge pages (MADV_COLLAPSE, Linux >= 6.1): the contents
 * stay, only the backing changes.  A first collapse costs ~0.5 ms of CPU
 * per 2 MiB, about four sends' worth of saving (~0.12 ms each), so a
 * 2 MiB chunk is collapsed on its 8th use: a buffer used exactly that
 * often and then freed loses at most ~40%, one used on and on gains 3x.
 * One already huge costs <1 us to recheck.
 * Receive buffers too: the receiver's side of the copy writes ~10% faster
 * into huge pages (fewer TLB misses: 93 against 104 us per 4 MiB).
 * The 2 MiB-aligned chunks the message overlaps are collapsed whole (a
 * message rarely starts on a 2 MiB boundary): the kernel refuses a chunk
 * that leaves the mapping or is not anonymous memory, and fills empty
 * pages of one it takes, so resident memory may grow by what the
 * buffer's neighbourhood in its chunks had not touched yet.
 *
 * UCMPI_P2P_HUGEPAGE_MIN (bytes; 0 turns this off) and
 * UCMPI_P2P_HUGEPAGE_REUSE (the use on which a chunk is collapsed).
 */
#define _GNU_SOURCE
#include "glue.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25          /* Linux 6.1; glibc 2.36 lacks the name */
#endif

#define CHUNK_SHIFT 21            /* 2 MiB, the x86-64 PMD size */
#define CHUNK ((uintptr_t)1 << CHUNK_SHIFT)
#define SLOTS 64                  /* chunks remembered (direct-mapped) */
#define RETRY 64                  /* sends between two tries of a chunk */
#define TRIES 3                   /* collapses of a chunk at most */

size_t ucmpi_ucx_hugepage_min = SIZE_MAX;   /* read inline by tag.c */
static unsigned reuse = 8;

/* A slot packs chunk number << 32 | state: one relaxed 64-bit word, so
 * threads racing on it only lose a count (it is a hint).  The state counts
 * sends up to `reuse`, then tries; DONE once a collapse succeeded. */
static uint64_t slots[SLOTS];
#define DONE UINT32_MAX

/* THP "never" (sysfs) makes MADV_COLLAPSE fail: then don't try. */
static int thp_possible(void)
{
    char line[128] = "";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");

    if (f == NULL)
        return 0;
    if (fgets(line, sizeof(line), f) == NULL)
        line[0] = '\0';
    fclose(f);
    return strstr(line, "[never]") == NULL && line[0] != '\0';
}

void ucmpi_ucx_hugepage_init(void)
{
    long min = ucmpi_ucx_params.hugepage_min;
    long r = ucmpi_ucx_params.hugepage_reuse;

    ucmpi_ucx_hugepage_min = SIZE_MAX;
    if (min <= 0 || !thp_possible())
        return;
    ucmpi_ucx_hugepage_min = (size_t)min;
    reuse = r >= 1 ? (unsigned)r : 1;
}

/* One more message in chunk c: collapse it on its reuse-th use; after a
 * failure (pages pinned by a copy under way, say) every RETRY uses, TRIES
 * times at most.  A collapsed chunk is not looked at again while it keeps
 * its slot: rechecking every 64 sends cost 1-4 ms a time in p2p_bench,
 * for a chunk that straddles its two buffers and did not stay huge. */
static void chunk_used(uintptr_t c)
{
    uint64_t no = c >> CHUNK_SHIFT;
    uint64_t *s = &slots[no % SLOTS];
    uint64_t v = __atomic_load_n(s, __ATOMIC_RELAXED);
    uint32_t st = (v >> 32) == no ? (uint32_t)v : 0;

    if (st == DONE)
        return;
    st++;
    if (st >= reuse && (st - reuse) % RETRY == 0) {
        if (madvise((void *)c, CHUNK, MADV_COLLAPSE) == 0 ||
            st >= reuse + (TRIES - 1) * RETRY)
            st = DONE;            /* huge now, or given up on */
    }
    __atomic_store_n(s, no << 32 | st, __ATOMIC_RELAXED);
}

static void buffer_used(const void *buf, size_t len)
{
    uintptr_t first = (uintptr_t)buf & ~(CHUNK - 1);
    uintptr_t end = (uintptr_t)buf + len;

    for (uintptr_t c = first; c < end; c += CHUNK)
        chunk_used(c);
}

void ucmpi_ucx_hugepage_send(int world_dest, const void *buf, size_t len)
{
    if (ucmpi_ucx_peer_local(world_dest))   /* CMA is for peers on this node */
        buffer_used(buf, len);
}

void ucmpi_ucx_hugepage_recv(int world_src, const void *buf, size_t len)
{
    if (world_src < 0 || ucmpi_ucx_peer_local(world_src))
        buffer_used(buf, len);
}
