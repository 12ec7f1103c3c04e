/* On-node shared-memory path for small blocking collectives: numbered flags
 * and buffers instead of messages (docs/architecture.md, the shm path). */
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

/* No segment on comm (the same answer on every rank): the caller runs its
 * usual algorithm. */
#define UCMPI_SHM_FALLBACK (-1)

typedef struct ucmpi_coll_shm ucmpi_coll_shm_t;

/* Whether blocking collective `kind` with `nbytes` per rank (equal on
 * every rank) takes the shm path on comm: forced or within the threshold. */
int ucmpi_coll_shm_wanted(ucmpi_comm_t *comm, int kind, size_t nbytes);
/* Its answers per comm: shm below cap[kind] bytes, for the knobs of
 * generation gen - 1 (0: not filled). */
typedef struct {
    unsigned gen;
    size_t cap[UCMPI_SHM_NKINDS];
} ucmpi_coll_shm_caps_t;
/* comm's answers, NULL while it has no usable segment. */
ucmpi_coll_shm_caps_t *ucmpi_coll_shm_caps(ucmpi_comm_t *comm);

/* MPI_SUCCESS, UCMPI_SHM_FALLBACK or an error reported on comm; arguments
 * checked, reductions contiguous.  sizes: records nbytes, checks others'. */
int ucmpi_coll_shm_sizes(ucmpi_comm_t *comm, size_t nbytes);
/* lost (the root only): its buffer failed a check, the others fail too. */
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

/* Data larger than one buffer, in chunks (shm_large.c). */
int ucmpi_coll_shm_bcast_large(ucmpi_comm_t *comm, void *buf,
                               MPI_Count count, MPI_Datatype dt, int root,
                               int lost);
/* A non-root whose bytes differ from the root's `total` takes the numbers
 * of the root's later chunks without copying, to stay in step. */
int ucmpi_coll_shm_bcast_drain(ucmpi_comm_t *comm, int root, size_t total);
/* The same after a failed size vote (ucmpi_xfer_shm_vote). */
int ucmpi_coll_shm_vote_drain(ucmpi_comm_t *comm, int root);
/* Allgather (a2a 0) or alltoall (a2a 1) in chunks. */
int ucmpi_coll_shm_xfer_large(ucmpi_comm_t *comm, const void *sbuf,
                              MPI_Count scount, MPI_Datatype sdt, void *rbuf,
                              MPI_Count rcount, MPI_Datatype rdt, int a2a);
/* Enters a chunk's number (only the call's first may fall back), and g
 * numbers (*k the first) once all their buffers are writable. */
int ucmpi_coll_shm_enter_next(ucmpi_comm_t *comm, int first,
                              ucmpi_coll_shm_t **sh, uint64_t *k);
int ucmpi_coll_shm_enter_group(ucmpi_comm_t *comm, int first, int g,
                               ucmpi_coll_shm_t **sh, uint64_t *k);

/* A rank whose alltoall arguments failed takes the numbers the others'
 * shm alltoall of nbytes takes, so nobody waits for ever. */
int ucmpi_coll_shm_alltoall_skip(ucmpi_comm_t *comm, size_t nbytes,
                                 const char *fn);

/* Reduce_scatter in pieces of each block (block d: counts[d] elements at
 * displs[d]); UCMPI_SHM_FALLBACK when a piece cannot hold one element. */
int ucmpi_coll_shm_reduce_scatter_large(ucmpi_comm_t *comm, const void *sbuf,
                                        void *rbuf, const MPI_Count *counts,
                                        const MPI_Count *displs,
                                        MPI_Datatype dt, MPI_Op op);
/* Allreduce / reduce, each rank reducing 1/n of the vector; FALLBACK (before
 * any number) when a piece cannot hold whole elements. */
int ucmpi_coll_shm_split(ucmpi_comm_t *comm, const void *sbuf, void *rbuf,
                         MPI_Count count, MPI_Datatype dt, MPI_Op op,
                         int root);    /* root < 0: allreduce */
/* Whether kind (UCMPI_SHM_ALLREDUCE or _REDUCE) splits nbytes on n ranks. */
int ucmpi_coll_shm_split_wanted(int kind, int n, size_t nbytes);
/* Collective numbers the split path takes for nbytes on n ranks. */
uint64_t ucmpi_coll_shm_split_numbers(int n, size_t nbytes);
/* Numbers a blocking shm reduce of (count, dt) takes (0: p2p); a failed
 * rank takes only the first, with a "lost" record that ends the call. */
int ucmpi_coll_shm_reduce_numbers(ucmpi_comm_t *comm, MPI_Count count,
                                  MPI_Datatype dt);
int ucmpi_coll_shm_skip(ucmpi_comm_t *comm, int numbers);
/* Chunks per flag round (two groups fit 16 buffers): fewer rounds above 2
 * ranks; 2 ranks keep one chunk a round, which overlaps their copies. */
#define UCMPI_SHM_GROUP_MAX 8
static inline int ucmpi_coll_shm_group(int n)
{
    return n <= 2 ? 1 : UCMPI_SHM_GROUP_MAX;
}

