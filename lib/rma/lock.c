/*
 * Passive-target locks: a fair reader-writer ticket lock in two remote
 * 64-bit words per rank (writers in the high, readers in the low half).
 * A writer takes a writer ticket and waits until every earlier ticket,
 * reader or writer, was released; a reader waits only for earlier
 * writers.  Tickets are served in order, so nobody starves.
 */
#include "rma/rma.h"

#include <stddef.h>
#include <stdlib.h>

#define WRITER ((uint64_t)1 << 32)
#define READER ((uint64_t)1)

/* Blocking 64-bit atomic on target's control word at `off`.  What UCX
 * writes to lives on the heap: towards a dead target it is abandoned. */
static int ctrl_amo(MPI_Win win, int t, int aop, size_t off, uint64_t val,
                    uint64_t *old)
{
    ucmpi_rma_peer_t *p = &win->peers[t];
    if (p->ctrl_local != NULL && aop == UCMPI_RMA_AOP_ADD) {
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
    int rc = ucmpi_rma_atomic(p->world, aop, 8, &a->val, &a->res,
                              p->ctrl_addr + off, p->ctrl_rkey, &a->c);
    int st = ucmpi_rma_cnt_wait_peer(&a->c, p->world);
    if (st == MPI_ERR_PROC_FAILED)
        return st;
    if (old != NULL)
        *old = a->res;
    free(a);
    return rc != MPI_SUCCESS ? rc : st;
}

static int acquire(MPI_Win win, int t, int type)
{
    uint64_t ticket, done;
    bool excl = type == MPI_LOCK_EXCLUSIVE;
    int rc = ctrl_amo(win, t, UCMPI_RMA_AOP_ADD,
                      offsetof(ucmpi_rma_ctrl_t, lock_req),
                      excl ? WRITER : READER, &ticket);
    unsigned spins = 0;
    while (rc == MPI_SUCCESS) {
        rc = ctrl_amo(win, t, UCMPI_RMA_AOP_ADD,
                      offsetof(ucmpi_rma_ctrl_t, lock_done), 0, &done);
        if (excl ? done == ticket : (done >> 32) == (ticket >> 32))
            break;
        /* serve others' requests (they may be what we wait for) */
        if (ucmpi_progress() == 0)
            ucmpi_progress_idle(++spins);
        if (spins % 1024 == 1023 && ucmpi_peer_failed(win->peers[t].world))
            rc = MPI_ERR_PROC_FAILED;
    }
    ucmpi_rt_wait_done();
    /* direct-path accesses happen after the lock is ours */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return rc;
}

static int release(MPI_Win win, int t, int type)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return ctrl_amo(win, t, UCMPI_RMA_AOP_ADD,
                    offsetof(ucmpi_rma_ctrl_t, lock_done),
                    type == MPI_LOCK_EXCLUSIVE ? WRITER : READER, NULL);
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
