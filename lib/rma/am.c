/* Target side of the active-message path: accumulates from origins that
 * cannot map the memory, dynamic-window put/get; a reply says it completed. */
#include "rma/rma.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t win_id;
    int32_t src;              /* origin world rank: where the reply goes */
    uint8_t kind, op;
    uint16_t type;
    uint32_t nsegs;
    uint64_t token;           /* origin's pending record */
    uint64_t raddr;           /* target address of displacement 0 + disp */
    uint64_t dlen;
} am_hdr_t;

typedef struct {
    uint64_t token;
    int32_t status;
    uint32_t pad;
    uint64_t dlen;
} am_reply_t;

typedef struct {
    ucmpi_win_t *win;
    void *result;
    MPI_Count rcount;
    MPI_Datatype rtype;
    ucmpi_rma_cnt_t *cnt;
} am_pending_t;

/* Is [addr, addr+len) inside memory the window exposes? */
static bool in_window(ucmpi_win_t *win, uint64_t addr, uint64_t len)
{
    if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC) {
        uint64_t b = (uint64_t)(uintptr_t)win->base;
        return addr >= b && len <= (uint64_t)win->win_size &&
               addr - b <= (uint64_t)win->win_size - len;
    }
    /* a run may span adjacent attached regions */
    while (len > 0) {
        ucmpi_rma_region_t *r = win->regions;
        while (r != NULL && !(addr >= r->base && addr - r->base < r->size))
            r = r->next;
        if (r == NULL)
            return false;
        uint64_t here = r->size - (addr - r->base);
        if (here >= len)
            return true;
        addr += here;
        len -= here;
    }
    return true;
}

static int execute(ucmpi_win_t *win, const am_hdr_t *h,
                   const ucmpi_rma_seg_t *segs, const char *data, char *out)
{
    MPI_Op op = ucmpi_rma_op_of(h->op);
    MPI_Datatype basic = ucmpi_rma_type_of(h->type);
    uint64_t pos = 0;

    bool acc = h->kind == UCMPI_RMA_AM_ACC || h->kind == UCMPI_RMA_AM_GACC;
    for (uint32_t i = 0; i < h->nsegs; i++)
        if (!in_window(win, h->raddr + segs[i].off,
                       acc && basic != MPI_DATATYPE_NULL
                           ? ucmpi_rma_span(basic, segs[i].len)
                           : segs[i].len))
            return MPI_ERR_RMA_RANGE;
    if (h->kind == UCMPI_RMA_AM_CAS) {
        char *t = (char *)(uintptr_t)(h->raddr + segs[0].off);
        uint64_t n = segs[0].len;
        return ucmpi_rma_cas_run(win->acc_lock, n, data, data + n, t, out);
    }
    for (uint32_t i = 0; i < h->nsegs; i++) {
        char *t = (char *)(uintptr_t)(h->raddr + segs[i].off);
        uint64_t n = segs[i].len;
        switch (h->kind) {
        case UCMPI_RMA_AM_PUT:
            memcpy(t, data + pos, n);
            break;
        case UCMPI_RMA_AM_GET:
            memcpy(out + pos, t, n);
            break;
        case UCMPI_RMA_AM_GACC:
        case UCMPI_RMA_AM_ACC:
            if (op != MPI_OP_NULL && basic != MPI_DATATYPE_NULL) {
                int rc = ucmpi_rma_acc_run(win->acc_lock, op, basic,
                                           op == MPI_NO_OP ? NULL
                                                           : data + pos,
                                           t, h->kind == UCMPI_RMA_AM_GACC
                                                  ? out + pos : NULL, n);
                if (rc != MPI_SUCCESS)
                    return rc;
            } else if (h->kind == UCMPI_RMA_AM_GACC)
                memcpy(out + pos, t, n);
            break;
        }
        pos += n;
    }
    return MPI_SUCCESS;
}

