/* Helpers of every collective: running a schedule, group views, and the peer
 * arithmetic of rings and trees (pure; test/unit/coll_util.c). */
#ifndef UCMPI_COLL_UTIL_H
#define UCMPI_COLL_UTIL_H

#include "coll/sched.h"
#include "core/call.h"

enum { UCMPI_COLL_BLOCKING, UCMPI_COLL_NONBLOCKING, UCMPI_COLL_PERSISTENT };

/* Runs a built schedule per mode (req: the user's); a failed build_rc frees
 * it.  Errors go through comm's handler. */
int ucmpi_coll_run(ucmpi_comm_t *comm, ucmpi_sched_t *s, int build_rc,
                   int mode, MPI_Request *req);

/* The cached schedule for key (NULL: build one; persistent calls always
 * do), and ucmpi_coll_run() of a new one that is offered to the cache. */
ucmpi_sched_t *ucmpi_coll_cached(ucmpi_comm_t *comm, int mode,
                                 const ucmpi_sched_key_t *key);
int ucmpi_coll_run_new(ucmpi_comm_t *comm, ucmpi_sched_t *s, int build_rc,
                       int mode, MPI_Request *req,
                       const ucmpi_sched_key_t *key);

/* An error of the current call (core/call.h) on comm. */
#define ucmpi_coll_err(comm, code, ...) \
    ucmpi_err_comm((comm), (code), ucmpi_call_name(), __VA_ARGS__)

/* Value of tunable `knob` (ucmpi_config_str), read once per process. */
const char *ucmpi_coll_knob(const char *knob);
/* Re-reads the remembered knobs after MPI_T_cvar_write changed one; the
 * generation tells callers that keep a decision made from one. */
void ucmpi_coll_knob_refresh(void);
extern unsigned ucmpi_coll_knob_generation;

/* Argument checks shared by the entry points (MPI_SUCCESS or the code from
 * ucmpi_error); the comm check also rejects calls before init. */
int ucmpi_coll_check_comm(MPI_Comm comm);
int ucmpi_coll_check_req(ucmpi_comm_t *comm, int mode, MPI_Request *req);
int ucmpi_coll_check_op(ucmpi_comm_t *comm, MPI_Op op, MPI_Datatype dt);
/* root of an intracomm collective, or of an intercomm one (MPI_ROOT,
 * MPI_PROC_NULL or a remote rank) */
int ucmpi_coll_check_root(ucmpi_comm_t *comm, int root);

/* Failed-rank paths keep collective numbers in step (docs/architecture.md);
* skip takes their tag (and the local comm's, or the shm number). */
int ucmpi_coll_skip(ucmpi_comm_t *comm, int rc, int shm_kind, size_t nbytes,
                    int local_too);
/* Where it cannot know their schedule: takes their tag and sends the others
 * an abort their stalled p2p schedules find (sched_abort.h). */
int ucmpi_coll_skip_abort(ucmpi_comm_t *comm, int rc, int mode,
                          MPI_Request *req);
/* Runs s in the background and forgets it, errors dropped: e.g. a root
 * draining the others' sends (past rendezvous they would not return). */
void ucmpi_coll_release(ucmpi_sched_t *s, int build_rc);

/* The count-0 rule (docs/architecture.md): a 0-byte rank runs an empty
 * barrier (root < 0) or star to root; err: it failed and serves the others. */
int ucmpi_coll_run_empty_rooted(ucmpi_comm_t *comm, int root, int mode,
                                MPI_Request *req, int err);
static inline int ucmpi_coll_run_empty(ucmpi_comm_t *comm, int mode,
                                       MPI_Request *req, int err)
{
    return ucmpi_coll_run_empty_rooted(comm, -1, mode, req, err);
}

/* A persistent init's: s (built with build_rc) becomes the inactive
 * request *req, each run serving the others and completing in err. */
int ucmpi_coll_persist_failed(ucmpi_sched_t *s, int build_rc,
                              MPI_Request *req, int err);
/* Its tail: s serves the others in that request, else in the background. */
int ucmpi_coll_serve(ucmpi_sched_t *s, int build_rc, int mode,
                     MPI_Request *req, int err);