/* rbuf = x[0] op ... op x[n-1] in rank order (packed contiguous dt). */
int ucmpi_coll_shm_reduce_all(const char *const *x, void *rbuf,
                              MPI_Count count, MPI_Datatype dt, MPI_Op op,
                              int n);

/* ---- segment (shm_seg.c) and flags (shm_wait.c), for the files above ---- */

/* Data buffers per rank (the ring of shm_seg.c's NBUF). */
#define UCMPI_SHM_NBUF 16
/* Whether comm has, or at its first shm collective will get, a segment. */
int ucmpi_coll_shm_ready(ucmpi_comm_t *comm);

/* Enters the next collective on comm's segment (set up on first use). */
int ucmpi_coll_shm_enter(ucmpi_comm_t *comm,
                         ucmpi_coll_shm_t **sh, uint64_t *k);
/* Bytes of one data buffer on a comm of n ranks (shm_select.c). */
size_t ucmpi_coll_shm_slot_size(int n);
/* Rank r's buffer for collective k. */
char *ucmpi_coll_shm_buf(ucmpi_coll_shm_t *sh, int r, uint64_t k);
/* Rank r's buffer for collective k: up to SMALL bytes a deeper ring of small
 * buffers (larger ones cost more than L1, docs/tuning.md). */
#define UCMPI_COLL_SHM_SMALL 256
char *ucmpi_coll_shm_data(ucmpi_coll_shm_t *sh, int r, uint64_t k,
                          size_t nbytes);
/* My data for k is in place (or: I entered k). */
void ucmpi_coll_shm_post(ucmpi_coll_shm_t *sh, uint64_t k);
/* Waits until rank r (r < 0: every other rank) posted >= k;
 * MPI_ERR_PROC_FAILED when a waited-for rank died. */
int ucmpi_coll_shm_wait(ucmpi_coll_shm_t *sh, int r, uint64_t k);
/* Until my buffer (or my ucmpi_coll_shm_data buffer) for k is free. */
int ucmpi_coll_shm_wait_writable(ucmpi_coll_shm_t *sh, uint64_t k);
int ucmpi_coll_shm_wait_room(ucmpi_coll_shm_t *sh, uint64_t k,
                             size_t nbytes);
/* Packs (buf, count, dt) into my buffer for k once writable, records sig
 * and posts; tagged (a bcast root): also the copy root_size_ok reads. */
int ucmpi_coll_shm_contribute(ucmpi_coll_shm_t *sh, uint64_t k, int me,
                              const void *buf, MPI_Count count,
                              MPI_Datatype dt, uint64_t sig, int tagged);
/* Size records catch mismatched counts (MPI_ERR_TRUNCATE) and failed ranks
* (SIZE_LOST: MPI_ERR_OTHER) at a call's first number (docs/architecture). */
#define UCMPI_COLL_SHM_SIZE_LOST UINT64_MAX
void ucmpi_coll_shm_set_size(ucmpi_coll_shm_t *sh, uint64_t k,
                             uint64_t nbytes);
int ucmpi_coll_shm_check_sizes(ucmpi_coll_shm_t *sh, uint64_t k,
                               uint64_t nbytes);
/* A bcast non-root compares the root's record at k with its own bytes;
 * *theirs: the root's bytes when it is in this call, else SIZE_LOST. */
int ucmpi_coll_shm_root_size_ok(ucmpi_coll_shm_t *sh, int root, uint64_t k,
                                size_t nbytes);   /* the fast check */
int ucmpi_coll_shm_check_root_size(ucmpi_coll_shm_t *sh, int root,
                                   uint64_t k, uint64_t nbytes,
                                   uint64_t *theirs);
/* Whether rank r's record for k is a p2p voter's; the record unchecked. */
int ucmpi_coll_shm_voted(ucmpi_coll_shm_t *sh, int r, uint64_t k);
uint64_t ucmpi_coll_shm_size_of(ucmpi_coll_shm_t *sh, int r, uint64_t k);
/* A failed allgather/alltoall rank marks its numbers [k0, k0+m) invalid (last
 * 64 in a bitmap); readers of g numbers from k report MPI_ERR_TRUNCATE. */
void ucmpi_coll_shm_mark_invalid(ucmpi_coll_shm_t *sh, uint64_t k0,
                                 uint64_t m);
int ucmpi_coll_shm_check_valid(ucmpi_coll_shm_t *sh, uint64_t k, uint64_t g);
/* Its skip of an allgather of nbytes per block, recording nbytes. */
int ucmpi_coll_shm_allgather_skip(ucmpi_comm_t *comm, size_t nbytes,
                                  const char *fn);
/* Frees comm's segment state (ucmpi_coll_comm_destroy). */
void ucmpi_coll_shm_free(void *sh);

/* glibc's `rep movsb` crawls when dst is 1-63 bytes past src mod 4 KiB: 16 B
 * moves there (docs/tuning.md); the barrier stops GCC making it memcpy. */
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
