/* Endpoints, made on first use (memory grows with the peers used); peer error
 * mode turns a dead peer into an error; finalize closes without waiting. */
#include "glue.h"
#include "ucx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void ep_error_cb(void *arg, ucp_ep_h ep, ucs_status_t status)
{
    int r = (int)(intptr_t)arg;

    /* only record: no progress or sends inside a UCX callback */
    if (ucmpi_ucx.peer_failed != NULL)
        ucmpi_ucx.peer_failed[r] = 1;
}

int ucmpi_ucx_peer_failed(int r)
{
    return ucmpi_ucx.peer_failed != NULL && ucmpi_ucx.peer_failed[r];
}

/* UCX's peer error handling excludes every shm transport: on-node peers use
 * none (their death is seen from the pid, lib/core/failure.c). */
static ucp_err_handling_mode_t error_mode(int r)
{
    if (ucmpi_ucx_peer_local(r))
        return UCP_ERR_HANDLING_MODE_NONE;
    return UCP_ERR_HANDLING_MODE_PEER;
}

static ucp_ep_h ep_create(int r)
{
    ucp_ep_params_t ep = {0};
    ucp_ep_h h;
    void *addr = NULL;
    size_t len = 0;
    ucs_status_t st;

    if (ucmpi_ucx.eps[r] != NULL)
        return ucmpi_ucx.eps[r];
    if (ucmpi_ucx.peer_failed == NULL)
        ucmpi_ucx.peer_failed = calloc((size_t)ucmpi_ucx_params.proc_cap,
                                       sizeof(int));
    /* a dead peer's shared memory is gone: connecting would only make UCX
     * print errors; the caller reports MPI_ERR_PROC_FAILED */
    if (ucmpi_ucx_peer_down(r) || ucmpi_ucx_addr_of(r, &addr, &len) != 0)
        return NULL;
    ep.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS |
                    UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE |
                    UCP_EP_PARAM_FIELD_ERR_HANDLER;
    ep.address = addr;
    ep.err_mode = error_mode(r);
    ep.err_handler.cb = ep_error_cb;
    ep.err_handler.arg = (void *)(intptr_t)r;
    st = ucp_ep_create(ucmpi_ucx.worker, &ep, &h);
    free(addr);
    if (st != UCS_OK) {
        if (ucmpi_ucx_peer_down(r))
            return NULL;
        fprintf(stderr, "ucmpi: rank %d: cannot connect to rank %d: %s\n",
                ucmpi_ucx_params.world_rank, r, ucs_status_string(st));
        return NULL;
    }
    __atomic_store_n(&ucmpi_ucx.eps[r], h, __ATOMIC_RELEASE);
    return h;
}

int ucmpi_ucx_addr_of(int r, void **addr, size_t *len)
{
    if (r < ucmpi_ucx_params.world_size)
        return ucmpi_ucx_params.lookup(r, addr, len);
    if (r >= ucmpi_ucx_params.proc_cap || ucmpi_ucx.addrs == NULL ||
        ucmpi_ucx.addrs[r] == NULL)
        return -1;
    *addr = malloc(ucmpi_ucx.addr_lens[r]);
    if (*addr == NULL)
        return -1;
    memcpy(*addr, ucmpi_ucx.addrs[r], ucmpi_ucx.addr_lens[r]);
    *len = ucmpi_ucx.addr_lens[r];
    return 0;
}

int ucmpi_ucx_peer_address(int r, void **addr, size_t *len)
{
    if (r < 0 || r >= ucmpi_ucx_params.proc_cap)
        return -1;
    return ucmpi_ucx_addr_of(r, addr, len);
}

/* Under the big lock (connects of several threads). */
int ucmpi_ucx_peer_add(int r, const void *addr, size_t len)
{
    int n = ucmpi_ucx_params.proc_cap, rc = -1;
    void *copy = malloc(len);

    if (copy == NULL || r < ucmpi_ucx_params.world_size || r >= n)
        goto out;
    memcpy(copy, addr, len);
    ucmpi_ucx_params.lock();
    if (ucmpi_ucx.addrs == NULL) {
        ucmpi_ucx.addrs = calloc((size_t)n, sizeof(void *));
        ucmpi_ucx.addr_lens = calloc((size_t)n, sizeof(size_t));
    }
    if (ucmpi_ucx.addrs != NULL && ucmpi_ucx.addr_lens != NULL &&
        ucmpi_ucx.addrs[r] == NULL) {
        ucmpi_ucx.addrs[r] = copy;
        ucmpi_ucx.addr_lens[r] = len;
        copy = NULL;
        rc = 0;
    }
    ucmpi_ucx_params.unlock();
out:
    free(copy);
    return rc;
}

/* Force-close requests of endpoints to peers that died (ucmpi_ucx_peer_gone),
 * finished at finalize. */
static void **gone_closes;

/* Waits (progressing) for an endpoint's close; one that takes longer than
 * a few seconds (a peer gone without UCX noticing) is left to finalize. */
static void **late_closes;
static int nlate;

