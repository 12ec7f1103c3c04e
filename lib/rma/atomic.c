/* The atomicity regime of accumulates (one accumulate lock per memory, no CPU
 * atomics): docs/architecture.md, "lib/rma internals". */
#include "rma/rma.h"
#include "core/config.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* The lock word holds its holder's pid, so that a waiter can tell a dead
 * holder (on this node) from a slow one and fail instead of spinning. */
static uint32_t my_pid;

/* Testing: UCMPI_RMA_ACC_LOCK_DEAD=<world rank> makes that rank's first
 * accumulate leave the lock held by a process that has exited. */
uint32_t ucmpi_rma_dead_pid(void)
{
    pid_t p = fork();

    if (p == 0)
        _exit(0);
    if (p > 0)
        waitpid(p, NULL, 0);
    return p > 0 ? (uint32_t)p : 0;
}

static int inject_dead_holder(uint32_t *l)
{
    static long r = -2;
    uint32_t want = 0, pid;

    if (r == -1)
        return 0;
    if (r == -2)
        r = ucmpi_config_long("RMA_ACC_LOCK_DEAD");
    if (r < 0 || r != ucmpi_global.world_rank)
        return 0;
    r = -1;                                   /* once */
    pid = ucmpi_rma_dead_pid();
    return pid != 0 && __atomic_compare_exchange_n(l, &want, pid, false,
                                                   __ATOMIC_ACQUIRE,
                                                   __ATOMIC_RELAXED);
}

bool ucmpi_rma_pid_dead(uint32_t pid)
{
    return pid != 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* MPI_SUCCESS once the lock is mine; MPI_ERR_PROC_FAILED when its holder
 * is a process that no longer exists (it died inside an accumulate). */
static int lock_take(uint32_t *l)
{
    unsigned spins = 0;
    uint32_t held;

    if (__builtin_expect(my_pid == 0, 0))
        my_pid = (uint32_t)getpid();
    for (;;) {
        uint32_t want = 0;
        if (__atomic_compare_exchange_n(l, &want, my_pid, false,
                                        __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            break;
        while ((held = __atomic_load_n(l, __ATOMIC_RELAXED)) != 0) {
            if (++spins % 64 != 0) {
                cpu_relax();
                continue;
            }
            if (spins % 4096 == 0 && ucmpi_rma_pid_dead(held))
                return MPI_ERR_PROC_FAILED;
            sched_yield();   /* the holder may be descheduled */
        }
    }
    return MPI_SUCCESS;
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

/* Pair types with a hole inside (MPI_SHORT_INT): dst is the first byte
 * of one element, src and out hold it packed (see ucmpi_rma_elem_segs). */
static void run_holed(MPI_Op op, MPI_Datatype basic, const char *src,
                      char *dst, char *out)
{
    char tmp[64];
    char *el = dst - basic->true_lb;
    if (out != NULL)
        ucmpi_dt_pack(basic, el, 1, out);
    if (op == MPI_NO_OP)
        return;
    if (op == MPI_REPLACE) {
        ucmpi_dt_unpack(basic, el, 1, src, (size_t)basic->size);
        return;
    }
    ucmpi_dt_unpack(basic, tmp - basic->true_lb, 1, src, (size_t)basic->size);
    ucmpi_op_apply(op, tmp - basic->true_lb, el, 1, basic);
}

int ucmpi_rma_acc_run(uint32_t *lock, MPI_Op op, MPI_Datatype basic,
                      const void *src, void *dst, void *out, uint64_t len)
{
    if (op == MPI_NO_OP && out == NULL)
        return MPI_SUCCESS;
    if (__builtin_expect(inject_dead_holder(lock), 0))
        return MPI_SUCCESS;            /* "died" before applying it */
    if (lock_take(lock) != MPI_SUCCESS)
        return MPI_ERR_PROC_FAILED;
    if (ucmpi_rma_holed(basic)) {
        run_holed(op, basic, src, dst, out);
    } else {
        if (out != NULL)
            memcpy(out, dst, len);
        apply(op, basic, src, dst, len);
    }
    lock_give(lock);
    return MPI_SUCCESS;
}

int ucmpi_rma_cas_run(uint32_t *lock, size_t n, const void *val,
                      const void *cmp, void *dst, void *out)
{
    if (lock_take(lock) != MPI_SUCCESS)
        return MPI_ERR_PROC_FAILED;
    memcpy(out, dst, n);
    if (memcmp(dst, cmp, n) == 0)
        memcpy(dst, val, n);
    lock_give(lock);
    return MPI_SUCCESS;
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
