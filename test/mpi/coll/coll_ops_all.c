/* Every predefined reduction op on every predefined type the standard
 * allows it on (MPI-4.1 6.9.2: C, Fortran and multi-language integers,
 * floating point incl. long double, complex incl. long double complex,
 * logical, byte, and the MINLOC/MAXLOC pair types, ties included), through
 * the collectives that reduce: Reduce_local, Allreduce (1, 7 and 1500
 * elements, in place every other pair), Reduce (rotating root, in place
 * at the root), Scan, Exscan, Reduce_scatter_block, and one Iallreduce per
 * pair all in flight at once.  Values are small integers so every result
 * is exact in every type and order; each element is checked.  The list
 * forces each allreduce, reduce and reduce_scatter algorithm in turn. */
#include "../mpitest.h"
#include <complex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { K_SINT, K_UINT, K_FLT, K_CPLX, K_BOOL, K_BYTE, K_PAIR };
enum { C_MAXMIN = 1, C_SUMPROD = 2, C_LOGIC = 4, C_BITS = 8, C_CPLX = 16,
       C_LOC = 32 };

typedef struct {
    MPI_Datatype dt;
    const char *name;
    int kind;
    int size;       /* bytes of one value (complex: both parts) */
    int classes;    /* which ops the standard allows */
    int ext;        /* pair types: C struct size */
    int ioff;       /* pair types: offset of the index */
    int ikind, isize; /* pair types: the index's kind and size */
    int vkind;        /* pair types: the value's kind */
} tinfo_t;

#define CINT (C_MAXMIN | C_SUMPROD | C_LOGIC | C_BITS)
#define FINT (C_MAXMIN | C_SUMPROD | C_BITS)
#define FLT (C_MAXMIN | C_SUMPROD)
#define SI(dt, t) { dt, #dt, K_SINT, sizeof(t), CINT, 0, 0, 0, 0, 0 }
#define UI(dt, t) { dt, #dt, K_UINT, sizeof(t), CINT, 0, 0, 0, 0, 0 }
#define FI(dt, t) { dt, #dt, K_SINT, sizeof(t), FINT, 0, 0, 0, 0, 0 }
#define FL(dt, t) { dt, #dt, K_FLT, sizeof(t), FLT, 0, 0, 0, 0, 0 }
#define CX(dt, t) { dt, #dt, K_CPLX, sizeof(t), C_CPLX, 0, 0, 0, 0, 0 }
#define PR(dt, s, vk, ik)                                               \
    { dt, #dt, K_PAIR, sizeof(((s *)0)->v), C_LOC, sizeof(s),           \
      offsetof(s, i), ik, sizeof(((s *)0)->i), vk }

typedef struct { float v; int i; } p_fi_t;
typedef struct { double v; int i; } p_di_t;
typedef struct { long v; int i; } p_li_t;
typedef struct { int v; int i; } p_ii_t;
typedef struct { short v; int i; } p_si_t;
typedef struct { long double v; int i; } p_ldi_t;
typedef struct { float v; float i; } p_ff_t;
typedef struct { double v; double i; } p_dd_t;

