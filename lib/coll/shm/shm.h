/*
 * On-node shared-memory path for small blocking collectives.
 *
 * When every rank of an intracommunicator sits on one node, a segment
 * shared by its ranks (created at the first eligible collective) holds one
 * sequence flag and NBUF (16) data buffers per rank.  A collective is
 * numbered (k = 1, 2, ...: every rank calls the comm's collectives in the
 * same order); a rank publishes k in its flag once its data for k is in
 * its buffer k % NBUF (or, for pure readers, on entry), and readers wait
 * for the flags they need.  A rank's flag at k also says it finished
 * collective k-1, so a writer may reuse buffer k % NBUF (last used by
 * collective k-NBUF) once every flag is >= k-NBUF+1.  Data larger than a
 * buffer (bcast, allreduce, allgather, alltoall) goes in buffer-size
 * chunks, each chunk numbered like a collective of its own, so a writer
 * fills up to NBUF-1 chunks ahead of its readers (shm_large.c).
 *
 * This is a design change against "collectives are schedules over p2p"
 * (docs/architecture.md): one store + one load per peer instead of a
 * UCX message and a schedule; measurements in docs/tuning.md.
 * Nonblocking and persistent forms keep the schedules.
 */
#ifndef UCMPI_COLL_SHM_H
#define UCMPI_COLL_SHM_H

#include "comm/comm.h"
#include "datatype/datatype.h"
#include "coll/op.h"

#include <stdint.h>
#include <string.h>

/* Collectives with a shm algorithm (index of per-kind tables). */
enum {
    UCMPI_SHM_BARRIER, UCMPI_SHM_BCAST, UCMPI_SHM_REDUCE,
    UCMPI_SHM_ALLREDUCE, UCMPI_SHM_ALLGATHER, UCMPI_SHM_ALLTOALL,
    UCMPI_SHM_REDUCE_SCATTER, UCMPI_SHM_NKINDS
};

/* Returned by the collectives below when the comm has no segment (it
 * could not be created on some rank: every rank gets this answer for
 * the same call); the caller then runs its usual algorithm. */
#define UCMPI_SHM_FALLBACK (-1)

/* Whether blocking collective `kind` with `nbytes` of data per rank (the
 * largest a rank puts into its buffer, equal on every rank) takes the
 * shm path on comm: forced (UCMPI_<COLL>_ALGORITHM=shm) or automatic
 * (nothing forced, within the measured threshold).  Depends only on
 * arguments every rank has in common. */
int ucmpi_coll_shm_wanted(ucmpi_comm_t *comm, int kind, size_t nbytes);
/* Its answers per comm (shm_select.c fills them, shm_seg.c keeps them with
 * the segment): kind takes the shm path below cap[kind] bytes, for the
 * collective knobs of generation gen - 1 (0: not filled). */
typedef struct {
    unsigned gen;
    size_t cap[UCMPI_SHM_NKINDS];
} ucmpi_coll_shm_caps_t;
/* comm's answers, NULL while it has no usable segment. */
ucmpi_coll_shm_caps_t *ucmpi_coll_shm_caps(ucmpi_comm_t *comm);

/* The collectives: MPI_SUCCESS, UCMPI_SHM_FALLBACK, or an error reported
 * through comm's handler (a dead peer: MPI_ERR_PROC_FAILED).  Arguments
 * are checked by the caller; reduce/allreduce need dt->contig. */
/* Every rank records nbytes and checks the others': the barrier (0
 * bytes) and the size vote of a reduction that leaves the shm path. */
int ucmpi_coll_shm_sizes(ucmpi_comm_t *comm, size_t nbytes);
/* bcast: lost (the root only) says the root's buffer failed a check: the
 * others report an error instead of taking its zeros as data. */
int ucmpi_coll_shm_bcast(ucmpi_comm_t *comm, void *buf, MPI_Count count,
                         MPI_Datatype dt, int root, int lost);
