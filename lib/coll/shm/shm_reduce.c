/* Reductions over the shared segment: rank-order reduction, reduce_scatter
 * and split allreduce/reduce, all ranks at once (docs/architecture.md). */
#include "coll/shm/shm.h"
#include "coll/coll_util.h"
#include "core/config.h"

#include <stdlib.h>

/* In rank order (non-commutative ops too); the first step goes straight
 * into rbuf with three operands (one pass fewer than copy + reduce). */
int ucmpi_coll_shm_reduce_all(const char *const *x, void *rbuf,
                              MPI_Count count, MPI_Datatype dt, MPI_Op op,
                              int n)
{
    const char *out = (const char *)rbuf + dt->true_lb;
    int rc = MPI_SUCCESS, i = n - 2;

    if (n >= 2 && x[n - 1] != out)
        rc = ucmpi_op_apply3(op, x[i--] - dt->true_lb,
                             x[n - 1] - dt->true_lb, rbuf, count, dt);
    else if (x[n - 1] != out)
        ucmpi_coll_shm_copy((char *)out, x[n - 1],
                            (size_t)(count * dt->size));
    for (; i >= 0 && rc == MPI_SUCCESS; i--)
        rc = ucmpi_op_apply(op, x[i] - dt->true_lb, rbuf, count, dt);
    return rc;
}

#define MAX_STACK_RANKS 64

/* Elements of one piece: a rank's share of a buffer, 64-byte multiples
 * where an element divides 64 (aligned copies). */
static MPI_Count piece_elems(int n, size_t esize)
{
    size_t cs = ucmpi_coll_shm_slot_size(n) / (size_t)n;

    if (cs >= 64 && 64 % esize == 0)
        cs = cs / 64 * 64;
    return (MPI_Count)(cs / esize);
}

/* Packs piece j of each block I send (mine only in place) for k. */
static void pack_pieces(char *mine, const char *in, const MPI_Count *counts,
                        const MPI_Count *displs, MPI_Count lo, MPI_Count p,
                        size_t esize, int n, int me, int inplace)
{
    for (int d = 0; d < n; d++) {
        if ((d == me && !inplace) || lo >= counts[d])
            continue;
        MPI_Count m = counts[d] - lo < p ? counts[d] - lo : p;
        ucmpi_coll_shm_copy(mine + (size_t)d * (size_t)p * esize,
                            in + (size_t)(displs[d] + lo) * esize,
                            (size_t)m * esize);
    }
}

/* One number (every block fits a piece): enter, pack, record, post, wait
 * for all, check every rank's bytes, reduce my block. */
static int rs_one(ucmpi_comm_t *comm, const char *in, void *rbuf,
                  const MPI_Count *counts, const MPI_Count *displs,
                  MPI_Count p, uint64_t bytes, MPI_Datatype dt, MPI_Op op,
                  int inplace, const char **x)
{
    int n = comm->size, me = comm->rank, rc;
    size_t esize = (size_t)dt->size, off = (size_t)me * (size_t)p * esize;
    ucmpi_coll_shm_t *sh;
    uint64_t k;

    if ((rc = ucmpi_coll_shm_enter(comm, &sh, &k)) != MPI_SUCCESS ||
        (rc = ucmpi_coll_shm_wait_writable(sh, k)) != MPI_SUCCESS)
        return rc;
    pack_pieces(ucmpi_coll_shm_buf(sh, me, k), in, counts, displs, 0, p,
                esize, n, me, inplace);
    ucmpi_coll_shm_set_size(sh, k, bytes);
    ucmpi_coll_shm_post(sh, k);
    if ((rc = ucmpi_coll_shm_wait(sh, -1, k)) != MPI_SUCCESS ||
        (rc = ucmpi_coll_shm_check_sizes(sh, k, bytes)) != MPI_SUCCESS ||
        counts[me] == 0)
        return rc;
    for (int r = 0; r < n; r++)
        x[r] = ucmpi_coll_shm_buf(sh, r, k) + off;
    if (!inplace)
        x[me] = in + (size_t)displs[me] * esize;
    rc = ucmpi_coll_shm_reduce_all(x, rbuf, counts[me], dt, op, n);
    return rc == MPI_SUCCESS ? rc
                             : ucmpi_coll_err(comm, rc, "reduction failed");
}