static const tinfo_t types[] = {
    SI(MPI_SIGNED_CHAR, signed char), UI(MPI_UNSIGNED_CHAR, unsigned char),
    SI(MPI_SHORT, short), UI(MPI_UNSIGNED_SHORT, unsigned short),
    SI(MPI_INT, int), UI(MPI_UNSIGNED, unsigned),
    SI(MPI_LONG, long), UI(MPI_UNSIGNED_LONG, unsigned long),
    SI(MPI_LONG_LONG, long long), UI(MPI_UNSIGNED_LONG_LONG, unsigned long long),
    SI(MPI_INT8_T, int8_t), SI(MPI_INT16_T, int16_t),
    SI(MPI_INT32_T, int32_t), SI(MPI_INT64_T, int64_t),
    UI(MPI_UINT8_T, uint8_t), UI(MPI_UINT16_T, uint16_t),
    UI(MPI_UINT32_T, uint32_t), UI(MPI_UINT64_T, uint64_t),
    FI(MPI_AINT, MPI_Aint), FI(MPI_OFFSET, MPI_Offset), FI(MPI_COUNT, MPI_Count),
    FI(MPI_INTEGER, int), FI(MPI_INTEGER1, int8_t), FI(MPI_INTEGER2, int16_t),
    FI(MPI_INTEGER4, int32_t), FI(MPI_INTEGER8, int64_t),
    FL(MPI_FLOAT, float), FL(MPI_DOUBLE, double),
    FL(MPI_LONG_DOUBLE, long double), FL(MPI_REAL, float),
    FL(MPI_DOUBLE_PRECISION, double), FL(MPI_REAL4, float), FL(MPI_REAL8, double),
    CX(MPI_C_COMPLEX, float _Complex), CX(MPI_C_FLOAT_COMPLEX, float _Complex),
    CX(MPI_C_DOUBLE_COMPLEX, double _Complex),
    CX(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex),
    CX(MPI_CXX_FLOAT_COMPLEX, float _Complex),
    CX(MPI_CXX_DOUBLE_COMPLEX, double _Complex),
    CX(MPI_CXX_LONG_DOUBLE_COMPLEX, long double _Complex),
    CX(MPI_COMPLEX, float _Complex), CX(MPI_DOUBLE_COMPLEX, double _Complex),
    CX(MPI_COMPLEX8, float _Complex), CX(MPI_COMPLEX16, double _Complex),
    { MPI_C_BOOL, "MPI_C_BOOL", K_BOOL, sizeof(bool), C_LOGIC, 0, 0, 0, 0, 0 },
    { MPI_CXX_BOOL, "MPI_CXX_BOOL", K_BOOL, sizeof(bool), C_LOGIC, 0, 0, 0, 0, 0 },
    { MPI_LOGICAL, "MPI_LOGICAL", K_BOOL, sizeof(int), C_LOGIC, 0, 0, 0, 0, 0 },
    { MPI_BYTE, "MPI_BYTE", K_BYTE, 1, C_BITS, 0, 0, 0, 0, 0 },
    PR(MPI_FLOAT_INT, p_fi_t, K_FLT, K_SINT),
    PR(MPI_DOUBLE_INT, p_di_t, K_FLT, K_SINT),
    PR(MPI_LONG_INT, p_li_t, K_SINT, K_SINT),
    PR(MPI_2INT, p_ii_t, K_SINT, K_SINT),
    PR(MPI_SHORT_INT, p_si_t, K_SINT, K_SINT),
    PR(MPI_LONG_DOUBLE_INT, p_ldi_t, K_FLT, K_SINT),
    PR(MPI_2INTEGER, p_ii_t, K_SINT, K_SINT),
    PR(MPI_2REAL, p_ff_t, K_FLT, K_FLT),
    PR(MPI_2DOUBLE_PRECISION, p_dd_t, K_FLT, K_FLT),
};
#define NTYPES ((int)(sizeof(types) / sizeof(types[0])))

typedef struct {
    MPI_Op op;
    const char *name;
    int cls;
} opinfo_t;

static const opinfo_t ops[] = {
    { MPI_MAX, "MAX", C_MAXMIN }, { MPI_MIN, "MIN", C_MAXMIN },
    { MPI_SUM, "SUM", C_SUMPROD | C_CPLX }, { MPI_PROD, "PROD", C_SUMPROD | C_CPLX },
    { MPI_LAND, "LAND", C_LOGIC }, { MPI_LOR, "LOR", C_LOGIC },
    { MPI_LXOR, "LXOR", C_LOGIC }, { MPI_BAND, "BAND", C_BITS },
    { MPI_BOR, "BOR", C_BITS }, { MPI_BXOR, "BXOR", C_BITS },
    { MPI_MINLOC, "MINLOC", C_LOC }, { MPI_MAXLOC, "MAXLOC", C_LOC },
};
#define NOPS ((int)(sizeof(ops) / sizeof(ops[0])))

static int rank, size;

