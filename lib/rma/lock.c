/* Passive-target locks: a fair reader-writer ticket lock with dead-holder
 * detection: docs/architecture.md, "lib/rma internals". */
#include "rma/rma.h"
#include "rma/rma_stats.h"
#include "core/failure.h"
#include "p2p/progress_api.h"
#include "core/config.h"

#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#define WRITER ((uint64_t)1 << 32)
#define READER ((uint64_t)1)
/* A waiter for a lock off the node reads the released count every 1, 2,
 * 4, ... up to this many turns (each read is a remote atomic). */
#define REMOTE_GAP_MAX 64

/* Blocking 64-bit atomic on target's control word at `off`.  What UCX
 * writes to lives on the heap: towards a dead target it is abandoned. */
static int ctrl_amo(MPI_Win win, int t, size_t off, uint64_t val,
                    uint64_t *old)
{
    ucmpi_rma_peer_t *p = &win->peers[t];
    if (p->ctrl_local != NULL) {
        /* mapped here (myself, a node peer): a CPU atomic */
        uint64_t *w = (uint64_t *)((char *)p->ctrl_local + off);
        uint64_t was = __atomic_fetch_add(w, val, __ATOMIC_SEQ_CST);
        if (old != NULL)
            *old = was;
        return MPI_SUCCESS;
    }
    struct {
        ucmpi_rma_cnt_t c;
        uint64_t val, res;
    } *a = calloc(1, sizeof(*a));
    if (a == NULL)
        return MPI_ERR_NO_MEM;
    a->val = val;
    int rc = ucmpi_rma_fetch_add(p->world, &a->val, &a->res,
                                 p->ctrl_addr + off, p->ctrl_rkey, &a->c);
    int st = ucmpi_rma_cnt_wait_peer(&a->c, p->world);
    if (st == MPI_ERR_PROC_FAILED)
        return st;
    if (old != NULL)
        *old = a->res;
    free(a);
    return rc != MPI_SUCCESS ? rc : st;
}

/* Blocking copy of len bytes to (put) or from target t's control words
 * at `off`, through a heap buffer as in ctrl_amo. */
static int ctrl_copy(MPI_Win win, int t, bool put, size_t off, void *buf,
                     size_t len)
{
    ucmpi_rma_peer_t *p = &win->peers[t];
    if (p->ctrl_local != NULL) {
        char *w = (char *)p->ctrl_local + off;
        memcpy(put ? w : buf, put ? buf : w, len);
        return MPI_SUCCESS;
    }
    struct {
        ucmpi_rma_cnt_t c;
        char data[];
    } *a = calloc(1, sizeof(*a) + len);
    if (a == NULL)
        return MPI_ERR_NO_MEM;
    int rc;
    if (put) {
        memcpy(a->data, buf, len);
        rc = ucmpi_rma_put(p->world, a->data, len, p->ctrl_addr + off,
                           p->ctrl_rkey, &a->c);
    } else {
        rc = ucmpi_rma_get(p->world, a->data, len, p->ctrl_addr + off,
                           p->ctrl_rkey, &a->c);
    }
    int st = ucmpi_rma_cnt_wait_peer(&a->c, p->world);
    if (st == MPI_ERR_PROC_FAILED)
        return st;
    if (!put && rc == MPI_SUCCESS && st == MPI_SUCCESS)
        memcpy(buf, a->data, len);
    free(a);
    return rc != MPI_SUCCESS ? rc : st;
}

/* Target t's count of released tickets.  On the node a load: an atomic
 * add of 0 would take the line away from the holder every turn. */
static int read_done(MPI_Win win, int t, uint64_t *done)
{
    const char *w = (const char *)win->peers[t].ctrl_local;
    if (w != NULL) {
        *done = __atomic_load_n(
            (const uint64_t *)(w + offsetof(ucmpi_rma_ctrl_t, lock_done)),
            __ATOMIC_ACQUIRE);
        return MPI_SUCCESS;
    }
    return ctrl_amo(win, t, offsetof(ucmpi_rma_ctrl_t, lock_done), 0, done);
}

static size_t slot_off(int origin)
{
    return offsetof(ucmpi_rma_ctrl_t, slot) +
           (size_t)origin * sizeof(ucmpi_rma_slot_t);
}