static void close_wait(void *q)
{
    unsigned long turns = 0;

    if (!UCS_PTR_IS_PTR(q))
        return;
    while (ucp_request_check_status(q) == UCS_INPROGRESS && turns < 200000) {
        if (ucmpi_ucx_params.progress() == 0)
            turns++;
    }
    if (ucp_request_check_status(q) != UCS_INPROGRESS) {
        ucp_request_free(q);
        return;
    }
    ucmpi_ucx_params.lock();
    void **l = realloc(late_closes, (size_t)(nlate + 1) * sizeof(void *));
    if (l != NULL) {
        late_closes = l;
        late_closes[nlate++] = q;
    }
    ucmpi_ucx_params.unlock();
}

int ucmpi_ucx_peer_remove(int r, int force)
{
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS};
    void *q = NULL, *gone = NULL;

    if (r < ucmpi_ucx_params.world_size || r >= ucmpi_ucx_params.proc_cap)
        return -1;
    ucmpi_ucx_params.lock();
    ucp_ep_h ep = ucmpi_ucx.eps[r];
    __atomic_store_n(&ucmpi_ucx.eps[r], NULL, __ATOMIC_RELEASE);
    if (ucmpi_ucx.peer_failed != NULL && ucmpi_ucx.peer_failed[r])
        force = 1;
    if (ep != NULL) {
        p.flags = force ? UCP_EP_CLOSE_FLAG_FORCE : 0;
        q = ucp_ep_close_nbx(ep, &p);
    }
    if (gone_closes != NULL) {
        gone = gone_closes[r];
        gone_closes[r] = NULL;
    }
    ucmpi_ucx_params.unlock();
    void *rq = ucmpi_rma_ep_drop(r, force);
    close_wait(q);
    close_wait(gone);
    close_wait(rq);
    ucmpi_ucx_params.lock();
    if (ucmpi_ucx.addrs != NULL) {
        free(ucmpi_ucx.addrs[r]);
        ucmpi_ucx.addrs[r] = NULL;
        ucmpi_ucx.addr_lens[r] = 0;
    }
    if (ucmpi_ucx.peer_failed != NULL)
        ucmpi_ucx.peer_failed[r] = 0;
    ucmpi_ucx_params.unlock();
    return 0;
}

/* Under the big lock: two threads' first sends to one peer must not make
 * two endpoints (later messages could overtake the first). */
ucp_ep_h ucmpi_ucx_ep_create(int r)
{
    ucmpi_ucx_params.lock();
    ucp_ep_h h = ep_create(r);
    ucmpi_ucx_params.unlock();
    return h;
}


/* World rank r died (seen from its pid): FORCE-close its endpoint for good, so
 * later operations fail at once; ucmpi_ucx_send_abandon ends held sends. */
void ucmpi_ucx_peer_gone(int r)
{
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
                             .flags = UCP_EP_CLOSE_FLAG_FORCE};

    ucmpi_ucx_params.lock();
    if (ucmpi_ucx.peer_failed != NULL && !ucmpi_ucx.peer_failed[r]) {
        ucmpi_ucx.peer_failed[r] = 1;
        ucp_ep_h ep = ucmpi_ucx.eps[r];
        if (gone_closes == NULL)
            gone_closes = calloc((size_t)ucmpi_ucx_params.proc_cap,
                                 sizeof(void *));
        if (ep != NULL && gone_closes != NULL) {
            __atomic_store_n(&ucmpi_ucx.eps[r], NULL, __ATOMIC_RELEASE);
            void *q = ucp_ep_close_nbx(ep, &p);
            if (UCS_PTR_IS_PTR(q))
                gone_closes[r] = q;
        }
    }
    ucmpi_ucx_params.unlock();
}

static void wait_and_free(void **reqs, int n)
{
    for (int r = 0; r < n && reqs; r++) {
        if (reqs[r] == NULL)
            continue;
        while (ucp_request_check_status(reqs[r]) == UCS_INPROGRESS)
            ucp_worker_progress(ucmpi_ucx.worker);
        ucp_request_free(reqs[r]);
    }
    free(reqs);
}

/* Close every endpoint, flushing; a bounded number of progress rounds,
 * then forcing, keeps departed peers from hanging it. */
void ucmpi_ucx_close_eps(void)
{
    int n = ucmpi_ucx_params.proc_cap;
    void **reqs = calloc((size_t)n, sizeof(void *));
    ucp_request_param_t p = {0};

    p.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    for (int r = 0; r < n && reqs; r++) {
        if (ucmpi_ucx.eps[r] == NULL)
            continue;
        p.flags = ucmpi_ucx_peer_down(r) ? UCP_EP_CLOSE_FLAG_FORCE : 0;
        void *q = ucp_ep_close_nbx(ucmpi_ucx.eps[r], &p);
        if (UCS_PTR_IS_PTR(q))
            reqs[r] = q;
        ucmpi_ucx.eps[r] = NULL;
    }
    wait_and_free(reqs, n);
    wait_and_free(gone_closes, n);
    gone_closes = NULL;
    wait_and_free(late_closes, nlate);
    late_closes = NULL;
    nlate = 0;
    free(ucmpi_ucx.peer_failed);
    ucmpi_ucx.peer_failed = NULL;
}
