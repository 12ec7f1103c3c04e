/*
 * Messages larger than one shm buffer: cut into buffer-size chunks, each
 * chunk a collective number of its own (protocol in shm.h).  A writer
 * runs up to NBUF-1 chunks ahead of its readers, so the writer's copy in
 * and the readers' copies out overlap: two memcpy of cache-sized pieces,
 * which beat one rendezvous transfer (UCX CMA, ~14 GB/s here) by 2-3x;
 * see auto_max in shm_select.c for the limits (2 ranks go p2p above
 * 32 KiB for alltoall, bcast and allgather).
 *
 * Not single copy (a 2-rank alltoall of 4-32 MiB is level with Open MPI's
 * one CMA copy), and the alternatives tried lost (figures in
 * docs/tuning.md):
 * - process_vm_readv, what UCX's cma transport and Open MPI use, is far
 *   slower than memcpy from base pages; from huge pages (hugepage.c) UCX
 *   rendezvous wins single calls but loses back-to-back calls at 3-8 MiB,
 *   so shm stays;
 * - non-temporal stores into rbuf (no read-for-ownership) were slower;
 *   2-rank buffers of 32 KiB to 1 MiB: a tie or worse than 64 KiB;
 * - copying each peer's pieces as soon as it posted (instead of after
 *   all posted) cost oversubscribed ranks more switches and CPU.
 */
#include "coll/shm/shm.h"
#include "coll/coll_util.h"

#include <stdlib.h>

/* A buffer seen as its packed byte stream: memcpy when contiguous, else
 * a datatype cursor (created on first use; seeks to any offset). */
typedef struct {
    char *base;                /* contiguous: first byte of the stream */
    const void *buf;
    MPI_Count count;
    MPI_Datatype dt;
    ucmpi_dt_cursor_t *cur;
} span_t;

static void span_init(span_t *s, const void *buf, MPI_Count count,
                      MPI_Datatype dt)
{
    s->base = dt->contig ? (char *)buf + dt->true_lb : NULL;
    s->buf = buf;
    s->count = count;
    s->dt = dt;
    s->cur = NULL;
}

static int span_cursor(span_t *s)
{
    if (s->cur == NULL)
        s->cur = ucmpi_dt_cursor_create(s->dt, s->buf, s->count);
    return s->cur != NULL;
}

static int span_pack(span_t *s, size_t off, void *dst, size_t len)
{
    if (s->base != NULL)
        ucmpi_coll_shm_copy(dst, s->base + off, len);
    else if (!span_cursor(s))
        return MPI_ERR_NO_MEM;
    else
        ucmpi_dt_cursor_pack(s->cur, off, dst, len);
    return MPI_SUCCESS;
}

static int span_unpack(span_t *s, size_t off, const void *src, size_t len)
{
    if (s->base != NULL)
        ucmpi_coll_shm_copy(s->base + off, src, len);
    else if (!span_cursor(s))
        return MPI_ERR_NO_MEM;
    else
        ucmpi_dt_cursor_unpack(s->cur, off, src, len);
    return MPI_SUCCESS;
}

static void span_done(span_t *s)
{
    if (s->cur != NULL)
        ucmpi_dt_cursor_destroy(s->cur);
}

/* Enters the next chunk's collective.  Only the first chunk may fall back
 * (no segment: every rank learns it there); later, the segment can only
 * be gone after a dead peer, which is an error. */
static int enter(ucmpi_comm_t *comm, int first,
                 ucmpi_coll_shm_t **sh, uint64_t *k)
{
    int rc = ucmpi_coll_shm_enter(comm, sh, k);

    if (rc == UCMPI_SHM_FALLBACK && !first)
        rc = ucmpi_coll_err(comm, MPI_ERR_OTHER, "the shared-memory "
                            "segment went away during a collective");
    return rc;
}

/* Enters the numbers of a group of up to gmax chunks of cs bytes from
 * off on (of blk): *g chunks, *k the first number; waits until all their
 * buffers are writable (ucmpi_coll_shm_group in shm.h). */
