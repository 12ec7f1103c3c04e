/* Accumulate family: mapped targets applied here, others by the target's
 * handler (am.c), both under the accumulate lock (atomic.c; no UCP atomics). */
#include "rma/rma.h"
#include "rma/rma_stats.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>


typedef struct {
    const void *obuf;
    MPI_Count ocount;
    MPI_Datatype otype;
    void *rbuf;
    MPI_Count rcount;
    MPI_Datatype rtype;
    int target;
    MPI_Aint disp;
    MPI_Count tcount;
    MPI_Datatype ttype;
    MPI_Op op;
    int kind;
    const void *compare;      /* CAS */
} acc_args_t;

static int check_op(MPI_Win win, const char *fn, MPI_Op op,
                    MPI_Datatype basic)
{
    const char *why;
    if (op == MPI_OP_NULL || ucmpi_rma_op_id(op) < 0)
        return ucmpi_err_win(win, MPI_ERR_OP, fn,
                             "op must be a predefined operation");
    if (op == MPI_REPLACE || op == MPI_NO_OP)
        return MPI_SUCCESS;
    int rc = ucmpi_op_check(op, basic, &why);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_win(win, rc, fn, "op: %s", why);
    return MPI_SUCCESS;
}

/* The element type accumulates work on.  MPI_CHAR counts as the C char it
 * is, an extension MPICH has too (and its test suite uses). */
static MPI_Datatype acc_basic(MPI_Datatype dt)
{
    MPI_Datatype b = ucmpi_rma_basic_type(dt);
    if (b == MPI_CHAR)
        return CHAR_MIN < 0 ? MPI_SIGNED_CHAR : MPI_UNSIGNED_CHAR;
    return b;
}

/* The origin's data in one run: the buffer itself or a packed *copy. */
static const char *origin_run(const acc_args_t *a, uint64_t bytes,
                              void **copy)
{
    if (a->otype->contig)
        return (const char *)a->obuf + a->otype->true_lb;
    if ((*copy = malloc(bytes)) != NULL)
        ucmpi_dt_pack(a->otype, a->obuf, a->ocount, *copy);
    return *copy;
}

/* Same-node target: apply here, under the regime of atomic.c. */
static int direct_acc(ucmpi_win_t *win, const acc_args_t *a,
                      MPI_Datatype basic, const ucmpi_rma_target_t *t)
{
    uint32_t *lock = win->peers[a->target].acc_lock;
    bool has_origin = a->kind != UCMPI_RMA_AM_GACC || a->op != MPI_NO_OP;
    bool has_result = a->kind != UCMPI_RMA_AM_ACC;
    const char *src = NULL;
    char *out = NULL;
    void *copy = NULL, *bounce = NULL;

    if (a->kind == UCMPI_RMA_AM_CAS)
        return ucmpi_rma_cas_run(lock, t->bytes, a->obuf, a->compare,
                                 t->local + t->segs[0].off, a->rbuf);
    if (has_origin && (src = origin_run(a, t->bytes, &copy)) == NULL)
        return MPI_ERR_NO_MEM;
    if (has_result && a->rtype->contig) {
        out = (char *)a->rbuf + a->rtype->true_lb;
    } else if (has_result) {
        out = bounce = malloc(t->bytes);
        if (bounce == NULL) {
            free(copy);
            return MPI_ERR_NO_MEM;
        }
    }
    uint64_t pos = 0;
    int rc = MPI_SUCCESS;
    for (size_t i = 0; i < t->nsegs && rc == MPI_SUCCESS; i++) {
        rc = ucmpi_rma_acc_run(lock, a->op, basic, src ? src + pos : NULL,
                               t->local + t->segs[i].off,
                               out ? out + pos : NULL, t->segs[i].len);
        pos += t->segs[i].len;
    }
    if (bounce != NULL && rc == MPI_SUCCESS)
        ucmpi_dt_unpack(a->rtype, a->rbuf, a->rcount, bounce, t->bytes);
    free(bounce);
    free(copy);
    return rc;
}