static void on_request(const void *msg, size_t len)
{
    const am_hdr_t *h = msg;
    const ucmpi_rma_seg_t *segs = (const void *)(h + 1);
    const char *data = (const char *)(segs + h->nsegs);
    ucmpi_win_t *win = ucmpi_rma_win_lookup(h->win_id);
    uint64_t rlen = 0;

    if (h->kind == UCMPI_RMA_AM_GET || h->kind == UCMPI_RMA_AM_GACC ||
        h->kind == UCMPI_RMA_AM_CAS)
        for (uint32_t i = 0; i < h->nsegs; i++)
            rlen += segs[i].len;
    am_reply_t *r = malloc(sizeof(*r) + rlen);
    if (r == NULL)
        return;   /* the origin waits forever: nothing better to do */
    r->token = h->token;
    r->pad = 0;
    r->status = win == NULL ? MPI_ERR_WIN
                            : execute(win, h, segs, data, (char *)(r + 1));
    r->dlen = r->status == MPI_SUCCESS ? rlen : 0;
    ucmpi_rma_am_send(h->src, UCMPI_RMA_MSG_REPLY, r, sizeof(*r) + r->dlen,
                      NULL);
    (void)len;
}

static void on_reply(const void *msg, size_t len)
{
    const am_reply_t *r = msg;
    am_pending_t *p = (am_pending_t *)(uintptr_t)r->token;

    if (r->status == MPI_SUCCESS && p->result != NULL && r->dlen > 0)
        ucmpi_dt_unpack(p->rtype, p->result, p->rcount, r + 1, r->dlen);
    if (r->status != MPI_SUCCESS && p->win->deferred_err == MPI_SUCCESS)
        p->win->deferred_err = r->status;
    if (p->rtype != MPI_DATATYPE_NULL)
        ucmpi_dt_release(p->rtype);
    ucmpi_rma_cnt_sub(p->cnt, r->status);
    free(p);
    (void)len;
}

int ucmpi_rma_am_setup(void)
{
    static int done;
    if (done)
        return MPI_SUCCESS;
    int rc = ucmpi_rma_am_set_handler(UCMPI_RMA_MSG_REQUEST, on_request);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_rma_am_set_handler(UCMPI_RMA_MSG_REPLY, on_reply);
    done = rc == MPI_SUCCESS;
    return rc;
}

int ucmpi_rma_am_issue(ucmpi_win_t *win, const ucmpi_rma_am_op_t *op)
{
    ucmpi_rma_peer_t *peer = &win->peers[op->target];
    size_t slen = op->nsegs * sizeof(ucmpi_rma_seg_t);
    size_t mlen = sizeof(am_hdr_t) + slen + op->dlen;
    am_hdr_t *h = malloc(mlen);
    am_pending_t *p = malloc(sizeof(*p));

    if (h == NULL || p == NULL) {
        free(h);
        free(p);
        return MPI_ERR_NO_MEM;
    }
    *p = (am_pending_t){win, op->result, op->rcount, op->rtype,
                        op->req_cnt ? op->req_cnt : &peer->cnt};
    if (op->result != NULL)
        ucmpi_dt_retain(op->rtype);
    else
        p->rtype = MPI_DATATYPE_NULL;
    *h = (am_hdr_t){
        .win_id = peer->win_id, .src = ucmpi_global.world_rank,
        .kind = (uint8_t)op->kind,
        .op = (uint8_t)(op->op != MPI_OP_NULL ? ucmpi_rma_op_id(op->op) : 0),
        .type = (uint16_t)(op->basic != MPI_DATATYPE_NULL
                               ? ucmpi_rma_type_id(op->basic) : 0),
        .nsegs = (uint32_t)op->nsegs, .token = (uint64_t)(uintptr_t)p,
        .raddr = op->raddr, .dlen = op->dlen};
    memcpy(h + 1, op->segs, slen);
    if (op->dlen > 0)
        memcpy((char *)(h + 1) + slen, op->data, op->dlen);
    ucmpi_rma_cnt_add(p->cnt);
    int rc = ucmpi_rma_am_send(peer->world, UCMPI_RMA_MSG_REQUEST, h, mlen, NULL);
    if (rc != MPI_SUCCESS) {
        if (p->rtype != MPI_DATATYPE_NULL)
            ucmpi_dt_release(p->rtype);
        ucmpi_rma_cnt_sub(p->cnt, rc);
        free(p);
    }
    return rc;
}