/* Records our request for target t's lock in our slot there (who 0:
 * none).  On the node these are plain stores: the ticket before who. */
static int slot_write(MPI_Win win, int t, uint64_t who, uint64_t ticket)
{
    ucmpi_rma_peer_t *p = &win->peers[t];
    if (p->ctrl_local != NULL) {
        ucmpi_rma_slot_t *s = (ucmpi_rma_slot_t *)((char *)p->ctrl_local +
                                                   slot_off(win->rank));
        __atomic_store_n(&s->ticket, ticket, __ATOMIC_RELAXED);
        __atomic_store_n(&s->who, who, __ATOMIC_RELEASE);
        return MPI_SUCCESS;
    }
    ucmpi_rma_slot_t v = {who, ticket};
    return ctrl_copy(win, t, true, slot_off(win->rank), &v, sizeof(v));
}

static uint64_t who_of(uint32_t pid, int kind)
{
    return (uint64_t)pid << 32 | (uint64_t)kind;
}

/* The process of window rank i, which wrote pid into its slot, is gone:
 * a failed rank, or (on this node) a pid that no longer exists. */
static bool origin_dead(MPI_Win win, int i, uint32_t pid)
{
    int w = win->peers[i].world;
    if (ucmpi_peer_failed(w))
        return true;
    const int *node = ucmpi_global.node_of;
    bool here = node == NULL || node[w] == node[ucmpi_global.world_rank];
    return here && ucmpi_rma_pid_dead(pid);
}

/* a - b > 0 for 32-bit counters that may wrap */
static bool after(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) > 0;
}

/* MPI_ERR_PROC_FAILED when a dead origin holds an unreleased ticket of
 * target t's lock ahead of ours (an unknown ticket counts as ahead). */
static int dead_ahead(MPI_Win win, int t, uint64_t ticket, bool excl,
                      uint64_t done)
{
    size_t len = (size_t)win->size * sizeof(ucmpi_rma_slot_t);
    ucmpi_rma_slot_t *s = malloc(len);
    if (s == NULL)
        return MPI_SUCCESS;                    /* look again later */
    int rc = ctrl_copy(win, t, false, slot_off(0), s, len);
    for (int i = 0; i < win->size && rc == MPI_SUCCESS; i++) {
        int kind = (int)(s[i].who & 0xffffffffu);
        uint64_t its = s[i].ticket;
        bool ahead;
        if (kind == 0 || i == win->rank)
            continue;
        if (kind == UCMPI_RMA_SLOT_EXCLUSIVE)  /* writers: in order */
            ahead = after((uint32_t)(ticket >> 32), (uint32_t)(its >> 32)) &&
                    !after((uint32_t)(done >> 32), (uint32_t)(its >> 32));
        else if (kind == UCMPI_RMA_SLOT_SHARED)  /* blocks writers only */
            ahead = excl && after((uint32_t)ticket, (uint32_t)its);
        else
            ahead = true;
        if (ahead && origin_dead(win, i, (uint32_t)(s[i].who >> 32)))
            rc = MPI_ERR_PROC_FAILED;
    }
    free(s);
    return rc;
}

/* Testing: UCMPI_RMA_LOCK_DEAD=<world rank> makes that rank's first lock look
 * held by an exited process (a dead pid in its slot; unlock releases none). */
static uint32_t inject_dead_pid(void)
{
    static long r = -2;

    if (r == -2)
        r = ucmpi_config_long("RMA_LOCK_DEAD");
    if (r < 0 || r != ucmpi_global.world_rank)
        return 0;
    r = -1;                                   /* once */
    return ucmpi_rma_dead_pid();
}

