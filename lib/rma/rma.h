/* One-sided communication: the window object and the helpers shared by the
 * files of lib/rma/.  Transfers go through lib/ucp_glue/rma.h. */
#ifndef UCMPI_RMA_H
#define UCMPI_RMA_H

#include "p2p/request.h"
#include "datatype/datatype.h"
#include "coll/op.h"
#include "comm/comm_internal.h"

#include <stdlib.h>
#include <string.h>
#include "ucp_glue/rma.h"

/* What each rank knows about every member of the window (exchanged once). */
typedef struct {
    uint64_t base;            /* address of the window memory (0: dynamic) */
    uint64_t size;
    int64_t disp_unit;
    int world;                /* world rank */
    uint32_t win_id;          /* its id of this window (for messages) */
    uint64_t ctrl_addr;       /* its lock words */
    ucmpi_rma_rkey_t *rkey;   /* window memory (NULL when size 0) */
    ucmpi_rma_rkey_t *ctrl_rkey;
    int lock;                 /* lock we hold on it: 0 or MPI_LOCK_* */
    int lock_abandoned;       /* testing: a "dead" process holds it */
    ucmpi_rma_cnt_t cnt;      /* our operations towards it */
    /* direct path (same node): its window memory mapped here, or NULL */
    char *local;
    uint32_t *acc_lock;       /* its accumulate lock (see atomic.c) */
    void *map;                /* our mapping of its segment (to unmap) */
    size_t map_len;
    int ucx_dirty;            /* UCP puts/gets/atomics not yet flushed */
    uint64_t *ctrl_local;     /* its lock words mapped here, or NULL */
} ucmpi_rma_peer_t;

/* Who asked for a member's passive-target lock, one slot per origin, so
 * that a waiter can tell a dead holder or requester from a slow one. */
typedef struct {
    uint64_t who;             /* pid << 32 | UCMPI_RMA_SLOT_*, 0: none */
    uint64_t ticket;          /* its ticket (valid unless REQUESTING) */
} ucmpi_rma_slot_t;
enum { UCMPI_RMA_SLOT_REQUESTING = 1, UCMPI_RMA_SLOT_SHARED = 2,
       UCMPI_RMA_SLOT_EXCLUSIVE = 3 };

/* Registered per-window control words: a fair reader-writer ticket lock.
 * Each word packs writers in the high and readers in the low 32 bits. */
typedef struct {
    uint64_t lock_req;        /* tickets taken */
    uint64_t lock_done;       /* tickets released */
    uint32_t acc_lock;        /* accumulate lock of windows not in shm */
    uint32_t pad;
    ucmpi_rma_slot_t slot[];  /* [window size] */
} ucmpi_rma_ctrl_t;

static inline size_t ucmpi_rma_ctrl_size(int nranks)
{
    return sizeof(ucmpi_rma_ctrl_t) + (size_t)nranks * sizeof(ucmpi_rma_slot_t);
}

/* Head of a node-shared window segment (Win_allocate, allocate_shared):
 * what node peers need besides the data. */
#define UCMPI_RMA_SHM_HDR 4096   /* keeps the data page-aligned */
typedef struct {
    uint32_t acc_lock;        /* accumulate lock of this memory */
} ucmpi_rma_shm_hdr_t;

enum { UCMPI_EPOCH_NONE, UCMPI_EPOCH_FENCE, UCMPI_EPOCH_PSCW,
       UCMPI_EPOCH_LOCK, UCMPI_EPOCH_LOCK_ALL };

typedef struct ucmpi_rma_region {
    uint64_t base, size;
    ucmpi_rma_mem_t *mem;
    struct ucmpi_rma_region *next;
} ucmpi_rma_region_t;

