/*
 * ucmpi internal core interface: the objects and services every area of
 * lib/ uses (communicators, groups, requests, progress, errors, p2p).
 * Nothing here includes UCX headers: only lib/ucp_glue/ does.
 */
#ifndef UCMPI_H
#define UCMPI_H

/* The library is built with -fvisibility=hidden (direct, GOT-free access
 * to its own globals on every message's path): what mpi.h declares (the
 * MPI_/PMPI_ functions, the predefined objects) is the exported ABI, and
 * UCMPI_EXPORT marks the few internals that ucmpi_info links against. */
#pragma GCC visibility push(default)
#include <mpi.h>
#pragma GCC visibility pop
#define UCMPI_EXPORT __attribute__((visibility("default")))
#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdbool.h>
#include "ucp_glue/ucx.h"

#define UCMPI_CONTAINER_OF(ptr, type, member) \
    ((type *)((char *)(ptr) - offsetof(type, member)))

/* Defines a predefined object that mpi.h names (MPI_COMM_WORLD, MPI_INT,
 * ...).  Executables reach these through copy relocations, which copy as
 * many bytes as the symbol had when the program was linked; so the symbol
 * is exported with a fixed, padded size, and growing the struct does not
 * break (or corrupt) programs built against an older libucmpi.  Use:
 * UCMPI_PREDEFINED(struct ucmpi_comm_s, ucmpi_comm_world,
 *                  UCMPI_PAD_COMM) = {.obj = {...}}; */
