/* Shared bits of the gather/scatter/allgather/alltoall tests: expected
 * values, the three forms of a call (blocking, nonblocking, persistent
 * started twice), sizes. */
#ifndef COLL_XFER_H
#define COLL_XFER_H
#include "../mpitest.h"
#include <string.h>

/* element i of the block rank src sends to rank dst, generation g */
static inline int xv(int src, int dst, int i, int g)
{
    return src * 1000003 + dst * 1009 + i * 7 + g * 13;
}

enum { F_BLOCKING, F_NONBLOCKING, F_PERSISTENT, F_NFORMS };
static const char *const xform_name[] = {"blocking", "nonblocking",
                                         "persistent"};

/* block counts (ints) every test walks; the last one is ~1.2 MiB */
static const int xsizes[] = {0, 1, 5, 1000, 33000, 300000};
#define XNSIZES ((int)(sizeof(xsizes) / sizeof(xsizes[0])))

static inline void *xalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

/* Runs one step of a test in form f: first call (g == 0) creates the
 * request for nonblocking/persistent forms via `post`, persistent ones
 * are started each generation. */
#define XRUN(f, g, req, blocking_call, nonblocking_call, init_call)      \
    do {                                                                 \
        if ((f) == F_BLOCKING) {                                         \
            MT_CHECK_RC(blocking_call);                                  \
        } else {                                                         \
            if ((f) == F_NONBLOCKING)                                    \
                MT_CHECK_RC(nonblocking_call);                           \
            else if ((g) == 0)                                           \
                MT_CHECK_RC(init_call);                                  \
            if ((f) == F_PERSISTENT)                                     \
                MT_CHECK_RC(MPI_Start(&(req)));                          \
            MT_CHECK_RC(MPI_Wait(&(req), MPI_STATUS_IGNORE));            \
        }                                                                \
    } while (0)

static inline int xreps(int f) { return f == F_PERSISTENT ? 2 : 1; }

static inline void xfree_req(int f, MPI_Request *req)
{
    if (f == F_PERSISTENT)
        MT_CHECK_RC(MPI_Request_free(req));
}

#endif

/* Checks buf[0..n) == xv(src, dst, i, g) (stride apart), reporting only
 * the first mismatch. */
#define XCHECK_BLOCK(buf, n, stride, src, dst, g, what)                  \
    do {                                                                 \
        for (int xi_ = 0; xi_ < (n); xi_++)                              \
            if ((buf)[(size_t)xi_ * (stride)] !=                         \
                xv((src), (dst), xi_, (g))) {                            \
                MT_CHECK(0, "%s: block from %d to %d elem %d: got %d "   \
                         "want %d", (what), (src), (dst), xi_,           \
                         (buf)[(size_t)xi_ * (stride)],                  \
                         xv((src), (dst), xi_, (g)));                    \
                break;                                                   \
            }                                                            \
    } while (0)

/* XTEST_PART=uniform|v|w selects one part of a test (the list forces the
 * algorithms of each part separately); unset runs everything. */
static inline int xpart(const char *name)
{
    const char *p = getenv("XTEST_PART");
    return p == NULL || *p == '\0' || strcmp(p, name) == 0;
}