struct ucmpi_win_s {
    uint32_t magic;           /* these three as ucmpi_win_head_t */
    int refcount;
    ucmpi_errhandler_t *errhandler;
    ucmpi_comm_t *comm;       /* private duplicate of the user's comm */
    int comm_dup;             /* comm is our duplicate (else retained) */
    int eps_held;             /* holds a reference on the RMA endpoints */
    int tag;                  /* base tag of PSCW notices (tag + 1, + 2) */
    int rank, size;
    int flavor, model;
    void *base;               /* my window memory */
    MPI_Aint win_size;
    MPI_Aint disp_unit;
    int disp_unit_attr;       /* MPI_WIN_DISP_UNIT (an int attribute) */
    uint32_t id;              /* my slot in the window table */
    ucmpi_rma_peer_t *peers;  /* [size] */
    ucmpi_rma_mem_t *mem, *ctrl_mem;
    ucmpi_rma_ctrl_t *ctrl;
    ucmpi_rma_cnt_t all;      /* parent of every peer counter */
    int access, exposure;     /* UCMPI_EPOCH_* */
    int fence_ops;            /* operations issued since the last fence */
    int nlocks;               /* passive-target locks held */
    ucmpi_group_t *start_group, *post_group;
    ucmpi_request_t **post_reqs;   /* Win_wait: "complete" notices */
    int npost_reqs;
    int deferred_err;         /* error reported by a target, not yet told */
    int free_base;            /* allocate: free(base) at Win_free */
    uint32_t *acc_lock;       /* lock of my memory's accumulates */
    int ucx_dirty;            /* some UCP put/get/atomic not yet flushed */
    int broken;               /* operations abandoned (a peer died) */
    unsigned quick_flushes;   /* completions that had nothing to wait for */
    void *shm;                /* allocate(_shared): my node segment */
    size_t shm_len;
    MPI_Aint *shm_offsets;    /* [size] my mapping offset of each rank */
    ucmpi_rma_region_t *regions;   /* dynamic: attached memory */
    /* info */
    int no_locks, same_size, same_disp_unit, acc_ordering_none;
    char name[MPI_MAX_OBJECT_NAME];
    void *attrs;              /* owned by lib/core/attr.c */
};
typedef struct ucmpi_win_s ucmpi_win_t;

static inline bool ucmpi_win_valid(MPI_Win w)
{
    return w != MPI_WIN_NULL && w->magic == UCMPI_MAGIC_WIN;
}

#define ucmpi_err_win(win, code, fn, ...) \
    ucmpi_error(UCMPI_OBJ_WIN, (win), (code), (fn), __VA_ARGS__)

/* Checks init and the window handle. */
int ucmpi_rma_check_win(MPI_Win win, const char *fn);

/* Window table: id -> window for incoming messages. */
ucmpi_win_t *ucmpi_rma_win_lookup(uint32_t id);

/* Window life cycle (win.c). */
int ucmpi_rma_win_setup(MPI_Comm comm, void *base, MPI_Aint size,
                        MPI_Aint disp_unit, int flavor, MPI_Info info,
                        const char *fn, ucmpi_win_t **out);
int ucmpi_rma_check_create(MPI_Comm comm, MPI_Aint size, MPI_Aint disp_unit,
                           MPI_Info info, MPI_Win *win, const char *fn);
void ucmpi_rma_win_destroy(ucmpi_win_t *win);
void ucmpi_rma_apply_info(ucmpi_win_t *win, MPI_Info info);

/* Wait for every operation towards target (-1: all) to complete locally
 * and, with remote, remotely.  Returns the first error seen. */
int ucmpi_rma_complete(ucmpi_win_t *win, int target, int remote);

/* rc, or MPI_ERR_PROC_FAILED when it is an error and target died. */
int ucmpi_rma_peer_err(ucmpi_win_t *win, int target, int rc);
/* Progress until the counter drains; returns its status, or
 * MPI_ERR_PROC_FAILED once world rank peer (-1: none) is dead. */
int ucmpi_rma_cnt_wait_peer(ucmpi_rma_cnt_t *c, int peer);
/* Remote completion of every put/atomic issued to world rank peer (-1:
 * to all), waited for (lib/rma/sync.c). */
int ucmpi_rma_flush_wait(int peer);

/* Collective helpers over all of comm on its collective context: lib/comm's
 * blocking helper collectives (each call takes the next collective tag). */
static inline int ucmpi_rma_barrier(ucmpi_comm_t *comm)
{
    ucmpi_cc_t cc;
    ucmpi_cc_init(&cc, comm);
    return ucmpi_cc_barrier(&cc);
}

static inline int ucmpi_rma_allgather(ucmpi_comm_t *comm, const void *mine,
                                      void *all, size_t len)
{
    ucmpi_cc_t cc;
    ucmpi_cc_init(&cc, comm);
    return ucmpi_cc_allgather_direct(&cc, mine, all, len);
}

/* --- datatypes (lib/rma/dt.c) --- */
typedef struct {
    MPI_Aint off;             /* byte offset from the buffer */
    uint64_t len;
} ucmpi_rma_seg_t;

/* The contiguous byte runs of count elements of dt, in packed order. */
int ucmpi_rma_segs(MPI_Datatype dt, MPI_Count count, ucmpi_rma_seg_t **segs,
                   size_t *nsegs);
