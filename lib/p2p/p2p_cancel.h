/* Cancelling sends through the receiver's stash; the protocol and its
 * MPI_THREAD_MULTIPLE guards: docs/architecture.md, "lib/p2p internals". */
#ifndef UCMPI_P2P_CANCEL_H
#define UCMPI_P2P_CANCEL_H

#include "p2p/request.h"

/* req->p2p.cancel */
enum { UCMPI_CANCEL_NONE, UCMPI_CANCEL_PENDING, UCMPI_CANCEL_DONE };

/* Body of both active messages (request and reply). */
typedef struct {
    uint64_t req_id;          /* the sender's request */
    uint64_t tag;             /* UCP tag of the message, sync bit included */
    uint64_t len;             /* its packed length */
    int32_t sender;           /* world rank of the sender */
    int32_t cancelled;        /* reply: the receiver dropped the message */
} ucmpi_cancel_msg_t;

/* Point-to-point sends to each world rank so far (index = world rank). */
extern uint32_t *ucmpi_p2p_peer_seq __attribute__((visibility("hidden")));
/* Messages in the stash: receives and probes look there first. */
extern int ucmpi_p2p_stash_n __attribute__((visibility("hidden")));

/* MPI_THREAD_MULTIPLE guards (docs/architecture.md). */
extern int ucmpi_p2p_stash_guard, ucmpi_p2p_recv_posting;
extern int ucmpi_p2p_cancelling;

/* ucmpi_p2p_next_seq under MPI_THREAD_MULTIPLE (lib/p2p/p2p_cancel.c). */
uint32_t ucmpi_p2p_next_seq_mt(int world);

/* Numbers a user send to world rank `world` (the newest is cancellable). */
static inline uint32_t ucmpi_p2p_next_seq(int world)
{
    if (ucmpi_global.thread_level == MPI_THREAD_MULTIPLE)
        return ucmpi_p2p_next_seq_mt(world);
    return ++ucmpi_p2p_peer_seq[world];
}

static inline void ucmpi_p2p_number_send(ucmpi_request_t *r)
{
    r->p2p.seq = ucmpi_p2p_next_seq(r->p2p.world_peer);
}

/* Look at the stash and post between enter and exit.  NONE: it must lock but
 * may not (a blocking direct receive then takes its request path). */
enum { UCMPI_RECV_NONE = -1, UCMPI_RECV_FREE, UCMPI_RECV_COUNTED,
       UCMPI_RECV_LOCKED };

static inline int ucmpi_p2p_recv_enter(int may_lock)
{
    if (ucmpi_global.thread_level != MPI_THREAD_MULTIPLE)
        return UCMPI_RECV_FREE;
    __atomic_add_fetch(&ucmpi_p2p_recv_posting, 1, __ATOMIC_SEQ_CST);
    if (!__atomic_load_n(&ucmpi_p2p_stash_guard, __ATOMIC_SEQ_CST))
        return UCMPI_RECV_COUNTED;
    __atomic_sub_fetch(&ucmpi_p2p_recv_posting, 1, __ATOMIC_SEQ_CST);
    if (!may_lock)
        return UCMPI_RECV_NONE;
    ucmpi_lock();
    return UCMPI_RECV_LOCKED;
}

static inline void ucmpi_p2p_recv_exit(int how)
{
    if (how == UCMPI_RECV_COUNTED)
        __atomic_sub_fetch(&ucmpi_p2p_recv_posting, 1, __ATOMIC_SEQ_CST);
    else if (how == UCMPI_RECV_LOCKED)
        ucmpi_unlock();
}

/* lib/p2p/p2p_cancel.c */
int ucmpi_p2p_cancel_init(void);
void ucmpi_p2p_cancel_finalize(void);
/* Asks the receiver to drop r's message; r completes once it answered. */
void ucmpi_p2p_cancel_send(ucmpi_request_t *r);
/* A receive of (tag, mask) takes the oldest matching stashed message:
 * 1 when it did (the receive is started on it). */
int ucmpi_p2p_stash_recv(ucmpi_request_t *r, uint64_t tag, uint64_t mask);
/* Probe of the stash, like ucmpi_ucx_tag_probe. */
int ucmpi_p2p_stash_probe(uint64_t tag, uint64_t mask, int remove,
                          uint64_t *sender_tag, size_t *len, void **msg);
/* Waiting loops: a cancel whose receiver died ends (not cancelled). */
void ucmpi_p2p_cancel_check_peer(ucmpi_request_t *r);


#endif