int ucmpi_coll_shm_reduce(ucmpi_comm_t *comm, const void *sbuf, void *rbuf,
                          MPI_Count count, MPI_Datatype dt, MPI_Op op,
                          int root);
int ucmpi_coll_shm_allreduce(ucmpi_comm_t *comm, const void *sbuf,
                             void *rbuf, MPI_Count count, MPI_Datatype dt,
                             MPI_Op op);
/* Every rank's whole vector (total elements) goes in; I reduce elements
 * [displ, displ + mine) into rbuf. */
int ucmpi_coll_shm_reduce_scatter(ucmpi_comm_t *comm, const void *sbuf,
                                  void *rbuf, MPI_Count total,
                                  MPI_Count displ, MPI_Count mine,
                                  MPI_Datatype dt, MPI_Op op);
int ucmpi_coll_shm_allgather(ucmpi_comm_t *comm, const void *sbuf,
                             MPI_Count scount, MPI_Datatype sdt, void *rbuf,
                             MPI_Count rcount, MPI_Datatype rdt);
int ucmpi_coll_shm_alltoall(ucmpi_comm_t *comm, const void *sbuf,
                            MPI_Count scount, MPI_Datatype sdt, void *rbuf,
                            MPI_Count rcount, MPI_Datatype rdt);

/* Data larger than one buffer (shm_large.c, called by the above): chunks,
 * each a collective number of its own. */
int ucmpi_coll_shm_bcast_large(ucmpi_comm_t *comm, void *buf,
                               MPI_Count count, MPI_Datatype dt, int root,
                               int lost);
/* A non-root whose byte count differs from the root's `total`: takes the
 * numbers of the root's chunks after the first, without copying, so the
 * next collective finds every rank in step. */
int ucmpi_coll_shm_bcast_drain(ucmpi_comm_t *comm, int root, size_t total);
/* A non-root whose size vote (ucmpi_xfer_shm_vote) just failed: drains
 * the root's chunks where the root took the chunked shm path. */
int ucmpi_coll_shm_vote_drain(ucmpi_comm_t *comm, int root);
int ucmpi_coll_shm_allgather_large(ucmpi_comm_t *comm, const void *sbuf,
                                   MPI_Count scount, MPI_Datatype sdt,
                                   void *rbuf, MPI_Count rcount,
                                   MPI_Datatype rdt);
int ucmpi_coll_shm_alltoall_large(ucmpi_comm_t *comm, const void *sbuf,
                                  MPI_Count scount, MPI_Datatype sdt,
                                  void *rbuf, MPI_Count rcount,
                                  MPI_Datatype rdt);

/* A rank whose alltoall arguments failed takes the collective
 * numbers the others' shm alltoall of nbytes per rank takes (one per
 * chunk), posting the last: they read garbage but do not wait for ever.
 * MPI_SUCCESS, UCMPI_SHM_FALLBACK or an error reported on comm. */
int ucmpi_coll_shm_alltoall_skip(ucmpi_comm_t *comm, size_t nbytes,
                                 const char *fn);

/* Reduce_scatter in pieces of each block (shm_reduce.c), any size: block
 * d is counts[d] elements at displs[d] of the vector (n entries each);
 * UCMPI_SHM_FALLBACK also when a piece cannot hold one element. */
int ucmpi_coll_shm_reduce_scatter_large(ucmpi_comm_t *comm, const void *sbuf,
                                        void *rbuf, const MPI_Count *counts,
                                        const MPI_Count *displs,
                                        MPI_Datatype dt, MPI_Op op);
/* ---- large reductions split among the ranks (shm_reduce.c) ---- */
/* Allreduce / reduce (any size, chunks) with each rank reducing 1/n of
 * the vector; UCMPI_SHM_FALLBACK (before any collective number) when a
 * piece cannot hold whole elements.  Used where
 * ucmpi_coll_shm_split_wanted says (tunable or the measured rows). */
