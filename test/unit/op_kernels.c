/*
 * Reduction kernels: every predefined (op, type) pair the standard allows
 * against reference values computed independently here, MINLOC/MAXLOC
 * tie-breaking, the (op, type) rules of ucmpi_op_check, and user ops
 * (including a non-commutative one, which must see in as its left operand).
 * ucmpi_op_apply3 (out = a op b) must match copy + ucmpi_op_apply.
 */
#include "datatype/datatype.h"
#include "coll/op.h"

#include <check.h>
#include <complex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define N 1037        /* odd: exercises vector bodies and scalar tails */

enum { MAX, MIN, SUM, PROD, LAND, LOR, LXOR, BAND, BOR, BXOR, NOPS };
static const MPI_Op ops[NOPS] = {
    MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_LOR, MPI_LXOR,
    MPI_BAND, MPI_BOR, MPI_BXOR
};
static const char *const op_names[NOPS] = {
    "MAX", "MIN", "SUM", "PROD", "LAND", "LOR", "LXOR", "BAND", "BOR", "BXOR"
};

/* ---- integers: reference arithmetic in 64 bits, truncated ---- */
typedef struct {
    MPI_Datatype dt;
    const char *name;
    int size, is_signed;
    unsigned ops;         /* bit per op the standard allows */
} int_type_t;

#define ARITH_OPS ((1u << MAX) | (1u << MIN) | (1u << SUM) | (1u << PROD))
#define LOGIC_OPS ((1u << LAND) | (1u << LOR) | (1u << LXOR))
#define BIT_OPS ((1u << BAND) | (1u << BOR) | (1u << BXOR))
#define C_INT_OPS (ARITH_OPS | LOGIC_OPS | BIT_OPS)
#define F_INT_OPS (ARITH_OPS | BIT_OPS)
/* + logical ops: an extension, as in MPICH (lib/coll/op.c) */
#define MULTI_OPS (F_INT_OPS | LOGIC_OPS)

static const int_type_t int_types[] = {
    { MPI_SIGNED_CHAR, "SIGNED_CHAR", 1, 1, C_INT_OPS },
    { MPI_UNSIGNED_CHAR, "UNSIGNED_CHAR", 1, 0, C_INT_OPS },
    { MPI_SHORT, "SHORT", sizeof(short), 1, C_INT_OPS },
    { MPI_UNSIGNED_SHORT, "UNSIGNED_SHORT", sizeof(short), 0, C_INT_OPS },
    { MPI_INT, "INT", sizeof(int), 1, C_INT_OPS },
    { MPI_UNSIGNED, "UNSIGNED", sizeof(int), 0, C_INT_OPS },
    { MPI_LONG, "LONG", sizeof(long), 1, C_INT_OPS },
    { MPI_UNSIGNED_LONG, "UNSIGNED_LONG", sizeof(long), 0, C_INT_OPS },
    { MPI_LONG_LONG, "LONG_LONG", sizeof(long long), 1, C_INT_OPS },
    { MPI_UNSIGNED_LONG_LONG, "UNSIGNED_LONG_LONG", sizeof(long long), 0,
      C_INT_OPS },
    { MPI_INT8_T, "INT8_T", 1, 1, C_INT_OPS },
    { MPI_INT16_T, "INT16_T", 2, 1, C_INT_OPS },
    { MPI_INT32_T, "INT32_T", 4, 1, C_INT_OPS },
    { MPI_INT64_T, "INT64_T", 8, 1, C_INT_OPS },
    { MPI_UINT8_T, "UINT8_T", 1, 0, C_INT_OPS },
    { MPI_UINT16_T, "UINT16_T", 2, 0, C_INT_OPS },
    { MPI_UINT32_T, "UINT32_T", 4, 0, C_INT_OPS },
    { MPI_UINT64_T, "UINT64_T", 8, 0, C_INT_OPS },
    { MPI_AINT, "AINT", sizeof(MPI_Aint), 1, MULTI_OPS },
    { MPI_OFFSET, "OFFSET", sizeof(MPI_Offset), 1, MULTI_OPS },
    { MPI_COUNT, "COUNT", sizeof(MPI_Count), 1, MULTI_OPS },
    { MPI_INTEGER, "INTEGER", sizeof(int), 1, F_INT_OPS },
    { MPI_INTEGER1, "INTEGER1", 1, 1, F_INT_OPS },
    { MPI_INTEGER2, "INTEGER2", 2, 1, F_INT_OPS },
    { MPI_INTEGER4, "INTEGER4", 4, 1, F_INT_OPS },
    { MPI_INTEGER8, "INTEGER8", 8, 1, F_INT_OPS },
    { MPI_BYTE, "BYTE", 1, 0, BIT_OPS },
};
#define NINT (int)(sizeof(int_types) / sizeof(int_types[0]))

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Element i of an integer array of `size` bytes, sign- or zero-extended. */
static int64_t get_int(const void *buf, size_t i, int size, int is_signed)
{
    uint64_t u = 0;
    memcpy(&u, (const char *)buf + i * size, size);   /* little endian */
    if (is_signed && size < 8 && (u >> (8 * size - 1)) & 1)
        u |= ~0ull << (8 * size);
    return (int64_t)u;
}

