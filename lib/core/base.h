/* What every file of lib/ needs: mpi.h with the export rules, handle padding
 * and magic numbers, the library instance and global state, abort, the lock. */
#ifndef UCMPI_CORE_BASE_H
#define UCMPI_CORE_BASE_H

/* Built with -fvisibility=hidden (GOT-free access to our globals): mpi.h's
 * and mpi-ext.h's declarations are the ABI; UCMPI_EXPORT marks internals ucmpi_info uses. */
#pragma GCC visibility push(default)
#include <mpi.h>
#include <mpi-ext.h>              /* ULFM (lib/comm/ulfm*.c) */
#pragma GCC visibility pop
#define UCMPI_EXPORT __attribute__((visibility("default")))
#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdbool.h>

#define UCMPI_CONTAINER_OF(ptr, type, member) \
    ((type *)((char *)(ptr) - offsetof(type, member)))

/* A predefined object of mpi.h: copy relocations copy the symbol's size at
 * link time, so a fixed padded size keeps old binaries working as it grows. */
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

typedef struct {
    int initialized;          /* MPI_Init done */
    int finalized;            /* MPI_Finalize done */
    int active;               /* instance up: world model or a session */
    int thread_level;         /* provided level */
    int world_rank, world_size;
    int proc_cap;             /* world ranks past world_size: processes of
                               * other jobs (lib/comm/dpm_procs.c) */
    int local_rank, local_size;   /* on this node */
    int *local_peers;         /* world ranks on this node, ascending */
    int *node_of;             /* node index of every world rank [proc_cap] */
    int num_nodes;
    int singleton;            /* started without a launcher */
    int appnum, universe_size;
    const char *nspace;       /* the job's runtime name (dynamic processes) */
    const char *hostname;
} ucmpi_global_t;

extern ucmpi_global_t ucmpi_global __attribute__((visibility("hidden"))); /* no GOT */

/* The library instance: up at the first MPI_Init/MPI_Session_init, down when
 * the world model and every session have finalized (init.c, session.c). */
int ucmpi_instance_up(int required_thread_level);
/* "MPI_THREAD_SINGLE" .. "MPI_THREAD_MULTIPLE", indexed by level (session.c) */
extern const char *const ucmpi_thread_level_names[4];
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

/* Abort the whole job (through the runtime) with a message. */
void ucmpi_abort(int code, const char *msg) __attribute__((noreturn));

/* Lock taken around shared state only under MPI_THREAD_MULTIPLE. */
void ucmpi_lock(void);
void ucmpi_unlock(void);

/* ---- the MPI call a rank blocks in, for mpiexec --timeout (rt_calls.h):
 * waiting loops calling ucmpi_progress_idle end with ucmpi_rt_wait_done() */
#include "rt_calls.h"

#endif
