/*
 * The shm path's segment: one per intracommunicator whose ranks share a
 * node, created at its first eligible collective (which every rank calls),
 * unlinked as soon as every rank mapped it (so a crash leaves nothing in
 * /dev/shm), unmapped when the comm is freed.  Also the flag protocol
 * (post, wait).  Buffer sizes and the selection: shm_select.c.
 *
 * Layout: n flags, each alone in FLAG_STRIDE bytes (no false sharing, also
 * not with the adjacent-line prefetcher), then per rank NBUF buffers of
 * `slot` bytes (collective k uses buffer k % NBUF), then per rank NSMALL
 * buffers of UCMPI_COLL_SHM_SMALL bytes (a collective of that little
 * data uses small buffer k % NSMALL instead), then per rank NSMALL size
 * records (the bytes of the reduction a rank posted k for, at k % NSMALL:
 * a count that differs between ranks is caught, see
 * ucmpi_coll_shm_check_sizes), then, on an oversubscribed node only, per
 * rank NMED buffers of MED_BYTES (data up to that size uses medium
 * buffer k % NMED: see NMED).
 */
#include "coll/shm/shm.h"
#include "coll/coll.h"
#include "coll/coll_util.h"
#include "progress.h"
#include "coll/bcast/bcast.h"
#include "coll/allreduce/allreduce.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define FLAG_STRIDE 128
#define NAME_LEN 64
/* Flag checks before progress/idle calls, when not oversubscribed. */
#define SPIN_PURE 64
/* Oversubscribed: idle turns, each a yield (which hands the core to a
 * rank of the same session), before sleeping on the futex.  Session 5 (4
 * ranks, 2 cores, load 15-20, bcast/allreduce/alltoall 8 B-1 KiB, us):
 * sleeping at once 4-7/26-80/22-80; after 80-200 turns 0.5-1.2 (a few
 * 2-5)/7-120/8-55; never 0.5-20000/4-200/10-45.
 * Session 6, yields from the first idle turn (no spinning first: a
 * sched_yield costs ~1 us on this VM, a pause 44 ns, a switch ~2.5 us;
 * the old 64 pauses + 63 progress calls before the first yield cost 3-6
 * us per wait), 30 Nov 09:03 UTC, load 34, 3 interleaved runs each:
 *   SLEEP_AFTER 16|128|1024 (a temporary knob), mpiexec -n 8 of a loop of
 *   5000 MPI_Allreduce of 8 B, and -n 4 of 10000 MPI_Alltoall of 64 B
 * 8 ranks allreduce 47/51/285 us, 4 ranks alltoall 15/15/19 us: sleeping
 * after 16 or 128 yields a tie, never sleeping much worse at 8 ranks. */
#define SLEEP_AFTER 128
#define SLEEP_NS 1000000      /* longest futex sleep */
/* Buffers per rank: a writer may run NBUF-1 collectives ahead of its
 * slowest reader (a bcast root, reduce contributors), as eager p2p
 * messages let it; matters when ranks share cores (4 ranks on 2 cores,
 * bench/coll_bench -b bcast 8 B-4 KiB at load 7-14: 4 buffers 2.8 us,
 * 16 buffers 0.5-1.1 us; Open MPI 0.3-1.3 in the run before). */
#define NBUF UCMPI_SHM_NBUF
/* Data up to UCMPI_COLL_SHM_SMALL bytes goes in a deeper ring of NSMALL
 * small buffers per rank: a bcast root or the contributors of a reduce
 * then run up to NSMALL-1 collectives ahead, so that oversubscribed
 * ranks switch (~2.5 us a switch on this VM) once per many collectives. */