static void put_int(void *buf, size_t i, int size, uint64_t v)
{
    memcpy((char *)buf + i * size, &v, size);
}

static uint64_t ref_int(int op, int64_t a, int64_t b, int is_signed)
{
    int gt = is_signed ? a > b : (uint64_t)a > (uint64_t)b;
    switch (op) {
    case MAX: return gt ? a : b;
    case MIN: return gt ? b : a;
    case SUM: return (uint64_t)a + (uint64_t)b;
    case PROD: return (uint64_t)a * (uint64_t)b;
    case LAND: return a && b;
    case LOR: return a || b;
    case LXOR: return !a != !b;
    case BAND: return a & b;
    case BOR: return a | b;
    default: return a ^ b;
    }
}

/* Values that exercise the op: small (so PROD does not always wrap to
 * zero), zero (logical ops), extremes and equal pairs. */
static uint64_t sample(size_t i)
{
    switch (i % 5) {
    case 0: return 0;
    case 1: return rnd() % 7;
    case 2: return (uint64_t)-(int64_t)(rnd() % 9);
    default: return rnd();
    }
}

START_TEST(test_int_ops)
{
    const int_type_t *t = &int_types[_i];
    size_t bytes = (size_t)N * t->size;
    char *in = malloc(bytes), *io = malloc(bytes), *orig = malloc(bytes);

    for (int op = 0; op < NOPS; op++) {
        const char *why = NULL;
        int allowed = (t->ops >> op) & 1;
        int rc = ucmpi_op_check(ops[op], t->dt, &why);
        ck_assert_msg(allowed ? rc == MPI_SUCCESS : rc == MPI_ERR_OP,
                      "check %s on %s gave %d", op_names[op], t->name, rc);
        if (!allowed) {
            ck_assert_ptr_nonnull(why);
            ck_assert_int_eq(ucmpi_op_apply(ops[op], in, io, N, t->dt),
                             MPI_ERR_OP);
            continue;
        }
        for (size_t i = 0; i < N; i++) {
            put_int(in, i, t->size, sample(i));
            uint64_t same = (uint64_t)get_int(in, i, t->size, 0);
            put_int(orig, i, t->size, i % 7 == 0 ? same : sample(i + 3));
        }
        memcpy(io, orig, bytes);
        ck_assert_int_eq(ucmpi_op_apply(ops[op], in, io, N, t->dt),
                         MPI_SUCCESS);
        for (size_t i = 0; i < N; i++) {
            int64_t a = get_int(in, i, t->size, t->is_signed);
            int64_t b = get_int(orig, i, t->size, t->is_signed);
            char want[8];
            put_int(want, 0, t->size, ref_int(op, a, b, t->is_signed));
            ck_assert_msg(memcmp(want, io + i * t->size, t->size) == 0,
                          "%s on %s: element %zu (%lld op %lld)",
                          op_names[op], t->name, i, (long long)a,
                          (long long)b);
        }
    }
    free(orig);
    free(io);
    free(in);
}
END_TEST

