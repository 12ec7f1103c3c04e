/*
 * What every file of lib/ needs: mpi.h with the export rules, the
 * padding and magic numbers of handles, the library instance and its
 * global state, abort and the big lock.
 */
#ifndef UCMPI_CORE_BASE_H
#define UCMPI_CORE_BASE_H

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

#endif
