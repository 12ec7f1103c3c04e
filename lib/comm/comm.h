/* Communicators: the object every other layer passes around. */
#ifndef UCMPI_COMM_COMM_H
#define UCMPI_COMM_COMM_H

#include "core/base.h"
#include "comm/group.h"
#include "core/errhandler.h"

/* Each communicator owns context id `ctx`; four sub-contexts keep user p2p,
 * collectives and protocol messages from matching each other. */
enum {
    UCMPI_CTX_P2P = 0,        /* user point-to-point */
    UCMPI_CTX_COLL = 1,       /* collectives (and comm management) */
    UCMPI_CTX_ACK = 2,        /* synchronous-send acknowledgements */
    UCMPI_CTX_AUX = 3,        /* spare: RMA / internal protocols */
    UCMPI_CTX_SUBS = 4
};

/* lib/coll/'s per-communicator state lives inside: an allocation failing on
 * one rank only would make it decide differently (e.g. skip the shm set-up). */
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
    /* MPIX_Comm_revoke reached this process (lib/comm/ulfm_revoke.c): every
     * entry point but agree/shrink fails (the p2p ones test it inline) */
    volatile uint8_t revoked;
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
    void *ft;                 /* ULFM state (lib/comm/ulfm*.c); NULL: none */
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
/* The same, then the output argument `out` (called `name`) not NULL. */
static inline int ucmpi_check_comm_out(MPI_Comm comm, const char *fn,
                                       const void *out, const char *name)
{
    int rc = ucmpi_check_comm(comm, fn);
    if (rc == MPI_SUCCESS && out == NULL)
        rc = ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "%s is NULL", name);
    return rc;
}

/* comm is valid; a call that builds a communicator from it fails on a
 * revoked one (ULFM: only MPIX_Comm_shrink still works there). */
static inline int ucmpi_check_comm_live(MPI_Comm comm, const char *fn)
{
    if (__builtin_expect(!comm->revoked, 1))
        return MPI_SUCCESS;
    return ucmpi_err_comm(comm, MPI_ERR_REVOKED, fn, "the communicator was "
                          "revoked (MPIX_Comm_revoke): only MPIX_Comm_shrink "
                          "builds a communicator from it");
}

void ucmpi_comm_retain(ucmpi_comm_t *c);
void ucmpi_comm_release(ucmpi_comm_t *c);   /* frees at refcount 0 */

/* Hooks that lib/comm*.c provides (attrs, topo, coll state) and core
 * calls when a communicator is destroyed. */
void ucmpi_comm_destroy(ucmpi_comm_t *c);

/* Collective tags come from comm->coll_seq, which all members advance in the
 * same order (16 bits: upper tag bits carry a schedule signature, p2p/tag.h). */
static inline int ucmpi_comm_next_coll_tag(ucmpi_comm_t *c)
{
    return (int)(c->coll_seq++ & 0xffff);   /* UCMPI_COLL_SEQ_MASK */
}

#endif
