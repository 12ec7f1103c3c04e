/* Messages larger than a shm buffer: chunks numbered like calls, so a writer
 * runs NBUF-1 ahead (limits: shm_select.c; what lost: docs/tuning.md). */
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

/* Only a call's first number may fall back (no segment: every rank
 * learns it there); later the segment can only be gone after a dead peer. */
int ucmpi_coll_shm_enter_next(ucmpi_comm_t *comm, int first,
                              ucmpi_coll_shm_t **sh, uint64_t *k)
{
    int rc = ucmpi_coll_shm_enter(comm, sh, k);

    if (rc == UCMPI_SHM_FALLBACK && !first)
        rc = ucmpi_coll_err(comm, MPI_ERR_OTHER, "the shared-memory "
                            "segment went away during a collective");
    return rc;
}

int ucmpi_coll_shm_enter_group(ucmpi_comm_t *comm, int first, int g,
                               ucmpi_coll_shm_t **sh, uint64_t *k)
{
    uint64_t last = 0;
    int rc = MPI_SUCCESS;

    for (int i = 0; i < g && rc == MPI_SUCCESS; i++)
        rc = ucmpi_coll_shm_enter_next(comm, first && i == 0, sh,
                                       i == 0 ? k : &last);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_coll_shm_wait_writable(*sh, g > 1 ? last : *k);
    return rc;
}

/* Bytes of chunk i of the group from off on: [off + i * cs, + this). */
static size_t chunk_len(size_t blk, size_t off, size_t cs, int i)
{
    size_t at = off + (size_t)i * cs;

    return blk - at < cs ? blk - at : cs;
}

/* The first group, all posted k: every size record must equal mine (shm.h);
 * numbers without valid data (a skipper, a voter) go into *bad. */
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

/* The root records its bytes (or SIZE_LOST) with its first chunk; a
 * non-root whose bytes differ takes the root's numbers (the drain). */
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
        if ((rc = ucmpi_coll_shm_enter_next(comm, off == 0, &sh, &k)) != MPI_SUCCESS)
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
            /* a root bound for p2p voted and took k alone */
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
        if ((rc = ucmpi_coll_shm_enter_next(comm, 0, &sh, &k)) ==
            MPI_SUCCESS) {
            ucmpi_coll_shm_post(sh, k);
            rc = ucmpi_coll_shm_wait(sh, root, k);
        }
    return rc;
}

/* The chunk size of the alltoall of n ranks (0: it falls back). */
static size_t a2a_chunk(int n)
{
    size_t cs = ucmpi_coll_shm_slot_size(n) / (size_t)n;

    return cs > 64 ? cs / 64 * 64 : cs;
}

/* Takes m numbers without data, marked invalid, posting every group as
 * the chunked paths do, so it stays within a reader's window. */
