/* Put and get, plain and request-based, and the shared origin-side checks.
 * Dynamic windows go by active message (the target checks attached regions). */
#include "rma/rma.h"
#include "rma/rma_stats.h"

#include <stdlib.h>
#include <string.h>

ucmpi_rma_stats_t ucmpi_rma_stats;

static void ctx_drained(ucmpi_rma_cnt_t *c)
{
    ucmpi_rma_ctx_t *x = UCMPI_CONTAINER_OF(c, ucmpi_rma_ctx_t, cnt);
    if (x->dst != NULL && c->status == MPI_SUCCESS)
        ucmpi_dt_unpack(x->dt, x->dst, x->count, x->bounce, x->bytes);
    if (x->dt != MPI_DATATYPE_NULL)
        ucmpi_dt_release(x->dt);
    free(x->bounce);
    if (x->req != NULL) {
        x->req->status.MPI_ERROR = c->status;
        ucmpi_request_set_complete(x->req);
    }
    free(x);
}

int ucmpi_rma_ctx_new(ucmpi_win_t *win, int target, MPI_Request *req,
                      ucmpi_rma_ctx_t **ctx)
{
    ucmpi_rma_ctx_t *x = calloc(1, sizeof(*x));
    if (x == NULL)
        return MPI_ERR_NO_MEM;
    x->cnt.parent = target >= 0 ? &win->peers[target].cnt : &win->all;
    x->cnt.drained = ctx_drained;
    if (req != NULL) {
        x->req = ucmpi_request_alloc(UCMPI_REQ_RMA, NULL);
        if (x->req == NULL) {
            free(x);
            return MPI_ERR_NO_MEM;
        }
        x->req->status = (MPI_Status){.MPI_SOURCE = MPI_ANY_SOURCE,
                                      .MPI_TAG = MPI_ANY_TAG};
        *req = x->req;
    }
    ucmpi_rma_cnt_add(&x->cnt);
    *ctx = x;
    return MPI_SUCCESS;
}

void ucmpi_rma_ctx_issued(ucmpi_rma_ctx_t *ctx, int rc)
{
    ucmpi_rma_cnt_sub(&ctx->cnt, rc);
}

static bool group_has(const ucmpi_group_t *g, int world)
{
    for (int i = 0; g != NULL && i < g->size; i++)
        if (ucmpi_group_world(g, i) == world)
            return true;
    return false;
}

/* Checks that an RMA call may access target now (epoch, lock). */
static int check_epoch(ucmpi_win_t *win, int target, const char *fn)
{
    switch (win->access) {
    case UCMPI_EPOCH_FENCE:
        __atomic_add_fetch(&win->fence_ops, 1, __ATOMIC_RELAXED);
        return MPI_SUCCESS;
    case UCMPI_EPOCH_LOCK_ALL:
        return MPI_SUCCESS;
    case UCMPI_EPOCH_PSCW:
        if (group_has(win->start_group, win->peers[target].world))
            return MPI_SUCCESS;
        return ucmpi_err_win(win, MPI_ERR_RMA_SYNC, fn,
                             "target %d is not in the group of MPI_Win_start",
                             target);
    case UCMPI_EPOCH_LOCK:
        if (win->peers[target].lock != 0)
            return MPI_SUCCESS;
        return ucmpi_err_win(win, MPI_ERR_RMA_SYNC, fn,
                             "target %d is not locked", target);
    default:
        return ucmpi_err_win(win, MPI_ERR_RMA_SYNC, fn,
                             "no access epoch is open (fence, start or "
                             "lock first)");
    }
}

int ucmpi_rma_check_buf(ucmpi_win_t *win, const char *fn, const char *what,
                        const void *buf, MPI_Count count, MPI_Datatype dt)
{
    const char *why;
    if (count < 0)
        return ucmpi_err_win(win, MPI_ERR_COUNT, fn, "%s count %lld is negative",
                             what, (long long)count);
    int rc = ucmpi_dt_check(dt, 1, &why);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_win(win, rc, fn, "%s datatype: %s", what, why);
    (void)buf;
    return MPI_SUCCESS;
}

