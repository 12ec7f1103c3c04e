/* Helpers shared by the files of the communicator area. */
#ifndef UCMPI_COMM_INTERNAL_H
#define UCMPI_COMM_INTERNAL_H

#include "comm/comm.h"
#include "core/hooks.h"

/* ---- info (info.c) ---- */
MPI_Info ucmpi_info_new(void);
bool ucmpi_info_valid(MPI_Info info);
void ucmpi_info_destroy(MPI_Info info);
/* Copy of src with the keys keep() accepts (all when keep is NULL); NULL
 * when out of memory.  src may be MPI_INFO_NULL (empty copy). */
MPI_Info ucmpi_info_filter(MPI_Info src, bool (*keep)(const char *key));
/* Value of key in info (NULL if absent or info is null/invalid). */
const char *ucmpi_info_lookup(MPI_Info info, const char *key);

/* ---- groups (group.c): pure set logic, NULL when out of memory ---- */
/* Takes ownership of a malloc'd table; a progression becomes a range and
 * an empty group MPI_GROUP_EMPTY. */
ucmpi_group_t *ucmpi_group_from_table(int *ranks, int size);
int *ucmpi_group_to_table(const ucmpi_group_t *g);   /* malloc'd */
/* Rank in g of a world rank (MPI_UNDEFINED if absent): O(1) for ranges,
 * O(log n) for tables after an O(n log n) init. */
typedef struct {
    const ucmpi_group_t *g;
    int *sorted;              /* (world rank, index) pairs, tables only */
} ucmpi_group_lookup_t;
int ucmpi_group_lookup_init(ucmpi_group_lookup_t *l, const ucmpi_group_t *g);
int ucmpi_group_lookup(const ucmpi_group_lookup_t *l, int world);
void ucmpi_group_lookup_fini(ucmpi_group_lookup_t *l);
int ucmpi_range_count(const int r[3]);
ucmpi_group_t *ucmpi_group_incl(const ucmpi_group_t *g, int n,
                                const int *ranks);
ucmpi_group_t *ucmpi_group_excl(const ucmpi_group_t *g, int n,
                                const int *ranks);
ucmpi_group_t *ucmpi_group_range_incl(const ucmpi_group_t *g, int n,
                                      int ranges[][3]);
ucmpi_group_t *ucmpi_group_range_excl(const ucmpi_group_t *g, int n,
                                      int ranges[][3]);
enum { UCMPI_GROUP_UNION, UCMPI_GROUP_INTERSECTION, UCMPI_GROUP_DIFFERENCE };
ucmpi_group_t *ucmpi_group_combine(const ucmpi_group_t *a,
                                   const ucmpi_group_t *b, int op);
int ucmpi_group_translate(const ucmpi_group_t *a, int n, const int *ranks_a,
                          const ucmpi_group_t *b, int *ranks_b);
int ucmpi_group_compare(const ucmpi_group_t *a, const ucmpi_group_t *b);
/* MPI_SUCCESS or the code from ucmpi_error() for an invalid group. */
int ucmpi_check_group(MPI_Group g, MPI_Comm err_comm,
                      const char *argname);

/* ---- blocking helper collectives (comm_coll.c) ---- */
typedef struct {
    ucmpi_comm_t *comm;       /* carries the messages */
    int sub, tag;             /* sub-context and tag of this operation */
    int size, rank;           /* participants, and my index among them */
    const int *map;           /* participant -> comm rank; NULL: identity */
} ucmpi_cc_t;
/* Whole intracomm (or an intercomm's local comm) on UCMPI_CTX_COLL with a
 * fresh collective tag: every member must call it in the same order. */
void ucmpi_cc_init(ucmpi_cc_t *cc, ucmpi_comm_t *comm);
int ucmpi_cc_allgather(const ucmpi_cc_t *cc, const void *in, void *out,
                       size_t bytes);
int ucmpi_cc_allreduce_band(const ucmpi_cc_t *cc, uint64_t *mask, int words);
/* Both at once: allgather `bytes` per participant into out and AND
 * `words` words of mask (either may be 0), in log2(size) (+2) rounds. */
int ucmpi_cc_allgather_band(const ucmpi_cc_t *cc, const void *in, void *out,
                            size_t bytes, uint64_t *mask, int words);
int ucmpi_cc_allreduce_sum(const ucmpi_cc_t *cc, int *v, int n);
/* Barrier that keeps sending after a failed round (dead peers). */
int ucmpi_cc_barrier(const ucmpi_cc_t *cc);
/* Allgather of len bytes per participant with every pair exchanging
 * directly: a failed peer loses only its own block. */
int ucmpi_cc_allgather_direct(const ucmpi_cc_t *cc, const void *mine,
                              void *all, size_t len);
/* The leaders' link of a two-group exchange: participant `leader` of the
 * local channel swaps with rank `to` of comm on sub-context sub and tag. */
