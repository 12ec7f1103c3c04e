/* UCX glue shared inside lib/ucp_glue/ (the only place that sees UCP types).
 * The rest of lib/ uses the UCX-free services declared in ucx.h and rma.h. */
#ifndef UCMPI_GLUE_H
#define UCMPI_GLUE_H

#include <ucp/api/ucp.h>
#include "ucx.h"

typedef struct {
    ucp_context_h context;
    ucp_worker_h worker;
    ucp_ep_h *eps;            /* [proc_cap], created on first use */
    void **addrs;             /* [proc_cap]: addresses of other jobs' peers */
    size_t *addr_lens;
    int multi_thread;
    int *peer_failed;         /* [proc_cap]: UCX reported the peer dead */
    size_t req_size;          /* bytes UCX needs in front of a request the
                                 caller provides (UCP_OP_ATTR_FIELD_REQUEST) */
    int own_ok;               /* req_size fits UCMPI_UCX_REQ_ROOM, and the
                                 callbacks run in the posting thread */
} ucmpi_ucx_t;

extern ucmpi_ucx_t ucmpi_ucx __attribute__((visibility("hidden"))); /* no GOT */
/* What ucmpi_ucx_init was told. */
extern ucmpi_ucx_params_t ucmpi_ucx_params __attribute__((visibility("hidden")));

/* World rank r runs on this node. */
static inline int ucmpi_ucx_peer_local(int r)
{
    const int *node = ucmpi_ucx_params.node_of;
    return node != NULL && node[r] == node[ucmpi_ucx_params.world_rank];
}

/* World rank r is known dead: UCX said so, or the layer above did. */
static inline int ucmpi_ucx_peer_down(int r)
{
    return (ucmpi_ucx.peer_failed != NULL && ucmpi_ucx.peer_failed[r]) ||
           ucmpi_ucx_params.peer_failed(r);
}

/* Endpoint to world rank `r`, created on first use; NULL if the peer is
 * unreachable (an error has then been reported). */
ucp_ep_h ucmpi_ucx_ep_create(int r);
static inline ucp_ep_h ucmpi_ucx_ep(int r)
{
    ucp_ep_h ep = __atomic_load_n(&ucmpi_ucx.eps[r], __ATOMIC_ACQUIRE);
    return __builtin_expect(ep != NULL, 1) ? ep : ucmpi_ucx_ep_create(r);
}

/* UCX reported world rank r dead. */
static inline int ucmpi_ucx_peer_dead(int r)
{
    return ucmpi_ucx.peer_failed != NULL && ucmpi_ucx.peer_failed[r];
}

/* The layer above's code for outcome e (UCMPI_UCX_E_*), and for a UCX
 * completion status (0, UCMPI_UCX_CANCELED or an error code; tag.c). */
static inline int ucmpi_ucx_err(int e)
{
    return ucmpi_ucx_params.errors[e];
}
int ucmpi_ucx_code(ucs_status_t st);

/* Malloc'd copy of world rank r's worker address (modex or peer_add). */
int ucmpi_ucx_addr_of(int r, void **addr, size_t *len);

/* Endpoint for one-sided traffic to world rank r (rma_ep.c), or NULL. */
ucp_ep_h ucmpi_rma_ep(int r);
/* Starts closing it for good (r will name another process): the close
 * request to wait for, or NULL. */
void *ucmpi_rma_ep_drop(int r, int force);

/* Huge pages under reused on-node buffers (hugepage.c): contiguous transfers
 * of min bytes or more (SIZE_MAX: off; world_src < 0: any source). */
extern size_t ucmpi_ucx_hugepage_min __attribute__((visibility("hidden")));
void ucmpi_ucx_hugepage_init(void);
void ucmpi_ucx_hugepage_send(int world_dest, const void *buf, size_t len);
void ucmpi_ucx_hugepage_recv(int world_src, const void *buf, size_t len);


#endif
