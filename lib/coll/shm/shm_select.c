/* Which blocking collectives take the shm path: forced, or up to per-kind
 * limits bounded by the segment's buffer size. */
#include "coll/shm/shm.h"
#include "coll/coll_tune.h"
#include "coll/coll.h"
#include "coll/coll_util.h"
#include "core/config.h"

#include <stdlib.h>
#include <string.h>

static const char *const knobs[UCMPI_SHM_NKINDS] = {
    "BARRIER_ALGORITHM", "BCAST_ALGORITHM", "REDUCE_ALGORITHM",
    "ALLREDUCE_ALGORITHM", "ALLGATHER_ALGORITHM", "ALLTOALL_ALGORITHM",
    "REDUCE_SCATTER_ALGORITHM",
};

/* Automatic limit of each kind by comm size (2, 3-4, 5-8 ranks): a row
 * of coll_tune.h's table, or -1 for any size. */
static const signed char auto_max[UCMPI_SHM_NKINDS][3] = {
    [UCMPI_SHM_BARRIER] =        {-1, -1, -1},
    [UCMPI_SHM_BCAST] =          {UCMPI_THR_SHM_BCAST_MAX_2, -1, -1},
    [UCMPI_SHM_REDUCE] =         {-1, -1, -1},
    [UCMPI_SHM_ALLREDUCE] =      {-1, -1, -1},
    [UCMPI_SHM_ALLGATHER] =      {UCMPI_THR_SHM_ALLGATHER_MAX_2, -1, -1},
    [UCMPI_SHM_ALLTOALL] =       {UCMPI_THR_SHM_ALLTOALL_MAX_2,
                                  UCMPI_THR_SHM_ALLTOALL_MAX_4,
                                  UCMPI_THR_SHM_ALLTOALL_MAX_8},
    [UCMPI_SHM_REDUCE_SCATTER] = {UCMPI_THR_SHM_RS_MAX_2, -1, -1},
};

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

/* The tunable buffer size, cut to the segment budget (coll_tune.h) of a
 * big comm, at least 4 KiB (the segment is allocated whole). */
static size_t slot_for(int n)
{
    size_t s = slot_bytes();
    size_t cap = ucmpi_thr(UCMPI_THR_SHM_SEG_BUDGET) /
                 ((size_t)UCMPI_SHM_NBUF * n);

    cap = cap < 4096 ? 4096 : cap / 64 * 64;
    return s < cap ? s : cap;
}

/* The last answer, (n << 32 | bytes) in one word (threads may race):
 * asked on every call, and slot_for divides. */
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
    int id = auto_max[kind][n == 2 ? 0 : n <= 4 ? 1 : 2];
    lim = id < 0 ? SIZE_MAX : ucmpi_thr(id);
    /* beyond one buffer only where measured, and not with tiny buffers */
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

/* The answer without the per-comm cache (no segment yet, or a knob
 * changed through MPI_T); fills the cache where comm has one. */
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

/* Cached per comm: a load, a compare and a lookup (docs/tuning.md). */
int ucmpi_coll_shm_wanted(ucmpi_comm_t *comm, int kind, size_t nbytes)
{
    ucmpi_coll_shm_caps_t *c = ucmpi_coll_shm_caps(comm);
    unsigned gen = __atomic_load_n(&ucmpi_coll_knob_generation,
                                   __ATOMIC_ACQUIRE);

    if (__builtin_expect(c != NULL && c->gen == gen + 1, 1))
        return nbytes < c->cap[kind];
    return wanted_slow(comm, kind, nbytes, c, gen);
}