static int acquire(MPI_Win win, int t, int type)
{
    ucmpi_rma_peer_t *p = &win->peers[t];
    static uint32_t my_pid;
    uint64_t ticket = 0, done;
    bool excl = type == MPI_LOCK_EXCLUSIVE;

    if (p->lock_abandoned)       /* testing: our "dead" self holds it */
        return MPI_ERR_PROC_FAILED;
    if (my_pid == 0)
        my_pid = (uint32_t)getpid();
    uint32_t dead = inject_dead_pid(), pid = dead != 0 ? dead : my_pid;
    /* on the node a store: a death between it and the ticket is seen */
    if (p->ctrl_local != NULL)
        slot_write(win, t, who_of(pid, UCMPI_RMA_SLOT_REQUESTING), 0);
    int rc = ctrl_amo(win, t, offsetof(ucmpi_rma_ctrl_t, lock_req),
                      excl ? WRITER : READER, &ticket);
    if (rc == MPI_SUCCESS)
        rc = slot_write(win, t, who_of(pid, excl ? UCMPI_RMA_SLOT_EXCLUSIVE
                                                 : UCMPI_RMA_SLOT_SHARED),
                        ticket);
    /* tickets are granted in order: each turn hands the core over when
     * oversubscribed, so that the next ticket's owner runs */
    unsigned spins = 0, turns = 0, next = 0, gap = 1;
    while (rc == MPI_SUCCESS) {
        if (turns == next) {
            rc = read_done(win, t, &done);
            if (rc != MPI_SUCCESS ||
                (excl ? done == ticket : (done >> 32) == (ticket >> 32)))
                break;
            if (p->ctrl_local == NULL && gap < REMOTE_GAP_MAX)
                gap *= 2;
            next = turns + gap;
        }
        /* serve others' requests (they may be what we wait for) */
        ucmpi_progress_handoff(ucmpi_progress(), &spins);
        /* counted in turns, not idle spins: progress may never be idle */
        if (++turns % 1024 == 0)
            rc = ucmpi_peer_failed(p->world)
                     ? MPI_ERR_PROC_FAILED
                     : dead_ahead(win, t, ticket, excl, done);
    }
    ucmpi_progress_wait_done();
    if (rc != MPI_SUCCESS && !ucmpi_peer_failed(p->world))
        slot_write(win, t, 0, 0);   /* our ticket stays: the lock is dead */
    if (rc == MPI_SUCCESS)
        p->lock_abandoned = dead != 0;
    /* direct-path accesses happen after the lock is ours */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return rc;
}

static int release(MPI_Win win, int t, int type)
{
    if (win->peers[t].lock_abandoned)
        return MPI_SUCCESS;        /* testing: its holder "died" */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    int rc = ctrl_amo(win, t, offsetof(ucmpi_rma_ctrl_t, lock_done),
                      type == MPI_LOCK_EXCLUSIVE ? WRITER : READER, NULL);
    int rc2 = slot_write(win, t, 0, 0);
    return rc != MPI_SUCCESS ? rc : rc2;
}

static bool may_open(MPI_Win win, int kind)
{
    if (win->access == UCMPI_EPOCH_FENCE && win->fence_ops == 0)
        return true;
    return win->access == UCMPI_EPOCH_NONE ||
           (kind == UCMPI_EPOCH_LOCK && win->access == UCMPI_EPOCH_LOCK);
}

