/* Requests: what every nonblocking operation hands back. */
#ifndef UCMPI_P2P_REQUEST_H
#define UCMPI_P2P_REQUEST_H

#include "comm/comm.h"
#include "ucp_glue/ucx.h"

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
    /* a failed request's reason as the blocking call would say it, into
     * buf[n]; 0 when it has none (e.g. a collective's: lib/coll) */
    int (*why)(struct ucmpi_request_s *req, char *buf, size_t n);
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
/* Called now and then by waiting loops: fails a receive from a dead peer. */
void ucmpi_request_check_peer(ucmpi_request_t *req);

#endif