int ucmpi_coll_shm_allreduce_split(ucmpi_comm_t *comm, const void *sbuf,
                                   void *rbuf, MPI_Count count,
                                   MPI_Datatype dt, MPI_Op op);
int ucmpi_coll_shm_reduce_split(ucmpi_comm_t *comm, const void *sbuf,
                                void *rbuf, MPI_Count count, MPI_Datatype dt,
                                MPI_Op op, int root);
/* Whether kind (UCMPI_SHM_ALLREDUCE or _REDUCE) splits nbytes on n ranks. */
int ucmpi_coll_shm_split_wanted(int kind, int n, size_t nbytes);
/* Collective numbers the split path takes for nbytes on n ranks. */
uint64_t ucmpi_coll_shm_split_numbers(int n, size_t nbytes);
/* Collective numbers a blocking shm reduce of (count, dt) takes on comm
 * (0: it goes through p2p), and the skip by a rank whose arguments failed
 * (UCMPI_SHM_FALLBACK: no segment): it takes the first number only, with
 * a "lost" size record, and the ranks that check end the call there. */
int ucmpi_coll_shm_reduce_numbers(ucmpi_comm_t *comm, MPI_Count count,
                                  MPI_Datatype dt);
int ucmpi_coll_shm_skip(ucmpi_comm_t *comm, int numbers);
/* Chunks per flag round of the chunked algorithms (shm_large.c,
 * shm_reduce.c): a writer fills g buffers, then posts the first of their
 * numbers (which still says "done with everything before").  At most 8,
 * so two groups fit the 16 buffers.  More than 2 ranks (oversubscribed
 * here): fewer rounds each needing every rank on a CPU; 2 ranks keep one
 * chunk per round, which overlaps their copies. */
#define UCMPI_SHM_GROUP_MAX 8
static inline int ucmpi_coll_shm_group(int n)
{
    return n <= 2 ? 1 : UCMPI_SHM_GROUP_MAX;
}
/* ---- end large reductions ---- */

/* rbuf = x[0] op ... op x[n-1] in rank order; x[i] the packed operands
 * of a contiguous dt, none in rbuf but possibly x[n-1] (shm_reduce.c). */
int ucmpi_coll_shm_reduce_all(const char *const *x, void *rbuf,
                              MPI_Count count, MPI_Datatype dt, MPI_Op op,
                              int n);

/* ---- segment (shm_seg.c) and flags (shm_wait.c), for the files above ---- */
typedef struct ucmpi_coll_shm ucmpi_coll_shm_t;

/* Data buffers per rank (the ring of shm_seg.c's NBUF). */
#define UCMPI_SHM_NBUF 16
/* Whether comm has a usable segment, or, before its first shm collective,
 * will get one there (all ranks on one node): the same on every rank.
 * The size part of ucmpi_coll_shm_wanted is shm_select.c's. */
int ucmpi_coll_shm_ready(ucmpi_comm_t *comm);

/* Enters the next collective on comm's segment (set up on first use):
 * *sh and its number *k.  MPI_SUCCESS, UCMPI_SHM_FALLBACK (no segment) or
 * an error reported on comm. */
int ucmpi_coll_shm_enter(ucmpi_comm_t *comm,
                         ucmpi_coll_shm_t **sh, uint64_t *k);
/* Bytes of one data buffer on a comm of n ranks (the same on all;
 * shm_select.c). */
size_t ucmpi_coll_shm_slot_size(int n);
/* Rank r's buffer for collective k. */
char *ucmpi_coll_shm_buf(ucmpi_coll_shm_t *sh, int r, uint64_t k);
/* Rank r's buffer for collective k of nbytes (the same on every rank):
 * up to UCMPI_COLL_SHM_SMALL bytes one of a deeper ring of small buffers
 * (see shm_seg.c), else ucmpi_coll_shm_buf.  256: the rows behind were
 * 8-128 B; with 1 KiB buffers (a 64 KiB ring, more than L1) a 2-rank
 * bcast of 1 KiB took 0.256-0.266 us against 0.180-0.190 with the
 * 16-deep ring (4 interleaved coll_bench runs, 30 Nov 10:03 UTC, load
 * 31); 512 B and below were level. */