#pragma weak MPI_Win_lock = PMPI_Win_lock
int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    ucmpi_rma_stats.syncs[UCMPI_RMA_STAT_LOCK]++;
    static const char fn[] = "MPI_Win_lock";
    int rc = ucmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
        return ucmpi_err_win(win, MPI_ERR_LOCKTYPE, fn,
                             "lock_type %d is neither shared nor exclusive",
                             lock_type);
    if (assert & ~MPI_MODE_NOCHECK)
        return ucmpi_err_win(win, MPI_ERR_ASSERT, fn,
                             "invalid assertion bits 0x%x",
                             assert & ~MPI_MODE_NOCHECK);
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (rank < 0 || rank >= win->size)
        return ucmpi_err_win(win, MPI_ERR_RANK, fn, "rank %d outside [0, %d)",
                             rank, win->size);
    if (!may_open(win, UCMPI_EPOCH_LOCK))
        return ucmpi_err_win(win, MPI_ERR_RMA_SYNC, fn,
                             "another kind of epoch is open");
    if (win->peers[rank].lock != 0)
        return ucmpi_err_win(win, MPI_ERR_RMA_SYNC, fn,
                             "rank %d is already locked by this process",
                             rank);
    if (!(assert & MPI_MODE_NOCHECK)) {
        rc = acquire(win, rank, lock_type);
        if (rc != MPI_SUCCESS)
            return ucmpi_err_win(win, rc, fn, "acquiring the lock failed");
    }
    /* threads may lock different targets of one window at once */
    ucmpi_lock();
    win->peers[rank].lock = (assert & MPI_MODE_NOCHECK) ? -lock_type
                                                        : lock_type;
    win->nlocks++;
    win->access = UCMPI_EPOCH_LOCK;
    ucmpi_unlock();
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_unlock = PMPI_Win_unlock
int PMPI_Win_unlock(int rank, MPI_Win win)
{
    ucmpi_rma_stats.syncs[UCMPI_RMA_STAT_LOCK]++;
    static const char fn[] = "MPI_Win_unlock";
    int rc = ucmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (rank < 0 || rank >= win->size)
        return ucmpi_err_win(win, MPI_ERR_RANK, fn, "rank %d outside [0, %d)",
                             rank, win->size);
    if (win->access != UCMPI_EPOCH_LOCK || win->peers[rank].lock == 0)
        return ucmpi_err_win(win, MPI_ERR_RMA_SYNC, fn,
                             "rank %d is not locked by MPI_Win_lock", rank);
    rc = ucmpi_rma_complete(win, rank, 1);
    int type = win->peers[rank].lock;
    int rc2 = type > 0 ? release(win, rank, type) : MPI_SUCCESS;
    ucmpi_lock();
    win->peers[rank].lock = 0;
    if (--win->nlocks == 0)
        win->access = UCMPI_EPOCH_NONE;
    ucmpi_unlock();
    if (rc == MPI_SUCCESS)
        rc = rc2;
    if (rc != MPI_SUCCESS)
        return ucmpi_err_win(win, rc, fn, "completing operations failed");
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_lock_all = PMPI_Win_lock_all
int PMPI_Win_lock_all(int assert, MPI_Win win)
{
    ucmpi_rma_stats.syncs[UCMPI_RMA_STAT_LOCK]++;
    static const char fn[] = "MPI_Win_lock_all";
    int rc = ucmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (assert & ~MPI_MODE_NOCHECK)
        return ucmpi_err_win(win, MPI_ERR_ASSERT, fn,
                             "invalid assertion bits 0x%x",
                             assert & ~MPI_MODE_NOCHECK);
    if (!may_open(win, UCMPI_EPOCH_LOCK_ALL))
        return ucmpi_err_win(win, MPI_ERR_RMA_SYNC, fn,
                             "another epoch is open");
    for (int t = 0; t < win->size; t++) {
        if (!(assert & MPI_MODE_NOCHECK)) {
            rc = acquire(win, t, MPI_LOCK_SHARED);
            if (rc != MPI_SUCCESS) {
                while (--t >= 0)
                    if (win->peers[t].lock > 0)
                        release(win, t, MPI_LOCK_SHARED);
                return ucmpi_err_win(win, rc, fn, "acquiring locks failed");
            }
        }
        win->peers[t].lock = (assert & MPI_MODE_NOCHECK) ? -MPI_LOCK_SHARED
                                                         : MPI_LOCK_SHARED;
    }
    win->access = UCMPI_EPOCH_LOCK_ALL;
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_unlock_all = PMPI_Win_unlock_all
int PMPI_Win_unlock_all(MPI_Win win)
{
    ucmpi_rma_stats.syncs[UCMPI_RMA_STAT_LOCK]++;
    static const char fn[] = "MPI_Win_unlock_all";
    int rc = ucmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (win->access != UCMPI_EPOCH_LOCK_ALL)
        return ucmpi_err_win(win, MPI_ERR_RMA_SYNC, fn,
                             "no MPI_Win_lock_all epoch is open");
    rc = ucmpi_rma_complete(win, -1, 1);
    for (int t = 0; t < win->size; t++) {
        if (win->peers[t].lock > 0) {
            int rc2 = release(win, t, MPI_LOCK_SHARED);
            if (rc == MPI_SUCCESS)
                rc = rc2;
        }
        win->peers[t].lock = 0;
    }
    win->access = UCMPI_EPOCH_NONE;
    if (rc != MPI_SUCCESS)
        return ucmpi_err_win(win, rc, fn, "completing operations failed");
    return MPI_SUCCESS;
}