static int enter_group(ucmpi_comm_t *comm, size_t off,
                       size_t blk, size_t cs, int gmax,
                       ucmpi_coll_shm_t **sh, uint64_t *k, int *g)
{
    uint64_t last = 0;
    int rc = MPI_SUCCESS;

    *g = 0;
    for (; *g < gmax && off < blk && rc == MPI_SUCCESS; off += cs)
        rc = enter(comm, off == 0, sh, (*g)++ == 0 ? k : &last);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_coll_shm_wait_writable(*sh, *g > 1 ? last : *k);
    return rc;
}

/* Bytes of chunk i of the group from off on: [off + i * cs, + this). */
static size_t chunk_len(size_t blk, size_t off, size_t cs, int i)
{
    size_t at = off + (size_t)i * cs;

    return blk - at < cs ? blk - at : cs;
}

/* The first group of a chunked allgather/alltoall, once every rank
 * posted k: numbers that carried no valid data (a rank whose arguments
 * failed, or a voter bound for p2p) go into *bad, and
 * every rank's size record must equal mine, `rec` (what the one-buffer
 * path records, shm_xfer.c).  A record that differs (other counts, a
 * one-buffer rank, a voter) ends the call at k on every rank with
 * MPI_ERR_TRUNCATE (ucmpi_coll_shm_check_sizes; none posted beyond k).
 * A rank that skips records the bytes of its call (skip_numbers), so
 * with equal counts it only marks its numbers invalid, as before. */
static int first_checks(ucmpi_coll_shm_t *sh, uint64_t k, int g, size_t rec,
                        int *bad)
{
    int rc = ucmpi_coll_shm_check_sizes(sh, k, rec);

    if (rc == MPI_SUCCESS)
        *bad = ucmpi_coll_shm_check_valid(sh, k, (uint64_t)g);
    return rc;
}

static int nomem(ucmpi_comm_t *comm)
{
    return ucmpi_coll_err(comm, MPI_ERR_NO_MEM,
                          "out of memory packing a chunk");
}

/* The root records its byte count (or SIZE_LOST, its buffer failed a
 * check) with its first chunk; a non-root whose count differs stops
 * copying and takes the numbers of the root's chunks (the drain). */
int ucmpi_coll_shm_bcast_large(ucmpi_comm_t *comm, void *buf,
                               MPI_Count count, MPI_Datatype dt, int root,
                               int lost)
{
    size_t total = (size_t)(count * dt->size);
    size_t cs = ucmpi_coll_shm_slot_size(comm->size), len;
    ucmpi_coll_shm_t *sh;
    uint64_t k, theirs;
    span_t sp;
    int rc = MPI_SUCCESS, bad = MPI_SUCCESS;

    span_init(&sp, buf, count, dt);
    for (size_t off = 0; off < total && rc == MPI_SUCCESS; off += len) {
        len = total - off < cs ? total - off : cs;
        if ((rc = enter(comm, off == 0, &sh, &k)) != MPI_SUCCESS)
            break;
        if (comm->rank == root) {
            rc = ucmpi_coll_shm_wait_writable(sh, k);
            if (rc == MPI_SUCCESS &&
                (rc = span_pack(&sp, off, ucmpi_coll_shm_buf(sh, root, k),
                                len)) != MPI_SUCCESS)
                rc = nomem(comm);
            if (rc == MPI_SUCCESS && off == 0)
                ucmpi_coll_shm_set_size(
                    sh, k, lost ? UCMPI_COLL_SHM_SIZE_LOST : total);
            if (rc == MPI_SUCCESS)
                ucmpi_coll_shm_post(sh, k);
            continue;
        }
        /* (the record every rank of a call leaves: shm.h) */
        if (off == 0 && (rc = ucmpi_coll_shm_wait_room(sh, k, 0)) !=
                            MPI_SUCCESS)
            break;
        if (off == 0)
            ucmpi_coll_shm_set_size(sh, k, total);
        ucmpi_coll_shm_post(sh, k);
        rc = ucmpi_coll_shm_wait(sh, root, k);
        if (rc == MPI_SUCCESS && off == 0 &&
            (bad = ucmpi_coll_shm_check_root_size(sh, root, k, total,
                                                  &theirs)) !=
                MPI_SUCCESS) {
            if (theirs != UCMPI_COLL_SHM_SIZE_LOST) {
                rc = ucmpi_coll_shm_bcast_drain(comm, root, theirs);
                break;
            }
            /* a root bound for p2p voted and took k alone (taking more
             * numbers here would take its next calls' as chunks) */
            if (ucmpi_coll_shm_voted(sh, root, k))
                break;
        }
        if (rc == MPI_SUCCESS && bad == MPI_SUCCESS &&
            span_unpack(&sp, off, ucmpi_coll_shm_buf(sh, root, k), len))
            rc = nomem(comm);
    }
    span_done(&sp);
    return rc != MPI_SUCCESS ? rc : bad;
}