#define UCMPI_PREDEFINED(type, name, pad)                                 \
    _Static_assert(sizeof(type) <= (pad), #name " outgrew its padding"); \
    extern type name __attribute__((alias(#name "_padded")));          \
    static union { type obj; char bytes[pad]; } name##_padded
/* Exported sizes: part of the ABI, never shrink or grow them. */
enum {
    UCMPI_PAD_COMM = 1024, UCMPI_PAD_REQUEST = 512, UCMPI_PAD_DATATYPE = 256,
    UCMPI_PAD_OP = 128, UCMPI_PAD_GROUP = 128, UCMPI_PAD_ERRHANDLER = 128,
    UCMPI_PAD_INFO = 128
};

/* Handle validity: every object starts with a magic number that is cleared
 * when it is freed, so stale and wrong-kind handles are caught. */
enum {
    UCMPI_MAGIC_COMM = 0x434f4d4d,
    UCMPI_MAGIC_GROUP = 0x47525550,
    UCMPI_MAGIC_DATATYPE = 0x44545950,
    UCMPI_MAGIC_OP = 0x4f505f5f,
    UCMPI_MAGIC_REQUEST = 0x52455155,
    UCMPI_MAGIC_ERRHANDLER = 0x45525248,
    UCMPI_MAGIC_INFO = 0x494e464f,
    UCMPI_MAGIC_WIN = 0x57494e5f,
    UCMPI_MAGIC_SESSION = 0x53455353,
    UCMPI_MAGIC_FREED = 0x46524545
};

/* ------------------------------------------------------------------ */
/* Global state                                                       */
/* ------------------------------------------------------------------ */
typedef struct {
    int initialized;          /* MPI_Init done */
    int finalized;            /* MPI_Finalize done */
    int active;               /* instance up: world model or a session */
    int thread_level;         /* provided level */
    int world_rank, world_size;
    int local_rank, local_size;   /* on this node */
    int *local_peers;         /* world ranks on this node, ascending */
    int *node_of;             /* node index of every world rank */
    int num_nodes;
    int singleton;            /* started without a launcher */
    int appnum, universe_size;
} ucmpi_global_t;

extern ucmpi_global_t ucmpi_global __attribute__((visibility("hidden"))); /* no GOT */

/* The library instance (lib/core/init.c) and the sessions using it
 * (lib/core/session.c): up at the first MPI_Init/MPI_Session_init, down when
 * the world model and every session have finalized. */
int ucmpi_instance_up(int required_thread_level);
void ucmpi_instance_down(void);
int ucmpi_sessions_open(void);
/* -- finalize of user-freed requests (api area: lib/core/finalize_orphans.c,
 * with ucmpi_orphans_pending in lib/p2p/wait.c) -- */
/* Completes (or, for unmatched receives, cancels) the requests the user
 * freed while active; collective over the job, before endpoints close. */
void ucmpi_finalize_orphans(void);
void ucmpi_finalize_drop_unexpected(void);
/* User-freed requests of `kind` still in flight (-1: all but receives and
 * generalized requests); with `cancel`, such receives are cancelled. */
int ucmpi_orphans_pending(int kind, int cancel);
/* The same for requests on comm c (MPI_Comm_disconnect). */
int ucmpi_orphans_pending_on(struct ucmpi_comm_s *c, int kind, int cancel);

/* ------------------------------------------------------------------ */
/* Groups                                                             */
/* ------------------------------------------------------------------ */
enum { UCMPI_GROUP_RANGE, UCMPI_GROUP_TABLE };

struct ucmpi_group_s {
    uint32_t magic;
    int refcount;
    int predefined;
    int size;
    int my_rank;              /* MPI_UNDEFINED when not a member */
    int kind;                 /* UCMPI_GROUP_RANGE or _TABLE */
    int first, stride;        /* range: world rank i = first + i * stride */
    int *ranks;               /* table: world rank of each member */
    /* api area (lib/core/session.c): the session the group derives from, by
     * serial number (0: the world model), so it can outlive the session */
    uint32_t session_id;
};
typedef struct ucmpi_group_s ucmpi_group_t;

static inline int ucmpi_group_world(const ucmpi_group_t *g, int i)
{
    return g->kind == UCMPI_GROUP_RANGE ? g->first + i * g->stride
                                        : g->ranks[i];
}

/* New group of `size` world ranks first, first+stride, ... (refcount 1). */
ucmpi_group_t *ucmpi_group_create_range(int first, int size, int stride);
/* New group taking ownership of a malloc'd table of world ranks. */
ucmpi_group_t *ucmpi_group_create_table(int *ranks, int size);
void ucmpi_group_retain(ucmpi_group_t *g);
void ucmpi_group_release(ucmpi_group_t *g);

/* ------------------------------------------------------------------ */
/* Error handlers and error reporting                                 */
/* ------------------------------------------------------------------ */
enum { UCMPI_EH_FATAL, UCMPI_EH_RETURN, UCMPI_EH_ABORT, UCMPI_EH_USER };
enum { UCMPI_OBJ_NONE, UCMPI_OBJ_COMM, UCMPI_OBJ_WIN, UCMPI_OBJ_FILE,
       UCMPI_OBJ_SESSION,
       UCMPI_OBJ_ERRHANDLER /* obj is the handler itself (no object yet) */ };

struct ucmpi_errhandler_s {
    uint32_t magic;
    int refcount;
    int action;               /* UCMPI_EH_* */
    int obj_kind;             /* UCMPI_OBJ_*: which objects it may be set on */
    void (*fn)(void *handle, int *code, ...);
};
typedef struct ucmpi_errhandler_s ucmpi_errhandler_t;

/*
 * Report an error: formats "fn: ERROR_CLASS_NAME: reason", invokes the
 * handler of `obj` (a MPI_Comm or MPI_Win per obj_kind; NULL or an invalid
 * object means MPI_COMM_WORLD's handler, or fatal before init) and returns
 * the code to hand back to the user.  Never returns for fatal handlers.
 */
int ucmpi_error(int obj_kind, void *obj, int code, const char *fn,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define ucmpi_err_comm(comm, code, fn, ...) \
    ucmpi_error(UCMPI_OBJ_COMM, (comm), (code), (fn), __VA_ARGS__)

/* The error class of a (possibly user-defined) error code. */
int ucmpi_error_class_of(int code);
const char *ucmpi_error_class_name(int errclass);


/* First members of every struct ucmpi_win_s (lib/rma/), so that error
 * reporting finds a window's handler without knowing windows. */
typedef struct {
    uint32_t magic;
    int refcount;
    ucmpi_errhandler_t *errhandler;
} ucmpi_win_head_t;

/* ---- added by io (lib/io/): the handler of a file, or MPI_FILE_NULL's
 * (open failures) when file is null or closed. ---- */
ucmpi_errhandler_t *ucmpi_file_errhandler_of(void *file);

void ucmpi_errhandler_retain(ucmpi_errhandler_t *eh);
void ucmpi_errhandler_release(ucmpi_errhandler_t *eh);
/* A new user handler for objects of kind obj_kind (the bodies of the
 * MPI_X_create_errhandler calls); errors go to (err_kind, err_obj). */
int ucmpi_errhandler_create(int obj_kind, void (*fn)(void),
                            MPI_Errhandler *eh, const char *name,
                            int err_kind, void *err_obj);
/* Checks that eh may go on an object of `kind` and puts it in *slot (the
 * MPI_X_set_errhandler bodies; errors go to obj's handler). */
int ucmpi_errhandler_install(ucmpi_errhandler_t **slot, MPI_Errhandler eh,
                             int kind, void *obj);

/* Report a call made before MPI_Init or after MPI_Finalize (returns the
 * error code after printing; the default handler aborts). Returns
 * MPI_SUCCESS when the library is usable. */
int ucmpi_check_initialized(const char *fn);

/* ------------------------------------------------------------------ */
/* Communicators                                                      */
/* ------------------------------------------------------------------ */
/* Each communicator owns context id `ctx`; its traffic uses four
 * sub-contexts so user p2p, collectives and protocol messages never
 * match each other. */
enum {
    UCMPI_CTX_P2P = 0,        /* user point-to-point */
    UCMPI_CTX_COLL = 1,       /* collectives (and comm management) */
    UCMPI_CTX_ACK = 2,        /* synchronous-send acknowledgements */
    UCMPI_CTX_AUX = 3,        /* spare: RMA / internal protocols */
    UCMPI_CTX_SUBS = 4
};

/* lib/coll/'s per-communicator state, inside the communicator: an
 * allocation that failed on one rank only would make that rank decide
 * differently (e.g. skip the shm set-up that the others enter). */
typedef struct {
    void *layout;             /* node layout (lib/coll/coll_comm.c) */
    void *cache;              /* built schedules (lib/coll/coll_comm.c) */
    void *shm;                /* lib/coll/shm/ state */
    const char *fn;           /* the collective being called: its name
                               * signs its schedules (sched_sig.c) */
    const char *id_fn;        /* the name whose id is id (a cache) */
    unsigned id;
    int root;                 /* the rooted call's root (0 for the
                               * others): the shm size records name it */
    void *check_gate;         /* UCMPI_COLL_CHECK: the check the call's
                               * schedule waits for (coll_check.h) */
} ucmpi_coll_state_t;

struct ucmpi_comm_s {
    uint32_t magic;
    int refcount;             /* user handle + operations in flight */
    int predefined;
    int rank, size;           /* in the local group */
    int is_inter;
    int remote_size;          /* == size for intracommunicators */
    ucmpi_group_t *group;     /* local group */
    ucmpi_group_t *remote_group; /* intercomm: remote group; else == group */
    uint32_t ctx;             /* context id (unique among live comms) */
    uint64_t ctx_stamp;       /* which comm with this ctx (ucmpi_ctx_stamp) */
    ucmpi_errhandler_t *errhandler;
    char name[MPI_MAX_OBJECT_NAME];
    void *attrs;              /* owned by lib/core/attr.c */
    struct ucmpi_info_s *info;
    void *topo;               /* owned by lib/topo*.c */
    ucmpi_coll_state_t coll;  /* owned by lib/coll/ */
    uint32_t coll_seq;        /* sequence number for collective tags */
    void *local_comm;         /* intercomm: cached local intracomm */
    /* api area: session it derives from (0: world model), whose buffer
     * serves its buffered sends (lib/p2p/bsend.c); inherited by derived comms */
    uint32_t session_id;
};
typedef struct ucmpi_comm_s ucmpi_comm_t;

/* World rank of peer `rank` (in the remote group for intercomms). */
static inline int ucmpi_comm_peer_world(const ucmpi_comm_t *c, int rank)
{
    return ucmpi_group_world(c->remote_group, rank);
}

static inline bool ucmpi_comm_valid(MPI_Comm c)
{
    return c != MPI_COMM_NULL && c->magic == UCMPI_MAGIC_COMM;
}

/* Checks a communicator argument; reports MPI_ERR_COMM (on
 * MPI_COMM_WORLD's handler) for null/freed handles. */
int ucmpi_check_comm(MPI_Comm comm, const char *fn);

void ucmpi_comm_retain(ucmpi_comm_t *c);
void ucmpi_comm_release(ucmpi_comm_t *c);   /* frees at refcount 0 */

/* Hooks that lib/comm*.c provides (attrs, topo, coll state) and core
 * calls when a communicator is destroyed. */
void ucmpi_comm_destroy(ucmpi_comm_t *c);

/* ------------------------------------------------------------------ */
/* Requests                                                           */
/* ------------------------------------------------------------------ */
enum {
    UCMPI_REQ_SEND, UCMPI_REQ_RECV,   /* p2p */
    UCMPI_REQ_COLL,                   /* collective schedule */
    UCMPI_REQ_RMA,                    /* request-based RMA */
    UCMPI_REQ_GREQ,                   /* generalized */
    UCMPI_REQ_MPROBE,                 /* matched message (MPI_Message) */
    UCMPI_REQ_PART                    /* partitioned send/recv (lib/p2p/part.c) */
};

struct ucmpi_request_s;

/* Per-kind behaviour for requests owned by other areas. Any may be NULL. */
typedef struct {
    int (*start)(struct ucmpi_request_s *req);     /* persistent start */
    int (*cancel)(struct ucmpi_request_s *req);
    /* called once when wait/test reports completion, before status is
     * copied out (e.g. generalized request query) */
    int (*on_complete)(struct ucmpi_request_s *req);
    void (*destroy)(struct ucmpi_request_s *req);  /* release area state */
} ucmpi_request_ops_t;
/* ops of a request UCX may still use after it completed (never pooled). */
extern const ucmpi_request_ops_t ucmpi_request_held_ops;

struct ucmpi_request_s {
    uint32_t magic;
    uint8_t kind;             /* UCMPI_REQ_* */
    uint8_t persistent;
    uint8_t active;           /* persistent: started and not yet waited */
    uint8_t freed_by_user;    /* MPI_Request_free on an active request */
    volatile int complete;    /* set by completion; read by wait/test */
    MPI_Status status;
    const ucmpi_request_ops_t *ops;
    ucmpi_comm_t *comm;       /* retained while in flight; may be NULL */
    void *ext;                /* area state (schedule, window op, ...) */
    struct ucmpi_request_s *next_free;
    /* point-to-point state, owned by lib/p2p*.c */
    struct {
        ucmpi_ucx_op_t op;    /* the transfer on the UCX glue */
        void *buf;
        MPI_Count count;
        MPI_Datatype dt;
        int peer, tag;
        int world_peer;       /* world rank of the peer, -1 if wildcard */
        int pending;          /* UCX operations still running (Ssend: 2) */
        uint32_t seq;         /* send cancellation: number of this send to
                                 world_peer (lib/p2p/p2p_cancel.h) */
        int8_t ctx_sub, mode;
        int8_t cancel;        /* UCMPI_CANCEL_* */
        void *bounce;         /* packed copy for non-contiguous data */
        void *dt_state;       /* streaming pack/unpack state */
        /* buffered sends: the user's request <-> the internal send */
        struct ucmpi_request_s *bsend_owner;
        ucmpi_ucx_op_t ack_op;   /* Ssend: receive of the acknowledgement */
    } p2p;
};
typedef struct ucmpi_request_s ucmpi_request_t;

ucmpi_request_t *ucmpi_request_alloc(int kind, ucmpi_comm_t *comm);
/* Returns the request to the pool (drops the comm reference). */
void ucmpi_request_free(ucmpi_request_t *req);
/* Marks complete (callable from UCX callbacks: no progress inside). */
static inline void ucmpi_request_set_complete(ucmpi_request_t *req)
{
    __atomic_store_n(&req->complete, 1, __ATOMIC_RELEASE);
}
static inline bool ucmpi_request_is_complete(const ucmpi_request_t *req)
{
    return __atomic_load_n(&req->complete, __ATOMIC_ACQUIRE);
}
/* The status the standard gives for null and inactive requests. */
extern const MPI_Status ucmpi_empty_status;
/* MPI_REQUEST_NULL, or a persistent request not started. */
static inline bool ucmpi_request_inactive(const ucmpi_request_t *r)
{
    return r == NULL || (r->persistent && !r->active);
}
/* Progress until complete; returns status.MPI_ERROR of the request. */
int ucmpi_request_wait(ucmpi_request_t *req);
/* Waiting loops call this now and then (e.g. every 1024 idle spins): a
 * receive from a peer that died completes with MPI_ERR_PROC_FAILED. */
void ucmpi_request_check_peer(ucmpi_request_t *req);
/* World rank r is known to have failed. */
int ucmpi_peer_failed(int r);
/* World rank r is known to be in MPI_Finalize (a waiting loop that has
 * stalled on it asks; the first call for r sends the question: slow paths
 * only, lib/core/failure.c). */
int ucmpi_peer_finalized(int r);
/* MPI_Finalize: the job's barrier, answering those questions from its
 * start (0, or -1 when a peer failed); stop answering (end). */
int ucmpi_fin_barrier(void);
void ucmpi_fin_end(void);
/* After the last fence (every process flushed its endpoints): drops the
 * answers that came after this process's barrier. */
void ucmpi_fin_drop(void);

/* ------------------------------------------------------------------ */
/* Progress engine                                                    */
/* ------------------------------------------------------------------ */
/* One call drives UCX and every registered hook; returns events seen.
 * Never blocks. */
int ucmpi_progress(void);
/* Hooks return the number of events they handled (0 when idle). */
typedef int (*ucmpi_progress_fn_t)(void);
void ucmpi_progress_register(ucmpi_progress_fn_t fn);
void ucmpi_progress_unregister(ucmpi_progress_fn_t fn);
/* Called by waiting loops after a progress call that found nothing: polls,
 * yields or blocks per the wait mode (oversubscription). */
void ucmpi_progress_idle(unsigned spins);
/* Idle turn that yields at once when oversubscribed (lib/p2p/progress.c). */
void ucmpi_progress_yield(void);
/* Turn of a wait only one given rank can end, after progress saw events:
 * counts idle turns in *spins; yields whenever the node is oversubscribed,
 * whatever the wait mode, else idles as ucmpi_progress_idle(*spins). */
void ucmpi_progress_handoff(int events, unsigned *spins);

/* ------------------------------------------------------------------ */
/* Internal point-to-point, used by collectives, comm management, RMA */
/* ------------------------------------------------------------------ */
enum { UCMPI_SEND_STANDARD, UCMPI_SEND_SYNC, UCMPI_SEND_READY,
       UCMPI_SEND_BUFFERED };

/* Nonblocking send/recv on sub-context `ctx_sub` (UCMPI_CTX_*) of comm.
 * Ranks are comm ranks (remote group for intercomms); tag >= 0 and
 * <= UCMPI_TAG_MAX.  *req is always a request to wait on or free. */
int ucmpi_isend(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                int tag, ucmpi_comm_t *comm, int ctx_sub, int mode,
                ucmpi_request_t **req);
int ucmpi_irecv(void *buf, MPI_Count count, MPI_Datatype dt, int src,
                int tag, ucmpi_comm_t *comm, int ctx_sub,
                ucmpi_request_t **req);
/* Blocking helpers. */
int ucmpi_send(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
               int tag, ucmpi_comm_t *comm, int ctx_sub);
int ucmpi_recv(void *buf, MPI_Count count, MPI_Datatype dt, int src,
               int tag, ucmpi_comm_t *comm, int ctx_sub, MPI_Status *st);

#define UCMPI_TAG_MAX ((1 << 24) - 1)

/* ------------------------------------------------------------------ */
/* Datatype services used by every data path (lib/datatype/)          */
/* ------------------------------------------------------------------ */
/* Public part of a datatype; lib/datatype/ adds the rest behind it. */
struct ucmpi_datatype_s {
    uint32_t magic;
    int refcount;
    int predefined;
    int committed;
    int contig;           /* count elements form one contiguous block of
                             count*size bytes starting at buf + true_lb */
    MPI_Count size;       /* bytes of data in one element */
    MPI_Aint lb, extent;
    MPI_Aint true_lb, true_extent;
    void *impl;           /* compiled representation (lib/datatype/) */
    void *attrs;          /* owned by lib/core/attr.c */
};
typedef struct ucmpi_datatype_s ucmpi_datatype_t;

/* MPI_SUCCESS or the error class, with *why a static reason string:
 * null, freed, or (when need_commit) uncommitted types. */
int ucmpi_dt_check(MPI_Datatype dt, int need_commit, const char **why);
void ucmpi_dt_retain(MPI_Datatype dt);
void ucmpi_dt_release(MPI_Datatype dt);
/* Pack/unpack bytes [offset, offset+len) of the packed stream of count
 * elements at buf; return bytes done.  Sequential calls are O(len). */
typedef struct ucmpi_dt_cursor ucmpi_dt_cursor_t;
ucmpi_dt_cursor_t *ucmpi_dt_cursor_create(MPI_Datatype dt, const void *buf,
                                          MPI_Count count);
size_t ucmpi_dt_cursor_pack(ucmpi_dt_cursor_t *c, size_t offset, void *dst,
                            size_t len);
size_t ucmpi_dt_cursor_unpack(ucmpi_dt_cursor_t *c, size_t offset,
                              const void *src, size_t len);
void ucmpi_dt_cursor_destroy(ucmpi_dt_cursor_t *c);
/* Whole-buffer convenience forms. */
size_t ucmpi_dt_pack(MPI_Datatype dt, const void *buf, MPI_Count count,
                     void *dst);
size_t ucmpi_dt_unpack(MPI_Datatype dt, void *buf, MPI_Count count,
                       const void *src, size_t len);
/* (datatype area) The one predefined type dt is made of, and how many of
 * it one element holds; MPI_DATATYPE_NULL when dt mixes types.  For
 * reductions and accumulates on derived types. */
MPI_Datatype ucmpi_dt_basic(MPI_Datatype dt, MPI_Count *per_element);
/* (datatype area) A message of `bytes` ends inside a basic element of dt:
 * its sender's type signature does not match the receive type. */
bool ucmpi_dt_partial(MPI_Datatype dt, size_t bytes);
/* (datatype area) iov: the contiguous runs of the packed stream, as
 * offsets from buf (adjacent runs merged), in packed order.  The cursor
 * form covers bytes [offset, offset+len) with at most maxn runs and returns
 * the bytes covered (resumable like pack); the whole form mallocs *iov. */
typedef struct { MPI_Aint off; size_t len; } ucmpi_dt_iov_t;
size_t ucmpi_dt_cursor_iov(ucmpi_dt_cursor_t *c, size_t offset, size_t len,
                           ucmpi_dt_iov_t *iov, size_t maxn, size_t *nout);
int ucmpi_dt_iov(MPI_Datatype dt, const void *buf, MPI_Count count,
                 ucmpi_dt_iov_t **iov, size_t *n);

/* ------------------------------------------------------------------ */
/* Reduction operations (lib/coll/op*.c)                              */
/* ------------------------------------------------------------------ */
struct ucmpi_op_s {
    uint32_t magic;
    int refcount;
    int predefined;
    int commute;
    int id;                   /* predefined: index of the op; user: -1 */
    MPI_User_function *user_fn;
    /* ---- added by ops (lib/coll/op*.c) ---- */
    MPI_User_function_c *user_fn_c;   /* MPI_Op_create_c */
};
typedef struct ucmpi_op_s ucmpi_op_t;

/* ---- added by ops: references held by operations in flight (e.g. a
 * nonblocking or persistent collective keeps its user op alive after
 * MPI_Op_free); no-ops on predefined ops. ---- */
void ucmpi_op_retain(MPI_Op op);
void ucmpi_op_release(MPI_Op op);

/* inout[i] = in[i] op inout[i] for count elements of dt (dt may be a
 * derived type of a single basic type, as the standard allows). */
int ucmpi_op_apply(MPI_Op op, const void *in, void *inout, MPI_Count count,
                   MPI_Datatype dt);
/* ---- added by collA: out = a op b (a the left operand) for count
 * elements of a contiguous dt; out overlaps neither a nor b.  One pass
 * fewer than copy + ucmpi_op_apply where the result needs a third
 * buffer. ---- */
int ucmpi_op_apply3(MPI_Op op, const void *a, const void *b, void *out,
                    MPI_Count count, MPI_Datatype dt);
/* MPI_SUCCESS, or MPI_ERR_OP with *why when op is null/freed or not
 * defined on dt. */
int ucmpi_op_check(MPI_Op op, MPI_Datatype dt, const char **why);

/* ------------------------------------------------------------------ */
/* Attributes (lib/core/attr.c): cached on comms, types and windows        */
/* ------------------------------------------------------------------ */
enum { UCMPI_ATTR_COMM, UCMPI_ATTR_TYPE, UCMPI_ATTR_WIN };
/* Run copy callbacks of *old_attrs into *new_attrs (dup). */
int ucmpi_attr_copy_all(int kind, void *old_handle, void *new_handle,
                        void **old_attrs, void **new_attrs);
/* Run delete callbacks and release the list (object free / finalize). */
int ucmpi_attr_delete_all(int kind, void *handle, void **attrs);
/* What lib/rma tells lib/core/attr.c about windows: where a window's
 * attribute list lives (NULL for an invalid window), and its predefined
 * attributes (*(void **)val set to the value's address). */
typedef struct {
    void **(*attrs)(MPI_Win win);
    int (*predefined)(MPI_Win win, int keyval, void *val, int *flag);
} ucmpi_attr_win_ops_t;
void ucmpi_attr_win_ops(const ucmpi_attr_win_ops_t *ops);

/* ------------------------------------------------------------------ */
/* Tunables (lib/core/config.c): one table, UCMPI_<NAME> environment vars  */
/* ------------------------------------------------------------------ */
/* Value of tunable `name` (without the UCMPI_ prefix, e.g.
 * "ALLREDUCE_ALGORITHM"); the table's default when unset.  Unknown names
 * abort: every knob must be in the table. */
UCMPI_EXPORT const char *ucmpi_config_str(const char *name);
long ucmpi_config_long(const char *name);

/* Collective traffic (lib/coll and communicator management) uses tags
 * derived from comm->coll_seq, which every member advances in the same
 * order: take one with ucmpi_comm_next_coll_tag() (16 bits: the tag's
 * upper bits carry a schedule's signature, lib/p2p/tag.h). */
static inline int ucmpi_comm_next_coll_tag(ucmpi_comm_t *c)
{
    return (int)(c->coll_seq++ & 0xffff);   /* UCMPI_COLL_SEQ_MASK */
}

/* ------------------------------------------------------------------ */
/* Argument checks shared by every entry point                        */
/* ------------------------------------------------------------------ */
/* Each returns MPI_SUCCESS or the code from ucmpi_error() on comm. */
int ucmpi_check_count(ucmpi_comm_t *comm, MPI_Count count, const char *fn);
int ucmpi_check_dt(ucmpi_comm_t *comm, MPI_Datatype dt, const char *fn);
int ucmpi_check_buf(ucmpi_comm_t *comm, const void *buf, MPI_Count count,
                    MPI_Datatype dt, const char *fn);
/* rank in [0, remote_size) or, if allowed, MPI_PROC_NULL/MPI_ANY_SOURCE */
int ucmpi_check_rank(ucmpi_comm_t *comm, int rank, int allow_any,
                     const char *fn);
int ucmpi_check_tag(ucmpi_comm_t *comm, int tag, int allow_any,
                    const char *fn);

/* ------------------------------------------------------------------ */
/* Misc                                                               */
/* ------------------------------------------------------------------ */
/* Abort the whole job (through the runtime) with a message. */
void ucmpi_abort(int code, const char *msg) __attribute__((noreturn));

/* Lock taken around shared state only under MPI_THREAD_MULTIPLE. */
void ucmpi_lock(void);
void ucmpi_unlock(void);

/* ---- added by runtime: which MPI call a rank blocks in, for mpiexec's
 * --timeout report (runtime/rt_calls.h).  Entry points record their name
 * (ucmpi_check_initialized), ucmpi_progress_idle publishes it, and every
 * waiting loop that calls ucmpi_progress_idle ends with
 * ucmpi_rt_wait_done(). ---- */
#include "rt_calls.h"

#endif /* UCMPI_H */