int ucmpi_coll_shm_reduce_scatter_large(ucmpi_comm_t *comm, const void *sbuf,
                                        void *rbuf, const MPI_Count *counts,
                                        const MPI_Count *displs,
                                        MPI_Datatype dt, MPI_Op op)
{
    int n = comm->size, me = comm->rank, inplace = sbuf == MPI_IN_PLACE;
    size_t esize = (size_t)dt->size;
    MPI_Count p = piece_elems(n, esize), maxc = 0;
    const char *stack[MAX_STACK_RANKS], **x;
    /* the packed input: dt is contiguous (extent == size) */
    const char *in = (const char *)(inplace ? rbuf : sbuf) + dt->true_lb;
    int rc = MPI_SUCCESS;

    if (p == 0)                   /* (n, dt) alone: same answer everywhere */
        return UCMPI_SHM_FALLBACK;
    x = n <= MAX_STACK_RANKS ? stack : malloc(sizeof(char *) * (size_t)n);
    if (x == NULL)
        return ucmpi_coll_err(comm, MPI_ERR_NO_MEM, "out of memory");
    MPI_Count total = 0;
    for (int d = 0; d < n; d++) {
        maxc = counts[d] > maxc ? counts[d] : maxc;
        total += counts[d];
    }
    int gmax = ucmpi_coll_shm_group(n);
    if (maxc <= p && maxc > 0) {
        rc = rs_one(comm, in, rbuf, counts, displs, p,
                    (uint64_t)total * esize, dt, op, inplace, x);
        maxc = 0;                           /* (skips the chunks below) */
    }
    for (MPI_Count lo = 0, g; lo < maxc && rc == MPI_SUCCESS; lo += g * p) {
        ucmpi_coll_shm_t *sh;
        uint64_t k;
        int waited = 0;

        /* a group of up to gmax chunks (numbers k..k+g-1), one post */
        g = (maxc - lo + p - 1) / p < gmax ? (maxc - lo + p - 1) / p : gmax;
        if ((rc = ucmpi_coll_shm_enter_group(comm, lo == 0, (int)g, &sh,
                                             &k)) != MPI_SUCCESS)
            break;
        for (int i = 0; i < g; i++)
            pack_pieces(ucmpi_coll_shm_buf(sh, me, k + (uint64_t)i), in,
                        counts, displs, lo + i * p, p, esize, n, me, inplace);
        /* every rank checks every vector size at the first number */
        if (lo == 0)
            ucmpi_coll_shm_set_size(sh, k, (uint64_t)total * esize);
        ucmpi_coll_shm_post(sh, k);
        if (lo == 0) {
            waited = 1;
            if ((rc = ucmpi_coll_shm_wait(sh, -1, k)) != MPI_SUCCESS ||
                (rc = ucmpi_coll_shm_check_sizes(
                     sh, k, (uint64_t)total * esize)) != MPI_SUCCESS)
                break;
        }
        for (int i = 0; i < g && rc == MPI_SUCCESS; i++) {
            MPI_Count l = lo + i * p;
            if (l >= counts[me])
                break;            /* my block is done: nothing to read */
            MPI_Count m = counts[me] - l < p ? counts[me] - l : p;
            if (!waited++ &&
                (rc = ucmpi_coll_shm_wait(sh, -1, k)) != MPI_SUCCESS)
                break;
            for (int r = 0; r < n; r++)
                x[r] = ucmpi_coll_shm_buf(sh, r, k + (uint64_t)i) +
                       (size_t)me * (size_t)p * esize;
            if (!inplace)
                x[me] = in + (size_t)(displs[me] + l) * esize;
            rc = ucmpi_coll_shm_reduce_all(x, (char *)rbuf + (size_t)l * esize,
                                           m, dt, op, n);
            if (rc != MPI_SUCCESS)
                rc = ucmpi_coll_err(comm, rc, "reduction failed");
        }
    }
    if (x != stack)
        free(x);
    return rc;
}

/* Allreduce and reduce split among the ranks: two numbers a chunk, k1 to
 * reduce one's own piece, k2 to publish it (docs/architecture.md). */
typedef struct {
    ucmpi_comm_t *comm;
    int n, me, root;              /* root < 0: allreduce */
    int inplace;                  /* my operand is in out (pack it too) */
    size_t esize;
    MPI_Count p;                  /* elements of a full piece */
    const char *in;               /* my packed operand */
    char *out;                    /* packed result (NULL: reduce non-root) */
    MPI_Datatype dt;
    MPI_Op op;
    const char **x;
    uint64_t sig;                 /* my size record (shm.h) */
} split_t;

/* Piece d of a chunk of len elements: [*b, *b + *m). */
static void split_piece(MPI_Count len, int n, int d, MPI_Count *b,
                        MPI_Count *m)
{
    MPI_Count q = (len + n - 1) / n;

    *b = (MPI_Count)d * q < len ? (MPI_Count)d * q : len;
    *m = len - *b < q ? len - *b : q;
}

