/* Window creation and destruction (shared: win_shared.c): register memory,
 * exchange base, size, disp unit and keys once; an id table for messages. */
#include "rma/rma.h"
#include "core/hooks.h"
#include "core/failure.h"
#include "p2p/progress_api.h"
#include "p2p/pt2pt.h"
#include "core/attr.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int PMPI_Comm_dup(MPI_Comm, MPI_Comm *);
int PMPI_Comm_free(MPI_Comm *);
const char *ucmpi_info_lookup(MPI_Info info, const char *key);

/* lib/core/error.c and lib/core/errhandler.c see windows as ucmpi_win_head_t */
_Static_assert(offsetof(struct ucmpi_win_s, magic) ==
                   offsetof(ucmpi_win_head_t, magic) &&
               offsetof(struct ucmpi_win_s, refcount) ==
                   offsetof(ucmpi_win_head_t, refcount) &&
               offsetof(struct ucmpi_win_s, errhandler) ==
                   offsetof(ucmpi_win_head_t, errhandler),
               "struct ucmpi_win_s must start like ucmpi_win_head_t");

/* While windows exist, targets must answer active messages arriving over
 * shared memory (no event fd): a progress hook keeps waits from blocking. */
static int live_windows;

static int rma_progress(void)
{
    return 0;
}

static void windows_inc(void)
{
    if (live_windows++ == 0)
        ucmpi_progress_register(rma_progress);
}

static void windows_dec(void)
{
    if (--live_windows == 0)
        ucmpi_progress_unregister(rma_progress);
}

/* ---- id table ---- */
static ucmpi_win_t **table;
static uint32_t table_len;

static int table_add(ucmpi_win_t *win)
{
    int rc = MPI_SUCCESS;
    uint32_t i = 0;
    ucmpi_lock();
    while (i < table_len && table[i] != NULL)
        i++;
    if (i == table_len) {   /* full: double it */
        uint32_t n = table_len ? table_len * 2 : 16;
        ucmpi_win_t **t = realloc(table, n * sizeof(*t));
        if (t != NULL) {
            memset(t + table_len, 0, (n - table_len) * sizeof(*t));
            table = t;
            table_len = n;
        }
        rc = t != NULL ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    }
    if (rc == MPI_SUCCESS) {
        table[i] = win;
        win->id = i;
    }
    ucmpi_unlock();
    return rc;
}

ucmpi_win_t *ucmpi_rma_win_lookup(uint32_t id)
{
    return id < table_len ? table[id] : NULL;
}

int ucmpi_rma_check_win(MPI_Win win, const char *fn)
{
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!ucmpi_win_valid(win))
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_WIN, fn,
                           "window is null or freed");
    return MPI_SUCCESS;
}

int ucmpi_rma_peer_err(ucmpi_win_t *win, int target, int rc)
{
    if (rc != MPI_SUCCESS && target >= 0 && target < win->size &&
        ucmpi_peer_failed(win->peers[target].world))
        return MPI_ERR_PROC_FAILED;
    return rc;
}