#define NSMALL 64
/* Oversubscribed (more ranks than cores, where every collective costs
 * switches), data up to MED_BYTES also goes in a ring NMED deep, so that
 * a bcast root runs up to NMED-1 collectives ahead as with eager p2p
 * messages (Open MPI's binomial bcast of 4-8 KiB at 4 ranks was 0.95 /
 * 0.89x ucmpi's in session 7's quiet table).  Only there: with polling
 * ranks on cores of their own the deeper ring's cache footprint cost more
 * than it saved (UCMPI_COLL_SHM_SMALL in shm.h: 1 KiB buffers 64 deep
 * were slower at 2 ranks).  Session 8 (coll8), 30 Nov 14:23 UTC, load 18
 * from other sessions, 6 interleaved rounds, median us, 16-deep ring
 * against a 64-deep one (a temporary knob; 32 KiB buffers) and Open MPI:
 *   mpiexec -n 4 bench/coll_bench -b bcast -m 1K -M 8K
 * 1 KiB 0.46 / 0.33 / 0.8, 2 KiB 0.45 / 0.24 / 0.47, 4 KiB 0.61 / 0.41 /
 * 0.9, 8 KiB 0.85 / 0.69 / 1.0.  (Limiting it to bcast and reduce, 799a1dd,
 * was reverted: it cost 2-rank polling allreduce/allgather of 8-64 B ~20
 * ns, 0.124 -> 0.145 us, a code-layout effect on the pause-quantized
 * wait, which broke allreduce <= 0.9x Open MPI; 15:48 UTC, 6 rounds.) */
#define NMED 64
#define MED_BYTES 8192
/* a medium buffer free at k (everyone posted k - NMED + 1) also frees the
 * size record k % NSMALL (ucmpi_coll_shm_set_size) */
_Static_assert(NMED <= NSMALL, "size records outlive the medium ring");

struct ucmpi_coll_shm {
    int ok;                   /* 0: no segment, every call falls back */
    int n, me;
    size_t slot;              /* bytes of one data buffer */
    int deep;                 /* the NMED-deep medium ring is there */
    char *base;               /* the mapping (flags, then buffers) */
    size_t len;
    uint64_t seq;             /* number of the last collective begun */
    uint64_t writable;        /* every rank is known to have posted this */
    uint64_t tag_sink;        /* size_tag of data that fills its buffer */
    int *world;               /* world rank of each comm rank */
    ucmpi_comm_t *comm;       /* owner (outlives this state) */
    ucmpi_coll_shm_caps_t caps;   /* ucmpi_coll_shm_wanted's answers */
};

/* ---- whether the segment is there ---- */

int ucmpi_coll_shm_ready(ucmpi_comm_t *comm)
{
    ucmpi_coll_shm_t **slot = (ucmpi_coll_shm_t **)ucmpi_coll_shm_slot(comm);
    const ucmpi_coll_layout_t *l;

    if (slot == NULL)
        return 0;     /* no per-comm state (out of memory): cannot agree */
    if (*slot != NULL)
        return (*slot)->ok;
    /* not set up yet: every rank must take the set-up path together, so
     * decide from the node map even if the layout could not be built */
    l = ucmpi_coll_layout(comm);
    if (l != NULL)
        return l->nnodes == 1;
    for (int r = 1; r < comm->size && ucmpi_global.node_of != NULL; r++)
        if (ucmpi_global.node_of[ucmpi_comm_peer_world(comm, r)] !=
            ucmpi_global.node_of[ucmpi_comm_peer_world(comm, 0)])
            return 0;
    return 1;
}

ucmpi_coll_shm_caps_t *ucmpi_coll_shm_caps(ucmpi_comm_t *comm)
{
    ucmpi_coll_shm_t **slot = (ucmpi_coll_shm_t **)ucmpi_coll_shm_slot(comm);

    return slot != NULL && *slot != NULL && (*slot)->ok ? &(*slot)->caps
                                                        : NULL;
}

/* ---- segment set-up ---- */

/* Rank 0 creates the segment (named by its pid, the context id and a
 * counter: unique on the node); "" when it could not. */