/* The accumulate lock of target's memory is held by a process that died. */
static int dead_holder(MPI_Win win, int target, const char *fn)
{
    return ucmpi_err_win(win, MPI_ERR_PROC_FAILED, fn, "the accumulate lock "
                         "of target %d's memory is held by a process that "
                         "died (nothing was applied)", target);
}

/* Holed pair types (MPI_SHORT_INT): the packed runs of t become one
 * segment per element, at the element's first byte, of its packed size. */
static int elem_segs(MPI_Datatype basic, ucmpi_rma_target_t *t)
{
    uint64_t n = t->bytes / (uint64_t)basic->size, start = 0;
    ucmpi_rma_seg_t *e = malloc(sizeof(*e) * (n ? n : 1));
    size_t r = 0;
    if (e == NULL) {
        ucmpi_rma_target_free(t);
        return MPI_ERR_NO_MEM;
    }
    for (uint64_t k = 0; k < n; k++) {
        uint64_t p = k * (uint64_t)basic->size;
        while (p >= start + t->segs[r].len)
            start += t->segs[r++].len;
        e[k] = (ucmpi_rma_seg_t){t->segs[r].off + (MPI_Aint)(p - start),
                                 (uint64_t)basic->size};
    }
    ucmpi_rma_target_free(t);
    t->segs = e;
    t->nsegs = (size_t)n;
    return MPI_SUCCESS;
}