int ucmpi_rma_complete(ucmpi_win_t *win, int target, int remote)
{
    int rc = MPI_SUCCESS, lo = target < 0 ? 0 : target;
    int hi = target < 0 ? win->size : target + 1;

    if (target >= 0 && ucmpi_rma_cnt_done(&win->peers[target].cnt) &&
        !win->peers[target].ucx_dirty && win->deferred_err == MPI_SUCCESS &&
        win->peers[target].cnt.status == MPI_SUCCESS) {
        /* only direct-path work since the last completion; still serve
         * others now and then */
        ucmpi_rma_full_barrier();
        if (++win->quick_flushes % 16 == 0)
            ucmpi_progress();
        return MPI_SUCCESS;
    }

    for (int t = lo; t < hi; t++) {
        ucmpi_rma_peer_t *p = &win->peers[t];
        int st = ucmpi_rma_peer_err(win, t,
                                    ucmpi_rma_cnt_wait_peer(&p->cnt, p->world));
        /* a live target may report a failed process too (its memory's
         * accumulate lock died with its holder): the window goes on */
        bool dead = st == MPI_ERR_PROC_FAILED && ucmpi_peer_failed(p->world);
        if (dead)
            win->broken = 1;
        if (st != MPI_SUCCESS && rc == MPI_SUCCESS)
            rc = st;
        if (dead)
            continue;
        p->cnt.status = MPI_SUCCESS;
        /* only UCP puts/gets/atomics need a flush to be remotely done;
         * one peer at a time, so that a dead one is noticed */
        if (remote && p->ucx_dirty) {
            st = ucmpi_rma_peer_err(win, t, ucmpi_rma_flush_wait(p->world));
            if (st == MPI_ERR_PROC_FAILED)
                win->broken = 1;
            if (st != MPI_SUCCESS && rc == MPI_SUCCESS)
                rc = st;
            p->ucx_dirty = 0;
        }
    }
    if (remote && target < 0)
        win->ucx_dirty = 0;
    ucmpi_rma_full_barrier();
    ucmpi_lock();   /* message handlers set it under the lock */
    if (win->deferred_err != MPI_SUCCESS) {
        rc = win->deferred_err;
        win->deferred_err = MPI_SUCCESS;
    }
    ucmpi_unlock();
    win->all.status = MPI_SUCCESS;
    return rc;
}

/* ---- info ---- */
static bool info_true(MPI_Info info, const char *key)
{
    const char *v = info != MPI_INFO_NULL ? ucmpi_info_lookup(info, key)
                                          : NULL;
    return v != NULL && strcmp(v, "true") == 0;
}

void ucmpi_rma_apply_info(ucmpi_win_t *win, MPI_Info info)
{
    if (info == MPI_INFO_NULL)
        return;
    win->no_locks = info_true(info, "no_locks");
    win->same_size = info_true(info, "same_size");
    win->same_disp_unit = info_true(info, "same_disp_unit");
    const char *v = ucmpi_info_lookup(info, "accumulate_ordering");
    if (v != NULL)
        win->acc_ordering_none = strcmp(v, "none") == 0;
}

/* ---- exchange ---- */
typedef struct {
    uint64_t base, size, ctrl_addr;
    int64_t disp_unit;
    int32_t world;
    uint32_t win_id, rkey_len, ctrl_len;
} win_rec_t;

static int exchange(ucmpi_win_t *win)
{
    void *rk = NULL, *ck = NULL;
    size_t rk_len = 0, ck_len = 0, max = 0;
    win_rec_t me, *all = calloc(win->size, sizeof(*all));
    char *keys = NULL, *mykeys = NULL;
    int rc = MPI_ERR_NO_MEM;

    if (all == NULL)
        goto out;
    rc = ucmpi_rma_rkey_pack(win->mem, &rk, &rk_len);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_rma_rkey_pack(win->ctrl_mem, &ck, &ck_len);
    if (rc != MPI_SUCCESS)
        goto out;
    me = (win_rec_t){(uint64_t)(uintptr_t)win->base, (uint64_t)win->win_size,
                     (uint64_t)(uintptr_t)win->ctrl, win->disp_unit,
                     ucmpi_global.world_rank, win->id, (uint32_t)rk_len,
                     (uint32_t)ck_len};
    rc = ucmpi_rma_allgather(win->comm, &me, all, sizeof(me));
    if (rc != MPI_SUCCESS)
        goto out;
    for (int i = 0; i < win->size; i++)
        if (all[i].rkey_len + all[i].ctrl_len > max)
            max = all[i].rkey_len + all[i].ctrl_len;
    rc = MPI_ERR_NO_MEM;
    keys = malloc(max * win->size + 1);
    mykeys = calloc(1, max + 1);
    if (keys == NULL || mykeys == NULL)
        goto out;
    if (rk_len)
        memcpy(mykeys, rk, rk_len);
    if (ck_len)
        memcpy(mykeys + rk_len, ck, ck_len);
    rc = ucmpi_rma_allgather(win->comm, mykeys, keys, max);
    for (int i = 0; rc == MPI_SUCCESS && i < win->size; i++) {
        ucmpi_rma_peer_t *p = &win->peers[i];
        const char *k = keys + max * i;
        p->base = all[i].base;
        p->size = all[i].size;
        p->disp_unit = all[i].disp_unit;
        p->world = all[i].world;
        p->win_id = all[i].win_id;
        p->ctrl_addr = all[i].ctrl_addr;
        p->cnt.parent = &win->all;
        rc = ucmpi_rma_rkey_unpack(p->world, k, all[i].rkey_len, &p->rkey);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_rma_rkey_unpack(p->world, k + all[i].rkey_len,
                                       all[i].ctrl_len, &p->ctrl_rkey);
    }
out:
    free(rk);
    free(ck);
    free(all);
    free(keys);
    free(mykeys);
    return rc;
}