/* ---- floating point: values exact in every precision ---- */
#define FLOAT_TEST(T, DT, NAME)                                            \
    do {                                                                   \
        T *in = malloc(N * sizeof(T)), *io = malloc(N * sizeof(T));        \
        for (int op = MAX; op <= PROD; op++) {                             \
            for (size_t i = 0; i < N; i++) {                               \
                in[i] = (T)((long)(i % 13) - 6) / 4;                       \
                io[i] = (T)((long)(i % 11) - 5) / 2;                       \
            }                                                              \
            ck_assert_int_eq(ucmpi_op_apply(ops[op], in, io, N, DT), 0);   \
            for (size_t i = 0; i < N; i++) {                               \
                T a = (T)((long)(i % 13) - 6) / 4;                         \
                T b = (T)((long)(i % 11) - 5) / 2;                         \
                T want = op == MAX ? (a > b ? a : b)                       \
                       : op == MIN ? (a < b ? a : b)                       \
                       : op == SUM ? a + b : a * b;                        \
                ck_assert_msg(io[i] == want, "%s on %s at %zu",            \
                              op_names[op], NAME, i);                      \
            }                                                              \
        }                                                                  \
        for (int op = LAND; op < NOPS; op++) {                             \
            const char *why;                                               \
            ck_assert_int_eq(ucmpi_op_check(ops[op], DT, &why),            \
                             MPI_ERR_OP);                                  \
        }                                                                  \
        free(io);                                                          \
        free(in);                                                          \
    } while (0)

START_TEST(test_float_ops)
{
    FLOAT_TEST(float, MPI_FLOAT, "FLOAT");
    FLOAT_TEST(double, MPI_DOUBLE, "DOUBLE");
    FLOAT_TEST(long double, MPI_LONG_DOUBLE, "LONG_DOUBLE");
    FLOAT_TEST(float, MPI_REAL, "REAL");
    FLOAT_TEST(double, MPI_DOUBLE_PRECISION, "DOUBLE_PRECISION");
    FLOAT_TEST(float, MPI_REAL4, "REAL4");
    FLOAT_TEST(double, MPI_REAL8, "REAL8");
}
END_TEST

/* ---- complex: SUM and PROD only ---- */
#define COMPLEX_TEST(T, DT, NAME)                                          \
    do {                                                                   \
        T *in = malloc(N * sizeof(T)), *io = malloc(N * sizeof(T));        \
        for (int op = SUM; op <= PROD; op++) {                             \
            for (size_t i = 0; i < N; i++) {                               \
                in[i] = (double)(i % 5) - 2 + I * ((double)(i % 3) - 1);   \
                io[i] = (double)(i % 7) - 3 + I * ((double)(i % 4) - 2);   \
            }                                                              \
            ck_assert_int_eq(ucmpi_op_apply(ops[op], in, io, N, DT), 0);   \
            for (size_t i = 0; i < N; i++) {                               \
                double ar = (double)(i % 5) - 2, ai = (double)(i % 3) - 1; \
                double br = (double)(i % 7) - 3, bi = (double)(i % 4) - 2; \
                double wr = op == SUM ? ar + br : ar * br - ai * bi;       \
                double wi = op == SUM ? ai + bi : ar * bi + ai * br;       \
                ck_assert_msg(creal(io[i]) == wr && cimag(io[i]) == wi,    \
                              "%s on %s at %zu", op_names[op], NAME, i);   \
            }                                                              \
        }                                                                  \
        const int bad[] = { MAX, MIN, LAND, LOR, LXOR, BAND, BOR, BXOR };  \
        for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {        \
            const char *why;                                               \
            ck_assert_int_eq(ucmpi_op_check(ops[bad[k]], DT, &why),        \
                             MPI_ERR_OP);                                  \
        }                                                                  \
        free(io);                                                          \
        free(in);                                                          \
    } while (0)

