/* The pack/unpack engine: a resumable cursor with an explicit loop stack (no
 * recursion), seeking by the nodes' packed sizes, O(len) when sequential. */
#include "dt.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t first, end, cur; /* body [first, end); current child */
    MPI_Count iter, count;
    MPI_Aint stride;
    char *base;               /* address of the current iteration */
} frame_t;

struct ucmpi_dt_cursor {
    MPI_Datatype dt;
    const ucmpi_dt_node_t *nodes;
    char *buf;
    MPI_Count count;
    size_t total;             /* packed bytes of all elements */
    size_t pos;               /* stream offset of the cursor */
    int contig;
    int top;                  /* innermost frame */
    MPI_Count liter;          /* leaf: block index */
    size_t loff;              /* leaf: offset inside the block */
    char *lbase;              /* leaf: address of block 0 */
    frame_t fr[];             /* depth + 1 frames */
};

ucmpi_dt_cursor_t *ucmpi_dt_cursor_create(MPI_Datatype dt, const void *buf,
                                          MPI_Count count)
{
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(dt);
    ucmpi_dt_cursor_t *c;

    c = malloc(sizeof(*c) + (size_t)(im->depth + 1) * sizeof(frame_t));
    if (c == NULL)
        return NULL;
    ucmpi_dt_retain(dt);
    c->dt = dt;
    c->nodes = im->nodes;
    c->buf = (char *)buf;
    c->count = count;
    c->total = (size_t)(count * dt->size);
    c->contig = dt->contig;
    c->pos = (size_t)-1;      /* forces a seek on first use */
    return c;
}

void ucmpi_dt_cursor_destroy(ucmpi_dt_cursor_t *c)
{
    if (c == NULL)
        return;
    ucmpi_dt_release(c->dt);
    free(c);
}

/* Descends from the current child of the top frame to its first leaf. */
static void descend_first(ucmpi_dt_cursor_t *c)
{
    for (;;) {
        frame_t *f = &c->fr[c->top];
        const ucmpi_dt_node_t *nd = &c->nodes[f->cur];
        if (nd->kind == UCMPI_DTN_VEC) {
            c->liter = 0;
            c->loff = 0;
            c->lbase = f->base + nd->disp;
            return;
        }
        frame_t *g = &c->fr[++c->top];
        g->first = g->cur = f->cur + 1;
        g->end = f->cur + nd->span;
        g->iter = 0;
        g->count = nd->count;
        g->stride = nd->stride;
        g->base = f->base + nd->disp;
    }
}

/* Moves to the next leaf; 0 at the end of the stream. */
static int next_leaf(ucmpi_dt_cursor_t *c)
{
    for (;;) {
        frame_t *f = &c->fr[c->top];
        uint32_t i = f->cur + c->nodes[f->cur].span;
        if (i < f->end) {
            f->cur = i;
            descend_first(c);
            return 1;
        }
        if (++f->iter < f->count) {
            f->base += f->stride;
            f->cur = f->first;
            descend_first(c);
            return 1;
        }
        if (c->top == 0)
            return 0;
        c->top--;
    }
}

/* Positions the cursor at stream offset off (< total). */
static void seek(ucmpi_dt_cursor_t *c, size_t off)
{
    MPI_Datatype dt = c->dt;
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(dt);
    frame_t *f = &c->fr[0];
    MPI_Count o = (MPI_Count)off;

    c->top = 0;
    f->first = 0;
    f->end = im->nnodes;
    f->count = c->count;
    f->stride = dt->extent;
    f->iter = o / dt->size;
    f->base = c->buf + f->iter * dt->extent;
    o %= dt->size;
    for (;;) {
        uint32_t i = f->first;
        while (o >= c->nodes[i].size) {
            o -= c->nodes[i].size;
            i += c->nodes[i].span;
        }
        f->cur = i;
        const ucmpi_dt_node_t *nd = &c->nodes[i];
        if (nd->kind == UCMPI_DTN_VEC) {
            c->liter = o / nd->len;
            c->loff = (size_t)(o % nd->len);
            c->lbase = f->base + nd->disp;
            break;
        }
        frame_t *g = &c->fr[++c->top];
        g->first = i + 1;
        g->end = i + nd->span;
        g->count = nd->count;
        g->stride = nd->stride;
        g->iter = o / nd->len;
        g->base = f->base + nd->disp + g->iter * nd->stride;
        o %= nd->len;
        f = g;
    }
    c->pos = off;
}