/* ---- scalar access: every value is a small integer held exactly ---- */
static long double get_num(int kind, int sz, const void *p)
{
    if (kind == K_FLT) {
        if (sz == sizeof(float)) { float x; memcpy(&x, p, sz); return x; }
        if (sz == sizeof(double)) { double x; memcpy(&x, p, sz); return x; }
        long double x; memcpy(&x, p, sizeof(x)); return x;
    }
    if (kind == K_SINT) {
        if (sz == 1) { int8_t x; memcpy(&x, p, 1); return x; }
        if (sz == 2) { int16_t x; memcpy(&x, p, 2); return x; }
        if (sz == 4) { int32_t x; memcpy(&x, p, 4); return x; }
        int64_t x; memcpy(&x, p, 8); return (long double)x;
    }
    if (sz == 1) { uint8_t x; memcpy(&x, p, 1); return x; }
    if (sz == 2) { uint16_t x; memcpy(&x, p, 2); return x; }
    if (sz == 4) { uint32_t x; memcpy(&x, p, 4); return x; }
    uint64_t x; memcpy(&x, p, 8); return (long double)x;
}

static void put_num(int kind, int sz, void *p, long double v)
{
    if (kind == K_FLT) {
        if (sz == sizeof(float)) { float x = (float)v; memcpy(p, &x, sz); }
        else if (sz == sizeof(double)) { double x = (double)v; memcpy(p, &x, sz); }
        else memcpy(p, &v, sizeof(v));
        return;
    }
    if (kind == K_SINT) {
        int64_t x = (int64_t)v;
        if (sz == 1) { int8_t y = (int8_t)x; memcpy(p, &y, 1); }
        else if (sz == 2) { int16_t y = (int16_t)x; memcpy(p, &y, 2); }
        else if (sz == 4) { int32_t y = (int32_t)x; memcpy(p, &y, 4); }
        else memcpy(p, &x, 8);
        return;
    }
    uint64_t x = (uint64_t)v;
    if (sz == 1) { uint8_t y = (uint8_t)x; memcpy(p, &y, 1); }
    else if (sz == 2) { uint16_t y = (uint16_t)x; memcpy(p, &y, 2); }
    else if (sz == 4) { uint32_t y = (uint32_t)x; memcpy(p, &y, 4); }
    else memcpy(p, &x, 8);
}

static int elem_bytes(const tinfo_t *t)
{
    return t->kind == K_PAIR ? t->ext : t->size;
}

/* ---- the values: (rank r, element i) -> one value per op ---- */
typedef struct { long double a, b; } val_t;   /* b: imaginary part / index */

static val_t value(const tinfo_t *t, const opinfo_t *o, int r, int i)
{
    val_t v = {0, 0};
    int sgn = t->kind != K_UINT && t->kind != K_BYTE;
    int k = (r + i) % 4;
    if (o->op == MPI_SUM) {
        v.a = (r * 3 + i) % 11 - (sgn ? 5 : 0) + (t->kind == K_FLT ? 0.5L : 0);
        v.b = (r + 2 * i) % 7 - 3;
    } else if (o->op == MPI_PROD) {
        /* at most two 2s among 8 ranks: fits in 8 bits */
        v.a = k == 0 ? 2 : (k == 1 && sgn) ? -1 : 1;
        if (t->kind == K_CPLX) {
            static const int re[4] = {1, 0, 1, -1}, im[4] = {1, 1, 0, 0};
            v.a = re[k];
            v.b = im[k];
        }
    } else if (o->op == MPI_MAX || o->op == MPI_MIN) {
        v.a = (r * 7 + i * 3) % 23 - (sgn ? 11 : 0);
    } else if (o->cls == C_LOGIC) {
        /* non-zero integers other than 1 must count as true */
        int on = o->op == MPI_LAND ? (r * 5 + i) % 7 != 3
               : o->op == MPI_LOR ? (r * 5 + i) % 7 == 3 : (i * (r + 1) / 3) % 2;
        v.a = on ? (t->kind == K_BOOL ? 1 : 1 + (r + i) % 3) : 0;
    } else if (o->cls == C_BITS) {
        long long x = (r * 37 + i * 11 + 5) & (sgn ? 0x7f : 0xff);
        if (t->size >= 2)
            x |= (long long)((r * 13 + i) & 0x3f) << 8;
        if (t->size >= 4)
            x |= (long long)((r * 29 + i * 7) & 0x7f) << 20;
        v.a = (long double)x;
    } else {            /* MINLOC/MAXLOC: many ties, indices not by rank */
        v.a = (r + i) / 2 % 3 - 1;        /* ranks 2k, 2k+1 tie at even i */
        v.b = (size - r) * 3 + i % 2;
    }
    return v;
}

