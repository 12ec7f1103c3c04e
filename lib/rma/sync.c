/* Fence, PSCW and flushes.  PSCW notices go on the window comm's auxiliary
 * context: "posted" from target to origin, "done" back. */
#include "p2p/progress.h"
#include "core/call.h"
#include "rma/rma.h"
#include "rma/rma_stats.h"
#include "core/failure.h"
#include "p2p/pt2pt.h"

#include <stdlib.h>

enum { TAG_POSTED = 1, TAG_DONE = 2 };

static int check_assert(MPI_Win win, int assert, int allowed, const char *fn)
{
    if (assert & ~allowed)
        return ucmpi_err_win(win, MPI_ERR_ASSERT, fn,
                             "invalid assertion bits 0x%x", assert & ~allowed);
    return MPI_SUCCESS;
}

/* An epoch may begin when none is open, or after a fence that no
 * operation followed (the fence then just closes). */
static bool access_free(MPI_Win win)
{
    return win->access == UCMPI_EPOCH_NONE ||
           (win->access == UCMPI_EPOCH_FENCE && win->fence_ops == 0);
}

#pragma weak MPI_Win_fence = PMPI_Win_fence
int PMPI_Win_fence(int assert, MPI_Win win)
{
    ucmpi_rma_stats.syncs[UCMPI_RMA_STAT_FENCE]++;
    static const char fn[] = "MPI_Win_fence";
    int rc = ucmpi_rma_check_win(win, fn);
    if (rc == MPI_SUCCESS)
        rc = check_assert(win, assert, MPI_MODE_NOSTORE | MPI_MODE_NOPUT |
                          MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (win->access != UCMPI_EPOCH_NONE && win->access != UCMPI_EPOCH_FENCE)
        return ucmpi_err_win(win, MPI_ERR_RMA_SYNC, fn,
                             "a lock or start epoch is open");
    if (win->exposure == UCMPI_EPOCH_PSCW)
        return ucmpi_err_win(win, MPI_ERR_RMA_SYNC, fn,
                             "a post epoch is open");
    rc = ucmpi_rma_complete(win, -1, 1);
    int rc2 = ucmpi_rma_barrier(win->comm);
    /* others' direct-path stores before the barrier are seen after it */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    int epoch = (assert & MPI_MODE_NOSUCCEED) ? UCMPI_EPOCH_NONE
                                              : UCMPI_EPOCH_FENCE;
    win->access = win->exposure = epoch;
    win->fence_ops = 0;
    if (rc == MPI_SUCCESS)
        rc = rc2;
    if (rc != MPI_SUCCESS)
        return ucmpi_err_win(win, rc, fn, "completing operations failed");
    return MPI_SUCCESS;
}

/* Window ranks of the members of g (NULL on error). */
static int *group_ranks(MPI_Win win, ucmpi_group_t *g)
{
    int *r = malloc(sizeof(int) * (g->size ? g->size : 1));
    if (r == NULL)
        return NULL;
    for (int i = 0; i < g->size; i++) {
        int w = ucmpi_group_world(g, i);
        r[i] = -1;
        for (int j = 0; j < win->size; j++)
            if (win->peers[j].world == w)
                r[i] = j;
        if (r[i] < 0) {
            free(r);
            return NULL;
        }
    }
    return r;
}

static int check_group(MPI_Win win, MPI_Group group, const char *fn,
                       int **ranks)
{
    if (group == MPI_GROUP_NULL || group->magic != UCMPI_MAGIC_GROUP)
        return ucmpi_err_win(win, MPI_ERR_GROUP, fn,
                             "group is null or freed");
    *ranks = group_ranks(win, group);
    if (*ranks == NULL)
        return ucmpi_err_win(win, MPI_ERR_GROUP, fn,
                             "group has a process outside the window");
    return MPI_SUCCESS;
}

static int wait_free(ucmpi_request_t *req, int rc)
{
    int st = ucmpi_request_wait(req);
    ucmpi_request_free(req);
    return rc != MPI_SUCCESS ? rc : st;
}

static char notice_byte;

#pragma weak MPI_Win_post = PMPI_Win_post
int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    ucmpi_rma_stats.syncs[UCMPI_RMA_STAT_PSCW]++;
    static const char fn[] = "MPI_Win_post";
    int *ranks, rc = ucmpi_rma_check_win(win, fn);
    if (rc == MPI_SUCCESS)
        rc = check_assert(win, assert, MPI_MODE_NOCHECK | MPI_MODE_NOSTORE |
                          MPI_MODE_NOPUT, fn);
    if (rc == MPI_SUCCESS && win->exposure == UCMPI_EPOCH_PSCW)
        rc = ucmpi_err_win(win, MPI_ERR_RMA_SYNC, fn,
                           "an exposure epoch is already open");
    if (rc == MPI_SUCCESS)
        rc = check_group(win, group, fn, &ranks);
    if (rc != MPI_SUCCESS)
        return rc;
    win->post_reqs = calloc(group->size ? group->size : 1,
                            sizeof(*win->post_reqs));
    if (win->post_reqs == NULL) {
        free(ranks);
        return ucmpi_err_win(win, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    win->npost_reqs = group->size;
    /* my stores visible to origins that read after the post notice */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (win->access == UCMPI_EPOCH_FENCE && win->fence_ops == 0)
        win->access = UCMPI_EPOCH_NONE;
    for (int i = 0; i < group->size && rc == MPI_SUCCESS; i++) {
        rc = ucmpi_irecv(&notice_byte, 0, MPI_BYTE, ranks[i],
                         win->tag + TAG_DONE, win->comm, UCMPI_CTX_AUX, &win->post_reqs[i]);
        if (rc == MPI_SUCCESS && !(assert & MPI_MODE_NOCHECK))
            rc = ucmpi_send(&notice_byte, 0, MPI_BYTE, ranks[i],
                            win->tag + TAG_POSTED, win->comm, UCMPI_CTX_AUX);
    }
    free(ranks);
    win->exposure = UCMPI_EPOCH_PSCW;
    if (rc != MPI_SUCCESS)
        return ucmpi_err_win(win, rc, fn, "sending post notices failed");
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_start = PMPI_Win_start
int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    ucmpi_rma_stats.syncs[UCMPI_RMA_STAT_PSCW]++;
    static const char fn[] = "MPI_Win_start";
    int *ranks, rc = ucmpi_rma_check_win(win, fn);
    if (rc == MPI_SUCCESS)
        rc = check_assert(win, assert, MPI_MODE_NOCHECK, fn);
    if (rc == MPI_SUCCESS && !access_free(win))
        rc = ucmpi_err_win(win, MPI_ERR_RMA_SYNC, fn,
                           "an access epoch is already open");
    if (rc == MPI_SUCCESS)
        rc = check_group(win, group, fn, &ranks);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < group->size && rc == MPI_SUCCESS &&
                    !(assert & MPI_MODE_NOCHECK); i++)
        rc = ucmpi_recv(&notice_byte, 0, MPI_BYTE, ranks[i],
                        win->tag + TAG_POSTED, win->comm, UCMPI_CTX_AUX, NULL);
    free(ranks);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_win(win, rc, fn, "waiting for post notices failed");
    ucmpi_group_retain(group);
    win->start_group = group;
    win->access = UCMPI_EPOCH_PSCW;
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_complete = PMPI_Win_complete
int PMPI_Win_complete(MPI_Win win)
{
    ucmpi_rma_stats.syncs[UCMPI_RMA_STAT_PSCW]++;
    static const char fn[] = "MPI_Win_complete";
    int *ranks, rc = ucmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (win->access != UCMPI_EPOCH_PSCW)
        return ucmpi_err_win(win, MPI_ERR_RMA_SYNC, fn,
                             "no MPI_Win_start epoch is open");
    ucmpi_group_t *g = win->start_group;
    ranks = group_ranks(win, g);
    if (ranks == NULL)
        return ucmpi_err_win(win, MPI_ERR_NO_MEM, fn, "out of memory");
    rc = ucmpi_rma_complete(win, -1, 1);
    for (int i = 0; i < g->size; i++) {
        int rc2 = ucmpi_send(&notice_byte, 0, MPI_BYTE, ranks[i],
                             win->tag + TAG_DONE, win->comm, UCMPI_CTX_AUX);
        if (rc == MPI_SUCCESS)
            rc = rc2;
    }
    free(ranks);
    ucmpi_group_release(g);
    win->start_group = NULL;
    win->access = UCMPI_EPOCH_NONE;
    if (rc != MPI_SUCCESS)
        return ucmpi_err_win(win, rc, fn, "completing the epoch failed");
    return MPI_SUCCESS;
}

static int end_exposure(MPI_Win win)
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < win->npost_reqs; i++)
        rc = wait_free(win->post_reqs[i], rc);
    free(win->post_reqs);
    win->post_reqs = NULL;
    win->npost_reqs = 0;
    win->exposure = UCMPI_EPOCH_NONE;
    /* origins' direct-path stores are seen after their done notices */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return rc;
}