/* The predefined type dt is built from (MPI_DATATYPE_NULL if mixed). */
MPI_Datatype ucmpi_rma_basic_type(MPI_Datatype dt);
/* Wire ids of predefined types and ops (-1 when not predefined). */
int ucmpi_rma_type_id(MPI_Datatype dt);
MPI_Datatype ucmpi_rma_type_of(int id);
int ucmpi_rma_op_id(MPI_Op op);
MPI_Op ucmpi_rma_op_of(int id);

/* --- target side of the active-message path (lib/rma/am.c) --- */
int ucmpi_rma_am_setup(void);

/* Origin side: one UCMPI_RMA_AM_* message of packed origin data; the reply
 * (ack or data) unpacks into result/rcount/rtype.  req_cnt may be NULL. */
enum { UCMPI_RMA_AM_PUT, UCMPI_RMA_AM_GET, UCMPI_RMA_AM_ACC,
       UCMPI_RMA_AM_GACC, UCMPI_RMA_AM_CAS };
typedef struct {
    int kind;
    int target;               /* window rank */
    MPI_Op op;
    MPI_Datatype basic;       /* element type of the target data */
    const ucmpi_rma_seg_t *segs;   /* target runs, offsets from raddr */
    size_t nsegs;
    uint64_t raddr;           /* target address of displacement start */
    const void *data;         /* packed origin data (CAS: origin, compare) */
    size_t dlen;
    void *result;             /* fetched data goes here (unpacked) */
    MPI_Count rcount;
    MPI_Datatype rtype;
    ucmpi_rma_cnt_t *req_cnt;
} ucmpi_rma_am_op_t;
int ucmpi_rma_am_issue(ucmpi_win_t *win, const ucmpi_rma_am_op_t *op);

/* --- origin side of one RMA call (ops.c) --- */
/* Counter of one call: drains when all its transfers are done, then
 * unpacks a bounce buffer (get) and completes the request, if any. */
typedef struct {
    ucmpi_rma_cnt_t cnt;
    void *bounce;
    void *dst;                /* unpack bounce here at the end */
    MPI_Datatype dt;
    MPI_Count count;
    size_t bytes;
    ucmpi_request_t *req;
} ucmpi_rma_ctx_t;

/* A new context counting towards target, holding one reference that
 * ucmpi_rma_ctx_issued drops; with req, a request is made for it. */
int ucmpi_rma_ctx_new(ucmpi_win_t *win, int target, MPI_Request *req,
                      ucmpi_rma_ctx_t **ctx);
void ucmpi_rma_ctx_issued(ucmpi_rma_ctx_t *ctx, int rc);

/* Where and what a call accesses at the target. */
typedef struct {
    ucmpi_rma_seg_t *segs;    /* offsets from raddr */
    size_t nsegs;
    uint64_t raddr;
    uint64_t bytes;
    char *local;              /* raddr mapped here (direct path) or NULL */
    ucmpi_rma_seg_t one;      /* segs of a contiguous type (no malloc) */
} ucmpi_rma_target_t;

static inline void ucmpi_rma_target_free(ucmpi_rma_target_t *t)
{
    if (t->segs != &t->one)
        free(t->segs);
    t->segs = NULL;
}

/* Checks window, rank, target type/count, range and epoch; fills t.
 * Returns MPI_SUCCESS with t->bytes 0 and no segments for PROC_NULL. */
int ucmpi_rma_target_prep(ucmpi_win_t *win, const char *fn, int target,
                          MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype,
                          ucmpi_rma_target_t *t);
/* Checks an origin/result buffer description. */
int ucmpi_rma_check_buf(ucmpi_win_t *win, const char *fn, const char *what,
                        const void *buf, MPI_Count count, MPI_Datatype dt);

/* Checks window, passive epoch and request argument of R-forms. */
int ucmpi_rma_check_request_arg(MPI_Win win, int target, MPI_Request *req,
                                const char *fn);
/* The general paths (any counts, used by the _c forms).  how: UCMPI_RMA_GET
 * (else put), UCMPI_RMA_RFORM (request form: checks epoch, req; else NULL). */
enum { UCMPI_RMA_GET = 1, UCMPI_RMA_RFORM = 0x100 };
int ucmpi_rma_xfer_call(int how, const void *obuf, MPI_Count ocount,
                        MPI_Datatype otype, int target, MPI_Aint disp,
                        MPI_Count tcount, MPI_Datatype ttype, MPI_Win win,
                        MPI_Request *req, const char *fn);