typedef struct { uint64_t a, b; } u128_t;

/* Small copies without a call: overlapping fixed-size moves. */
static inline void move_bytes(char *d, const char *s, size_t n)
{
    if (n >= 8 && n <= 16) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4 && n < 8) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else if (n < 4) {
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    } else if (n <= 32) {
        u128_t a, b;
        memcpy(&a, s, 16);
        memcpy(&b, s + n - 16, 16);
        memcpy(d, &a, 16);
        memcpy(d + n - 16, &b, 16);
    } else {
        memcpy(d, s, n);
    }
}

/* Copies k whole blocks of len bytes between a strided and a packed
 * region; power-of-two sizes up to 16 get fixed-size moves. */
#define STRIDED_COPY(T, unpack)                                         \
    do {                                                                \
        _Pragma("GCC unroll 4")                                         \
        for (MPI_Count j = 0; j < k; j++) {                             \
            T v_;                                                       \
            if (unpack) {                                               \
                memcpy(&v_, p + j * sizeof(T), sizeof(T));              \
                memcpy(s + j * stride, &v_, sizeof(T));                 \
            } else {                                                    \
                memcpy(&v_, s + j * stride, sizeof(T));                 \
                memcpy(p + j * sizeof(T), &v_, sizeof(T));              \
            }                                                           \
        }                                                               \
    } while (0)

static inline void copy_blocks(char *s, char *p, MPI_Count k, size_t len,
                               MPI_Aint stride, const int unpack)
{
    switch (len) {
    case 1: STRIDED_COPY(uint8_t, unpack); return;
    case 2: STRIDED_COPY(uint16_t, unpack); return;
    case 4: STRIDED_COPY(uint32_t, unpack); return;
    case 8: STRIDED_COPY(uint64_t, unpack); return;
    case 16: STRIDED_COPY(u128_t, unpack); return;
    default:
        for (MPI_Count j = 0; j < k; j++, s += stride, p += len) {
            if (unpack)
                move_bytes(s, p, len);
            else
                move_bytes(p, s, len);
        }
    }
}