int ucmpi_rma_target_prep(ucmpi_win_t *win, const char *fn, int target,
                          MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype,
                          ucmpi_rma_target_t *t)
{
    memset(t, 0, sizeof(*t));
    if (target == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (target < 0 || target >= win->size)
        return ucmpi_err_win(win, MPI_ERR_RANK, fn,
                             "target rank %d outside [0, %d)", target,
                             win->size);
    int rc = ucmpi_rma_check_buf(win, fn, "target", NULL, tcount, ttype);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_rma_peer_t *p = &win->peers[target];
    if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC && disp < 0)
        return ucmpi_err_win(win, MPI_ERR_DISP, fn,
                             "target_disp %ld is negative", (long)disp);
    if (ttype->contig && tcount > 0 && ttype->size > 0) {
        t->one = (ucmpi_rma_seg_t){ttype->true_lb,
                                   (uint64_t)(ttype->size * tcount)};
        t->segs = &t->one;
        t->nsegs = 1;
    } else {
        rc = ucmpi_rma_segs(ttype, tcount, &t->segs, &t->nsegs);
    }
    if (rc != MPI_SUCCESS)
        return ucmpi_err_win(win, rc, fn, "cannot map the target datatype");
    int64_t start = (int64_t)disp * p->disp_unit;
    for (size_t i = 0; i < t->nsegs; i++) {
        int64_t lo = start + t->segs[i].off;
        int64_t hi = lo + (int64_t)t->segs[i].len;
        t->bytes += t->segs[i].len;
        if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC &&
            (lo < 0 || hi > (int64_t)p->size)) {
            ucmpi_rma_target_free(t);
            return ucmpi_err_win(win, MPI_ERR_RMA_RANGE, fn,
                                 "bytes [%lld, %lld) outside the %llu-byte "
                                 "window of target %d", (long long)lo,
                                 (long long)hi, (unsigned long long)p->size,
                                 target);
        }
    }
    t->raddr = p->base + (uint64_t)start;
    if (p->local != NULL)
        t->local = p->local + start;
    rc = check_epoch(win, target, fn);
    if (rc != MPI_SUCCESS)
        ucmpi_rma_target_free(t);
    return rc;
}

/* Many small target runs: ship one message and let the target scatter
 * (or gather) them instead of one UCP transfer per run. */
static bool use_am(ucmpi_win_t *win, const ucmpi_rma_target_t *t)
{
    return win->flavor == MPI_WIN_FLAVOR_DYNAMIC ||
           (t->nsegs > 16 && t->bytes / t->nsegs < 512);
}

/* Origin data as one packed block: the buffer itself when contiguous. */
static int origin_packed(const void *buf, MPI_Count count, MPI_Datatype dt,
                         const void **data, void **copy)
{
    *copy = NULL;
    if (dt->contig) {
        *data = (const char *)buf + dt->true_lb;
        return MPI_SUCCESS;
    }
    size_t n = (size_t)(dt->size * count);
    *copy = malloc(n ? n : 1);
    if (*copy == NULL)
        return MPI_ERR_NO_MEM;
    ucmpi_dt_pack(dt, buf, count, *copy);
    *data = *copy;
    return MPI_SUCCESS;
}

/* UCP transfers towards target need a flush before they count as done
 * remotely; direct ones never do. */
static void mark_dirty(ucmpi_win_t *win, int target)
{
    win->peers[target].ucx_dirty = 1;
    win->ucx_dirty = 1;
}

static int direct_put(const void *buf, MPI_Count count, MPI_Datatype dt,
                      const ucmpi_rma_target_t *t)
{
    const void *data;
    void *copy;
    int rc = origin_packed(buf, count, dt, &data, &copy);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_rma_direct_put(data, t);
    free(copy);
    return rc;
}