static void create(ucmpi_coll_shm_t *sh, uint32_t ctx, char *name)
{
    static unsigned counter;
    int fd;
    void *p = MAP_FAILED;

    snprintf(name, NAME_LEN, "/ucmpi-coll-%d-%u-%u", (int)getpid(),
             (unsigned)ctx, counter++);
    fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd >= 0) {
        /* allocated now: a full /dev/shm fails here (every rank falls
         * back) rather than with SIGBUS at a later first touch */
        if (ftruncate(fd, (off_t)sh->len) == 0 &&
            posix_fallocate(fd, 0, (off_t)sh->len) == 0)
            p = mmap(NULL, sh->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                     0);
        close(fd);
        if (p == MAP_FAILED)
            shm_unlink(name);
    }
    if (p == MAP_FAILED)
        name[0] = '\0';
    else
        sh->base = p;
}

static void attach(ucmpi_coll_shm_t *sh, const char *name)
{
    int fd = shm_open(name, O_RDWR, 0600);
    struct stat st;
    void *p = MAP_FAILED;

    if (fd < 0)
        return;
    if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sh->len)
        p = mmap(NULL, sh->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p != MAP_FAILED)
        sh->base = p;
}

/* Blocking p2p collectives on comm for the set-up (bcast of the name,
 * agreement that everyone mapped it). */
static int run_bcast(ucmpi_comm_t *comm, int *buf, int len)
{
    ucmpi_sched_t *s = ucmpi_sched_create(comm);
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(comm);
    int rc;

    if (s == NULL)
        return MPI_ERR_NO_MEM;
    rc = ucmpi_bcast_build(s, buf, len, MPI_INT, 0, &g,
                           UCMPI_BCAST_BINOMIAL);
    if (rc != MPI_SUCCESS) {
        ucmpi_sched_free(s);
        return rc;
    }
    return ucmpi_sched_run_blocking(s);
}

static int run_allsum(ucmpi_comm_t *comm, int *mine, int *all)
{
    ucmpi_sched_t *s = ucmpi_sched_create(comm);
    int rc;

    if (s == NULL)
        return MPI_ERR_NO_MEM;
    rc = ucmpi_allreduce_build(s, comm, mine, all, 1, MPI_INT, MPI_SUM,
                               UCMPI_ALLREDUCE_RECURSIVE_DOUBLING);
    if (rc != MPI_SUCCESS) {
        ucmpi_sched_free(s);
        return rc;
    }
    return ucmpi_sched_run_blocking(s);
}

/* Bytes of the segment (layout at the top of this file). */
static size_t seg_len(const ucmpi_coll_shm_t *sh)
{
    return (size_t)sh->n * (FLAG_STRIDE + NBUF * sh->slot +
                            NSMALL * UCMPI_COLL_SHM_SMALL +
                            NSMALL * sizeof(uint64_t) +
                            (sh->deep ? (size_t)NMED * MED_BYTES : 0));
}

/* Every rank maps the segment or every rank falls back (sh->ok).  A rank
 * that cannot take part (no memory for its state: `refuse`) still runs the
 * set-up's two collectives, voting no, so nobody is left waiting in them. */
static int setup(ucmpi_comm_t *comm, ucmpi_coll_shm_t *sh, int refuse)
{
    /* ints (any MPI has them): the name, then whether sh->deep */
    int namebuf[NAME_LEN / sizeof(int) + 1] = {0};
    char *name = (char *)namebuf;
    int mine, all = 0, rc;

    sh->comm = comm;
    sh->n = comm->size;
    sh->me = comm->rank;
    sh->slot = ucmpi_coll_shm_slot_size(sh->n);
    sh->world = refuse ? NULL : malloc(sizeof(int) * (size_t)sh->n);
    if (sh->world != NULL)
        for (int r = 0; r < sh->n; r++)
            sh->world[r] = ucmpi_comm_peer_world(comm, r);
    /* rank 0's wait mode picks the layout for all (only speed depends
     * on it: a rank launched with another UCMPI_WAIT_MODE follows) */
    namebuf[NAME_LEN / sizeof(int)] = !ucmpi_progress_polling;
    sh->deep = namebuf[NAME_LEN / sizeof(int)];
    sh->len = seg_len(sh);
    if (sh->me == 0 && sh->world != NULL)
        create(sh, comm->ctx, name);
    rc = run_bcast(comm, namebuf, NAME_LEN / sizeof(int) + 1);
    sh->deep = namebuf[NAME_LEN / sizeof(int)] != 0;
    sh->len = seg_len(sh);
    if (rc == MPI_SUCCESS && sh->me != 0 && name[0] != '\0' &&
        sh->world != NULL)
        attach(sh, name);
    mine = sh->base != NULL;
    /* every rank takes part in the vote, also after its bcast failed (a
     * dead peer: its sends were lost; core7): skipping it left the ranks
     * whose bcast worked waiting there for ever (MPICH ft/bcast) */
    int vote = run_allsum(comm, &mine, &all);
    rc = rc != MPI_SUCCESS ? rc : vote;
    if (sh->me == 0 && name[0] != '\0')
        shm_unlink(name);            /* all mapped it (or gave up) */
    sh->ok = rc == MPI_SUCCESS && all == sh->n;
    if (!sh->ok && sh->base != NULL) {
        munmap(sh->base, sh->len);
        sh->base = NULL;
    }
    return rc;
}