#define UCMPI_COLL_SHM_SMALL 256
char *ucmpi_coll_shm_data(ucmpi_coll_shm_t *sh, int r, uint64_t k,
                          size_t nbytes);
/* Publishes: my data for k is in place (or: I entered k). */
void ucmpi_coll_shm_post(ucmpi_coll_shm_t *sh, uint64_t k);
/* Waits until rank r (every rank but me when r < 0) posted >= k;
 * MPI_ERR_PROC_FAILED (reported on comm) when a waited-for rank died. */
int ucmpi_coll_shm_wait(ucmpi_coll_shm_t *sh, int r, uint64_t k);
/* Waits until my buffer for k is free to write (all posted >= k-NBUF+1). */
int ucmpi_coll_shm_wait_writable(ucmpi_coll_shm_t *sh, uint64_t k);
/* Waits until my ucmpi_coll_shm_data buffer for k is free to write. */
int ucmpi_coll_shm_wait_room(ucmpi_coll_shm_t *sh, uint64_t k,
                             size_t nbytes);
/* Packs (buf, count, dt) into my ucmpi_coll_shm_data buffer for k once it
 * is writable, records sig as my size record for k (read by reductions
 * only: see below) and posts it; tagged (a bcast root): also the copy
 * after the data that ucmpi_coll_shm_root_size_ok reads. */
int ucmpi_coll_shm_contribute(ucmpi_coll_shm_t *sh, uint64_t k, int me,
                              const void *buf, MPI_Count count,
                              MPI_Datatype dt, uint64_t sig, int tagged);
/* ---- mismatched counts.  A rank of a reduction records the bytes
 * of its call for its first collective number k (once the ring is
 * writable at k, before posting k; it posts nothing beyond k before the
 * check); a rank that waited for every rank's k then checks (one compare
 * per rank) that every rank recorded its own bytes.  If not, the call
 * ends at number k on every rank (a rank that entered more numbers goes
 * back to k) and reports MPI_ERR_TRUNCATE; a rank whose arguments failed
 * records UCMPI_COLL_SHM_SIZE_LOST (the checkers: MPI_ERR_OTHER).
 * A record also names the call (its collective and root,
 * shm_seg.c: rec_of), so equal bytes of another collective or root fail
 * too; every rank of a call records at its first number (bcast non-roots,
 * a reduce's root and barrier too), so that a rank of another call never
 * finds a stale record that happens to match. */
#define UCMPI_COLL_SHM_SIZE_LOST UINT64_MAX
void ucmpi_coll_shm_set_size(ucmpi_coll_shm_t *sh, uint64_t k,
                             uint64_t nbytes);
int ucmpi_coll_shm_check_sizes(ucmpi_coll_shm_t *sh, uint64_t k,
                               uint64_t nbytes);
/* A bcast's root records its bytes (or SIZE_LOST) at its first number k;
 * a non-root, after its wait for the root at k, compares them with its
 * own (*theirs: the root's bytes where it is in the same call with other
 * bytes, else SIZE_LOST: nothing to drain, e.g. a root that voted for
 * p2p, ucmpi_xfer_shm_vote, and so took k alone). */
int ucmpi_coll_shm_root_size_ok(ucmpi_coll_shm_t *sh, int root, uint64_t k,
                                size_t nbytes);   /* the fast check */
int ucmpi_coll_shm_check_root_size(ucmpi_coll_shm_t *sh, int root,
                                   uint64_t k, uint64_t nbytes,
                                   uint64_t *theirs);