static int skip_numbers(ucmpi_comm_t *comm, uint64_t m, uint64_t rec)
{
    ucmpi_coll_shm_t *sh = NULL;
    uint64_t k = 0, k0 = 0;
    uint64_t step = (uint64_t)ucmpi_coll_shm_group(comm->size);
    int rc = MPI_SUCCESS;

    for (uint64_t i = 0; i < m && rc == MPI_SUCCESS; i++) {
        rc = ucmpi_coll_shm_enter_next(comm, i == 0, &sh, &k);
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

/* Piece j of the group from off on of rank r's block, from its buffer
 * at po (alltoall: my piece of its blocks) into out. */
static int take(span_t *out, ucmpi_coll_shm_t *sh, uint64_t k, int r, int j,
                size_t blk, size_t off, size_t cs, size_t po)
{
    return span_unpack(out, (size_t)r * blk + off + (size_t)j * cs,
                       ucmpi_coll_shm_buf(sh, r, k + (uint64_t)j) + po,
                       chunk_len(blk, off, cs, j));
}

/* A chunk: my bytes [off, off+len) (a2a: of each block, cs = slot/n apart; I
 * take piece `me` of all); in place works, packed before overwritten. */
int ucmpi_coll_shm_xfer_large(ucmpi_comm_t *comm, const void *sbuf,
                              MPI_Count scount, MPI_Datatype sdt, void *rbuf,
                              MPI_Count rcount, MPI_Datatype rdt, int a2a)
{
    int n = comm->size, me = comm->rank, rc = MPI_SUCCESS, bad = rc;
    int inplace = sbuf == MPI_IN_PLACE, gmax = ucmpi_coll_shm_group(n);
    size_t blk = (size_t)(rcount * rdt->size), len;
    /* aligned alltoall pieces copy faster */
    size_t cs = a2a ? a2a_chunk(n) : ucmpi_coll_shm_slot_size(n);
    size_t rec = a2a ? blk * (size_t)n : blk, po = a2a ? (size_t)me * cs : 0;
    ucmpi_coll_shm_t *sh;
    uint64_t k;
    span_t in, out;

    if (cs == 0)                     /* n alone: same answer everywhere */
        return UCMPI_SHM_FALLBACK;
    if (inplace && !a2a)
        span_init(&in, (char *)rbuf + (MPI_Aint)me * rcount * rdt->extent,
                  rcount, rdt);
    else if (inplace)
        span_init(&in, rbuf, rcount * n, rdt);
    else
        span_init(&in, sbuf, a2a ? scount * n : scount, sdt);
    span_init(&out, rbuf, rcount * n, rdt);
    /* my own block skips the segment (in place it is there already) */
    int direct = inplace || (in.base != NULL && out.base != NULL);
    for (size_t off = 0; off < blk && rc == MPI_SUCCESS; off += len) {
        size_t left = (blk - off + cs - 1) / cs;
        int g = left < (size_t)gmax ? (int)left : gmax;
        if ((rc = ucmpi_coll_shm_enter_group(comm, off == 0, g, &sh, &k)) !=
            MPI_SUCCESS)
            break;
        for (int j = 0; j < g && rc == MPI_SUCCESS; j++)
            for (int i = 0; i < (a2a ? n : 1) && rc == MPI_SUCCESS; i++)
                if ((!a2a || i != me || !direct) &&
                    span_pack(&in, (a2a ? (size_t)i * blk : 0) + off +
                                       (size_t)j * cs,
                              ucmpi_coll_shm_buf(sh, me, k + (uint64_t)j) +
                                  (size_t)i * cs,
                              chunk_len(blk, off, cs, j)))
                    rc = nomem(comm);
        if (rc != MPI_SUCCESS)
            break;
        if (off == 0)
            ucmpi_coll_shm_set_size(sh, k, rec);
        ucmpi_coll_shm_post(sh, k);
        /* my own pieces while the others still write */
        len = (size_t)(g - 1) * cs + chunk_len(blk, off, cs, g - 1);
        if (direct && !inplace)
            ucmpi_coll_shm_copy(out.base + (size_t)me * blk + off,
                                in.base + (a2a ? (size_t)me * blk : 0) + off,
                                len);
        for (int j = 0; j < g && !direct && rc == MPI_SUCCESS; j++)
            if (take(&out, sh, k, me, j, blk, off, cs, po))
                rc = nomem(comm);
        if (rc != MPI_SUCCESS ||
            (rc = ucmpi_coll_shm_wait(sh, -1, k)) != MPI_SUCCESS ||
            (off == 0 &&
             (rc = first_checks(sh, k, g, rec, &bad)) != MPI_SUCCESS))
            break;
        /* a rank without valid data: go on (its numbers match ours) */
        if (bad == MPI_SUCCESS && off != 0)
            bad = ucmpi_coll_shm_check_valid(sh, k, (uint64_t)g);
        for (int j = 0; j < g; j++)
            for (int r = 0; r < n && rc == MPI_SUCCESS; r++)
                if (r != me && take(&out, sh, k, r, j, blk, off, cs, po))
                    rc = nomem(comm);
    }
    span_done(&in);
    span_done(&out);
    return rc != MPI_SUCCESS ? rc : bad;
}