/* The state of comms whose set-up this rank could not allocate: the
 * segment is off for good there, as on the ranks it voted against. */
static ucmpi_coll_shm_t shm_off;

/* Testing: UCMPI_COLL_SHM_FAIL_RANK=<world rank> makes that rank's state
 * allocation fail in every set-up (-1: never). */
static int inject_failure(void)
{
    static long r = -2;

    if (r == -2)
        r = ucmpi_config_long("COLL_SHM_FAIL_RANK");
    return r >= 0 && r == ucmpi_global.world_rank;
}

static ucmpi_coll_shm_t *shm_get(ucmpi_comm_t *comm, int *rc,
                                 const char *fn)
{
    ucmpi_coll_shm_t **slot = (ucmpi_coll_shm_t **)ucmpi_coll_shm_slot(comm);

    *rc = MPI_SUCCESS;
    if (slot == NULL)
        return NULL;
    if (*slot == NULL) {
        ucmpi_coll_shm_t *sh = inject_failure() ? NULL
                                                : calloc(1, sizeof(*sh));
        ucmpi_coll_shm_t vote_no = {0};

        *slot = sh != NULL ? sh : &shm_off;
        /* a failed set-up (a peer died during it, a stale message
         * matched) falls back like a no vote: the ranks whose set-up
         * worked saw that vote or a failed vote themselves (the loss is
         * passed on), and the usual algorithm reports a dead peer on
         * every rank alike; an error here instead had this rank leave
         * the collective while the others ran it */
        (void)setup(comm, sh != NULL ? sh : &vote_no, sh == NULL);
    }
    (void)fn;
    return (*slot)->ok ? *slot : NULL;
}

void ucmpi_coll_shm_free(void *p)
{
    ucmpi_coll_shm_t *sh = p;

    if (sh == NULL || sh == &shm_off)
        return;
    if (sh->base != NULL)
        munmap(sh->base, sh->len);
    free(sh->world);
    free(sh);
}

/* ---- flags ---- */

/* Rank r's flag: the number it posted last (bytes 0-7 of its FLAG_STRIDE
 * bytes), then how many ranks sleep on it (bytes 8-11), then the numbers
 * it took without valid data (bytes 16-31, collerr8: invalid_marks; rank
 * 0's line also holds any_invalid at bytes 32-39), then a copy of its
 * latest size records (bytes 40-55: size_word). */
static inline uint64_t *flag(ucmpi_coll_shm_t *sh, int r)
{
    return (uint64_t *)(sh->base + (size_t)r * FLAG_STRIDE);
}

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

int ucmpi_coll_shm_enter(ucmpi_comm_t *comm, const char *fn,
                         ucmpi_coll_shm_t **sh, uint64_t *k)
{
    int rc;

    *sh = shm_get(comm, &rc, fn);
    if (*sh == NULL)
        return rc != MPI_SUCCESS ? rc : UCMPI_SHM_FALLBACK;
    *k = ++(*sh)->seq;
    return MPI_SUCCESS;
}