static int acc_common_locked(MPI_Win win, const acc_args_t *a, MPI_Request *req,
                      const char *fn)
{
    ucmpi_rma_target_t t;
    ucmpi_rma_ctx_t *ctx;
    const void *data = NULL;
    void *copy = NULL;
    bool has_origin = a->kind != UCMPI_RMA_AM_GACC || a->op != MPI_NO_OP;
    bool has_result = a->kind != UCMPI_RMA_AM_ACC;

    int rc = ucmpi_rma_check_win(win, fn);
    if (rc == MPI_SUCCESS && has_origin)
        rc = ucmpi_rma_check_buf(win, fn, "origin", a->obuf, a->ocount,
                                 a->otype);
    if (rc == MPI_SUCCESS && has_result)
        rc = ucmpi_rma_check_buf(win, fn, "result", a->rbuf, a->rcount,
                                 a->rtype);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_rma_check_buf(win, fn, "target", NULL, a->tcount, a->ttype);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Datatype basic = acc_basic(a->ttype);
    if (a->ttype->size * a->tcount == 0) {
        /* nothing moves: only the epoch and the rank matter */
        rc = ucmpi_rma_target_prep(win, fn, a->target, a->disp, 0, a->ttype,
                                   &t);
        ucmpi_rma_target_free(&t);
        return rc;
    }
    if (basic == MPI_DATATYPE_NULL || ucmpi_rma_type_id(basic) < 0)
        return ucmpi_err_win(win, MPI_ERR_TYPE, fn,
                             "target datatype must be built from one "
                             "predefined type");
    if (has_origin && a->otype->size * a->ocount > 0 &&
        acc_basic(a->otype) != basic)
        return ucmpi_err_win(win, MPI_ERR_TYPE, fn,
                             "origin and target datatypes differ in their "
                             "basic type");
    if (a->kind != UCMPI_RMA_AM_CAS) {
        rc = check_op(win, fn, a->op, basic);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    rc = ucmpi_rma_target_prep(win, fn, a->target, a->disp, a->tcount,
                               a->ttype, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    if (ucmpi_rma_holed(basic))
        rc = elem_segs(basic, &t);
    for (size_t i = 0; rc == MPI_SUCCESS && i < t.nsegs; i++)
        if (t.segs[i].len % (uint64_t)basic->size != 0) {
            ucmpi_rma_target_free(&t);
            return ucmpi_err_win(win, MPI_ERR_TYPE, fn,
                                 "target datatype splits elements");
        }
    if (rc != MPI_SUCCESS)
        return ucmpi_err_win(win, rc, fn, "out of memory");
    if (a->target != MPI_PROC_NULL &&
        ((has_origin && (uint64_t)(a->otype->size * a->ocount) != t.bytes) ||
         (has_result && (uint64_t)(a->rtype->size * a->rcount) != t.bytes))) {
        ucmpi_rma_target_free(&t);
        return ucmpi_err_win(win, MPI_ERR_TYPE, fn,
                             "origin/result sizes do not match the target "
                             "(%llu bytes)", (unsigned long long)t.bytes);
    }
    if (t.local != NULL && req == NULL) {
        /* direct path: applied when the call returns */
        rc = t.bytes ? direct_acc(win, a, basic, &t) : MPI_SUCCESS;
        ucmpi_rma_target_free(&t);
        if (rc == MPI_ERR_PROC_FAILED)
            return dead_holder(win, a->target, fn);
        if (rc != MPI_SUCCESS)
            return ucmpi_err_win(win, rc, fn, "out of memory");
        return MPI_SUCCESS;
    }
    rc = ucmpi_rma_ctx_new(win, a->target == MPI_PROC_NULL ? -1 : a->target,
                           req, &ctx);
    if (rc != MPI_SUCCESS) {
        ucmpi_rma_target_free(&t);
        return ucmpi_err_win(win, rc, fn, "out of memory");
    }
    if (t.bytes == 0)
        goto done;
    if (t.local != NULL) {
        rc = direct_acc(win, a, basic, &t);
        goto done;
    }
    size_t dlen = has_origin ? t.bytes : 0;
    if (a->kind == UCMPI_RMA_AM_CAS) {
        copy = malloc(2 * t.bytes);
        if (copy == NULL) {
            rc = MPI_ERR_NO_MEM;
            goto done;
        }
        memcpy(copy, a->obuf, t.bytes);
        memcpy((char *)copy + t.bytes, a->compare, t.bytes);
        data = copy;
        dlen = 2 * t.bytes;
    } else if (has_origin &&
               (data = origin_run(a, t.bytes, &copy)) == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto done;
    }
    ucmpi_rma_am_op_t op = {
        .kind = a->kind, .target = a->target, .op = a->op, .basic = basic,
        .segs = t.segs, .nsegs = t.nsegs, .raddr = t.raddr, .data = data,
        .dlen = dlen, .result = has_result ? a->rbuf : NULL,
        .rcount = a->rcount, .rtype = a->rtype, .req_cnt = &ctx->cnt};
    rc = ucmpi_rma_am_issue(win, &op);
done:
    free(copy);
    ucmpi_rma_target_free(&t);
    ucmpi_rma_ctx_issued(ctx, rc);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_win(win, ucmpi_rma_peer_err(win, a->target, rc),
                             fn, "operation on target %d failed",
                             a->target);
    return MPI_SUCCESS;
}

/* The general path touches shared state: one thread at a time. */
static int acc_common(MPI_Win win, const acc_args_t *a, MPI_Request *req,
                      const char *fn)
{
    ucmpi_lock();
    int rc = acc_common_locked(win, a, req, fn);
    ucmpi_unlock();
    return rc;
}

int ucmpi_rma_acc_call(MPI_Win win, int kind, const void *obuf,
                       MPI_Count ocount, MPI_Datatype otype, void *rbuf,
                       MPI_Count rcount, MPI_Datatype rtype, int target,
                       MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype,
                       MPI_Op op, MPI_Request *req, const char *fn)
{
    acc_args_t a = {obuf, ocount, otype, rbuf, rcount, rtype, target, disp,
                    tcount, ttype, op, kind & ~UCMPI_RMA_RFORM, NULL};

    ucmpi_rma_stats.ops[UCMPI_RMA_STAT_ACC]++;
    if (kind & UCMPI_RMA_RFORM) {
        int rc = ucmpi_rma_check_request_arg(win, target, req, fn);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return acc_common(win, &a, req, fn);
}

/* The common direct-path call checked inline (one predefined 4/8-byte
 * type, a mapped target, an allowed op, an epoch); else the general way. */
static char *fast_target(ucmpi_win_t *win, int target, MPI_Aint disp,
                         MPI_Count count, MPI_Datatype dt, MPI_Op op)
{
    if (!ucmpi_global.active ||
        !ucmpi_win_valid(win) || target < 0 || target >= win->size ||
        dt == MPI_DATATYPE_NULL || count < 0)
        return NULL;
    ucmpi_rma_peer_t *p = &win->peers[target];
    if (p->local == NULL || disp < 0 || !dt->predefined ||
        (dt->size != 4 && dt->size != 8) || !ucmpi_rma_fast_op(op, dt))
        return NULL;
    int64_t lo = (int64_t)disp * p->disp_unit;
    if (lo < 0 || (uint64_t)lo + (uint64_t)(dt->size * count) > p->size)
        return NULL;
    if (win->access == UCMPI_EPOCH_FENCE)
        __atomic_add_fetch(&win->fence_ops, 1, __ATOMIC_RELAXED);
    else if (win->access != UCMPI_EPOCH_LOCK_ALL &&
             !(win->access == UCMPI_EPOCH_LOCK && p->lock != 0))
        return NULL;
    return p->local + lo;
}

#pragma weak MPI_Accumulate = PMPI_Accumulate
int PMPI_Accumulate(const void *origin_addr, int origin_count,
                    MPI_Datatype origin_datatype, int target_rank,
                    MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    ucmpi_rma_stats.ops[UCMPI_RMA_STAT_ACC]++;
    if (origin_datatype == target_datatype && origin_count == target_count) {
        char *t = fast_target(win, target_rank, target_disp, target_count,
                              target_datatype, op);
        if (t != NULL &&
            ucmpi_rma_acc_run(win->peers[target_rank].acc_lock, op,
                              target_datatype, origin_addr, t, NULL,
                              (uint64_t)(target_count *
                                         target_datatype->size)) ==
                MPI_SUCCESS)
            return MPI_SUCCESS;
        if (t != NULL)
            return dead_holder(win, target_rank, "MPI_Accumulate");
    }
    acc_args_t a = {origin_addr, origin_count, origin_datatype, NULL, 0,
                    MPI_DATATYPE_NULL, target_rank, target_disp, target_count,
                    target_datatype, op, UCMPI_RMA_AM_ACC, NULL};
    return acc_common(win, &a, NULL, "MPI_Accumulate");
}

#pragma weak MPI_Raccumulate = PMPI_Raccumulate
int PMPI_Raccumulate(const void *origin_addr, int origin_count,
                     MPI_Datatype origin_datatype, int target_rank,
                     MPI_Aint target_disp, int target_count,
                     MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                     MPI_Request *request)
{
    return ucmpi_rma_acc_call(win, UCMPI_RMA_AM_ACC | UCMPI_RMA_RFORM,
                              origin_addr, origin_count, origin_datatype, NULL,
                              0, MPI_DATATYPE_NULL, target_rank, target_disp,
                              target_count, target_datatype, op, request,
                              "MPI_Raccumulate");
}

#pragma weak MPI_Get_accumulate = PMPI_Get_accumulate
int PMPI_Get_accumulate(const void *origin_addr, int origin_count,
                        MPI_Datatype origin_datatype, void *result_addr,
                        int result_count, MPI_Datatype result_datatype,
                        int target_rank, MPI_Aint target_disp,
                        int target_count, MPI_Datatype target_datatype,
                        MPI_Op op, MPI_Win win)
{
    return ucmpi_rma_acc_call(win, UCMPI_RMA_AM_GACC, origin_addr,
                              origin_count, origin_datatype, result_addr,
                              result_count, result_datatype, target_rank,
                              target_disp, target_count, target_datatype, op,
                              NULL, "MPI_Get_accumulate");
}

#pragma weak MPI_Rget_accumulate = PMPI_Rget_accumulate
int PMPI_Rget_accumulate(const void *origin_addr, int origin_count,
                         MPI_Datatype origin_datatype, void *result_addr,
                         int result_count, MPI_Datatype result_datatype,
                         int target_rank, MPI_Aint target_disp,
                         int target_count, MPI_Datatype target_datatype,
                         MPI_Op op, MPI_Win win, MPI_Request *request)
{
    return ucmpi_rma_acc_call(win, UCMPI_RMA_AM_GACC | UCMPI_RMA_RFORM,
                              origin_addr, origin_count, origin_datatype,
                              result_addr, result_count, result_datatype,
                              target_rank, target_disp, target_count,
                              target_datatype, op, request,
                              "MPI_Rget_accumulate");
}

#pragma weak MPI_Fetch_and_op = PMPI_Fetch_and_op
int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr,
                      MPI_Datatype datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    ucmpi_rma_stats.ops[UCMPI_RMA_STAT_ATOMIC]++;
    char *t = fast_target(win, target_rank, target_disp, 1, datatype, op);
    if (t != NULL)
        return ucmpi_rma_acc_run(win->peers[target_rank].acc_lock, op,
                                 datatype, op == MPI_NO_OP ? NULL
                                                           : origin_addr,
                                 t, result_addr, (uint64_t)datatype->size)
                       == MPI_SUCCESS
                   ? MPI_SUCCESS
                   : dead_holder(win, target_rank, "MPI_Fetch_and_op");
    acc_args_t a = {origin_addr, 1, datatype, result_addr, 1, datatype,
                    target_rank, target_disp, 1, datatype, op,
                    UCMPI_RMA_AM_GACC, NULL};
    return acc_common(win, &a, NULL, "MPI_Fetch_and_op");
}

/* MPI-4.1 12.3.4: the types of MPI_BAND or MPI_LAND; MPI_CHAR too, as
 * MPICH and Open MPI accept it. */
static bool cas_type_ok(MPI_Datatype dt)
{
    const char *why;
    if (dt == MPI_DATATYPE_NULL || !dt->predefined || !dt->contig)
        return false;
    return dt == MPI_CHAR || ucmpi_op_check(MPI_BAND, dt, &why) == 0 ||
           ucmpi_op_check(MPI_LAND, dt, &why) == 0;
}

#pragma weak MPI_Compare_and_swap = PMPI_Compare_and_swap
int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr,
                          void *result_addr, MPI_Datatype datatype,
                          int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    ucmpi_rma_stats.ops[UCMPI_RMA_STAT_ATOMIC]++;
    static const char fn[] = "MPI_Compare_and_swap";
    int rc = ucmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!cas_type_ok(datatype))
        return ucmpi_err_win(win, MPI_ERR_TYPE, fn,
                             "datatype must be a predefined integer, "
                             "logical, multi-language or byte type");
    char *t = fast_target(win, target_rank, target_disp, 1, datatype,
                          MPI_REPLACE);
    if (t != NULL && ucmpi_rma_is_int(datatype))
        return ucmpi_rma_cas_run(win->peers[target_rank].acc_lock,
                                 (size_t)datatype->size, origin_addr,
                                 compare_addr, t, result_addr) == MPI_SUCCESS
                   ? MPI_SUCCESS
                   : dead_holder(win, target_rank, fn);
    acc_args_t a = {origin_addr, 1, datatype, result_addr, 1, datatype,
                    target_rank, target_disp, 1, datatype, MPI_REPLACE,
                    UCMPI_RMA_AM_CAS, compare_addr};
    return acc_common(win, &a, NULL, fn);
}