static void put_val(const tinfo_t *t, void *p, val_t v)
{
    switch (t->kind) {
    case K_CPLX:
        put_num(K_FLT, t->size / 2, p, v.a);
        put_num(K_FLT, t->size / 2, (char *)p + t->size / 2, v.b);
        break;
    case K_BOOL:
        if (t->size == 1) *(bool *)p = v.a != 0;
        else put_num(K_SINT, t->size, p, v.a);
        break;
    case K_BYTE:
        put_num(K_UINT, 1, p, v.a);
        break;
    case K_PAIR:
        put_num(t->vkind, t->size, p, v.a);
        put_num(t->ikind, t->isize, (char *)p + t->ioff, v.b);
        break;
    default:
        put_num(t->kind, t->size, p, v.a);
    }
}

static val_t get_val(const tinfo_t *t, const void *p)
{
    val_t v = {0, 0};
    switch (t->kind) {
    case K_CPLX:
        v.a = get_num(K_FLT, t->size / 2, p);
        v.b = get_num(K_FLT, t->size / 2, (const char *)p + t->size / 2);
        break;
    case K_BOOL:
        v.a = t->size == 1 ? *(const bool *)p : get_num(K_SINT, t->size, p);
        break;
    case K_BYTE:
        v.a = get_num(K_UINT, 1, p);
        break;
    case K_PAIR:
        v.a = get_num(t->vkind, t->size, p);
        v.b = get_num(t->ikind, t->isize, (const char *)p + t->ioff);
        break;
    default:
        v.a = get_num(t->kind, t->size, p);
    }
    return v;
}

/* acc = x op acc, as the standard defines op (all of these commute) */
static val_t combine(const tinfo_t *t, const opinfo_t *o, val_t x, val_t acc)
{
    val_t r = acc;
    if (o->op == MPI_MAX) r.a = x.a > acc.a ? x.a : acc.a;
    else if (o->op == MPI_MIN) r.a = x.a < acc.a ? x.a : acc.a;
    else if (o->op == MPI_SUM) { r.a = x.a + acc.a; r.b = x.b + acc.b; }
    else if (o->op == MPI_PROD && t->kind == K_CPLX) {
        r.a = x.a * acc.a - x.b * acc.b;
        r.b = x.a * acc.b + x.b * acc.a;
    } else if (o->op == MPI_PROD) r.a = x.a * acc.a;
    else if (o->op == MPI_LAND) r.a = (x.a != 0) && (acc.a != 0);
    else if (o->op == MPI_LOR) r.a = (x.a != 0) || (acc.a != 0);
    else if (o->op == MPI_LXOR) r.a = (x.a != 0) != (acc.a != 0);
    else if (o->cls == C_BITS) {
        unsigned long long p = (unsigned long long)x.a, q = (unsigned long long)acc.a;
        r.a = (long double)(o->op == MPI_BAND ? p & q : o->op == MPI_BOR ? p | q
                                                                        : p ^ q);
    } else if (o->op == MPI_MINLOC || o->op == MPI_MAXLOC) {
        int better = o->op == MPI_MINLOC ? x.a < acc.a : x.a > acc.a;
        if (better || (x.a == acc.a && x.b < acc.b))
            r = x;
    }
    return r;
}

/* the reduction of ranks lo..hi-1 at element i */
static val_t expect(const tinfo_t *t, const opinfo_t *o, int lo, int hi, int i)
{
    val_t acc = value(t, o, hi - 1, i);
    for (int r = hi - 2; r >= lo; r--)
        acc = combine(t, o, value(t, o, r, i), acc);
    return acc;
}