/* Moves up to len bytes of the stream at the cursor; returns bytes done. */
static inline size_t walk(ucmpi_dt_cursor_t *c, char *stream, size_t len,
                          const int unpack)
{
    size_t done = 0;

    while (done < len) {
        frame_t *f = &c->fr[c->top];
        const ucmpi_dt_node_t *nd = &c->nodes[f->cur];
        if (nd->count == 1 && f->end - f->first == 1 && c->liter == 0 &&
            c->loff == 0 && (size_t)nd->len <= len - done) {
            /* a loop whose body is one block (resized or strided basic
             * elements, vector of vectors): the loop is a vector itself */
            size_t blen = (size_t)nd->len;
            MPI_Count k = f->count - f->iter;
            if ((MPI_Count)((len - done) / blen) < k)
                k = (MPI_Count)((len - done) / blen);
            copy_blocks(c->lbase, stream + done, k, blen, f->stride, unpack);
            done += (size_t)k * blen;
            f->iter += k - 1;
            f->base += (k - 1) * f->stride;
            c->lbase = f->base + nd->disp;
            c->liter = 1;     /* block f->iter done */
            goto advance;
        }
        if (nd->count == 1 && c->liter == 0 && c->loff == 0 &&
            (size_t)nd->len <= len - done) {
            /* a run of single-block leaves (indexed, struct): tight loop */
            const ucmpi_dt_node_t *q = nd, *end = c->nodes + f->end;
            char *base = f->base;
            for (;;) {
                size_t l = (size_t)q->len;
                if (l > len - done)
                    break;
                if (unpack)
                    move_bytes(base + q->disp, stream + done, l);
                else
                    move_bytes(stream + done, base + q->disp, l);
                done += l;
                if (q + 1 == end || q[1].kind != UCMPI_DTN_VEC ||
                    q[1].count != 1) {
                    c->liter = 1;
                    break;
                }
                q++;
            }
            f->cur = (uint32_t)(q - c->nodes);
            c->lbase = base + q->disp;
            nd = q;
            if (c->liter == 0)
                continue;     /* the next block only partly fits */
            goto advance;
        }
        size_t blen = (size_t)nd->len;
        char *s = c->lbase + c->liter * nd->stride + c->loff;
        char *p = stream + done;
        size_t want = len - done;
        if (c->loff == 0 && want >= blen) {
            MPI_Count k = nd->count - c->liter;
            if ((MPI_Count)(want / blen) < k)
                k = (MPI_Count)(want / blen);
            copy_blocks(s, p, k, blen, nd->stride, unpack);
            c->liter += k;
            done += (size_t)k * blen;
        } else {
            size_t n = blen - c->loff;
            if (n > want)
                n = want;
            if (unpack)
                move_bytes(s, p, n);
            else
                move_bytes(p, s, n);
            done += n;
            c->loff += n;
            if (c->loff == blen) {
                c->loff = 0;
                c->liter++;
            }
        }
        if (c->liter < nd->count)
            continue;
    advance:;
        /* next leaf: a sibling leaf directly, else through the frames */
        uint32_t i = f->cur + 1;
        if (i < f->end && c->nodes[i].kind == UCMPI_DTN_VEC) {
            f->cur = i;
            c->liter = 0;
            c->lbase = f->base + c->nodes[i].disp;
        } else if (!next_leaf(c)) {
            break;
        }
    }
    c->pos += done;
    return done;
}

static size_t cursor_move(ucmpi_dt_cursor_t *c, size_t offset, char *stream,
                          size_t len, int unpack)
{
    if (offset >= c->total)
        return 0;
    if (len > c->total - offset)
        len = c->total - offset;
    if (c->contig) {
        char *s = c->buf + c->dt->true_lb + offset;
        if (unpack)
            memcpy(s, stream, len);
        else
            memcpy(stream, s, len);
        return len;
    }
    if (offset != c->pos)
        seek(c, offset);
    return unpack ? walk(c, stream, len, 1) : walk(c, stream, len, 0);
}

size_t ucmpi_dt_cursor_pack(ucmpi_dt_cursor_t *c, size_t offset, void *dst,
                            size_t len)
{
    return cursor_move(c, offset, dst, len, 0);
}

size_t ucmpi_dt_cursor_unpack(ucmpi_dt_cursor_t *c, size_t offset,
                              const void *src, size_t len)
{
    return cursor_move(c, offset, (char *)src, len, 1);
}

/* ---- iov: the contiguous runs instead of the bytes ---- */

size_t ucmpi_dt_cursor_iov(ucmpi_dt_cursor_t *c, size_t offset, size_t len,
                           ucmpi_dt_iov_t *iov, size_t maxn, size_t *nout)
{
    size_t n = 0, done = 0;

    *nout = 0;
    if (offset >= c->total || maxn == 0)
        return 0;
    if (len > c->total - offset)
        len = c->total - offset;
    if (c->contig) {
        iov[0] = (ucmpi_dt_iov_t){c->dt->true_lb + (MPI_Aint)offset, len};
        *nout = 1;
        return len;
    }
    if (offset != c->pos)
        seek(c, offset);
    while (done < len) {
        const ucmpi_dt_node_t *nd = &c->nodes[c->fr[c->top].cur];
        size_t blen = (size_t)nd->len, take = blen - c->loff;
        MPI_Aint off = (c->lbase - c->buf) + c->liter * nd->stride +
                       (MPI_Aint)c->loff;
        if (take > len - done)
            take = len - done;
        if (n > 0 && iov[n - 1].off + (MPI_Aint)iov[n - 1].len == off) {
            iov[n - 1].len += take;
        } else {
            if (n == maxn)
                break;
            iov[n++] = (ucmpi_dt_iov_t){off, take};
        }
        done += take;
        c->loff += take;
        if (c->loff < blen)
            continue;
        c->loff = 0;
        if (++c->liter == nd->count && !next_leaf(c))
            break;
    }
    c->pos += done;
    *nout = n;
    return done;
}

