/* Failed peers (MPI_ERR_PROC_FAILED, not a hang) and peers in MPI_Finalize
 * that a stalled collective waits for: docs/architecture.md, "core: peers". */
#include "core/failure.h"
#include "p2p/request.h"
#include "p2p/progress_api.h"
#include "ucmpi_rt.h"
#include "comm/comm_internal.h"
#include "p2p/tag.h"
#include "ucp_glue/ucx.h"
#include "core/hooks.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PID_KEY "ucmpi.pid"

static pid_t *peer_pid;        /* world rank -> pid (0: unknown) */
static uint8_t *fin_state;     /* world rank -> FIN_ASKED | FIN_DONE */

/* Declared failures: a flag per world rank and the ranks in detection order
 * (slots are taken, filled, then published in order: any thread declares). */
static uint8_t *declared;
static int *order;
static int n_taken, n_published;
static int (*comm_check)(struct ucmpi_comm_s *, int);
int ucmpi_failure_poll_left = UCMPI_FAILURE_POLL_EVERY;

void ucmpi_failure_poke(void)
{
    __atomic_store_n(&ucmpi_failure_poll_left, 1, __ATOMIC_RELAXED);
}

/* The runtime's thread (PMIx termination events). */
static void failed_by_rt(int rank)
{
    ucmpi_failure_declare(rank);
}

int ucmpi_failure_init(void)
{
    int32_t pid = (int32_t)getpid();
    size_t n = (size_t)ucmpi_global.proc_cap;
    /* allocated here, not on first use: waits of several threads look up
     * peers concurrently (MPI_THREAD_MULTIPLE) and would race on it */
    peer_pid = calloc(n, sizeof(pid_t));
    fin_state = calloc(n, 1);
    order = calloc(n, sizeof(int));
    n_taken = n_published = 0;
    __atomic_store_n(&declared, calloc(n, 1), __ATOMIC_RELEASE);
    if (peer_pid == NULL || fin_state == NULL || order == NULL ||
        declared == NULL)
        return -1;
    if (ucmpi_rt_on_proc_failed(failed_by_rt) != 0)
        return -1;
    return ucmpi_rt_put(PID_KEY, &pid, sizeof(pid));
}

void ucmpi_failure_finalize(void)
{
    uint8_t *d = declared;

    (void)ucmpi_rt_on_proc_failed(NULL);   /* no event after the free */
    __atomic_store_n(&declared, NULL, __ATOMIC_RELEASE);
    free(d);
    free(order);
    order = NULL;
    free(peer_pid);
    free(fin_state);
    peer_pid = NULL;
    fin_state = NULL;
}

void ucmpi_failure_declare(int r)
{
    uint8_t *d = __atomic_load_n(&declared, __ATOMIC_ACQUIRE);
    int i;

    if (d == NULL || r < 0 || r >= ucmpi_global.proc_cap ||
        r == ucmpi_global.world_rank ||
        __atomic_exchange_n(&d[r], 1, __ATOMIC_ACQ_REL) != 0)
        return;
    i = __atomic_fetch_add(&n_taken, 1, __ATOMIC_ACQ_REL);
    order[i] = r;
    while (__atomic_load_n(&n_published, __ATOMIC_ACQUIRE) != i)
        sched_yield();                 /* an earlier slot is being filled */
    __atomic_store_n(&n_published, i + 1, __ATOMIC_RELEASE);
    ucmpi_failure_poke();
    ucmpi_hooks_run(UCMPI_HOOK_PEER_FAILED, &r);
}

int ucmpi_failure_count(void)
{
    return __atomic_load_n(&n_published, __ATOMIC_ACQUIRE);
}

int ucmpi_failure_nth(int i)
{
    return order[i];
}

void ucmpi_failure_set_comm_check(int (*fn)(struct ucmpi_comm_s *, int))
{
    comm_check = fn;
}

int ucmpi_failure_comm_check(struct ucmpi_comm_s *comm, int any_source)
{
    return comm_check != NULL && comm != NULL ? comm_check(comm, any_source)
                                              : 0;
}