/* Whether rank r's record for k is a p2p voter's (it took k alone). */
int ucmpi_coll_shm_voted(ucmpi_coll_shm_t *sh, int r, uint64_t k);
/* Rank r's record for k, unchecked (ucmpi_xfer_shm_vote). */
uint64_t ucmpi_coll_shm_size_of(ucmpi_coll_shm_t *sh, int r, uint64_t k);
/* ---- end mismatched counts ---- */
/* ---- invalid numbers: a rank whose own allgather/alltoall arguments
 * failed a check takes the call's numbers [k0, k0 + m) with no valid data: it
 * marks them so (bytes 16-31 of its flag line) before posting, and the
 * readers, after their wait for all at k, check the marks of the g numbers
 * k.. they read (two words in each flag line the wait just read): they
 * report MPI_ERR_TRUNCATE instead of keeping a stale block.  The marks
 * are a bitmap of the marker's last 64 numbers: a marker posts each
 * NBUF-th number of a long skip only once its buffers are writable, so it
 * runs at most NBUF numbers ahead of a reader still checking. */
void ucmpi_coll_shm_mark_invalid(ucmpi_coll_shm_t *sh, uint64_t k0,
                                 uint64_t m);
int ucmpi_coll_shm_check_valid(ucmpi_coll_shm_t *sh, uint64_t k, uint64_t g);
/* The skip of such a rank: takes the numbers an allgather of nbytes per
 * block takes (UCMPI_SHM_FALLBACK: no segment), marked invalid, and
 * records nbytes at the first (the chunked readers check every rank's
 * bytes there). */
int ucmpi_coll_shm_allgather_skip(ucmpi_comm_t *comm, size_t nbytes,
                                  const char *fn);
/* ---- end invalid numbers ---- */
/* Frees comm's segment state (ucmpi_coll_comm_destroy). */
void ucmpi_coll_shm_free(void *sh);

/* Copies into, out of and around the segment.  glibc's memcpy moves
 * 4 KiB and more with `rep movsb` (ERMS), which on some CPUs (AMD EPYC
 * under KVM here) crawls, over 100x slower, when the destination is 1-63
 * bytes past the source modulo 4 KiB (two heap blocks of a few KiB often
 * are).  So a loop of 16-byte moves at those distances only, as glibc
 * does on some Intel parts ("short distance"); measurements in
 * docs/tuning.md.  (The compiler barrier keeps GCC from turning the
 * loop back into a memcpy call.) */
static inline void ucmpi_coll_shm_copy(void *dst, const void *src, size_t n)
{
    typedef long long v16_t __attribute__((vector_size(16)));
    char *d = dst;
    const char *s = src;

    if ((((uintptr_t)d - (uintptr_t)s) & 4095) - 1 >= 63) {
        memcpy(d, s, n);
        return;
    }
    for (; n >= 64; n -= 64, d += 64, s += 64) {
        v16_t a, b, c, e;
        memcpy(&a, s, 16);
        memcpy(&b, s + 16, 16);
        memcpy(&c, s + 32, 16);
        memcpy(&e, s + 48, 16);
        memcpy(d, &a, 16);
        memcpy(d + 16, &b, 16);
        memcpy(d + 32, &c, 16);
        memcpy(d + 48, &e, 16);
        __asm__ __volatile__("" ::: "memory");
    }
    memcpy(d, s, n);
}

/* Packed bytes of (buf, count, dt) into dst, and back. */
static inline void ucmpi_coll_shm_pack(void *dst, const void *buf,
                                      MPI_Count count, MPI_Datatype dt)
{
    if (dt->contig)
        ucmpi_coll_shm_copy(dst, (const char *)buf + dt->true_lb,
                            (size_t)(count * dt->size));
    else
        ucmpi_dt_pack(dt, buf, count, dst);
}

static inline void ucmpi_coll_shm_unpack(void *buf, MPI_Count count,
                                      MPI_Datatype dt, const void *src)
{
    if (dt->contig)
        ucmpi_coll_shm_copy((char *)buf + dt->true_lb, src,
                            (size_t)(count * dt->size));
    else
        ucmpi_dt_unpack(dt, buf, count, src, (size_t)(count * dt->size));
}

#endif