int ucmpi_dt_iov(MPI_Datatype dt, const void *buf, MPI_Count count,
                 ucmpi_dt_iov_t **iov, size_t *n)
{
    size_t total = (size_t)(count * dt->size), pos = 0, cap = 16, got = 0;
    ucmpi_dt_iov_t *v = malloc(cap * sizeof(*v));
    ucmpi_dt_cursor_t *c = ucmpi_dt_cursor_create(dt, buf, count);

    if (v == NULL || c == NULL)
        goto nomem;
    while (pos < total) {
        size_t k;
        if (got == cap) {
            ucmpi_dt_iov_t *w = realloc(v, 2 * cap * sizeof(*v));
            if (w == NULL)
                goto nomem;
            v = w;
            cap *= 2;
        }
        pos += ucmpi_dt_cursor_iov(c, pos, total - pos, v + got, cap - got,
                                   &k);
        /* a run continuing across calls is merged here */
        if (got > 0 && k > 0 &&
            v[got - 1].off + (MPI_Aint)v[got - 1].len == v[got].off) {
            v[got - 1].len += v[got].len;
            memmove(v + got, v + got + 1, (k - 1) * sizeof(*v));
            k--;
        }
        got += k;
    }
    ucmpi_dt_cursor_destroy(c);
    *iov = v;
    *n = got;
    return MPI_SUCCESS;
nomem:
    ucmpi_dt_cursor_destroy(c);
    free(v);
    return MPI_ERR_NO_MEM;
}

/* Whole-buffer forms use a cursor on the stack when the type is shallow
 * (no malloc for small messages). */
#define STACK_DEPTH 8

static size_t whole(MPI_Datatype dt, char *buf, MPI_Count count,
                    char *stream, size_t len, int unpack)
{
    union {
        ucmpi_dt_cursor_t c;
        char space[sizeof(ucmpi_dt_cursor_t) +
                   (STACK_DEPTH + 1) * sizeof(frame_t)];
    } u;
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(dt);
    ucmpi_dt_cursor_t *c = &u.c;
    size_t n;

    if (im->depth > STACK_DEPTH) {
        c = ucmpi_dt_cursor_create(dt, buf, count);
        if (c == NULL)
            return 0;
        n = cursor_move(c, 0, stream, len, unpack);
        ucmpi_dt_cursor_destroy(c);
        return n;
    }
    c->dt = dt;
    c->nodes = im->nodes;
    c->buf = buf;
    c->count = count;
    c->total = (size_t)(count * dt->size);
    c->contig = 0;
    c->pos = (size_t)-1;
    return cursor_move(c, 0, stream, len, unpack);
}

size_t ucmpi_dt_pack(MPI_Datatype dt, const void *buf, MPI_Count count,
                     void *dst)
{
    size_t total = (size_t)(count * dt->size);
    if (total == 0)
        return 0;
    if (dt->contig) {
        memcpy(dst, (const char *)buf + dt->true_lb, total);
        return total;
    }
    return whole(dt, (char *)buf, count, dst, total, 0);
}

size_t ucmpi_dt_unpack(MPI_Datatype dt, void *buf, MPI_Count count,
                       const void *src, size_t len)
{
    size_t total = (size_t)(count * dt->size);
    if (len > total)
        len = total;
    if (len == 0)
        return 0;
    if (dt->contig) {
        memcpy((char *)buf + dt->true_lb, src, len);
        return len;
    }
    return whole(dt, buf, count, (char *)src, len, 1);
}