/* Windows never freed, at MPI_Finalize after its barrier: completed and
 * torn down locally (registered memory left in place aborts ucp_cleanup). */
static void finalize_windows(void *unused)
{
    (void)unused;
    for (uint32_t i = 0; i < table_len; i++) {
        ucmpi_win_t *win = table[i];

        if (win == NULL)
            continue;
        (void)ucmpi_rma_complete(win, -1, 1);
        ucmpi_attr_delete_all(UCMPI_ATTR_WIN, win, &win->attrs);
        ucmpi_rma_win_destroy(win);
    }
    free(table);
    table = NULL;
    table_len = 0;
}

__attribute__((constructor)) static void win_hooks(void)
{
    ucmpi_hook_add(UCMPI_HOOK_FINALIZE_QUIESCE, UCMPI_HOOK_ORDER_RMA,
                   finalize_windows);
}

void ucmpi_rma_win_destroy(ucmpi_win_t *win)
{
    for (int i = 0; win->peers != NULL && i < win->size; i++) {
        ucmpi_rma_rkey_destroy(win->peers[i].rkey);
        ucmpi_rma_rkey_destroy(win->peers[i].ctrl_rkey);
    }
    ucmpi_rma_shm_disconnect(win);
    if (!win->broken)
        free(win->peers);
    while (win->regions != NULL) {
        ucmpi_rma_region_t *r = win->regions;
        win->regions = r->next;
        ucmpi_rma_mem_unmap(r->mem);
        free(r);
    }
    ucmpi_rma_mem_unmap(win->mem);
    ucmpi_rma_mem_unmap(win->ctrl_mem);   /* frees win->ctrl */
    ucmpi_lock();
    if (win->id < table_len && table[win->id] == win)
        table[win->id] = NULL;
    ucmpi_unlock();
    if (win->free_base)
        free(win->base);
    if (win->shm != NULL)
        munmap(win->shm, win->shm_len);
    free(win->shm_offsets);
    if (win->comm != NULL && win->comm_dup)
        PMPI_Comm_free(&win->comm);
    else if (win->comm != NULL)
        ucmpi_comm_release(win->comm);
    if (win->errhandler != NULL)
        ucmpi_errhandler_release(win->errhandler);
    if (win->eps_held) {
        ucmpi_rma_eps_release();
        windows_dec();
    }
    win->magic = UCMPI_MAGIC_FREED;
    /* operations abandoned towards a dead peer may still complete and
     * write to the peers and the window: keep them */
    if (!win->broken)
        free(win);
}

/* Checks and the part every flavor shares: the window, its private
 * communicator, registered memory (base, size: mine) and the exchange. */