START_TEST(test_complex_ops)
{
    COMPLEX_TEST(float _Complex, MPI_C_FLOAT_COMPLEX, "C_FLOAT_COMPLEX");
    COMPLEX_TEST(double _Complex, MPI_C_DOUBLE_COMPLEX, "C_DOUBLE_COMPLEX");
    COMPLEX_TEST(long double _Complex, MPI_C_LONG_DOUBLE_COMPLEX,
                 "C_LONG_DOUBLE_COMPLEX");
    COMPLEX_TEST(float _Complex, MPI_C_COMPLEX, "C_COMPLEX");
    COMPLEX_TEST(float _Complex, MPI_CXX_FLOAT_COMPLEX, "CXX_FLOAT_COMPLEX");
    COMPLEX_TEST(double _Complex, MPI_CXX_DOUBLE_COMPLEX,
                 "CXX_DOUBLE_COMPLEX");
    COMPLEX_TEST(float _Complex, MPI_COMPLEX, "COMPLEX");
    COMPLEX_TEST(double _Complex, MPI_DOUBLE_COMPLEX, "DOUBLE_COMPLEX");
    COMPLEX_TEST(float _Complex, MPI_COMPLEX8, "COMPLEX8");
    COMPLEX_TEST(double _Complex, MPI_COMPLEX16, "COMPLEX16");
}
END_TEST

/* ---- logical types: LAND/LOR/LXOR over every combination ---- */
START_TEST(test_logical_ops)
{
    const MPI_Datatype bools[] = { MPI_C_BOOL, MPI_CXX_BOOL };
    for (int k = 0; k < 2; k++) {
        for (int op = LAND; op <= LXOR; op++) {
            bool in[4] = { 0, 0, 1, 1 }, io[4] = { 0, 1, 0, 1 };
            ck_assert_int_eq(ucmpi_op_apply(ops[op], in, io, 4, bools[k]), 0);
            for (int i = 0; i < 4; i++) {
                bool a = i >> 1, b = i & 1;
                bool want = op == LAND ? (a && b) : op == LOR ? (a || b)
                                                               : a != b;
                ck_assert_int_eq(io[i], want);
            }
        }
        const int bad[] = { MAX, MIN, SUM, PROD, BAND, BOR, BXOR };
        for (size_t j = 0; j < sizeof(bad) / sizeof(bad[0]); j++) {
            const char *why;
            ck_assert_int_eq(ucmpi_op_check(ops[bad[j]], bools[k], &why),
                             MPI_ERR_OP);
        }
    }
    /* Fortran LOGICAL: nonzero is true, results are 0/1 */
    for (int op = LAND; op <= LXOR; op++) {
        int in[4] = { 0, 0, 5, -1 }, io[4] = { 0, 7, 0, 2 };
        ck_assert_int_eq(ucmpi_op_apply(ops[op], in, io, 4, MPI_LOGICAL), 0);
        for (int i = 0; i < 4; i++) {
            int a = i >> 1, b = i & 1;
            int want = op == LAND ? (a && b) : op == LOR ? (a || b) : a != b;
            ck_assert_int_eq(io[i], want);
        }
    }
}
END_TEST

