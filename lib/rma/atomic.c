/*
 * The atomicity regime of accumulates.  Accumulates reach a window's
 * memory two ways: origins on the same node apply them directly to the
 * mapped memory, and the target's active-message handler applies those of
 * other origins.  Both come here, so the standard's per-element atomicity
 * holds between all of them:
 *  - an element of 4 or 8 bytes at an address aligned to its size is
 *    updated with one CPU atomic (fetch-add/and/or/xor for integer SUM
 *    and bit ops, exchange for REPLACE, a compare-and-swap loop for any
 *    other op);
 *  - anything else (1, 2, 16-byte and padded pair types, unaligned
 *    elements) is updated under the memory's accumulate lock, a spin lock
 *    in the memory's shared segment (or in the window when not shared).
 * Which way an element goes depends only on its type and address, never
 * on who sends it, so the two ways never race on one element.
 */
#include "rma/rma.h"

#include <sched.h>
#include <string.h>

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void lock_take(uint32_t *l)
{
    unsigned spins = 0;
    while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE) != 0)
        while (__atomic_load_n(l, __ATOMIC_RELAXED) != 0)
            if (++spins % 64 == 0)
                sched_yield();   /* the holder may be descheduled */
            else
                cpu_relax();
}

static void lock_give(uint32_t *l)
{
    __atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

/* Integer types whose SUM is a plain two's complement add. */
bool ucmpi_rma_is_int(MPI_Datatype t)
{
    return t == MPI_INT || t == MPI_UNSIGNED || t == MPI_LONG ||
           t == MPI_UNSIGNED_LONG || t == MPI_LONG_LONG ||
           t == MPI_UNSIGNED_LONG_LONG || t == MPI_INT32_T ||
           t == MPI_UINT32_T || t == MPI_INT64_T || t == MPI_UINT64_T ||
           t == MPI_AINT || t == MPI_OFFSET || t == MPI_COUNT;
}

/* One element: *dst = src op *dst atomically, old value into out.
 * elem4 is the same for 32-bit words. */
static void elem8(MPI_Op op, MPI_Datatype basic, const char *src, char *dst,
                  char *out)
{
    uint64_t *d = (uint64_t *)dst, v = 0, old, nv;
    if (src != NULL)
        memcpy(&v, src, sizeof(v));
    if (op == MPI_NO_OP)
        old = __atomic_load_n(d, __ATOMIC_SEQ_CST);
    else if (op == MPI_REPLACE)
        old = __atomic_exchange_n(d, v, __ATOMIC_SEQ_CST);
    else if (op == MPI_SUM && ucmpi_rma_is_int(basic))
        old = __atomic_fetch_add(d, v, __ATOMIC_SEQ_CST);
    else if (op == MPI_BAND && ucmpi_rma_is_int(basic))
        old = __atomic_fetch_and(d, v, __ATOMIC_SEQ_CST);
    else if (op == MPI_BOR && ucmpi_rma_is_int(basic))
        old = __atomic_fetch_or(d, v, __ATOMIC_SEQ_CST);
    else if (op == MPI_BXOR && ucmpi_rma_is_int(basic))
        old = __atomic_fetch_xor(d, v, __ATOMIC_SEQ_CST);
    else {
        old = __atomic_load_n(d, __ATOMIC_RELAXED);
        do {
            nv = old;
            ucmpi_op_apply(op, &v, &nv, 1, basic);
        } while (!__atomic_compare_exchange_n(d, &old, nv, false,
                                              __ATOMIC_SEQ_CST,
                                              __ATOMIC_RELAXED));
    }
    if (out != NULL)
        memcpy(out, &old, sizeof(old));
}

static void elem4(MPI_Op op, MPI_Datatype basic, const char *src, char *dst,
                  char *out)
{
    uint32_t *d = (uint32_t *)dst, v = 0, old, nv;
    if (src != NULL)
        memcpy(&v, src, sizeof(v));
    if (op == MPI_NO_OP)
        old = __atomic_load_n(d, __ATOMIC_SEQ_CST);
    else if (op == MPI_REPLACE)
        old = __atomic_exchange_n(d, v, __ATOMIC_SEQ_CST);
    else if (op == MPI_SUM && ucmpi_rma_is_int(basic))
        old = __atomic_fetch_add(d, v, __ATOMIC_SEQ_CST);
    else if (op == MPI_BAND && ucmpi_rma_is_int(basic))
        old = __atomic_fetch_and(d, v, __ATOMIC_SEQ_CST);
    else if (op == MPI_BOR && ucmpi_rma_is_int(basic))
        old = __atomic_fetch_or(d, v, __ATOMIC_SEQ_CST);
    else if (op == MPI_BXOR && ucmpi_rma_is_int(basic))
        old = __atomic_fetch_xor(d, v, __ATOMIC_SEQ_CST);
    else {
        old = __atomic_load_n(d, __ATOMIC_RELAXED);
        do {
            nv = old;
            ucmpi_op_apply(op, &v, &nv, 1, basic);
        } while (!__atomic_compare_exchange_n(d, &old, nv, false,
                                              __ATOMIC_SEQ_CST,
                                              __ATOMIC_RELAXED));
    }
    if (out != NULL)
        memcpy(out, &old, sizeof(old));
}

/* dst[i] = src[i] op dst[i] over one run of whole elements (locked). */
static void apply(MPI_Op op, MPI_Datatype basic, const char *src, char *dst,
                  uint64_t len)
{
    MPI_Count n = (MPI_Count)(len / (uint64_t)basic->size);
    if (op == MPI_NO_OP)
        return;
    if (op == MPI_REPLACE) {
        memcpy(dst, src, len);
        return;
    }
    if (basic->size == basic->extent && basic->true_lb == 0) {
        ucmpi_op_apply(op, src, dst, n, basic);
        return;
    }
    /* padded pair types: bring each packed element to its layout */
    char tmp[64];
    for (MPI_Count i = 0; i < n; i++) {
        ucmpi_dt_unpack(basic, tmp, 1, src + i * basic->size,
                        (size_t)basic->size);
        ucmpi_op_apply(op, tmp, dst + i * basic->size - basic->true_lb, 1,
                       basic);
    }
}

static bool atomic_ok(MPI_Datatype basic, const void *dst)
{
    size_t n = (size_t)basic->size;
    return (n == 4 || n == 8) && basic->extent == basic->size &&
           basic->true_lb == 0 && ((uintptr_t)dst & (n - 1)) == 0;
}

void ucmpi_rma_acc_run(uint32_t *lock, MPI_Op op, MPI_Datatype basic,
                       const void *src, void *dst, void *out, uint64_t len)
{
    size_t n = (size_t)basic->size;
    if (op == MPI_NO_OP && out == NULL)
        return;
    if (atomic_ok(basic, dst)) {
        const char *s = src;
        char *d = dst, *o = out;
        for (uint64_t i = 0; i < len; i += n) {
            if (n == 8)
                elem8(op, basic, s ? s + i : NULL, d + i, o ? o + i : NULL);
            else
                elem4(op, basic, s ? s + i : NULL, d + i, o ? o + i : NULL);
        }
        return;
    }
    lock_take(lock);
    if (out != NULL)
        memcpy(out, dst, len);
    apply(op, basic, src, dst, len);
    lock_give(lock);
}

void ucmpi_rma_cas_run(uint32_t *lock, size_t n, const void *val,
                       const void *cmp, void *dst, void *out)
{
    if ((n == 4 || n == 8) && ((uintptr_t)dst & (n - 1)) == 0) {
        if (n == 8) {
            uint64_t c, v;
            memcpy(&c, cmp, 8);
            memcpy(&v, val, 8);
            __atomic_compare_exchange_n((uint64_t *)dst, &c, v, false,
                                        __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
            memcpy(out, &c, 8);   /* the old value either way */
        } else {
            uint32_t c, v;
            memcpy(&c, cmp, 4);
            memcpy(&v, val, 4);
            __atomic_compare_exchange_n((uint32_t *)dst, &c, v, false,
                                        __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
            memcpy(out, &c, 4);
        }
        return;
    }
    lock_take(lock);
    memcpy(out, dst, n);
    if (memcmp(dst, cmp, n) == 0)
        memcpy(dst, val, n);
    lock_give(lock);
}

bool ucmpi_rma_fast_op(MPI_Op op, MPI_Datatype dt)
{
    if (op == MPI_REPLACE || op == MPI_NO_OP || op == MPI_SUM ||
        op == MPI_PROD || op == MPI_MIN || op == MPI_MAX)
        return ucmpi_rma_is_int(dt) || dt == MPI_DOUBLE || dt == MPI_FLOAT;
    return ucmpi_rma_is_int(dt) &&
           (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR ||
            op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR);
}