static pid_t pid_of(int r)
{
    if (peer_pid == NULL)      /* after finalize */
        return 0;
    if (peer_pid[r] == 0 && r < ucmpi_global.world_size) {
        void *v = NULL;
        size_t len = 0;
        if (ucmpi_rt_get(r, PID_KEY, &v, &len) == 0 && len == sizeof(int32_t))
            peer_pid[r] = (pid_t)*(int32_t *)v;
        free(v);
    }
    return peer_pid[r];
}

int ucmpi_peer_pid(int r)
{
    return r >= 0 && r < ucmpi_global.proc_cap ? (int)pid_of(r) : 0;
}

/* Another job's process (lib/comm/dpm_procs.c) has pid `pid`. */
void ucmpi_peer_set_pid(int r, int pid)
{
    if (peer_pid != NULL && r >= ucmpi_global.world_size &&
        r < ucmpi_global.proc_cap)
        peer_pid[r] = (pid_t)pid;
}

int ucmpi_peer_forget(int r)
{
    uint8_t *d = __atomic_load_n(&declared, __ATOMIC_ACQUIRE);

    if (r < ucmpi_global.world_size || r >= ucmpi_global.proc_cap)
        return 0;
    if (peer_pid != NULL)
        peer_pid[r] = 0;
    if (fin_state != NULL)
        fin_state[r] = 0;
    return d != NULL && __atomic_load_n(&d[r], __ATOMIC_RELAXED);
}

/* World rank r is known to be gone. */
int ucmpi_peer_failed(int r)
{
    uint8_t *d = __atomic_load_n(&declared, __ATOMIC_ACQUIRE);

    if (d != NULL && __atomic_load_n(&d[r], __ATOMIC_RELAXED))
        return 1;
    if (ucmpi_ucx_peer_failed(r)) {
        ucmpi_failure_declare(r);
        return 1;
    }
    if (ucmpi_global.node_of == NULL ||
        ucmpi_global.node_of[r] != ucmpi_global.node_of[ucmpi_global.world_rank])
        return 0;
    pid_t pid = pid_of(r);
    if (pid > 0 && kill(pid, 0) != 0 && errno == ESRCH) {
        ucmpi_failure_declare(r);
        return 1;
    }
    return 0;
}

/* Called from waiting loops now and then: the layer that owns the
 * request's kind fails it when it waits for a dead peer (p2p, coll). */
void ucmpi_request_check_peer(ucmpi_request_t *r)
{
    ucmpi_hooks_run(UCMPI_HOOK_PEER_CHECK, r);
}

/* ---- peers in MPI_Finalize ---- */

/* The context of the question, the answer and the barrier: beyond every
 * communicator's (UCMPI_CTX_IDS), within the tag's field. */
#define FIN_CTX UCMPI_TAG_MAX_CTX
_Static_assert(UCMPI_CTX_IDS <= FIN_CTX, "FIN_CTX is a communicator's");
enum { FIN_QUERY = 1, FIN_ANSWER = 2, FIN_BARRIER = 3 };
enum { FIN_ASKED = 1, FIN_DONE = 2 };
#define FIN_EPOCH_MASK 0x1ffff   /* MPI tag: kind[23:22] epoch[21:5] round[4:0] */

static unsigned fin_epoch;     /* instances taken down (sessions) */

static uint64_t fin_tag(int src, int kind, int round)
{
    return ucmpi_tag_make(FIN_CTX, UCMPI_CTX_COLL, src,
                          kind << 22 | (int)(fin_epoch & FIN_EPOCH_MASK) << 5 |
                              round);
}

/* Takes a message of kind (and round) from world rank src (any when < 0)
 * out of matching: 1 and its sender in *from, else 0. */