/* ---- types in no reduction class ---- */
START_TEST(test_forbidden)
{
    const MPI_Datatype none[] = { MPI_CHAR, MPI_WCHAR, MPI_CHARACTER,
                                  MPI_PACKED };
    const char *why = NULL;
    for (size_t k = 0; k < sizeof(none) / sizeof(none[0]); k++) {
        for (int op = 0; op < NOPS; op++)
            ck_assert_int_eq(ucmpi_op_check(ops[op], none[k], &why),
                             MPI_ERR_OP);
        /* accumulate's REPLACE/NO_OP take any type */
        ck_assert_int_eq(ucmpi_op_check(MPI_REPLACE, none[k], &why), 0);
        ck_assert_int_eq(ucmpi_op_check(MPI_NO_OP, none[k], &why), 0);
    }
    ck_assert_int_eq(ucmpi_op_check(MPI_MINLOC, MPI_INT, &why), MPI_ERR_OP);
    ck_assert_ptr_nonnull(strstr(why, "MINLOC"));
    ck_assert_int_eq(ucmpi_op_check(MPI_SUM, MPI_DOUBLE_INT, &why),
                     MPI_ERR_OP);
    ck_assert_int_eq(ucmpi_op_check(MPI_OP_NULL, MPI_INT, &why), MPI_ERR_OP);
    ck_assert_ptr_nonnull(strstr(why, "MPI_OP_NULL"));
    struct ucmpi_op_s dead = { .magic = UCMPI_MAGIC_FREED };
    ck_assert_int_eq(ucmpi_op_check(&dead, MPI_INT, &why), MPI_ERR_OP);
    ck_assert_int_eq(ucmpi_op_apply(&dead, &why, &why, 1, MPI_INT),
                     MPI_ERR_OP);
}
END_TEST

/* ---- REPLACE, NO_OP, count 0 ---- */
START_TEST(test_replace_noop)
{
    double in[5] = { 1, 2, 3, 4, 5 }, io[5] = { 9, 9, 9, 9, 9 };
    ck_assert_int_eq(ucmpi_op_apply(MPI_NO_OP, in, io, 5, MPI_DOUBLE), 0);
    ck_assert(io[0] == 9 && io[4] == 9);
    ck_assert_int_eq(ucmpi_op_apply(MPI_SUM, in, io, 0, MPI_DOUBLE), 0);
    ck_assert(io[0] == 9);
    ck_assert_int_eq(ucmpi_op_apply(MPI_REPLACE, in, io, 5, MPI_DOUBLE), 0);
    ck_assert(io[0] == 1 && io[4] == 5);
    ck_assert(!MPI_REPLACE->commute && MPI_SUM->commute && MPI_MINLOC->commute);
}
END_TEST