int ucmpi_coll_shm_bcast_drain(ucmpi_comm_t *comm, int root, size_t total)
{
    size_t cs = ucmpi_coll_shm_slot_size(comm->size);
    ucmpi_coll_shm_t *sh;
    uint64_t k;
    int rc = MPI_SUCCESS;

    for (size_t off = cs; off < total && rc == MPI_SUCCESS; off += cs)
        if ((rc = enter(comm, 0, &sh, &k)) == MPI_SUCCESS) {
            ucmpi_coll_shm_post(sh, k);
            rc = ucmpi_coll_shm_wait(sh, root, k);
        }
    return rc;
}

/* Each chunk: my bytes [off, off+len) in my buffer, then everyone's into
 * their blocks of rbuf (one span over all n blocks: block r starts at
 * r * blk in the packed stream). */
int ucmpi_coll_shm_allgather_large(ucmpi_comm_t *comm, const void *sbuf,
                                   MPI_Count scount, MPI_Datatype sdt,
                                   void *rbuf, MPI_Count rcount,
                                   MPI_Datatype rdt)
{
    int n = comm->size, me = comm->rank, rc = MPI_SUCCESS, bad = rc;
    size_t blk = (size_t)(rcount * rdt->size), len;
    size_t cs = ucmpi_coll_shm_slot_size(n);
    int gmax = ucmpi_coll_shm_group(n);
    ucmpi_coll_shm_t *sh;
    uint64_t k;
    span_t in, out;

    span_init(&out, rbuf, rcount * n, rdt);
    if (sbuf == MPI_IN_PLACE)
        span_init(&in, (char *)rbuf + (MPI_Aint)me * rcount * rdt->extent,
                  rcount, rdt);
    else
        span_init(&in, sbuf, scount, sdt);
    for (size_t off = 0; off < blk && rc == MPI_SUCCESS; off += len) {
        int g;
        if ((rc = enter_group(comm, off, blk, cs, gmax, &sh, &k, &g)) !=
            MPI_SUCCESS)
            break;
        for (int i = 0; i < g && rc == MPI_SUCCESS; i++)
            if (span_pack(&in, off + (size_t)i * cs,
                          ucmpi_coll_shm_buf(sh, me, k + (uint64_t)i),
                          chunk_len(blk, off, cs, i)))
                rc = nomem(comm);
        if (rc != MPI_SUCCESS)
            break;
        if (off == 0)
            ucmpi_coll_shm_set_size(sh, k, blk);
        ucmpi_coll_shm_post(sh, k);
        /* my own pieces while the others still write (contiguous:
         * straight from sbuf, as in shm_xfer.c) */
        len = (size_t)(g - 1) * cs + chunk_len(blk, off, cs, g - 1);
        if (sbuf != MPI_IN_PLACE && in.base != NULL && out.base != NULL)
            ucmpi_coll_shm_copy(out.base + (size_t)me * blk + off,
                                in.base + off, len);
        else
            for (int i = 0; i < g && rc == MPI_SUCCESS; i++)
                if (sbuf != MPI_IN_PLACE &&
                    span_unpack(&out,
                                (size_t)me * blk + off + (size_t)i * cs,
                                ucmpi_coll_shm_buf(sh, me, k + (uint64_t)i),
                                chunk_len(blk, off, cs, i)))
                    rc = nomem(comm);
        if (rc != MPI_SUCCESS ||
            (rc = ucmpi_coll_shm_wait(sh, -1, k)) != MPI_SUCCESS ||
            (off == 0 &&
             (rc = first_checks(sh, k, g, blk, &bad)) != MPI_SUCCESS))
            break;
        /* a rank without valid data: go on (its numbers match ours) */
        if (bad == MPI_SUCCESS && off != 0)
            bad = ucmpi_coll_shm_check_valid(sh, k, (uint64_t)g);
        for (int i = 0; i < g; i++)
            for (int r = 0; r < n && rc == MPI_SUCCESS; r++)
                if (r != me &&
                    span_unpack(&out, (size_t)r * blk + off + (size_t)i * cs,
                                ucmpi_coll_shm_buf(sh, r, k + (uint64_t)i),
                                chunk_len(blk, off, cs, i)))
                    rc = nomem(comm);
    }
    span_done(&in);
    span_done(&out);
    return rc != MPI_SUCCESS ? rc : bad;
}