char *ucmpi_coll_shm_buf(ucmpi_coll_shm_t *sh, int r, uint64_t k)
{
    return sh->base + (size_t)sh->n * FLAG_STRIDE +
           ((size_t)r * NBUF + k % NBUF) * sh->slot;
}

/* Which ring data of nbytes goes in. */
static inline int medium(const ucmpi_coll_shm_t *sh, size_t nbytes)
{
    return sh->deep && nbytes > UCMPI_COLL_SHM_SMALL && nbytes <= MED_BYTES;
}

/* A contribution's copy of its size record, (k << 32 | bytes), in the
 * last word of the cache line that holds its data's end (or of the line
 * after, if that word is data), inside the buffer: a line that travels
 * with the data.  Reading the size record's own line cost a 2-rank bcast
 * of 8 B ~8 ns of 37 (this: ~2).  Data that leaves no word in its buffer
 * writes to a private sink and the reader finds no tag there: then, as
 * on any mismatch, ucmpi_coll_shm_check_root_size reads the record. */
static inline uint64_t *size_tag(ucmpi_coll_shm_t *sh, int r, uint64_t k,
                                 size_t nbytes)
{
    static const uint64_t nowhere = 0;
    size_t cap = medium(sh, nbytes)                 ? MED_BYTES
                 : nbytes > UCMPI_COLL_SHM_SMALL ? sh->slot
                                                   : UCMPI_COLL_SHM_SMALL;
    size_t pos = (nbytes + 8 + 63) / 64 * 64 - 8;

    if (pos + 8 > cap)
        return r == sh->me ? &sh->tag_sink : (uint64_t *)&nowhere;
    return (uint64_t *)(ucmpi_coll_shm_data(sh, r, k, nbytes) + pos);
}

int ucmpi_coll_shm_root_size_ok(ucmpi_coll_shm_t *sh, int root, uint64_t k,
                                size_t nbytes)
{
    return *size_tag(sh, root, k, nbytes) == (k << 32 | nbytes);
}

char *ucmpi_coll_shm_data(ucmpi_coll_shm_t *sh, int r, uint64_t k,
                          size_t nbytes)
{
    if (medium(sh, nbytes))
        return sh->base +
               (size_t)sh->n * (FLAG_STRIDE + NBUF * sh->slot +
                                NSMALL * UCMPI_COLL_SHM_SMALL +
                                NSMALL * sizeof(uint64_t)) +
               ((size_t)r * NMED + k % NMED) * MED_BYTES;
    if (nbytes > UCMPI_COLL_SHM_SMALL)
        return ucmpi_coll_shm_buf(sh, r, k);
    return sh->base + (size_t)sh->n * (FLAG_STRIDE + NBUF * sh->slot) +
           ((size_t)r * NSMALL + k % NSMALL) * UCMPI_COLL_SHM_SMALL;
}

/* Oversubscribed (ranks > cores), a waiter that spun and yielded in
 * vain sleeps on the flag (a shared futex): the rank it waits for is
 * then off the CPU, and yields only help within one scheduling group
 * (ranks of different sessions, as under hydra-like launchers, yielded
 * for a whole slice: 4 ranks, bcast 8 B 0.2-12 ms per call at load 15).
 * The poster wakes sleepers: a full barrier between its store and its
 * look at the sleeper count, matching the waiter's increment-then-recheck,
 * so a wake is never lost (and futex_wait rechecks the value itself). */
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

/* Sleeps until rank r's flag moves past `seen` (or a bounded time: the
 * progress engine and the dead-peer check still run now and then). */
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

/* First rank from `from` on (not me) whose flag is below k; n if none. */
static inline int pending(ucmpi_coll_shm_t *sh, int from, uint64_t k)
{
    for (int i = from; i < sh->n; i++)
        if (i != sh->me && __atomic_load_n(flag(sh, i), __ATOMIC_ACQUIRE) < k)
            return i;
    return sh->n;
}