/* ---- MINLOC/MAXLOC on every pair type, ties to the lower index ---- */
#define PAIR_TEST(V, I, DT)                                                \
    do {                                                                   \
        typedef struct { V v; I i; } p_t;                                  \
        ck_assert_int_eq((int)sizeof(p_t), (int)(DT)->extent);             \
        for (int loc = 0; loc < 2; loc++) {                                \
            MPI_Op op = loc ? MPI_MAXLOC : MPI_MINLOC;                     \
            /* (a, b): a wins, b wins, tie with lower index in a / b */    \
            p_t in[6] = { { 1, 5 }, { 3, 2 }, { 2, 1 }, { 2, 7 },          \
                          { -4, 3 }, { 0, 0 } };                           \
            p_t io[6] = { { 3, 9 }, { 1, 4 }, { 2, 6 }, { 2, 3 },          \
                          { -4, 3 }, { 0, 1 } };                           \
            ck_assert_int_eq(ucmpi_op_apply(op, in, io, 6, DT), 0);        \
            V wv[6] = { loc ? 3 : 1, loc ? 3 : 1, 2, 2, -4, 0 };           \
            I wi[6] = { loc ? 9 : 5, loc ? 2 : 4, 1, 3, 3, 0 };            \
            for (int k = 0; k < 6; k++)                                    \
                ck_assert_msg(io[k].v == wv[k] && io[k].i == wi[k],        \
                              "%s on %s pair %d", loc ? "MAXLOC"           \
                              : "MINLOC", #DT, k);                         \
        }                                                                  \
        const char *why;                                                   \
        for (int op = 0; op < NOPS; op++)                                  \
            ck_assert_int_eq(ucmpi_op_check(ops[op], DT, &why),            \
                             MPI_ERR_OP);                                  \
    } while (0)

START_TEST(test_pairs)
{
    PAIR_TEST(float, int, MPI_FLOAT_INT);
    PAIR_TEST(double, int, MPI_DOUBLE_INT);
    PAIR_TEST(long, int, MPI_LONG_INT);
    PAIR_TEST(int, int, MPI_2INT);
    PAIR_TEST(short, int, MPI_SHORT_INT);
    PAIR_TEST(long double, int, MPI_LONG_DOUBLE_INT);
    PAIR_TEST(int, int, MPI_2INTEGER);
    PAIR_TEST(float, float, MPI_2REAL);
    PAIR_TEST(double, double, MPI_2DOUBLE_PRECISION);
}
END_TEST

/* A long MINLOC: the result is the first minimum of the column. */
START_TEST(test_minloc_long)
{
    struct { double v; int i; } in[N], io[N];
    for (int k = 0; k < N; k++) {
        in[k].v = k % 3;  in[k].i = 2 * k + (k & 1);
        io[k].v = k % 5;  io[k].i = 2 * k + !(k & 1);
    }
    ck_assert_int_eq(ucmpi_op_apply(MPI_MINLOC, in, io, N, MPI_DOUBLE_INT),
                     0);
    for (int k = 0; k < N; k++) {
        double a = k % 3, b = k % 5;
        int ia = 2 * k + (k & 1), ib = 2 * k + !(k & 1);
        ck_assert(io[k].v == (a < b ? a : b));
        ck_assert_int_eq(io[k].i, a < b ? ia : b < a ? ib
                                  : (ia < ib ? ia : ib));
    }
}
END_TEST

/* ---- user ops ---- */
static int user_calls;

/* 2x2 integer matrices, inout = in * inout: order matters. */
static void matmul(void *vin, void *vio, int *len, MPI_Datatype *dt)
{
    const int *a = vin;
    int *b = vio;
    user_calls++;
    ck_assert_ptr_eq(*dt, MPI_INT);
    for (int k = 0; k < *len / 4; k++, a += 4, b += 4) {
        int r[4] = { a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                     a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3] };
        memcpy(b, r, sizeof(r));
    }
}

static void sum_c(void *vin, void *vio, MPI_Count *len, MPI_Datatype *dt)
{
    const long *a = vin;
    long *b = vio;
    user_calls++;
    for (MPI_Count k = 0; k < *len; k++)
        b[k] += a[k];
}

START_TEST(test_user_ops)
{
    struct ucmpi_op_s op = { .magic = UCMPI_MAGIC_OP, .refcount = 1,
                             .commute = 0, .id = -1, .user_fn = matmul };
    int in[4] = { 1, 2, 3, 4 }, io[4] = { 0, 1, 1, 0 };
    const char *why;

    ck_assert_int_eq(ucmpi_op_check(&op, MPI_INT, &why), 0);
    user_calls = 0;
    ck_assert_int_eq(ucmpi_op_apply(&op, in, io, 4, MPI_INT), 0);
    ck_assert_int_eq(user_calls, 1);
    /* in * inout = [[2,1],[4,3]]; inout * in would be [[3,4],[1,2]] */
    ck_assert(io[0] == 2 && io[1] == 1 && io[2] == 4 && io[3] == 3);

    struct ucmpi_op_s opc = { .magic = UCMPI_MAGIC_OP, .refcount = 1,
                              .commute = 1, .id = -1, .user_fn_c = sum_c };
    long a[3] = { 1, 2, 3 }, b[3] = { 10, 20, 30 };
    ck_assert_int_eq(ucmpi_op_apply(&opc, a, b, 3, MPI_LONG), 0);
    ck_assert(b[0] == 11 && b[1] == 22 && b[2] == 33);
}
END_TEST