/* The chunk size of the alltoall of n ranks (0: it falls back). */
static size_t a2a_chunk(int n)
{
    size_t cs = ucmpi_coll_shm_slot_size(n) / (size_t)n;

    return cs > 64 ? cs / 64 * 64 : cs;
}

/* Takes m numbers without data, marked invalid (the readers
 * report it), posting as it goes: every ucmpi_coll_shm_group(n) numbers
 * once they are writable, as the chunked paths do, so that it stays
 * within a reader's window and ranks that all skip keep each other going. */
static int skip_numbers(ucmpi_comm_t *comm, uint64_t m, uint64_t rec)
{
    ucmpi_coll_shm_t *sh = NULL;
    uint64_t k = 0, k0 = 0;
    uint64_t step = (uint64_t)ucmpi_coll_shm_group(comm->size);
    int rc = MPI_SUCCESS;

    for (uint64_t i = 0; i < m && rc == MPI_SUCCESS; i++) {
        rc = enter(comm, i == 0, &sh, &k);
        if (rc != MPI_SUCCESS)
            break;
        if (i % step == 0)
            k0 = k;
        if (i % step == step - 1 || i == m - 1) {
            if ((rc = ucmpi_coll_shm_wait_writable(sh, k)) !=
                MPI_SUCCESS)
                break;
            ucmpi_coll_shm_mark_invalid(sh, k0, k - k0 + 1);
            if (i < step)        /* my bytes at my first number */
                ucmpi_coll_shm_set_size(sh, k0, rec);
            ucmpi_coll_shm_post(sh, k);
        }
    }
    return rc;
}

int ucmpi_coll_shm_alltoall_skip(ucmpi_comm_t *comm, size_t nbytes,
                                 const char *fn)
{
    int n = comm->size;
    size_t cs = a2a_chunk(n), blk = nbytes / (size_t)n;
    uint64_t m;

    if (nbytes <= ucmpi_coll_shm_slot_size(n))
        m = 1;                         /* one buffer (shm_xfer.c) */
    else if (cs == 0)
        return UCMPI_SHM_FALLBACK;
    else
        m = (blk + cs - 1) / cs;       /* a number per chunk */
    return skip_numbers(comm, m, nbytes);
}

int ucmpi_coll_shm_allgather_skip(ucmpi_comm_t *comm, size_t nbytes,
                                  const char *fn)
{
    size_t cs = ucmpi_coll_shm_slot_size(comm->size);

    /* one buffer (shm_xfer.c), else a number per chunk */
    return skip_numbers(comm, nbytes <= cs ? 1 : (nbytes + cs - 1) / cs,
                        nbytes);
}

/* Each chunk: bytes [off, off+len) of each of my n outgoing blocks, side
 * by side cs = slot/n apart in my buffer; I take piece `me` of everyone's.
 * In place works: a chunk's bytes are packed before any is overwritten. */
