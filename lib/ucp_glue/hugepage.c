/* Huge pages under on-node buffers reused for large messages (CMA copies from
 * base pages are slow): docs/architecture.md, "lib/ucp_glue internals". */
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

/* A slot packs chunk number << 32 | state in one relaxed word (a hint:
 * racing threads only lose a count); DONE once a collapse succeeded. */
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

/* One more message in chunk c: collapse on its reuse-th use, retrying every
 * RETRY uses, TRIES times at most; a collapsed chunk is skipped while kept. */
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