/* Waits until rank r (every other rank when r < 0) posted >= k: one
 * idle count for the whole wait, however many ranks it waits for.  Not
 * oversubscribed, it spins a little, then keeps the progress engine going
 * (other requests of this rank may be what a peer waits for).
 * Oversubscribed, every idle turn yields at once (the rank waited for
 * most likely needs this core), and after SLEEP_AFTER of them the rank
 * sleeps on the flag it waits for.  Checks now and then that the peer
 * still lives. */
static int wait_slow(ucmpi_coll_shm_t *sh, int r, uint64_t k, const char *fn)
{
    int cur = r >= 0 ? r : pending(sh, 0, k);
    unsigned spins = ucmpi_progress_polling ? 0 : SPIN_PURE, idle = 0;
    int rc = MPI_SUCCESS;
    uint64_t v;

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
        /* sleeping turns last up to SLEEP_NS each: look more often */
        if ((idle % 1024 == 0 || (idle >= SLEEP_AFTER && idle % 16 == 0)) &&
            ucmpi_peer_failed(sh->world[cur])) {
            rc = MPI_ERR_PROC_FAILED;
            break;
        }
    }
    if (idle > 0)
        ucmpi_rt_wait_done();
    if (rc != MPI_SUCCESS) {
        sh->ok = 0;                   /* the sequence is broken for good */
        return ucmpi_err_comm(sh->comm, rc, fn, "rank %d died during a "
                              "shared-memory collective", cur);
    }
    return MPI_SUCCESS;
}

