/* Reduction kernels, a restrict loop per (op, type); signed integers add in
 * unsigned types so overflow wraps (as in every MPI) instead of being UB. */
/* gcc 12 at -O2 only vectorises loops with a known trip count ("very
 * cheap" cost model); these loops are the reason vectorisation exists. */
#pragma GCC optimize("vect-cost-model=dynamic")

#include "coll/op.h"

#include <stdint.h>
#include <stdbool.h>
#include <complex.h>

/* Each kernel for AVX-512, AVX2 and baseline SSE2, picked at load time
 * (ifunc); figures in docs/tuning.md. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    defined(__has_attribute)
#if __has_attribute(target_clones)
#define CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#endif
#endif
#ifndef CLONES
#define CLONES
#endif

/* Each kernel twice: name (io = in op io) and name_3 (out = a op b: one pass
 * fewer than copy + reduce into a third buffer, e.g. the shm reductions). */
#define KERNEL(name, T, expr)                                          \
    CLONES static void name(const void *vin, void *vio, size_t n)      \
    {                                                                  \
        const T *restrict in = vin;                                    \
        T *restrict io = vio;                                          \
        for (size_t i = 0; i < n; i++) {                               \
            const T a = in[i], b = io[i];                              \
            io[i] = (expr);                                            \
        }                                                              \
    }                                                                  \
    CLONES static void name##_3(const void *va, const void *vb,        \
                                void *vout, size_t n)                  \
    {                                                                  \
        const T *restrict pa = va, *restrict pb = vb;                  \
        T *restrict out = vout;                                        \
        for (size_t i = 0; i < n; i++) {                               \
            const T a = pa[i], b = pb[i];                              \
            out[i] = (expr);                                           \
        }                                                              \
    }

/* W: an unsigned type at least as wide as int, so that the arithmetic
 * neither overflows a signed type nor promotes back to int. */