static void fill(const tinfo_t *t, const opinfo_t *o, char *buf, int r,
                 int first, int n)
{
    int eb = elem_bytes(t);
    memset(buf, 0, (size_t)eb * n);
    for (int i = 0; i < n; i++)
        put_val(t, buf + (size_t)i * eb, value(t, o, r, first + i));
}

/* element i of buf against ranks lo..hi-1 (element numbers from first) */
static int check(const tinfo_t *t, const opinfo_t *o, const char *buf, int lo,
                 int hi, int first, int n, const char *what)
{
    int eb = elem_bytes(t);
    for (int i = 0; i < n; i++) {
        val_t want = expect(t, o, lo, hi, first + i);
        val_t got = get_val(t, buf + (size_t)i * eb);
        int bad = got.a != want.a;
        if (t->kind == K_CPLX || t->kind == K_PAIR)
            bad |= got.b != want.b;
        if (bad) {
            MT_CHECK(0, "%s %s %s n=%d [%d]: got (%Lg,%Lg) want (%Lg,%Lg)",
                     what, o->name, t->name, n, i, got.a, got.b, want.a, want.b);
            return 1;
        }
    }
    return 0;
}

static int allowed(const tinfo_t *t, const opinfo_t *o)
{
    return (t->classes & o->cls) != 0;
}

/* one (type, op) pair through the reducing collectives that `which`
 * names: W_LOCAL Reduce_local; 2, 4, 8 Allreduce and 16, 32, 64 Reduce at
 * 1, 7, 1500 elements; W_SCAN, W_EXSCAN, W_RSB (Reduce_scatter_block) */
enum { W_LOCAL = 1, W_ALL = 2 | 4 | 8 | 16 | 32 | 64, W_SCAN = 128,
       W_EXSCAN = 256, W_RSB = 512 };
static void one_pair(int ti, int oi, int which, char *a, char *b)
{
    const tinfo_t *t = &types[ti];
    const opinfo_t *o = &ops[oi];
    static const int counts[] = {1, 7, 1500};
    int eb = elem_bytes(t), root = (ti + oi) % size;

    if (which & W_LOCAL) {       /* Reduce_local: inout = in op inout */
        fill(t, o, a, 1, 0, 7);
        fill(t, o, b, 0, 0, 7);
        MT_CHECK_RC(MPI_Reduce_local(a, b, 7, t->dt, o->op));
        check(t, o, b, 0, 2, 0, 7, "reduce_local");
    }
    for (int c = 0; c < 3; c++) {
        int n = counts[c], inplace = (ti + oi + c) % 2;
        if (!(which & (2 << c)))
            goto reduce;
        fill(t, o, a, rank, 0, n);
        if (inplace)
            memcpy(b, a, (size_t)eb * n);
        MT_CHECK_RC(MPI_Allreduce(inplace ? MPI_IN_PLACE : a, b, n, t->dt,
                                  o->op, MPI_COMM_WORLD));
        check(t, o, b, 0, size, 0, n, inplace ? "allreduce in place"
                                              : "allreduce");
reduce:
        if (!(which & (16 << c)))
            continue;
        fill(t, o, a, rank, 0, n);
        if (inplace && rank == root)
            memcpy(b, a, (size_t)eb * n);
        MT_CHECK_RC(MPI_Reduce(inplace && rank == root ? MPI_IN_PLACE : a, b,
                               n, t->dt, o->op, root, MPI_COMM_WORLD));
        if (rank == root)
            check(t, o, b, 0, size, 0, n, "reduce");
    }
    fill(t, o, a, rank, 0, 7);
    if (which & W_SCAN) {
        MT_CHECK_RC(MPI_Scan(a, b, 7, t->dt, o->op, MPI_COMM_WORLD));
        check(t, o, b, 0, rank + 1, 0, 7, "scan");
    }
    if (which & W_EXSCAN) {
        MT_CHECK_RC(MPI_Exscan(a, b, 7, t->dt, o->op, MPI_COMM_WORLD));
        if (rank > 0)
            check(t, o, b, 0, rank, 0, 7, "exscan");
    }
    if (which & W_RSB) {
        fill(t, o, a, rank, 0, 3 * size);   /* block k of 3 goes to rank k */
        MT_CHECK_RC(MPI_Reduce_scatter_block(a, b, 3, t->dt, o->op,
                                             MPI_COMM_WORLD));
        check(t, o, b, 0, size, 3 * rank, 3, "reduce_scatter_block");
    }
}