/* An intercommunicator's collectives run over its local
 * intracommunicator: MPI_ERR_COMM where it has none. */
static inline int ucmpi_coll_check_local(ucmpi_comm_t *comm)
{
    if (!comm->is_inter || comm->local_comm != NULL)
        return MPI_SUCCESS;
    return ucmpi_coll_err(comm, MPI_ERR_COMM, "intercommunicator has no "
                          "local communicator for collectives");
}

/* A contiguous byte view of buf: itself, or scratch (packed when pack_in);
 * ucmpi_coll_bytes_out unpacks it back.  NULL: no memory. */
char *ucmpi_coll_bytes_in(ucmpi_sched_t *s, void *buf, MPI_Count count,
                          MPI_Datatype dt, int pack_in, size_t *nbytes);
int ucmpi_coll_bytes_out(ucmpi_sched_t *s, const char *bytes, void *buf,
                         MPI_Count count, MPI_Datatype dt);

/* A subset of the communicator an algorithm runs over: member i is comm
 * rank map[i] (map NULL: the identity), `rank` is the caller's index. */
typedef struct {
    int size, rank;
    const int *map;
} ucmpi_coll_grp_t;

static inline int ucmpi_coll_grp_peer(const ucmpi_coll_grp_t *g, int i)
{
    return g->map ? g->map[i] : i;
}

static inline ucmpi_coll_grp_t ucmpi_coll_grp_comm(const ucmpi_comm_t *c)
{
    ucmpi_coll_grp_t g = {c->size, c->rank, NULL};
    return g;
}

/* Scratch room for count elements of dt, laid out as in a user buffer
 * (the pointer to pass as `buf`, true_lb already accounted for). */
void *ucmpi_coll_tmpbuf(ucmpi_sched_t *s, MPI_Count count, MPI_Datatype dt);

/* Address of element i of buf. */
static inline void *ucmpi_coll_at(const void *buf, MPI_Count i,
                                  MPI_Datatype dt)
{
    return (char *)buf + i * dt->extent;
}

/* ---- peer arithmetic (pure) ---- */

/* Largest power of two <= n (n >= 1). */
int ucmpi_coll_pof2_floor(int n);

static inline int ucmpi_coll_ring_right(int rank, int size)
{
    return (rank + 1) % size;
}
static inline int ucmpi_coll_ring_left(int rank, int size)
{
    return (rank - 1 + size) % size;
}
static inline int ucmpi_coll_vrank(int rank, int root, int size)
{
    return (rank - root + size) % size;
}
static inline int ucmpi_coll_rank_of(int vrank, int root, int size)
{
    return (vrank + root) % size;
}

/* K-nomial tree rooted at vrank 0: the parent (-1: root) clears the lowest
 * non-zero base-k digit; children ascending, their number (<= max). */
int ucmpi_coll_knomial_parent(int vrank, int size, int k);
int ucmpi_coll_knomial_children(int vrank, int size, int k, int *children,
                                int max);
/* Virtual ranks covered by the subtree of vrank: [vrank, end). */
int ucmpi_coll_knomial_subtree_end(int vrank, int size, int k);

/* Recursive doubling on n = pof2 + rem: ranks below 2*rem fold in pairs
 * (even into odd), so each new rank covers contiguous old ranks. */
int ucmpi_coll_rd_newrank(int rank, int rem);   /* -1: folded away */
int ucmpi_coll_rd_oldrank(int newrank, int rem); /* the survivor */
/* First old rank covered by newrank (rank order for non-commutative ops). */
int ucmpi_coll_rd_first(int newrank, int rem);

/* Block i of count elements split into n nearly equal blocks (the first
 * count % n blocks one element larger). */
void ucmpi_coll_block(MPI_Count count, int n, int i, MPI_Count *off,
                      MPI_Count *cnt);

/* Pipelined rings: elements per segment for blocks of <= maxc elements cut
 * at seg_bytes, and *nseg (<= UCMPI_COLL_RING_MAX_SEGS; past it, longer). */
#define UCMPI_COLL_RING_MAX_SEGS 64
MPI_Count ucmpi_coll_ring_segs(MPI_Count maxc, MPI_Aint extent,
                               long seg_bytes, int *nseg);

#endif