#define INT_KERNELS(s, T, W)                                           \
    KERNEL(max_##s, T, a > b ? a : b)                                  \
    KERNEL(min_##s, T, a < b ? a : b)                                  \
    KERNEL(sum_##s, T, (T)((W)a + (W)b))                               \
    KERNEL(prod_##s, T, (T)((W)a * (W)b))                              \
    KERNEL(land_##s, T, (T)(a && b))                                   \
    KERNEL(lor_##s, T, (T)(a || b))                                    \
    KERNEL(lxor_##s, T, (T)(!a != !b))                                 \
    KERNEL(band_##s, T, (T)(a & b))                                    \
    KERNEL(bor_##s, T, (T)(a | b))                                     \
    KERNEL(bxor_##s, T, (T)(a ^ b))

INT_KERNELS(i8, int8_t, unsigned)
INT_KERNELS(i16, int16_t, unsigned)
INT_KERNELS(i32, int32_t, unsigned)
INT_KERNELS(i64, int64_t, uint64_t)
INT_KERNELS(u8, uint8_t, unsigned)
INT_KERNELS(u16, uint16_t, unsigned)
INT_KERNELS(u32, uint32_t, unsigned)
INT_KERNELS(u64, uint64_t, uint64_t)

#define FLOAT_KERNELS(s, T)                                            \
    KERNEL(max_##s, T, a > b ? a : b)                                  \
    KERNEL(min_##s, T, a < b ? a : b)                                  \
    KERNEL(sum_##s, T, a + b)                                          \
    KERNEL(prod_##s, T, a * b)

FLOAT_KERNELS(f, float)
FLOAT_KERNELS(d, double)
FLOAT_KERNELS(ld, long double)

#define COMPLEX_KERNELS(s, T)                                          \
    KERNEL(sum_##s, T, a + b)                                          \
    KERNEL(prod_##s, T, a * b)

COMPLEX_KERNELS(cf, float _Complex)
COMPLEX_KERNELS(cd, double _Complex)
COMPLEX_KERNELS(cld, long double _Complex)

#define LOGICAL_KERNELS(s, T)                                          \
    KERNEL(land_##s, T, (T)(a && b))                                   \
    KERNEL(lor_##s, T, (T)(a || b))                                    \
    KERNEL(lxor_##s, T, (T)(!a != !b))

LOGICAL_KERNELS(bool, bool)
LOGICAL_KERNELS(logical, int)

/* MINLOC/MAXLOC (BETTER < or >): on a tie the lower index, the standard's
 * rule, which makes the result independent of order. */
#define PAIR_KERNEL(name, P, BETTER)                                   \
    static void name##_3(const void *va, const void *vb, void *vout,   \
                         size_t n)                                     \
    {                                                                  \
        const P *pa = va, *pb = vb;    /* out may be pb (name below) */\
        P *out = vout;                                                 \
        for (size_t i = 0; i < n; i++) {                               \
            const P a = pa[i], b = pb[i];                              \
            out[i].i = a.v BETTER b.v ? a.i                            \
                     : b.v BETTER a.v ? b.i : a.i < b.i ? a.i : b.i;   \
            out[i].v = a.v BETTER b.v ? a.v : b.v;                     \
        }                                                              \
    }                                                                  \
    static void name(const void *vin, void *vio, size_t n)             \
    {                                                                  \
        name##_3(vin, vio, vio, n);                                    \
    }
#define PAIR_KERNELS(s, V, I)                                          \
    typedef struct { V v; I i; } pair_##s##_t;                         \
    PAIR_KERNEL(minloc_##s, pair_##s##_t, <)                           \
    PAIR_KERNEL(maxloc_##s, pair_##s##_t, >)

PAIR_KERNELS(float_int, float, int)
PAIR_KERNELS(double_int, double, int)
PAIR_KERNELS(long_int, long, int)
PAIR_KERNELS(2int, int, int)
PAIR_KERNELS(short_int, short, int)
PAIR_KERNELS(ldouble_int, long double, int)
PAIR_KERNELS(2float, float, float)
PAIR_KERNELS(2double, double, double)

#define INT_ROW(s, x) {                                                \
        [UCMPI_OP_MAX] = max_##s##x, [UCMPI_OP_MIN] = min_##s##x,      \
        [UCMPI_OP_SUM] = sum_##s##x, [UCMPI_OP_PROD] = prod_##s##x,    \
        [UCMPI_OP_LAND] = land_##s##x, [UCMPI_OP_LOR] = lor_##s##x,    \
        [UCMPI_OP_LXOR] = lxor_##s##x, [UCMPI_OP_BAND] = band_##s##x,  \
        [UCMPI_OP_BOR] = bor_##s##x, [UCMPI_OP_BXOR] = bxor_##s##x }
#define FLOAT_ROW(s, x) {                                              \
        [UCMPI_OP_MAX] = max_##s##x, [UCMPI_OP_MIN] = min_##s##x,      \
        [UCMPI_OP_SUM] = sum_##s##x, [UCMPI_OP_PROD] = prod_##s##x }
#define COMPLEX_ROW(s, x) {                                            \
        [UCMPI_OP_SUM] = sum_##s##x, [UCMPI_OP_PROD] = prod_##s##x }
#define LOGICAL_ROW(s, x) {                                            \
        [UCMPI_OP_LAND] = land_##s##x, [UCMPI_OP_LOR] = lor_##s##x,    \
        [UCMPI_OP_LXOR] = lxor_##s##x }
#define PAIR_ROW(s, x) {                                               \
        [UCMPI_OP_MINLOC] = minloc_##s##x, [UCMPI_OP_MAXLOC] = maxloc_##s##x }

/* Both tables, of the kernels named with suffix x (nothing or _3). */
#define KERNEL_ROWS(x)                                                 \
    [UCMPI_OPT_I8] = INT_ROW(i8, x),                                   \
    [UCMPI_OPT_I16] = INT_ROW(i16, x),                                 \
    [UCMPI_OPT_I32] = INT_ROW(i32, x),                                 \
    [UCMPI_OPT_I64] = INT_ROW(i64, x),                                 \
    [UCMPI_OPT_U8] = INT_ROW(u8, x),                                   \
    [UCMPI_OPT_U16] = INT_ROW(u16, x),                                 \
    [UCMPI_OPT_U32] = INT_ROW(u32, x),                                 \
    [UCMPI_OPT_U64] = INT_ROW(u64, x),                                 \
    [UCMPI_OPT_FLOAT] = FLOAT_ROW(f, x),                               \
    [UCMPI_OPT_DOUBLE] = FLOAT_ROW(d, x),                              \
    [UCMPI_OPT_LDOUBLE] = FLOAT_ROW(ld, x),                            \
    [UCMPI_OPT_CFLOAT] = COMPLEX_ROW(cf, x),                           \
    [UCMPI_OPT_CDOUBLE] = COMPLEX_ROW(cd, x),                          \
    [UCMPI_OPT_CLDOUBLE] = COMPLEX_ROW(cld, x),                        \
    [UCMPI_OPT_BOOL] = LOGICAL_ROW(bool, x),                           \
    [UCMPI_OPT_LOGICAL] = LOGICAL_ROW(logical, x),                     \
    [UCMPI_OPT_FLOAT_INT] = PAIR_ROW(float_int, x),                    \
    [UCMPI_OPT_DOUBLE_INT] = PAIR_ROW(double_int, x),                  \
    [UCMPI_OPT_LONG_INT] = PAIR_ROW(long_int, x),                      \
    [UCMPI_OPT_2INT] = PAIR_ROW(2int, x),                              \
    [UCMPI_OPT_SHORT_INT] = PAIR_ROW(short_int, x),                    \
    [UCMPI_OPT_LDOUBLE_INT] = PAIR_ROW(ldouble_int, x),                \
    [UCMPI_OPT_2FLOAT] = PAIR_ROW(2float, x),                          \
    [UCMPI_OPT_2DOUBLE] = PAIR_ROW(2double, x)

static ucmpi_op_kernel_t *const kernels[UCMPI_OPT_NUM][UCMPI_OP_NUM] = {
    KERNEL_ROWS()
};
static ucmpi_op_kernel3_t *const kernels3[UCMPI_OPT_NUM][UCMPI_OP_NUM] = {
    KERNEL_ROWS(_3)
};

ucmpi_op_kernel_t *ucmpi_op_kernel(int op, int type)
{
    if (op < 0 || op >= UCMPI_OP_NUM || type < 0 || type >= UCMPI_OPT_NUM)
        return NULL;
    return kernels[type][op];
}

ucmpi_op_kernel3_t *ucmpi_op_kernel3(int op, int type)
{
    if (op < 0 || op >= UCMPI_OP_NUM || type < 0 || type >= UCMPI_OPT_NUM)
        return NULL;
    return kernels3[type][op];
}
