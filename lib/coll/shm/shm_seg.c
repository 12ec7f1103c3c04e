/* The shm path's segment, unlinked once every rank mapped it (a crash leaves
 * nothing in /dev/shm); lifetime and layout in docs/architecture.md. */
#include "coll/shm/shm_seg.h"
#include "coll/coll.h"
#include "coll/coll_util.h"
#include "p2p/progress.h"
#include "coll/bcast/bcast.h"
#include "coll/allreduce/allreduce.h"
#include "coll/check/sched_sig.h"
#include "core/config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define NAME_LEN 64

/* ---- whether the segment is there ---- */

int ucmpi_coll_shm_ready(ucmpi_comm_t *comm)
{
    ucmpi_coll_shm_t **slot = (ucmpi_coll_shm_t **)ucmpi_coll_shm_slot(comm);
    const ucmpi_coll_layout_t *l;

    if (*slot != NULL)
        return (*slot)->ok;
    /* not set up: decide from the node map, as every rank does */
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

    return *slot != NULL && (*slot)->ok ? &(*slot)->caps : NULL;
}

/* ---- segment set-up ---- */

/* Rank 0 creates the segment (name unique on the node); "" on failure. */
static void create(ucmpi_coll_shm_t *sh, uint32_t ctx, char *name)
{
    static unsigned counter;
    int fd;
    void *p = MAP_FAILED;

    snprintf(name, NAME_LEN, "/ucmpi-coll-%d-%u-%u", (int)getpid(),
             (unsigned)ctx, counter++);
    fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd >= 0) {
        /* a full /dev/shm fails here, not with a later SIGBUS */
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

/* The set-up's blocking p2p collectives (name bcast, agreement). */
static int run_setup(ucmpi_sched_t *s, int build_rc)
{
    if (build_rc != MPI_SUCCESS) {
        ucmpi_sched_free(s);
        return build_rc;
    }
    return ucmpi_sched_run_blocking(s);
}

static int run_bcast(ucmpi_comm_t *comm, int *buf, int len)
{
    ucmpi_sched_t *s = ucmpi_sched_create(comm);
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(comm);

    return s == NULL ? MPI_ERR_NO_MEM
                     : run_setup(s, ucmpi_bcast_tree(s, buf, len, MPI_INT, 0,
                                                     &g, 2));
}

static int run_allsum(ucmpi_comm_t *comm, int *mine, int *all)
{
    ucmpi_sched_t *s = ucmpi_sched_create(comm);
    ucmpi_coll_grp_t g = ucmpi_coll_grp_comm(comm);

    return s == NULL ? MPI_ERR_NO_MEM
                     : run_setup(s, ucmpi_allreduce_recdbl(s, mine, all, 1,
                                                           MPI_INT, MPI_SUM,
                                                           &g));
}

/* Bytes of the segment (layout at the top of this file). */
static size_t seg_len(const ucmpi_coll_shm_t *sh)
{
    return (size_t)sh->n * (FLAG_STRIDE + NBUF * sh->slot +
                            NSMALL * UCMPI_COLL_SHM_SMALL +
                            NSMALL * sizeof(uint64_t) +
                            (size_t)NMED * sh->med);
}

/* Every rank maps the segment or every rank falls back (sh->ok); a rank
 * that cannot take part (`refuse`) still runs both collectives, voting no. */
static int setup(ucmpi_comm_t *comm, ucmpi_coll_shm_t *sh, int refuse)
{
    /* ints (any MPI has them): the name, then sh->med */
    int namebuf[NAME_LEN / sizeof(int) + 1] = {0};
    char *name = (char *)namebuf;
    int mine, all = 0, rc;
    const char *saved = comm->coll.fn;

    sh->comm = comm;
    sh->n = comm->size;
    sh->me = comm->rank;
    sh->slot = ucmpi_coll_shm_slot_size(sh->n);
    sh->world = refuse ? NULL : malloc(sizeof(int) * (size_t)sh->n);
    if (sh->world != NULL)
        for (int r = 0; r < sh->n; r++)
            sh->world[r] = ucmpi_comm_peer_world(comm, r);
    /* rank 0's wait mode picks the layout for all */
    namebuf[NAME_LEN / sizeof(int)] = sh->n == 2                ? MED_BYTES_2
                                      : ucmpi_progress_polling ? 0
                                                               : MED_BYTES;
    sh->med = (size_t)namebuf[NAME_LEN / sizeof(int)];
    sh->len = seg_len(sh);
    if (sh->me == 0 && sh->world != NULL)
        create(sh, comm->ctx, name);
    /* signed as no collective: never taken for a user's collective */
    comm->coll.fn = "the shm segment set-up";
    rc = run_bcast(comm, namebuf, NAME_LEN / sizeof(int) + 1);
    sh->med = (size_t)namebuf[NAME_LEN / sizeof(int)];
    sh->len = seg_len(sh);
    if (rc == MPI_SUCCESS && sh->me != 0 && name[0] != '\0' &&
        sh->world != NULL)
        attach(sh, name);
    mine = sh->base != NULL;
    /* every rank votes, also after a failed bcast (MPICH ft/bcast hung) */
    int vote = run_allsum(comm, &mine, &all);
    rc = rc != MPI_SUCCESS ? rc : vote;
    comm->coll.fn = saved;
    if (sh->me == 0 && name[0] != '\0')
        shm_unlink(name);            /* all mapped it (or gave up) */
    sh->ok = rc == MPI_SUCCESS && all == sh->n;
    if (!sh->ok && sh->base != NULL) {
        munmap(sh->base, sh->len);
        sh->base = NULL;
    }
    if (sh->ok) {
        sh->small = sh->base + (size_t)sh->n * (FLAG_STRIDE + NBUF * sh->slot);
        sh->recs = (uint64_t *)(sh->small + (size_t)sh->n * NSMALL *
                                                UCMPI_COLL_SHM_SMALL);
        sh->med_ring = (char *)(sh->recs + (size_t)sh->n * NSMALL);
    }
    return rc;
}

/* Comms whose set-up state this rank could not allocate: off for good. */
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

static ucmpi_coll_shm_t *shm_get(ucmpi_comm_t *comm, int *rc)
{
    ucmpi_coll_shm_t **slot = (ucmpi_coll_shm_t **)ucmpi_coll_shm_slot(comm);

    *rc = MPI_SUCCESS;
    if (*slot == NULL) {
        ucmpi_coll_shm_t *sh = inject_failure() ? NULL
                                                : calloc(1, sizeof(*sh));
        ucmpi_coll_shm_t vote_no = {0};

        *slot = sh != NULL ? sh : &shm_off;
        /* a failed set-up falls back like a no vote (the others saw it fail
         * too); the usual algorithm then reports a dead peer alike */
        (void)setup(comm, sh != NULL ? sh : &vote_no, sh == NULL);
    }
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

/* ---- entering a collective, its buffers ---- */

/* A size record: (collective id << 8 | root % 256) << 48 over its bytes
 * (< 2^40), so other calls or roots of equal bytes fail the compare too. */
#define REC_CALL_SHIFT 48

/* The id of call fn, cached by the literal's address; one word an entry
 * (address | id << 48), so no thread pairs one address with another's id. */
#define ADDR_BITS ((1ULL << 48) - 1)
static uint64_t call_ids[64];

static inline unsigned call_id(const char *fn)
{
    uint64_t a = (uint64_t)(uintptr_t)fn & ADDR_BITS;
    uint64_t *slot = &call_ids[(a >> 3 ^ a >> 9) & 63];
    uint64_t e = __atomic_load_n(slot, __ATOMIC_RELAXED);
    unsigned id;

    if (__builtin_expect((e & ADDR_BITS) == a && a != 0, 1))
        return (unsigned)(e >> 48);
    id = ucmpi_coll_sig_id(fn);
    __atomic_store_n(slot, a | (uint64_t)id << 48, __ATOMIC_RELAXED);
    return id;
}

static inline uint64_t rec_call(ucmpi_comm_t *c)
{
    return (uint64_t)(call_id(c->coll.fn) << 8 |
                      ((unsigned)c->coll.root & 0xff))
           << REC_CALL_SHIFT;
}

/* My record of nbytes in this call (SIZE_LOST and voters' kept as is). */
static inline uint64_t rec_of(const ucmpi_coll_shm_t *sh, uint64_t nbytes)
{
    return nbytes >> 40 == 0 ? nbytes | sh->call : nbytes;
}

/* The bytes of a record (what rec_of added taken off). */
static inline uint64_t rec_bytes(uint64_t rec)
{
    return (rec >> 40 & 0xff) == 0 ? rec & ((1ULL << 40) - 1) : rec;
}

int ucmpi_coll_shm_enter(ucmpi_comm_t *comm,
                         ucmpi_coll_shm_t **sh, uint64_t *k)
{
    int rc;

    *sh = shm_get(comm, &rc);
    if (*sh == NULL)
        return rc != MPI_SUCCESS ? rc : UCMPI_SHM_FALLBACK;
    *k = ++(*sh)->seq;
    if (__builtin_expect(comm->coll.fn != (*sh)->call_fn ||
                             comm->coll.root != (*sh)->call_root,
                         0)) {
        (*sh)->call_fn = comm->coll.fn;    /* (the same call again: 0) */
        (*sh)->call_root = comm->coll.root;
        (*sh)->call = rec_call(comm);
    }
    return MPI_SUCCESS;
}

char *ucmpi_coll_shm_buf(ucmpi_coll_shm_t *sh, int r, uint64_t k)
{
    return sh->base + (size_t)sh->n * FLAG_STRIDE +
           ((size_t)r * NBUF + k % NBUF) * sh->slot;
}


/* A copy of the size record (k << 32 | bytes) in the data's last line, so it
 * travels with the data; no room: a sink, and the reader checks the record. */
static inline uint64_t *size_tag(ucmpi_coll_shm_t *sh, int r, uint64_t k,
                                 size_t nbytes)
{
    static const uint64_t nowhere = 0;
    size_t cap = medium(sh, nbytes)                 ? sh->med
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
        return sh->med_ring + ((size_t)r * NMED + k % NMED) * sh->med;
    if (nbytes > UCMPI_COLL_SHM_SMALL)
        return ucmpi_coll_shm_buf(sh, r, k);
    return sh->small + ((size_t)r * NSMALL + k % NSMALL) * UCMPI_COLL_SHM_SMALL;
}

int ucmpi_coll_shm_contribute(ucmpi_coll_shm_t *sh, uint64_t k, int me,
                              const void *buf, MPI_Count count,
                              MPI_Datatype dt, uint64_t sig, int tagged)
{
    size_t nbytes = (size_t)(count * dt->size);
    int rc = ucmpi_coll_shm_wait_room(sh, k, nbytes);

    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_coll_shm_pack(ucmpi_coll_shm_data(sh, me, k, nbytes), buf, count,
                        dt);
    ucmpi_coll_shm_set_size(sh, k, sig);
    if (tagged && sig == nbytes)
        *size_tag(sh, me, k, nbytes) = k << 32 | nbytes;
    ucmpi_coll_shm_post(sh, k);
    return MPI_SUCCESS;
}

/* ---- numbers taken without valid data (see shm.h) ---- */

/* [0]: bit j % 64: number j had no valid data, in [hi - 64, hi); [1]: hi */
static inline uint64_t *invalid_marks(ucmpi_coll_shm_t *sh, int r)
{
    return (uint64_t *)(sh->base + (size_t)r * FLAG_STRIDE + 16);
}

/* The highest hi any rank marked, in rank 0's flag line (every wait reads
 * it anyway). */
static inline uint64_t *any_invalid(ucmpi_coll_shm_t *sh)
{
    return (uint64_t *)(sh->base + 32);
}

/* Clears the bits since my last mark, sets [k0, k0 + m), then moves the
 * window (release: a reader that sees the new hi sees the new bits). */
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
static int check_marks(ucmpi_coll_shm_t *sh, uint64_t k, uint64_t g)
{
    for (int r = 0; r < sh->n; r++) {
        const uint64_t *w = invalid_marks(sh, r);
        uint64_t hi = __atomic_load_n(&w[1], __ATOMIC_ACQUIRE);

        /* (a marker runs at most NBUF numbers ahead of my wait) */
        if (__builtin_expect(hi <= k, 1) || r == sh->me)
            continue;
        for (uint64_t j = k; j < k + g && j < hi; j++)
            if (j + 64 >= hi && (w[0] >> (j % 64)) & 1)
                return ucmpi_coll_err(sh->comm, MPI_ERR_TRUNCATE,
                                      "rank %d sent no block: its own "
                                      "arguments failed a check", r);
    }
    return MPI_SUCCESS;
}

int ucmpi_coll_shm_check_valid(ucmpi_coll_shm_t *sh, uint64_t k, uint64_t g)
{
    if (__builtin_expect(__atomic_load_n(any_invalid(sh), __ATOMIC_ACQUIRE) <=
                             k, 1))
        return MPI_SUCCESS;
    return check_marks(sh, k, g);
}

/* ---- every rank's byte count, so a mismatch is an error ---- */

static inline uint64_t *size_rec(ucmpi_coll_shm_t *sh, int r, uint64_t k)
{
    return sh->recs + (size_t)r * NSMALL + k % NSMALL;
}

/* Rank r's latest even and odd size records again in its flag line, which the
* waiter just read (no cache miss); the records stay the truth beyond. */
static inline uint64_t *size_word(ucmpi_coll_shm_t *sh, int r, uint64_t k)
{
    return (uint64_t *)(sh->base + (size_t)r * FLAG_STRIDE + 40) + (k & 1);
}

/* The record with k's low 16 bits at 32-47 (0: bytes over 32 bits,
 * SIZE_LOST, voters: read the records).  No call's key is 0. */
static inline uint64_t size_key(uint64_t k, uint64_t rec)
{
    return (rec >> 32 & 0xffff) == 0 ? rec | (k & 0xffff) << 32 : 0;
}

/* Record k % NSMALL was last read at k - NSMALL: the callers waited. */
void ucmpi_coll_shm_set_size(ucmpi_coll_shm_t *sh, uint64_t k,
                             uint64_t nbytes)
{
    uint64_t rec = rec_of(sh, nbytes);

    *size_rec(sh, sh->me, k) = rec;
    /* (published by the post of k, a release store) */
    __atomic_store_n(size_word(sh, sh->me, k), size_key(k, rec),
                     __ATOMIC_RELAXED);
}

/* A voter bound for p2p (shm_vote.c) records its bytes ^ k << 40. */
static int is_vote(uint64_t theirs, uint64_t k)
{
    return theirs != UCMPI_COLL_SHM_SIZE_LOST &&
           theirs >> 40 == (k & ((1ULL << 24) - 1));
}

/* "MPI_Bcast (root 2)" for the call a record names. */
static void call_name(uint64_t rec, char *buf, size_t len)
{
    unsigned call = (unsigned)(rec >> REC_CALL_SHIFT);
    const char *name = ucmpi_coll_sig_coll_name(call >> 8);

    if (strcmp(name, "Bcast") == 0 || strcmp(name, "Reduce") == 0)
        snprintf(buf, len, "MPI_%s (root %u)", name, call & 0xff);
    else
        snprintf(buf, len, "MPI_%s", name);
}

/* Rank r recorded `theirs` for k where this rank has `mine` (records). */
static int size_error(ucmpi_coll_shm_t *sh, int r, uint64_t k,
                      uint64_t theirs, uint64_t mine)
{
    char a[64], b[64];

    if (theirs == UCMPI_COLL_SHM_SIZE_LOST)
        return ucmpi_coll_err(sh->comm, MPI_ERR_OTHER, "rank %d could "
                              "not take part (its arguments failed a check)",
                              r);
    if (is_vote(theirs, k))
        return ucmpi_coll_err(sh->comm, MPI_ERR_TRUNCATE, "rank %d "
                              "passed %llu bytes, past the shared-memory "
                              "path, this rank %llu: the counts or types of "
                              "the ranks differ", r,
                              (unsigned long long)(theirs ^ k << 40),
                              (unsigned long long)rec_bytes(mine));
    if (rec_bytes(theirs) != theirs && rec_bytes(mine) != mine &&
        (theirs ^ mine) >> REC_CALL_SHIFT != 0) {
        call_name(theirs, a, sizeof(a));
        call_name(mine, b, sizeof(b));
        return ucmpi_coll_err(sh->comm, MPI_ERR_TRUNCATE, "rank %d is "
                              "in %s, this rank in %s: the ranks' calls "
                              "differ (collective or root)", r, a, b);
    }
    return ucmpi_coll_err(sh->comm, MPI_ERR_TRUNCATE, "rank %d passed "
                          "%llu bytes, this rank %llu: the counts or types "
                          "of the ranks differ", r,
                          (unsigned long long)rec_bytes(theirs),
                          (unsigned long long)rec_bytes(mine));
}

/* Ranks of another call posted nothing beyond k: going back to k ends
 * the call there on every rank. */
static int check_records(ucmpi_coll_shm_t *sh, uint64_t k, uint64_t mine)
{
    uint64_t theirs = mine;
    int bad = sh->n;

    for (int r = 0; r < sh->n; r++)
        if (r != sh->me && *size_rec(sh, r, k) != mine) {
            bad = r;
            theirs = *size_rec(sh, r, k);
            break;
        }
    if (bad == sh->n)
        return MPI_SUCCESS;
    sh->seq = k;
    return size_error(sh, bad, k, theirs, mine);
}

int ucmpi_coll_shm_check_sizes(ucmpi_coll_shm_t *sh, uint64_t k,
                               uint64_t nbytes)
{
    uint64_t rec = rec_of(sh, nbytes), key = size_key(k, rec);
    int r = 0;

    if (__builtin_expect(key != 0, 1))
        for (; r < sh->n; r++)
            if (r != sh->me &&
                __atomic_load_n(size_word(sh, r, k), __ATOMIC_RELAXED) != key)
                break;
    if (__builtin_expect(r == sh->n, 1))
        return MPI_SUCCESS;
    return check_records(sh, k, rec);
}

int ucmpi_coll_shm_check_root_size(ucmpi_coll_shm_t *sh, int root,
                                   uint64_t k, uint64_t nbytes,
                                   uint64_t *theirs)
{
    uint64_t rec = *size_rec(sh, root, k), mine = rec_of(sh, nbytes);

    *theirs = nbytes;
    if (__builtin_expect(rec == mine, 1))
        return MPI_SUCCESS;
    /* the root's bytes when in this call (to drain), else none */
    *theirs = rec != UCMPI_COLL_SHM_SIZE_LOST && !is_vote(rec, k) &&
                      (rec ^ mine) >> REC_CALL_SHIFT == 0
                  ? rec_bytes(rec)
                  : UCMPI_COLL_SHM_SIZE_LOST;
    return size_error(sh, root, k, rec, mine);
}

/* Whether rank r's record at k is a vote (it went p2p, taking k alone). */
int ucmpi_coll_shm_voted(ucmpi_coll_shm_t *sh, int r, uint64_t k)
{
    return is_vote(*size_rec(sh, r, k), k);
}

/* A bcast non-root whose size vote failed takes the rest of a chunked
 * shm root's numbers (the vote took its first). */
int ucmpi_coll_shm_vote_drain(ucmpi_comm_t *comm, int root)
{
    ucmpi_coll_shm_t **slot = (ucmpi_coll_shm_t **)ucmpi_coll_shm_slot(comm);
    ucmpi_coll_shm_t *sh = *slot;
    uint64_t rec;

    if (sh == NULL || !sh->ok || root < 0 || root == sh->me)
        return MPI_SUCCESS;
    rec = *size_rec(sh, root, sh->seq);
    if (rec == UCMPI_COLL_SHM_SIZE_LOST || is_vote(rec, sh->seq) ||
        (rec ^ sh->call) >> REC_CALL_SHIFT != 0 ||
        rec_bytes(rec) <= sh->slot)
        return MPI_SUCCESS;
    return ucmpi_coll_shm_bcast_drain(comm, root, rec_bytes(rec));
}

uint64_t ucmpi_coll_shm_size_of(ucmpi_coll_shm_t *sh, int r, uint64_t k)
{
    return *size_rec(sh, r, k);
}