/* Every predefined (op, type) pair: out = a op b equals b's copy with a
 * reduced into it, byte for byte (padding of long double too: out starts
 * as a copy of b). */
START_TEST(test_apply3)
{
    static const MPI_Op all_ops[] = {
        MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_LOR, MPI_LXOR,
        MPI_BAND, MPI_BOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC
    };
    static const MPI_Datatype types[] = {
        MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_SHORT, MPI_UNSIGNED_SHORT,
        MPI_INT, MPI_UNSIGNED, MPI_LONG, MPI_UNSIGNED_LONG, MPI_INT64_T,
        MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_C_FLOAT_COMPLEX,
        MPI_C_DOUBLE_COMPLEX, MPI_C_LONG_DOUBLE_COMPLEX, MPI_C_BOOL,
        MPI_BYTE, MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT,
        MPI_SHORT_INT, MPI_LONG_DOUBLE_INT
    };
    size_t bytes = N * 32;
    unsigned char *a = malloc(bytes), *b = malloc(bytes);
    unsigned char *ref = malloc(bytes), *out = malloc(bytes);
    int pairs = 0;

    for (size_t i = 0; i < bytes; i++) {
        a[i] = (unsigned char)(i * 37 % 11);
        b[i] = (unsigned char)(i * 53 % 13);
    }
    for (size_t o = 0; o < sizeof(all_ops) / sizeof(all_ops[0]); o++)
        for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
            const char *why;
            MPI_Datatype dt = types[t];
            size_t len = (size_t)dt->extent * N;

            if (ucmpi_op_check(all_ops[o], dt, &why) != 0)
                continue;
            pairs++;
            memcpy(ref, b, len);
            memcpy(out, b, len);
            ck_assert_int_eq(ucmpi_op_apply(all_ops[o], a, ref, N, dt), 0);
            ck_assert_int_eq(ucmpi_op_apply3(all_ops[o], a, b, out, N, dt),
                             0);
            ck_assert_msg(memcmp(ref, out, len) == 0, "op %zu type %zu", o,
                          t);
        }
    ck_assert_int_ge(pairs, 100);
    free(a);
    free(b);
    free(ref);
    free(out);
}
END_TEST

/* A user op goes through the copy + apply fallback, in as left operand. */
START_TEST(test_apply3_user)
{
    struct ucmpi_op_s op = { .magic = UCMPI_MAGIC_OP, .refcount = 1,
                             .commute = 0, .id = -1, .user_fn = matmul };
    int in[4] = { 1, 2, 3, 4 }, io[4] = { 0, 1, 1, 0 }, out[4] = { 0 };

    ck_assert_int_eq(ucmpi_op_apply3(&op, in, io, out, 4, MPI_INT), 0);
    ck_assert(out[0] == 2 && out[1] == 1 && out[2] == 4 && out[3] == 3);
    ck_assert(io[0] == 0 && io[1] == 1 && io[2] == 1 && io[3] == 0);
}
END_TEST

static Suite *op_suite(void)
{
    Suite *s = suite_create("op");
    TCase *tc = tcase_create("kernels");
    tcase_add_loop_test(tc, test_int_ops, 0, NINT);
    tcase_add_test(tc, test_float_ops);
    tcase_add_test(tc, test_complex_ops);
    tcase_add_test(tc, test_logical_ops);
    tcase_add_test(tc, test_forbidden);
    tcase_add_test(tc, test_replace_noop);
    tcase_add_test(tc, test_pairs);
    tcase_add_test(tc, test_minloc_long);
    tcase_add_test(tc, test_user_ops);
    tcase_add_test(tc, test_apply3);
    tcase_add_test(tc, test_apply3_user);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(op_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