/* g chunks (chunk i from lo + i*n*p, len[i]): phase 1 in k1 + i, phase 2 in
 * k2 + i, each posting its first number once all its buffers are written. */
static int split_group(split_t *s, MPI_Count lo, const MPI_Count *len,
                       int g, int first)
{
    size_t es = s->esize, po = (size_t)s->me * (size_t)s->p * es;
    MPI_Count c = s->p * s->n, b, m, mb, mm;
    ucmpi_coll_shm_t *sh;
    uint64_t k1, k2;
    int rc, gather = s->root < 0 || s->root == s->me, waited = 0;

    if ((rc = ucmpi_coll_shm_enter_group(s->comm, first, g, &sh, &k1)) !=
        MPI_SUCCESS)
        return rc;
    for (int i = 0; i < g; i++) {
        char *mine = ucmpi_coll_shm_buf(sh, s->me, k1 + (uint64_t)i);
        for (int d = 0; d < s->n; d++) {
            split_piece(len[i], s->n, d, &b, &m);
            if ((d != s->me || s->inplace) && m > 0)
                ucmpi_coll_shm_copy(mine + (size_t)d * (size_t)s->p * es,
                                    s->in + (size_t)(lo + i * c + b) * es,
                                    (size_t)m * es);
        }
    }
    if (first)
        ucmpi_coll_shm_set_size(sh, k1, s->sig);
    ucmpi_coll_shm_post(sh, k1);
    /* the first group checks every rank's count before reading anything */
    if (first) {
        waited = 1;
        if ((rc = ucmpi_coll_shm_wait(sh, -1, k1)) != MPI_SUCCESS ||
            (rc = ucmpi_coll_shm_check_sizes(sh, k1, s->sig)) !=
                MPI_SUCCESS)
            return rc;
    }
    if ((rc = ucmpi_coll_shm_enter_group(s->comm, 0, g, &sh, &k2)) !=
        MPI_SUCCESS)
        return rc;
    for (int i = 0; i < g; i++) {
        MPI_Count at = lo + i * c;
        split_piece(len[i], s->n, s->me, &mb, &mm);
        if (mm == 0)
            continue;
        /* my result piece: into the result I keep, else my buffer */
        char *res = s->out != NULL ? s->out + (size_t)(at + mb) * es
                                   : ucmpi_coll_shm_buf(sh, s->me,
                                                        k2 + (uint64_t)i);
        if (!waited++ &&
            (rc = ucmpi_coll_shm_wait(sh, -1, k1)) != MPI_SUCCESS)
            return rc;
        for (int r = 0; r < s->n; r++)
            s->x[r] = ucmpi_coll_shm_buf(sh, r, k1 + (uint64_t)i) + po;
        if (!s->inplace)
            s->x[s->me] = s->in + (size_t)(at + mb) * es;
        rc = ucmpi_coll_shm_reduce_all(s->x, res - s->dt->true_lb, mm, s->dt,
                                       s->op, s->n);
        if (rc != MPI_SUCCESS)
            return ucmpi_coll_err(s->comm, rc, "reduction failed");
        if (s->out != NULL && s->root < 0)
            ucmpi_coll_shm_copy(ucmpi_coll_shm_buf(sh, s->me, k2 + (uint64_t)i),
                                res, (size_t)mm * es);
    }
    ucmpi_coll_shm_post(sh, k2);
    if (!gather)
        return MPI_SUCCESS;
    if ((rc = ucmpi_coll_shm_wait(sh, -1, k2)) != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < g; i++)
        for (int r = 0; r < s->n; r++) {
            split_piece(len[i], s->n, r, &b, &m);
            if (r != s->me && m > 0)
                ucmpi_coll_shm_copy(s->out + (size_t)(lo + i * c + b) * es,
                                    ucmpi_coll_shm_buf(sh, r,
                                                       k2 + (uint64_t)i),
                                    (size_t)m * es);
        }
    return MPI_SUCCESS;
}

/* Bytes of a full piece (64-byte multiples; 0: none fits). */
static size_t split_piece_bytes(int n)
{
    size_t cs = ucmpi_coll_shm_slot_size(n) / (size_t)n;

    return cs >= 64 ? cs / 64 * 64 : 0;
}

uint64_t ucmpi_coll_shm_split_numbers(int n, size_t nbytes)
{
    size_t chunk = split_piece_bytes(n) * (size_t)n, chunks, g;

    if (chunk == 0)
        return 1;
    chunks = (nbytes + chunk - 1) / chunk;
    g = (size_t)ucmpi_coll_shm_group(n);
    /* every group takes 2g numbers, the last one 2 per chunk left */
    return 2 * (chunks / g * g + chunks % g);
}