/* MPI_Win_wait (test false) and MPI_Win_test. */
static int wait_test(MPI_Win win, bool test, int *flag, const char *fn)
{
    int rc = ucmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (test && flag == NULL)
        return ucmpi_err_win(win, MPI_ERR_ARG, fn, "flag is NULL");
    if (win->exposure != UCMPI_EPOCH_PSCW)
        return ucmpi_err_win(win, MPI_ERR_RMA_SYNC, fn,
                             "no MPI_Win_post epoch is open");
    if (test) {
        int n = ucmpi_progress();
        *flag = 1;
        for (int i = 0; i < win->npost_reqs; i++)
            if (!ucmpi_request_is_complete(win->post_reqs[i]))
                *flag = 0;
        if (!*flag) {
            ucmpi_progress_poll_miss(n);
            return MPI_SUCCESS;
        }
    }
    rc = end_exposure(win);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_win(win, rc, fn, "waiting for origins failed");
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_wait = PMPI_Win_wait
int PMPI_Win_wait(MPI_Win win)
{
    ucmpi_rma_stats.syncs[UCMPI_RMA_STAT_PSCW]++;
    return wait_test(win, false, NULL, "MPI_Win_wait");
}

#pragma weak MPI_Win_test = PMPI_Win_test
int PMPI_Win_test(MPI_Win win, int *flag)
{
    ucmpi_rma_stats.syncs[UCMPI_RMA_STAT_PSCW]++;
    return wait_test(win, true, flag, "MPI_Win_test");
}

/* ---- flush family: only inside passive-target epochs ---- */
static int flush_common(MPI_Win win, int rank, int remote)
{
    const char *fn = ucmpi_call_name();
    int rc = ucmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (rank != -1 && (rank < 0 || rank >= win->size))
        return rank == MPI_PROC_NULL ? MPI_SUCCESS
                   : ucmpi_err_win(win, MPI_ERR_RANK, fn,
                                   "rank %d outside [0, %d)", rank, win->size);
    bool ok = win->access == UCMPI_EPOCH_LOCK_ALL ||
              (win->access == UCMPI_EPOCH_LOCK &&
               (rank < 0 || win->peers[rank].lock != 0));
    if (!ok)
        return ucmpi_err_win(win, MPI_ERR_RMA_SYNC, fn,
                             "no passive-target epoch towards %s",
                             rank < 0 ? "any target" : "this target");
    rc = ucmpi_rma_complete(win, rank, remote);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_win(win, rc, fn, "an operation failed");
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_flush = PMPI_Win_flush
int PMPI_Win_flush(int rank, MPI_Win win)
{
    ucmpi_rma_stats.syncs[UCMPI_RMA_STAT_FLUSH]++;
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Win_flush");
    return flush_common(win, rank < 0 && rank != MPI_PROC_NULL ? -3 : rank,
                        1);
}

#pragma weak MPI_Win_flush_local = PMPI_Win_flush_local
int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    ucmpi_rma_stats.syncs[UCMPI_RMA_STAT_FLUSH]++;
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Win_flush_local");
    return flush_common(win, rank < 0 && rank != MPI_PROC_NULL ? -3 : rank,
                        0);
}

#pragma weak MPI_Win_flush_all = PMPI_Win_flush_all
int PMPI_Win_flush_all(MPI_Win win)
{
    ucmpi_rma_stats.syncs[UCMPI_RMA_STAT_FLUSH]++;
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Win_flush_all");
    return flush_common(win, -1, 1);
}

#pragma weak MPI_Win_flush_local_all = PMPI_Win_flush_local_all
int PMPI_Win_flush_local_all(MPI_Win win)
{
    ucmpi_rma_stats.syncs[UCMPI_RMA_STAT_FLUSH]++;
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Win_flush_local_all");
    return flush_common(win, -1, 0);
}

#pragma weak MPI_Win_sync = PMPI_Win_sync
int PMPI_Win_sync(MPI_Win win)
{
    ucmpi_rma_stats.syncs[UCMPI_RMA_STAT_FLUSH]++;
    int rc = ucmpi_rma_check_win(win, "MPI_Win_sync");
    if (rc != MPI_SUCCESS)
        return rc;
    /* unified model: public and private copies are the same memory */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    /* programs spin on it, reading a shared-memory window the others
     * write: nothing to do lets another rank have the core */
    ucmpi_progress_poll_miss(ucmpi_progress());
    return MPI_SUCCESS;
}

int ucmpi_rma_cnt_wait_peer(ucmpi_rma_cnt_t *c, int peer)
{
    unsigned spins = 0;
    while (!ucmpi_rma_cnt_done(c)) {
        int events = ucmpi_progress();
        if (events != 0)
            spins = 0;
        /* software RMA and flush acknowledgements need the target to run:
         * oversubscribed, give it the core every turn */
        ucmpi_progress_handoff(events, &spins);
        if (events != 0)
            continue;
        /* RMA endpoints have no error handling: look at the peer */
        if (peer >= 0 && spins % 1024 == 0 && ucmpi_peer_failed(peer)) {
            ucmpi_progress_wait_done();
            return MPI_ERR_PROC_FAILED;
        }
    }
    ucmpi_progress_wait_done();
    return c->status;
}

int ucmpi_rma_flush_wait(int peer)
{
    /* on the heap: a flush towards a dead peer is abandoned, not freed */
    ucmpi_rma_cnt_t *cnt = calloc(1, sizeof(*cnt));

    if (cnt == NULL)
        return MPI_ERR_NO_MEM;
    int rc = ucmpi_rma_flush(peer, cnt);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_rma_cnt_wait_peer(cnt, peer);
    if (rc != MPI_ERR_PROC_FAILED)
        free(cnt);
    return rc;
}