/* kind: UCMPI_RMA_AM_ACC or UCMPI_RMA_AM_GACC, | UCMPI_RMA_RFORM */
int ucmpi_rma_acc_call(MPI_Win win, int kind, const void *obuf,
                       MPI_Count ocount, MPI_Datatype otype, void *rbuf,
                       MPI_Count rcount, MPI_Datatype rtype, int target,
                       MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype,
                       MPI_Op op, MPI_Request *req, const char *fn);

/* --- node-shared window memory (shm.c) --- */
/* A segment of UCMPI_RMA_SHM_HDR + size bytes that node peers can map;
 * name gets its name (empty when none could be made). */
int ucmpi_rma_shm_create(size_t size, void **seg, size_t *len, char *name,
                         size_t name_len);
void ucmpi_rma_shm_destroy(void *seg, size_t len, const char *name);
/* Collective: map the segments of the window's node peers (peers whose
 * segment cannot be mapped stay on UCX), then unlink my segment. */
int ucmpi_rma_shm_connect(ucmpi_win_t *win, const char *name);
/* Direct access to myself and, for shared windows, to every member. */
void ucmpi_rma_direct_setup(ucmpi_win_t *win);
void ucmpi_rma_shm_disconnect(ucmpi_win_t *win);
/* Map the lock words of myself and of node peers (ctrl_local). */
void ucmpi_rma_ctrl_setup(ucmpi_win_t *win);

/* --- the accumulate atomicity regime (atomic.c) --- */
/* op on dst[0, len) from src (NULL: NO_OP), old values into out (may be NULL),
 * under the accumulate lock; dead holder: MPI_ERR_PROC_FAILED, nothing done. */
int ucmpi_rma_acc_run(uint32_t *lock, MPI_Op op, MPI_Datatype basic,
                      const void *src, void *dst, void *out, uint64_t len);
/* A predefined type with a hole (MPI_SHORT_INT): its accumulates go one
 * element per segment (ucmpi_rma_elem_segs). */
static inline bool ucmpi_rma_holed(MPI_Datatype basic)
{
    return basic->size != basic->true_extent;
}
/* Its memory span for a segment of len packed bytes. */
static inline uint64_t ucmpi_rma_span(MPI_Datatype basic, uint64_t len)
{
    if (!ucmpi_rma_holed(basic))
        return len;
    return len / (uint64_t)basic->size * (uint64_t)basic->true_extent;
}
/* Integer types of 4 or 8 bytes. */
bool ucmpi_rma_is_int(MPI_Datatype t);
/* op is defined on the 4/8-byte predefined type dt (no checks needed). */
bool ucmpi_rma_fast_op(MPI_Op op, MPI_Datatype dt);
/* A process of this node that no longer exists. */
bool ucmpi_rma_pid_dead(uint32_t pid);
/* Testing: the pid of a process that has exited (0 if none could be made). */
uint32_t ucmpi_rma_dead_pid(void);
/* Compare-and-swap of one n-byte element (errors as ucmpi_rma_acc_run). */
int ucmpi_rma_cas_run(uint32_t *lock, size_t n, const void *val,
                      const void *cmp, void *dst, void *out);

/* --- the direct path (direct.c) --- */
/* Direct-path copies go in pieces of this size: glibc's memcpy is slower
 * above the L2 size (docs/tuning.md). */
#define UCMPI_RMA_COPY_CHUNK ((size_t)128 << 10)
static inline void ucmpi_rma_copy(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
    while (n > UCMPI_RMA_COPY_CHUNK) {
        memcpy(d, s, UCMPI_RMA_COPY_CHUNK);
        d += UCMPI_RMA_COPY_CHUNK;
        s += UCMPI_RMA_COPY_CHUNK;
        n -= UCMPI_RMA_COPY_CHUNK;
    }
    memcpy(d, s, n);
}
/* Large memcpy may use non-temporal stores, which locked instructions do
 * not order on every CPU: fence them right after such a copy. */
#define UCMPI_RMA_NT_MIN 32768
static inline void ucmpi_rma_nt_fence(size_t len)
{
#if defined(__x86_64__)
    if (len >= UCMPI_RMA_NT_MIN)
        __asm__ __volatile__("sfence" ::: "memory");
#else
    (void)len;
#endif
}
/* Direct-path completion barrier: own stores (non-temporal too) visible, later
 * loads see others'; a locked instruction is a cheaper mfence on x86. */
static inline void ucmpi_rma_full_barrier(void)
{
#if defined(__x86_64__)
    __asm__ __volatile__("lock orq $0, (%%rsp)" ::: "memory", "cc");
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

int ucmpi_rma_direct_put(const void *data, const ucmpi_rma_target_t *t);
void ucmpi_rma_direct_get(void *dst, const ucmpi_rma_target_t *t);

#endif