static int direct_get(void *buf, MPI_Count count, MPI_Datatype dt,
                      const ucmpi_rma_target_t *t)
{
    if (dt->contig) {
        ucmpi_rma_direct_get((char *)buf + dt->true_lb, t);
        return MPI_SUCCESS;
    }
    void *bounce = malloc(t->bytes);
    if (bounce == NULL)
        return MPI_ERR_NO_MEM;
    ucmpi_rma_direct_get(bounce, t);
    ucmpi_dt_unpack(dt, buf, count, bounce, t->bytes);
    free(bounce);
    return MPI_SUCCESS;
}

/* Put (get false) or get between obuf and the target. */
static int xfer_locked(bool get, void *obuf, MPI_Count ocount,
                       MPI_Datatype otype, int target, MPI_Aint disp,
                       MPI_Count tcount, MPI_Datatype ttype, MPI_Win win,
                       MPI_Request *req, const char *fn)
{
    ucmpi_rma_target_t t;
    ucmpi_rma_ctx_t *ctx;
    const void *data;
    void *copy;

    int rc = ucmpi_rma_check_win(win, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_rma_check_buf(win, fn, "origin", obuf, ocount, otype);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_rma_target_prep(win, fn, target, disp, tcount, ttype, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    if (target != MPI_PROC_NULL &&
        (uint64_t)(otype->size * ocount) != t.bytes) {
        ucmpi_rma_target_free(&t);
        return ucmpi_err_win(win, MPI_ERR_TYPE, fn,
                             "origin has %lld bytes, target %llu",
                             (long long)(otype->size * ocount),
                             (unsigned long long)t.bytes);
    }
    if (t.local != NULL && req == NULL) {
        /* direct path: done when the copy is */
        rc = t.bytes == 0 ? MPI_SUCCESS
             : get        ? direct_get(obuf, ocount, otype, &t)
                          : direct_put(obuf, ocount, otype, &t);
        ucmpi_rma_target_free(&t);
        if (rc != MPI_SUCCESS)
            return ucmpi_err_win(win, rc, fn, "out of memory");
        return MPI_SUCCESS;
    }
    rc = ucmpi_rma_ctx_new(win, target == MPI_PROC_NULL ? -1 : target, req,
                           &ctx);
    if (rc != MPI_SUCCESS) {
        ucmpi_rma_target_free(&t);
        return ucmpi_err_win(win, rc, fn, "out of memory");
    }
    if (t.bytes == 0)
        goto done;
    if (t.local != NULL) {
        rc = get ? direct_get(obuf, ocount, otype, &t)
                 : direct_put(obuf, ocount, otype, &t);
        goto done;
    }
    if (get && use_am(win, &t)) {
        ucmpi_rma_am_op_t op = {
            .kind = UCMPI_RMA_AM_GET, .target = target, .op = MPI_OP_NULL,
            .basic = MPI_DATATYPE_NULL, .segs = t.segs, .nsegs = t.nsegs,
            .raddr = t.raddr, .result = obuf, .rcount = ocount,
            .rtype = otype, .req_cnt = &ctx->cnt};
        rc = ucmpi_rma_am_issue(win, &op);
        goto done;
    }
    char *dst = (char *)obuf + otype->true_lb;
    if (get && !otype->contig) {
        dst = ctx->bounce = malloc(t.bytes);
        if (dst == NULL) {
            rc = MPI_ERR_NO_MEM;
            goto done;
        }
        ctx->dst = obuf;
        ctx->dt = otype;
        ucmpi_dt_retain(otype);
        ctx->count = ocount;
        ctx->bytes = t.bytes;
    }
    if (!get) {
        rc = origin_packed(obuf, ocount, otype, &data, &copy);
        if (rc != MPI_SUCCESS)
            goto done;
        if (use_am(win, &t)) {
            ucmpi_rma_am_op_t op = {
                .kind = UCMPI_RMA_AM_PUT, .target = target,
                .op = MPI_OP_NULL, .basic = MPI_DATATYPE_NULL,
                .segs = t.segs, .nsegs = t.nsegs, .raddr = t.raddr,
                .data = data, .dlen = t.bytes, .req_cnt = &ctx->cnt};
            rc = ucmpi_rma_am_issue(win, &op);
            free(copy);
            goto done;
        }
        ctx->bounce = copy;   /* freed when the puts completed locally */
        dst = (char *)data;
    }
    mark_dirty(win, target);
    uint64_t pos = 0;
    for (size_t i = 0; i < t.nsegs && rc == MPI_SUCCESS; i++) {
        uint64_t raddr = t.raddr + t.segs[i].off;
        ucmpi_rma_rkey_t *rkey = win->peers[target].rkey;
        int world = win->peers[target].world;
        rc = get ? ucmpi_rma_get(world, dst + pos, t.segs[i].len, raddr, rkey,
                                 &ctx->cnt)
                 : ucmpi_rma_put(world, dst + pos, t.segs[i].len, raddr, rkey,
                                 &ctx->cnt);
        pos += t.segs[i].len;
    }
done:
    ucmpi_rma_target_free(&t);
    ucmpi_rma_ctx_issued(ctx, rc);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_win(win, ucmpi_rma_peer_err(win, target, rc), fn,
                             get ? "transfer from target %d failed"
                                 : "transfer to target %d failed", target);
    return MPI_SUCCESS;
}

static int check_passive(MPI_Win win, int target, const char *fn)
{
    int rc = ucmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (win->access != UCMPI_EPOCH_LOCK && win->access != UCMPI_EPOCH_LOCK_ALL)
        return ucmpi_err_win(win, MPI_ERR_RMA_SYNC, fn,
                             "request-based operations need a passive-target "
                             "epoch (lock or lock_all)");
    (void)target;
    return MPI_SUCCESS;
}

int ucmpi_rma_check_request_arg(MPI_Win win, int target, MPI_Request *req,
                                const char *fn)
{
    /* PROC_NULL targets need no epoch (they may follow a PROC_NULL lock) */
    int rc = target == MPI_PROC_NULL ? ucmpi_rma_check_win(win, fn)
                                     : check_passive(win, target, fn);
    if (rc == MPI_SUCCESS && req == NULL)
        rc = ucmpi_err_win(win, MPI_ERR_ARG, fn, "request argument is NULL");
    return rc;
}

/* The general paths touch shared state (counters, endpoints, the
 * window's lists): one thread at a time under MPI_THREAD_MULTIPLE. */
int ucmpi_rma_xfer_call(int how, const void *obuf, MPI_Count ocount,
                        MPI_Datatype otype, int target, MPI_Aint disp,
                        MPI_Count tcount, MPI_Datatype ttype, MPI_Win win,
                        MPI_Request *req, const char *fn)
{
    ucmpi_rma_stats.ops[how & UCMPI_RMA_GET ? UCMPI_RMA_STAT_GET
                                            : UCMPI_RMA_STAT_PUT]++;
    if (how & UCMPI_RMA_RFORM) {
        int rc = ucmpi_rma_check_request_arg(win, target, req, fn);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    ucmpi_lock();
    int rc = xfer_locked(how & UCMPI_RMA_GET, (void *)obuf, ocount, otype,
                         target, disp, tcount, ttype, win, req, fn);
    ucmpi_unlock();
    return rc;
}

static inline bool dt_simple(MPI_Datatype dt)
{
    return dt != MPI_DATATYPE_NULL && dt->magic == UCMPI_MAGIC_DATATYPE &&
           dt->committed && dt->contig;
}

/* The common direct-path call checked inline (a mapped target in range,
 * contiguous types, an epoch); anything else goes the general way. */
static inline char *fast_target(ucmpi_win_t *win, int target, MPI_Aint disp,
                                MPI_Count ocount, MPI_Datatype otype,
                                MPI_Count tcount, MPI_Datatype ttype,
                                size_t *len)
{
    if (!ucmpi_global.active ||
        !ucmpi_win_valid(win) || target < 0 || target >= win->size)
        return NULL;
    ucmpi_rma_peer_t *p = &win->peers[target];
    if (p->local == NULL || disp < 0 || ocount < 0 || tcount < 0 ||
        !dt_simple(otype) || !dt_simple(ttype))
        return NULL;
    uint64_t n = (uint64_t)(ttype->size * tcount);
    int64_t lo = (int64_t)disp * p->disp_unit + ttype->true_lb;
    if ((uint64_t)(otype->size * ocount) != n || lo < 0 ||
        (uint64_t)lo + n > p->size)
        return NULL;
    if (win->access == UCMPI_EPOCH_FENCE)
        __atomic_add_fetch(&win->fence_ops, 1, __ATOMIC_RELAXED);
    else if (win->access != UCMPI_EPOCH_LOCK_ALL &&
             !(win->access == UCMPI_EPOCH_LOCK && p->lock != 0))
        return NULL;
    *len = n;
    return p->local + lo;
}

#pragma weak MPI_Put = PMPI_Put
int PMPI_Put(const void *origin_addr, int origin_count,
             MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count,
             MPI_Datatype target_datatype, MPI_Win win)
{
    size_t n;
    char *t = fast_target(win, target_rank, target_disp, origin_count,
                          origin_datatype, target_count, target_datatype, &n);
    if (t != NULL) {
        ucmpi_rma_stats.ops[UCMPI_RMA_STAT_PUT]++;
        ucmpi_rma_copy(t, (const char *)origin_addr + origin_datatype->true_lb,
                       n);
        ucmpi_rma_nt_fence(n);
        return MPI_SUCCESS;
    }
    return ucmpi_rma_xfer_call(0, origin_addr, origin_count, origin_datatype,
                               target_rank, target_disp, target_count,
                               target_datatype, win, NULL, "MPI_Put");
}

#pragma weak MPI_Get = PMPI_Get
int PMPI_Get(void *origin_addr, int origin_count,
             MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count,
             MPI_Datatype target_datatype, MPI_Win win)
{
    size_t n;
    char *t = fast_target(win, target_rank, target_disp, origin_count,
                          origin_datatype, target_count, target_datatype, &n);
    if (t != NULL) {
        ucmpi_rma_stats.ops[UCMPI_RMA_STAT_GET]++;
        ucmpi_rma_copy((char *)origin_addr + origin_datatype->true_lb, t, n);
        return MPI_SUCCESS;
    }
    return ucmpi_rma_xfer_call(UCMPI_RMA_GET, origin_addr, origin_count,
                               origin_datatype, target_rank, target_disp,
                               target_count, target_datatype, win, NULL,
                               "MPI_Get");
}

#pragma weak MPI_Rput = PMPI_Rput
int PMPI_Rput(const void *origin_addr, int origin_count,
              MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count,
              MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    return ucmpi_rma_xfer_call(UCMPI_RMA_RFORM, origin_addr, origin_count,
                               origin_datatype, target_rank, target_disp,
                               target_count, target_datatype, win, request,
                               "MPI_Rput");
}

#pragma weak MPI_Rget = PMPI_Rget
int PMPI_Rget(void *origin_addr, int origin_count,
              MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count,
              MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    return ucmpi_rma_xfer_call(UCMPI_RMA_GET | UCMPI_RMA_RFORM, origin_addr,
                               origin_count, origin_datatype, target_rank,
                               target_disp, target_count, target_datatype,
                               win, request, "MPI_Rget");
}