typedef struct {
    ucmpi_comm_t *comm;
    int sub, tag, leader, to;
} ucmpi_cc_link_t;
/* The leader swaps sbuf for rbuf over the link, then cc broadcasts rbuf
 * from the leader: every member gets the other group's data. */
int ucmpi_cc_swap_bcast(const ucmpi_cc_t *cc, const ucmpi_cc_link_t *l,
                        const void *sbuf, size_t sbytes, void *rbuf,
                        size_t rbytes);

/* ---- context ids (comm_ctx.c) ---- */
#define UCMPI_CTX_IDS 4096    /* < 2^16: the tag keeps 18 bits for ctx*4+sub */
#define UCMPI_CTX_WORDS (UCMPI_CTX_IDS / 64)
#define UCMPI_CTX_MAX_EXTRA 4
void ucmpi_ctx_release(uint32_t id);
/* n ids free on every participant of cc, reserved locally. */
int ucmpi_ctx_agree(const ucmpi_cc_t *cc, int n, uint32_t *ids);
/* The same, allgathering `bytes` from each participant into out with the
 * first round (MPI_Comm_split's colours and keys: one pass, not two). */
int ucmpi_ctx_agree_gather(const ucmpi_cc_t *cc, int n, uint32_t *ids,
                           const void *in, void *out, size_t bytes);
/* A round's buffer: free mask, an all-real flag word and the stamp word. */
#define UCMPI_CTX_ROUND_WORDS (UCMPI_CTX_WORDS + 2)
/* Stamp of the communicator that took id (same on all members, never reused
 * for an id here): tells its messages from an earlier holder's. */
uint64_t ucmpi_ctx_stamp(uint32_t id);
/* Nonblocking agreement over c (both groups of an intercomm): complete(rc, ids,
 * arg) runs from progress once the ids are agreed and reserved. */
int ucmpi_ctx_agree_nb(ucmpi_comm_t *c, int n,
                       void (*complete)(int rc, const uint32_t *ids,
                                        void *arg),
                       void *arg);
/* Same over both groups of an intercomm; exchanges nx (<= 4) extra ints
 * between the groups (x: this group's, the same on all members). */
int ucmpi_ctx_agree_inter(ucmpi_comm_t *inter, int n, uint32_t *ids,
                          const int *x, int *rx, int nx);
/* The same with the leaders' link given (MPI_Intercomm_create's peer_comm)
 * and key naming the agreement. */
int ucmpi_ctx_agree_link(const ucmpi_cc_t *cc, const ucmpi_cc_link_t *l,
                         uint64_t key, int n, uint32_t *ids, const int *x,
                         int *rx, int nx);

/* ULFM's shrink: the free ids and ~epoch this process offers; taking the
 * id agreed (0, or -1 when it is no longer free here). */
void ucmpi_ctx_offer(uint64_t *mask, uint64_t *not_epoch);
int ucmpi_ctx_take(uint32_t id, uint64_t not_epoch);

/* ---- communicator construction (comm_create.c) ---- */
/* New comm owning a reference to each group (remote NULL: intra), context ctx,
 * parent's handler; NULL when out of memory (references dropped). */
ucmpi_comm_t *ucmpi_comm_build(ucmpi_group_t *group, ucmpi_group_t *remote,
                               uint32_t ctx, ucmpi_comm_t *parent);
/* MPI_Comm_free's and MPI_Comm_disconnect's checks: *comm is a valid
 * communicator the user may free (VERB: "freed", "disconnected"). */
int ucmpi_comm_check_freeable(MPI_Comm *comm,
                              const char *verb);
int ucmpi_comm_split_internal(ucmpi_comm_t *c, int color, int key,
                              ucmpi_comm_t **out);
/* Communicator over `group` (a subgroup of c: c's members that are not in
 * it get NULL); collective over c. */
int ucmpi_comm_create_internal(ucmpi_comm_t *c, ucmpi_group_t *group,
                               ucmpi_comm_t **out);
int ucmpi_check_intra(MPI_Comm comm);
/* Session handle valid (lib/core/session.c); reports MPI_ERR_SESSION. */
int ucmpi_check_session(MPI_Session s, const char *fn);
int ucmpi_comm_create_group_internal(MPI_Comm comm, MPI_Group group, int tag,
                                     MPI_Comm *newcomm, int *bad);
/* The hints of info a communicator keeps (mpi_* and ucmpi_* keys); NULL
 * for MPI_INFO_NULL or out of memory. */
MPI_Info ucmpi_comm_info_hints(MPI_Info info);

/* ---- fault tolerance (ulfm_state.c) ---- */
/* A new communicator exists here (revoke notices name it by ctx, stamp). */
void ucmpi_ulfm_comm_built(ucmpi_comm_t *c);
/* The context id ULFM's shrink agrees new ids on (never a communicator's). */
#define UCMPI_CTX_ULFM (UCMPI_CTX_IDS - 1)

/* ---- topologies (topo_*.c) ---- */
void ucmpi_topo_destroy(void *topo);
int ucmpi_topo_dup(ucmpi_comm_t *from, ucmpi_comm_t *to);

#endif