static int fin_take(int kind, int round, int src, int *from)
{
    uint64_t mask = UCMPI_TAG_MASK_CTX | UCMPI_TAG_MASK_TAG, t;
    size_t len;
    void *msg;

    if (kind != FIN_BARRIER)          /* questions of any epoch */
        mask = UCMPI_TAG_MASK_CTX | (UINT64_C(3) << 22);
    if (src >= 0)
        mask |= UCMPI_TAG_MASK_SRC;
    if (!ucmpi_ucx_tag_probe(fin_tag(src < 0 ? 0 : src, kind, round), mask,
                             1, &t, &len, &msg))
        return 0;
    ucmpi_ucx_msg_discard(msg);
    *from = ucmpi_tag_src(t);
    return 1;
}

int ucmpi_peer_finalized(int r)
{
    int me = ucmpi_global.world_rank, from;

    if (fin_state == NULL || r < 0 || r >= ucmpi_global.world_size ||
        r == me)
        return 0;
    if (!(fin_state[r] & FIN_ASKED)) {
        fin_state[r] |= FIN_ASKED;
        (void)ucmpi_ucx_send_ack(r, fin_tag(me, FIN_QUERY, 0));
    }
    while (fin_take(FIN_ANSWER, 0, -1, &from))
        if (from < ucmpi_global.world_size)
            fin_state[from] |= FIN_DONE;
    return (fin_state[r] & FIN_DONE) != 0;
}

/* In MPI_Finalize: answers the questions (a progress hook, under the big
 * lock; every 16th turn). */
static int fin_answer(void)
{
    static unsigned turn;
    int from, n = 0;

    if (++turn % 16 != 0)
        return 0;
    while (fin_take(FIN_QUERY, 0, -1, &from))
        if (from < ucmpi_global.world_size && from != ucmpi_global.world_rank &&
            ucmpi_ucx_send_ack(from, fin_tag(ucmpi_global.world_rank,
                                             FIN_ANSWER, 0)) == MPI_SUCCESS)
            n++;
    return n;
}

void ucmpi_fin_end(void)
{
    ucmpi_progress_unregister(fin_answer);
    fin_epoch++;
}

void ucmpi_fin_drop(void)
{
    uint64_t t;
    size_t len;
    void *msg;

    ucmpi_lock();
    while (ucmpi_ucx_tag_probe(ucmpi_tag_make(FIN_CTX, UCMPI_CTX_COLL, 0, 0),
                               UCMPI_TAG_MASK_CTX, 1, &t, &len, &msg))
        ucmpi_ucx_msg_discard(msg);
    ucmpi_unlock();
}

static int any_peer_failed(void)
{
    for (int r = 0; r < ucmpi_global.world_size; r++)
        if (r != ucmpi_global.world_rank && ucmpi_peer_failed(r))
            return 1;
    return 0;
}

/* Waits for the barrier message of round from world rank src: 0, or -1
 * when a peer died (nothing more to wait for). */
static int fin_wait(int round, int src)
{
    unsigned spins = 0;
    int from, got;

    for (;;) {
        ucmpi_lock();
        got = fin_take(FIN_BARRIER, round, src, &from);
        ucmpi_unlock();
        if (got)
            break;
        if (ucmpi_progress() != 0)
            continue;
        ucmpi_progress_idle(++spins);
        if (spins % 256 == 0 && any_peer_failed())
            break;
    }
    ucmpi_progress_wait_done();
    return got ? 0 : -1;
}

int ucmpi_fin_barrier(void)
{
    int n = ucmpi_global.world_size, me = ucmpi_global.world_rank;

    /* from here on this process joins no collective (its freed requests are
     * complete): one still waiting for it is out of step */
    ucmpi_progress_register(fin_answer);

    /* dissemination: after round k a rank has heard (indirectly) from the
     * 2^(k+1) ranks before it */
    for (int k = 0, d = 1; d < n; k++, d *= 2) {
        ucmpi_lock();
        int rc = ucmpi_ucx_send_ack((me + d) % n, fin_tag(me, FIN_BARRIER, k));
        ucmpi_unlock();
        if (rc != MPI_SUCCESS || fin_wait(k, (me - d + n) % n) != 0)
            return -1;
    }
    return 0;
}