int ucmpi_coll_shm_split(ucmpi_comm_t *comm, const void *sbuf, void *rbuf,
                         MPI_Count count, MPI_Datatype dt, MPI_Op op,
                         int root)
{
    int n = comm->size, me = comm->rank;
    size_t es = (size_t)dt->size, pb = split_piece_bytes(n);
    const char *stack[MAX_STACK_RANKS];
    split_t s = {comm, n, me, root, sbuf == MPI_IN_PLACE, es,
                 0, NULL, NULL, dt, op, NULL,
                 (uint64_t)count * es};
    int rc = MPI_SUCCESS;

    if (pb == 0 || es == 0 || 64 % es != 0)
        return UCMPI_SHM_FALLBACK;
    s.p = (MPI_Count)(pb / es);
    s.in = (const char *)(s.inplace ? rbuf : sbuf) + dt->true_lb;
    if (root < 0 || root == me)
        s.out = (char *)rbuf + dt->true_lb;
    s.x = n <= MAX_STACK_RANKS ? stack : malloc(sizeof(char *) * (size_t)n);
    if (s.x == NULL)
        return ucmpi_coll_err(comm, MPI_ERR_NO_MEM, "out of memory");
    MPI_Count c = s.p * n, len[UCMPI_SHM_GROUP_MAX];
    int gmax = ucmpi_coll_shm_group(n);
    for (MPI_Count lo = 0; lo < count && rc == MPI_SUCCESS;) {
        int g = 0;
        MPI_Count at = lo;
        for (; g < gmax && at < count; g++, at += c)
            len[g] = count - at < c ? count - at : c;
        rc = split_group(&s, lo, len, g, lo == 0);
        lo = at;
    }
    if (s.x != stack)
        free(s.x);
    return rc;
}

/* Split from these bytes (2, 3-4, 5-8 ranks; always beyond a buffer; reduce
 * never within one): below, one number saves a flag round (docs/tuning.md). */
#define BEYOND_SLOT SIZE_MAX
static const size_t split_rows[2][3] = {
    /*            2 ranks      3-4 ranks    5-8 ranks */
    /* allreduce */ {65536,    65536,       32768},
    /* reduce */    {BEYOND_SLOT, BEYOND_SLOT, BEYOND_SLOT},
};

int ucmpi_coll_shm_split_wanted(int kind, int n, size_t nbytes)
{
    static long over = -2;
    size_t lim;

    if (over == -2)
        over = ucmpi_config_long("COLL_SHM_SPLIT_BYTES");
    if (over >= 0)
        return nbytes >= (size_t)over;
    if (nbytes <= 64)
        return 0;                 /* below every row and every buffer */
    lim = split_rows[kind == UCMPI_SHM_REDUCE][n == 2 ? 0 : n <= 4 ? 1 : 2];
    return nbytes >= lim || nbytes > ucmpi_coll_shm_slot_size(n);
}

/* Whether ucmpi_coll_shm_split takes dt on n ranks or falls back. */
static int split_fits(int n, MPI_Datatype dt)
{
    size_t es = (size_t)dt->size;

    return split_piece_bytes(n) != 0 && es != 0 && 64 % es == 0;
}

int ucmpi_coll_shm_reduce_numbers(ucmpi_comm_t *comm, MPI_Count count,
                                  MPI_Datatype dt)
{
    size_t nbytes = (size_t)(count * dt->size);

    if (count <= 0 || !dt->contig ||
        !ucmpi_coll_shm_wanted(comm, UCMPI_SHM_REDUCE, nbytes))
        return 0;
    if (ucmpi_coll_shm_split_wanted(UCMPI_SHM_REDUCE, comm->size, nbytes) &&
        split_fits(comm->size, dt))
        return (int)ucmpi_coll_shm_split_numbers(comm->size, nbytes);
    return nbytes <= ucmpi_coll_shm_slot_size(comm->size) ? 1 : 0;
}

int ucmpi_coll_shm_skip(ucmpi_comm_t *comm, int numbers)
{
    ucmpi_coll_shm_t *sh = NULL;
    uint64_t k = 0;
    int rc;

    /* my "lost" record ends the call at its first number for the checkers */
    if (numbers <= 0)
        return MPI_SUCCESS;
    if ((rc = ucmpi_coll_shm_enter(comm, &sh, &k)) != MPI_SUCCESS ||
        (rc = ucmpi_coll_shm_wait_room(sh, k, 1)) != MPI_SUCCESS)
        return rc;
    ucmpi_coll_shm_set_size(sh, k, UCMPI_COLL_SHM_SIZE_LOST);
    ucmpi_coll_shm_post(sh, k);
    return MPI_SUCCESS;
}