int ucmpi_coll_shm_alltoall_large(ucmpi_comm_t *comm, const void *sbuf,
                                  MPI_Count scount, MPI_Datatype sdt,
                                  void *rbuf, MPI_Count rcount,
                                  MPI_Datatype rdt)
{
    int n = comm->size, me = comm->rank, rc = MPI_SUCCESS, bad = rc;
    size_t blk = (size_t)(rcount * rdt->size), len;
    size_t cs = a2a_chunk(n);        /* aligned pieces copy faster */
    int gmax = ucmpi_coll_shm_group(n);
    ucmpi_coll_shm_t *sh;
    uint64_t k;
    span_t in, out;

    if (cs == 0)                     /* n alone: same answer everywhere */
        return UCMPI_SHM_FALLBACK;
    int inplace = sbuf == MPI_IN_PLACE, direct;
    if (inplace) {
        sbuf = rbuf;
        scount = rcount;
        sdt = rdt;
    }
    span_init(&in, sbuf, scount * n, sdt);
    span_init(&out, rbuf, rcount * n, rdt);
    /* my own block skips the segment (in place: one buffer, so the
     * contiguity of both spans is the same) */
    direct = inplace || (in.base != NULL && out.base != NULL);
    for (size_t off = 0; off < blk && rc == MPI_SUCCESS; off += len) {
        int g;
        if ((rc = enter_group(comm, off, blk, cs, gmax, &sh, &k, &g)) !=
            MPI_SUCCESS)
            break;
        for (int j = 0; j < g && rc == MPI_SUCCESS; j++) {
            char *mine = ucmpi_coll_shm_buf(sh, me, k + (uint64_t)j);
            size_t at = off + (size_t)j * cs;
            size_t cl = chunk_len(blk, off, cs, j);
            for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
                if ((i != me || !direct) &&
                    span_pack(&in, (size_t)i * blk + at,
                              mine + (size_t)i * cs, cl))
                    rc = nomem(comm);
        }
        if (rc != MPI_SUCCESS)
            break;
        if (off == 0)
            ucmpi_coll_shm_set_size(sh, k, blk * (size_t)n);
        ucmpi_coll_shm_post(sh, k);
        /* my own pieces while the others still write: in place they are
         * there already, contiguous they go straight across */
        len = (size_t)(g - 1) * cs + chunk_len(blk, off, cs, g - 1);
        if (direct && !inplace)
            ucmpi_coll_shm_copy(out.base + (size_t)me * blk + off,
                                in.base + (size_t)me * blk + off, len);
        for (int j = 0; j < g && !direct && rc == MPI_SUCCESS; j++)
            if (span_unpack(&out, (size_t)me * blk + off + (size_t)j * cs,
                            ucmpi_coll_shm_buf(sh, me, k + (uint64_t)j) +
                                (size_t)me * cs,
                            chunk_len(blk, off, cs, j)))
                rc = nomem(comm);
        if (rc != MPI_SUCCESS ||
            (rc = ucmpi_coll_shm_wait(sh, -1, k)) != MPI_SUCCESS ||
            (off == 0 && (rc = first_checks(sh, k, g, blk * (size_t)n,
                                            &bad)) != MPI_SUCCESS))
            break;
        /* a rank without valid data: go on (its numbers match ours) */
        if (bad == MPI_SUCCESS && off != 0)
            bad = ucmpi_coll_shm_check_valid(sh, k, (uint64_t)g);
        for (int j = 0; j < g; j++)
            for (int r = 0; r < n && rc == MPI_SUCCESS; r++)
                if (r != me &&
                    span_unpack(&out, (size_t)r * blk + off + (size_t)j * cs,
                                ucmpi_coll_shm_buf(sh, r, k + (uint64_t)j) +
                                    (size_t)me * cs,
                                chunk_len(blk, off, cs, j)))
                    rc = nomem(comm);
    }
    span_done(&in);
    span_done(&out);
    return rc != MPI_SUCCESS ? rc : bad;
}