/* Which collectives op number j (of na the type allows) goes through:
 * all of them under XTEST_FULL=1; otherwise Reduce_local and Allreduce
 * at 7 for every op, and each other collective for one op, rotating with
 * the type so that across the types every op meets every collective. */
static int pick(int ti, int j, int na, int full)
{
    static const int rest[] = {2, 8, 16, 32, 64, W_SCAN, W_EXSCAN, W_RSB};
    int which = W_LOCAL | 4;
    if (full)
        return W_LOCAL | W_ALL | W_SCAN | W_EXSCAN | W_RSB;
    for (int k = 0; k < (int)(sizeof(rest) / sizeof(rest[0])); k++)
        if ((ti + k) % na == j)
            which |= rest[k];
    return which;
}

/* every pair's Iallreduce in flight at once, waited in reverse order */
static void all_at_once(char *pool, size_t stride)
{
    enum { N = 9 };
    MPI_Request *req = malloc(sizeof(MPI_Request) * NTYPES * NOPS);
    int nreq = 0;
    for (int ti = 0; ti < NTYPES; ti++)
        for (int oi = 0; oi < NOPS; oi++) {
            if (!allowed(&types[ti], &ops[oi]))
                continue;
            char *in = pool + stride * 2 * nreq, *out = in + stride;
            fill(&types[ti], &ops[oi], in, rank, 0, N);
            MT_CHECK_RC(MPI_Iallreduce(in, out, N, types[ti].dt, ops[oi].op,
                                       MPI_COMM_WORLD, &req[nreq]));
            nreq++;
        }
    for (int k = nreq - 1; k >= 0; k--)
        MT_CHECK_RC(MPI_Wait(&req[k], MPI_STATUS_IGNORE));
    nreq = 0;
    for (int ti = 0; ti < NTYPES; ti++)
        for (int oi = 0; oi < NOPS; oi++) {
            if (!allowed(&types[ti], &ops[oi]))
                continue;
            check(&types[ti], &ops[oi], pool + stride * (2 * nreq + 1), 0, size,
                  0, N, "iallreduce");
            nreq++;
        }
    free(req);
}

int main(int argc, char **argv)
{
    size_t big = 1500 * 32 + 64, stride = 9 * 32;
    char *a, *b, *pool;
    int pairs = 0, full = getenv("XTEST_FULL") && atoi(getenv("XTEST_FULL"));

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (3 * size * 32 + 64 > (int)big)
        big = 3 * size * 32 + 64;
    a = malloc(big);
    b = malloc(big);
    pool = malloc(stride * 2 * NTYPES * NOPS);

    for (int ti = 0; ti < NTYPES; ti++) {
        const tinfo_t *t = &types[ti];
        MPI_Aint lb, ext;
        int sz, na = 0, j = 0;
        MPI_Type_get_extent(t->dt, &lb, &ext);
        MPI_Type_size(t->dt, &sz);
        MT_CHECK(lb == 0 && ext == elem_bytes(t), "%s extent %ld want %d",
                 t->name, (long)ext, elem_bytes(t));
        MT_CHECK(sz == t->size + t->isize, "%s size %d want %d", t->name, sz,
                 t->size + t->isize);
        for (int oi = 0; oi < NOPS; oi++)
            na += allowed(t, &ops[oi]);
        for (int oi = 0; oi < NOPS; oi++)
            if (allowed(t, &ops[oi])) {
                one_pair(ti, oi, pick(ti, j++, na, full), a, b);
                pairs++;
            }
    }
    all_at_once(pool, stride);
    if (rank == 0 && mt_errors == 0)
        printf("%d (type, op) pairs checked at %d ranks\n", pairs, size);
    free(a);
    free(b);
    free(pool);
    return mt_finish();
}
