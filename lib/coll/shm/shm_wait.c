/* The shm path's flags: a rank posts a number once its data is in place,
 * readers wait (spin, progress, yield, futex sleep). */
#include "coll/shm/shm_seg.h"
#include "coll/coll_util.h"
#include "coll/coll.h"
#include "coll/check/sched_abort.h"
#include "p2p/progress.h"
#include "core/failure.h"

#include <linux/futex.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Flag checks before progress/idle calls, when not oversubscribed. */
#define SPIN_PURE 64
/* Oversubscribed: yields, then a futex sleep (yields help only within one
 * scheduling group; sleeping at once was slower; docs/tuning.md). */
#define SLEEP_AFTER 16
#define SLEEP_NS 1000000      /* longest futex sleep */

/* Rank r's sleeper count: bytes 8-11 of its flag line (shm_seg.h). */
static inline uint32_t *sleepers(ucmpi_coll_shm_t *sh, int r)
{
    return (uint32_t *)(sh->base + (size_t)r * FLAG_STRIDE + 8);
}

/* The futex word of a flag: its low 32 bits (they change at every post). */
static inline uint32_t *flag_word(uint64_t *f)
{
    return (uint32_t *)f + (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    __asm__ __volatile__("" ::: "memory");
#endif
}

/* The poster's full barrier between its store and reading the sleeper count
 * matches the waiter's increment-then-recheck: no lost futex wake. */
void ucmpi_coll_shm_post(ucmpi_coll_shm_t *sh, uint64_t k)
{
    uint64_t *f = flag(sh, sh->me);

    if (ucmpi_progress_polling) {
        __atomic_store_n(f, k, __ATOMIC_RELEASE);
        return;
    }
    __atomic_store_n(f, k, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(sleepers(sh, sh->me), __ATOMIC_SEQ_CST) != 0)
        syscall(SYS_futex, flag_word(f), FUTEX_WAKE, INT32_MAX, NULL, NULL,
                0);
}

/* Sleeps until rank r's flag moves past `seen`, for a bounded time. */
static void sleep_on(ucmpi_coll_shm_t *sh, int r, uint64_t seen)
{
    uint64_t *f = flag(sh, r);
    struct timespec ts = {0, SLEEP_NS};

    __atomic_add_fetch(sleepers(sh, r), 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(f, __ATOMIC_SEQ_CST) == seen)
        syscall(SYS_futex, flag_word(f), FUTEX_WAIT, (uint32_t)seen, &ts,
                NULL, 0);
    __atomic_sub_fetch(sleepers(sh, r), 1, __ATOMIC_RELAXED);
}

/* Rank r will never post: it is in MPI_Finalize or sent a message of a
 * p2p collective this rank has not started.  MPI_ERR_OTHER, why filled. */
static int out_of_step(ucmpi_coll_shm_t *sh, int r, uint64_t k, char *why,
                       size_t n)
{
    const char *name;
    int rc = MPI_SUCCESS;

    ucmpi_lock();
    if (ucmpi_peer_finalized(sh->world[r]) &&
        __atomic_load_n(flag(sh, r), __ATOMIC_ACQUIRE) < k) {
        snprintf(why, n, "rank %d is in MPI_Finalize", r);
        rc = MPI_ERR_OTHER;
    } else if (ucmpi_coll_peer_ahead(sh->comm, r, &name) &&
               __atomic_load_n(flag(sh, r), __ATOMIC_ACQUIRE) < k) {
        snprintf(why, n, "rank %d is in a later collective (MPI_%s)", r,
                 name);
        rc = MPI_ERR_OTHER;
    }
    ucmpi_unlock();
    return rc;
}

/* Every 256th idle turn, once the wait lasted UCMPI_COLL_STALL_SEC (from
 * *t0): out_of_step; a merely slow wait probes nothing. */
static int stalled_out_of_step(ucmpi_coll_shm_t *sh, int r, uint64_t k,
                               double *t0, char *why, size_t n)
{
    double t = ucmpi_coll_now();

    if (*t0 == 0)
        *t0 = t;
    if (t - *t0 < UCMPI_COLL_STALL_SEC)
        return MPI_SUCCESS;
    return out_of_step(sh, r, k, why, n);
}

/* First rank from `from` on (not me) whose flag is below k; n if none. */
static inline int pending(ucmpi_coll_shm_t *sh, int from, uint64_t k)
{
    for (int i = from; i < sh->n; i++)
        if (i != sh->me && __atomic_load_n(flag(sh, i), __ATOMIC_ACQUIRE) < k)
            return i;
    return sh->n;
}

/* Waits for rank r (< 0: all others) to post >= k, keeping progress going
 * (a peer may wait on another request of ours); checks that peers live. */
static int wait_slow(ucmpi_coll_shm_t *sh, int r, uint64_t k)
{
    int cur = r >= 0 ? r : pending(sh, 0, k);
    unsigned spins = ucmpi_progress_polling ? 0 : SPIN_PURE, idle = 0;
    int rc = MPI_SUCCESS;
    uint64_t v;
    double t0 = 0;
    char why[96];

    while (cur < sh->n) {
        v = __atomic_load_n(flag(sh, cur), __ATOMIC_ACQUIRE);
        if (v >= k) {
            cur = r >= 0 ? sh->n : pending(sh, cur + 1, k);
            continue;
        }
        if (spins < SPIN_PURE) {
            spins++;
            cpu_relax();
            continue;
        }
        if (ucmpi_progress() != 0)
            continue;
        idle++;
        if (ucmpi_progress_polling)
            ucmpi_progress_idle(idle);
        else if (idle < SLEEP_AFTER)
            ucmpi_progress_yield();
        else
            sleep_on(sh, cur, v);
        /* sleeping turns are long: look more often; read the flag again,
         * the dead peer may have posted after our last look */
        if ((idle % 1024 == 0 || (idle >= SLEEP_AFTER && idle % 16 == 0)) &&
            ucmpi_peer_failed(sh->world[cur]) &&
            __atomic_load_n(flag(sh, cur), __ATOMIC_ACQUIRE) < k) {
            rc = MPI_ERR_PROC_FAILED;
            break;
        }
        if ((idle % 1024 == 0 || (idle >= SLEEP_AFTER && idle % 16 == 0)) &&
            (rc = ucmpi_failure_comm_check(sh->comm, 0)) != MPI_SUCCESS)
            break;                    /* revoked (MPIX_Comm_revoke) */
        if (idle % 256 == 0 &&
            (rc = stalled_out_of_step(sh, cur, k, &t0, why, sizeof(why))) !=
                MPI_SUCCESS)
            break;
    }
    if (idle > 0)
        ucmpi_progress_wait_done();
    if (rc == MPI_ERR_OTHER) {
        sh->ok = 0;                   /* the sequence is broken for good */
        return ucmpi_coll_err(sh->comm, rc, "%s while this rank waits "
                              "for it in a shared-memory collective: the "
                              "ranks' collectives are out of step", why);
    }
    if (rc == MPI_ERR_REVOKED) {
        sh->ok = 0;
        return ucmpi_coll_err(sh->comm, rc, "the communicator was revoked "
                              "during a shared-memory collective");
    }
    if (rc != MPI_SUCCESS) {
        sh->ok = 0;                   /* the sequence is broken for good */
        return ucmpi_coll_err(sh->comm, rc, "rank %d died during a "
                              "shared-memory collective", cur);
    }
    return MPI_SUCCESS;
}

int ucmpi_coll_shm_wait(ucmpi_coll_shm_t *sh, int r, uint64_t k)
{
    if (r >= 0)
        return __atomic_load_n(flag(sh, r), __ATOMIC_ACQUIRE) >= k
                   ? MPI_SUCCESS
                   : wait_slow(sh, r, k);
    if (pending(sh, 0, k) < sh->n) {
        int rc = wait_slow(sh, -1, k);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    /* every flag is >= k now (what they are exactly: for writability) */
    uint64_t lo = UINT64_MAX;
    for (int i = 0; i < sh->n; i++) {
        uint64_t v = i == sh->me ? UINT64_MAX
                                 : __atomic_load_n(flag(sh, i), __ATOMIC_ACQUIRE);
        lo = v < lo ? v : lo;
    }
    if (sh->writable < lo)
        sh->writable = lo;
    return MPI_SUCCESS;
}

/* Buffer k % depth is free once every rank posted k - depth + 1. */
static int wait_ring(ucmpi_coll_shm_t *sh, uint64_t k, uint64_t depth)
{
    if (k < depth || sh->writable >= k - (depth - 1))
        return MPI_SUCCESS;
    return ucmpi_coll_shm_wait(sh, -1, k - (depth - 1));
}

int ucmpi_coll_shm_wait_writable(ucmpi_coll_shm_t *sh, uint64_t k)
{
    return wait_ring(sh, k, NBUF);
}

int ucmpi_coll_shm_wait_room(ucmpi_coll_shm_t *sh, uint64_t k,
                             size_t nbytes)
{
    return wait_ring(sh, k,
                     medium(sh, nbytes)              ? NMED
                     : nbytes > UCMPI_COLL_SHM_SMALL ? NBUF
                                                     : NSMALL);
}