int ucmpi_coll_shm_wait(ucmpi_coll_shm_t *sh, int r, uint64_t k,
                        const char *fn)
{
    if (r >= 0)
        return __atomic_load_n(flag(sh, r), __ATOMIC_ACQUIRE) >= k
                   ? MPI_SUCCESS
                   : wait_slow(sh, r, k, fn);
    if (pending(sh, 0, k) < sh->n) {
        int rc = wait_slow(sh, -1, k, fn);
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

/* Buffer k % depth was last used by collective k - depth (or earlier),
 * which every rank finished once it posted k - depth + 1. */
static int wait_ring(ucmpi_coll_shm_t *sh, uint64_t k, uint64_t depth,
                     const char *fn)
{
    if (k < depth || sh->writable >= k - (depth - 1))
        return MPI_SUCCESS;
    return ucmpi_coll_shm_wait(sh, -1, k - (depth - 1), fn);
}

int ucmpi_coll_shm_wait_writable(ucmpi_coll_shm_t *sh, uint64_t k,
                                 const char *fn)
{
    return wait_ring(sh, k, NBUF, fn);
}

int ucmpi_coll_shm_wait_room(ucmpi_coll_shm_t *sh, uint64_t k,
                             size_t nbytes, const char *fn)
{
    return wait_ring(sh, k,
                     medium(sh, nbytes)              ? NMED
                     : nbytes > UCMPI_COLL_SHM_SMALL ? NBUF
                                                     : NSMALL,
                     fn);
}

int ucmpi_coll_shm_contribute(ucmpi_coll_shm_t *sh, uint64_t k, int me,
                              const void *buf, MPI_Count count,
                              MPI_Datatype dt, uint64_t sig, const char *fn)
{
    size_t nbytes = (size_t)(count * dt->size);
    int rc = ucmpi_coll_shm_wait_room(sh, k, nbytes, fn);

    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_coll_shm_pack(ucmpi_coll_shm_data(sh, me, k, nbytes), buf, count,
                        dt);
    ucmpi_coll_shm_set_size(sh, k, sig);
    if (sig == nbytes)
        *size_tag(sh, me, k, nbytes) = k << 32 | nbytes;
    ucmpi_coll_shm_post(sh, k);
    return MPI_SUCCESS;
}

/* ---- collerr8: numbers taken without valid data (see shm.h) ---- */

/* [0]: bit j % 64 set: number j carried no valid data, for the numbers j
 * of the window [hi - 64, hi); [1]: hi (zeroed: nothing marked) */
static inline uint64_t *invalid_marks(ucmpi_coll_shm_t *sh, int r)
{
    return (uint64_t *)(sh->base + (size_t)r * FLAG_STRIDE + 16);
}

/* Bytes 32-39 of rank 0's flag line, which every wait reads anyway: the
 * highest window end any rank marked (only ever grows). */
static inline uint64_t *any_invalid(ucmpi_coll_shm_t *sh)
{
    return (uint64_t *)(sh->base + 32);
}

/* The numbers between my last mark and k0 carried data: their bits are
 * cleared, those of [k0, k0 + m) set, then the window moves (release:
 * a reader that sees the new hi sees the new bits). */
void ucmpi_coll_shm_mark_invalid(ucmpi_coll_shm_t *sh, uint64_t k0,
                                 uint64_t m)
{
    uint64_t *w = invalid_marks(sh, sh->me);
    uint64_t bits = w[0], hi = w[1];

    for (uint64_t j = hi + 64 <= k0 ? k0 - 64 : hi; j < k0; j++)
        bits &= ~(1ULL << (j % 64));
    for (uint64_t j = m > 64 ? k0 + m - 64 : k0; j < k0 + m; j++)
        bits |= 1ULL << (j % 64);
    w[0] = bits;
    __atomic_store_n(&w[1], k0 + m, __ATOMIC_RELEASE);
    /* the readers' one-word test: the highest hi of any rank */
    uint64_t *any = any_invalid(sh);
    uint64_t cur = __atomic_load_n(any, __ATOMIC_RELAXED);

    while (cur < k0 + m &&
           !__atomic_compare_exchange_n(any, &cur, k0 + m, false,
                                        __ATOMIC_RELEASE, __ATOMIC_RELAXED))
        ;
}

/* Which rank marked one of k .. k+g-1 (rare: some rank marked numbers). */
static int check_marks(ucmpi_coll_shm_t *sh, uint64_t k, uint64_t g,
                       const char *fn)
{
    for (int r = 0; r < sh->n; r++) {
        const uint64_t *w = invalid_marks(sh, r);
        uint64_t hi = __atomic_load_n(&w[1], __ATOMIC_ACQUIRE);

        /* (a marker runs at most NBUF numbers ahead of my wait) */
        if (__builtin_expect(hi <= k, 1) || r == sh->me)
            continue;
        for (uint64_t j = k; j < k + g && j < hi; j++)
            if (j + 64 >= hi && (w[0] >> (j % 64)) & 1)
                return ucmpi_err_comm(sh->comm, MPI_ERR_TRUNCATE, fn,
                                      "rank %d sent no block: its own "
                                      "arguments failed a check", r);
    }
    return MPI_SUCCESS;
}

int ucmpi_coll_shm_check_valid(ucmpi_coll_shm_t *sh, uint64_t k, uint64_t g,
                               const char *fn)
{
    if (__builtin_expect(__atomic_load_n(any_invalid(sh), __ATOMIC_ACQUIRE) <=
                             k, 1))
        return MPI_SUCCESS;
    return check_marks(sh, k, g, fn);
}

/* ---- core7: every rank's byte count, so a mismatch is an error ---- */

static inline uint64_t *size_rec(ucmpi_coll_shm_t *sh, int r, uint64_t k)
{
    return (uint64_t *)(sh->base +
                          (size_t)sh->n * (FLAG_STRIDE + NBUF * sh->slot +
                                           NSMALL * UCMPI_COLL_SHM_SMALL)) +
           (size_t)r * NSMALL + k % NSMALL;
}

/* Bytes 40-55 of rank r's flag line: its size records of the latest
 * even and odd numbers again, as size_key(k, bytes).  A waiter has just
 * read that line for the flag, so the usual check costs one compare per
 * rank and no cache miss; reading the records (lines their writer
 * rewrites every call) cost the 2-rank shm reduce_scatter of 16-512 B
 * 1.10-1.27x its time without a check (session 9).  Two words: in a
 * collective where everyone waits for everyone, a rank that finished k
 * may record k+1 before a slower one checks k.  The records stay the
 * truth: when a rank ran further ahead, the check reads them. */
static inline uint64_t *size_word(ucmpi_coll_shm_t *sh, int r, uint64_t k)
{
    return (uint64_t *)(sh->base + (size_t)r * FLAG_STRIDE + 40) + (k & 1);
}

/* 0 (never a key: numbers start at 1) where bytes do not fit 32 bits:
 * those calls (and SIZE_LOST) always read the records. */
static inline uint64_t size_key(uint64_t k, uint64_t nbytes)
{
    return nbytes >> 32 == 0 ? k << 32 | nbytes : 0;
}

/* Record k % NSMALL was last read in collective k - NSMALL, which every
 * rank finished once the ring is writable at k (the callers wait). */
void ucmpi_coll_shm_set_size(ucmpi_coll_shm_t *sh, uint64_t k,
                             uint64_t nbytes)
{
    *size_rec(sh, sh->me, k) = nbytes;
    /* (published by the post of k, a release store) */
    __atomic_store_n(size_word(sh, sh->me, k), size_key(k, nbytes),
                     __ATOMIC_RELAXED);
}

/* Rank r recorded `theirs` where this rank has nbytes. */
static int size_error(ucmpi_coll_shm_t *sh, int r, uint64_t theirs,
                      uint64_t nbytes, const char *fn)
{
    if (theirs == UCMPI_COLL_SHM_SIZE_LOST)
        return ucmpi_err_comm(sh->comm, MPI_ERR_OTHER, fn, "rank %d could "
                              "not take part (its arguments failed a check)",
                              r);
    return ucmpi_err_comm(sh->comm, MPI_ERR_TRUNCATE, fn, "rank %d passed "
                          "%llu bytes, this rank %llu: the counts or types "
                          "of the ranks differ", r,
                          (unsigned long long)theirs,
                          (unsigned long long)nbytes);
}

/* The ranks of a call of another size may have entered more numbers than
 * k, but posted none beyond it: going back to k (the numbers entered but
 * not posted are free again) ends the call at k on every rank, the ones
 * that do not check (contributors of a whole-vector reduce) included. */
static int check_records(ucmpi_coll_shm_t *sh, uint64_t k, uint64_t nbytes,
                         const char *fn)
{
    uint64_t theirs = nbytes;
    int bad = sh->n;

    for (int r = 0; r < sh->n; r++)
        if (r != sh->me && *size_rec(sh, r, k) != nbytes) {
            bad = r;
            theirs = *size_rec(sh, r, k);
            break;
        }
    if (bad == sh->n)
        return MPI_SUCCESS;
    sh->seq = k;
    return size_error(sh, bad, theirs, nbytes, fn);
}

int ucmpi_coll_shm_check_sizes(ucmpi_coll_shm_t *sh, uint64_t k,
                               uint64_t nbytes, const char *fn)
{
    uint64_t key = size_key(k, nbytes);
    int r = 0;

    if (__builtin_expect(key != 0, 1))
        for (; r < sh->n; r++)
            if (r != sh->me &&
                __atomic_load_n(size_word(sh, r, k), __ATOMIC_RELAXED) != key)
                break;
    if (__builtin_expect(r == sh->n, 1))
        return MPI_SUCCESS;
    return check_records(sh, k, nbytes, fn);
}

int ucmpi_coll_shm_check_root_size(ucmpi_coll_shm_t *sh, int root,
                                   uint64_t k, uint64_t nbytes,
                                   uint64_t *theirs, const char *fn)
{
    *theirs = *size_rec(sh, root, k);
    if (__builtin_expect(*theirs == nbytes, 1))
        return MPI_SUCCESS;
    return size_error(sh, root, *theirs, nbytes, fn);
}

/* xfer9: rank r's size record for k, read without a check (the vote of
 * ucmpi_xfer_shm_vote compares records that encode k). */
uint64_t ucmpi_coll_shm_size_of(ucmpi_coll_shm_t *sh, int r, uint64_t k)
{
    return *size_rec(sh, r, k);
}