int ucmpi_rma_win_setup(MPI_Comm comm, void *base, MPI_Aint size,
                        MPI_Aint disp_unit, int flavor, MPI_Info info,
                        const char *fn, ucmpi_win_t **out)
{
    int rc;
    ucmpi_win_t *win = calloc(1, sizeof(*win));

    if (win == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    win->magic = UCMPI_MAGIC_WIN;
    win->refcount = 1;
    win->errhandler = MPI_ERRORS_ARE_FATAL;
    ucmpi_errhandler_retain(win->errhandler);
    win->flavor = flavor;
    win->model = MPI_WIN_UNIFIED;
    win->base = base;
    win->win_size = size;
    win->disp_unit = disp_unit;
    win->disp_unit_attr = disp_unit > INT_MAX ? INT_MAX : (int)disp_unit;
    win->id = UINT32_MAX;
    win->deferred_err = MPI_SUCCESS;
    /* same on every member: names this window's protocol messages */
    win->tag = (ucmpi_comm_next_coll_tag(comm) << 2) & UCMPI_TAG_MAX;
    rc = PMPI_Comm_dup(comm, &win->comm);
    if (rc != MPI_SUCCESS) {
        win->comm = NULL;
        goto fail;
    }
    win->comm_dup = 1;
    win->rank = win->comm->rank;
    win->size = win->comm->size;
    rc = MPI_ERR_NO_MEM;
    win->peers = calloc(win->size, sizeof(*win->peers));
    /* lock words in UCX-allocated memory: node peers lock them with CPU
     * atomics (shm.c) */
    if (ucmpi_rma_mem_alloc(ucmpi_rma_ctrl_size(win->size),
                            (void **)&win->ctrl,
                            &win->ctrl_mem) != MPI_SUCCESS)
        win->ctrl = NULL;
    if (win->peers == NULL || win->ctrl == NULL)
        goto fail;
    win->acc_lock = &win->ctrl->acc_lock;
    rc = ucmpi_rma_am_setup();
    if (rc == MPI_SUCCESS) {
        ucmpi_rma_eps_retain();
        windows_inc();
        win->eps_held = 1;
        rc = table_add(win);
    }
    if (rc == MPI_SUCCESS)
        rc = ucmpi_rma_mem_map(base, flavor == MPI_WIN_FLAVOR_DYNAMIC ? 0
                                                                 : (size_t)size,
                               &win->mem);
    if (rc == MPI_SUCCESS)
        rc = exchange(win);
    if (rc != MPI_SUCCESS)
        goto fail;
    ucmpi_rma_apply_info(win, info);
    ucmpi_rma_ctrl_setup(win);
    ucmpi_rma_direct_setup(win);
    *out = win;
    return MPI_SUCCESS;
fail:
    win->free_base = 0;
    ucmpi_rma_win_destroy(win);
    return ucmpi_err_comm(comm, rc, fn, "window setup failed");
}

/* Common argument checks of the creating calls. */
int ucmpi_rma_check_create(MPI_Comm comm, MPI_Aint size, MPI_Aint disp_unit,
                           MPI_Info info, MPI_Win *win, const char *fn)
{
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = ucmpi_check_comm(comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (comm->is_inter)
        return ucmpi_err_comm(comm, MPI_ERR_COMM, fn,
                              "windows need an intracommunicator");
    if (size < 0)
        return ucmpi_err_comm(comm, MPI_ERR_SIZE, fn,
                              "size %ld is negative", (long)size);
    if (disp_unit <= 0)
        return ucmpi_err_comm(comm, MPI_ERR_DISP, fn,
                              "disp_unit %ld is not positive",
                              (long)disp_unit);
    if (info != MPI_INFO_NULL &&
        *(const uint32_t *)info != UCMPI_MAGIC_INFO)
        return ucmpi_err_comm(comm, MPI_ERR_INFO, fn,
                              "info argument is freed or invalid");
    if (win == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn,
                              "win output argument is NULL");
    return MPI_SUCCESS;
}
