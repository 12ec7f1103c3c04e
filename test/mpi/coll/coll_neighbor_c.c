/* Large-count (_c) neighbor collectives: Neighbor_allgather(v)_c and
 * Neighbor_alltoall(v,w)_c, blocking, nonblocking and persistent (started
 * twice), on a dist-graph ring (receive from r-1 and r+1, send to r+1 and
 * r-1: at 1 and 2 ranks both edges go to one peer, so same-peer messages
 * must pair up in posting order) and on a periodic cartesian ring.  Also
 * a negative count and a missing topology: the standard's error classes. */
#include "../mpitest.h"
#include <string.h>

enum { BLOCKING, NONBLOCKING, PERSISTENT, NMODES };
static const char *mode_name[] = {"blocking", "nonblocking", "persistent"};
static int rank, size;

static int val(int sender, int slot, int i, int round)
{
    return sender * 100000 + slot * 10000 + i * 7 + round;
}

/* elements a sender puts in its slot (uneven, zero included) */
static MPI_Count cnt(int sender, int slot)
{
    return (MPI_Count)((sender + 2 * slot) % 3) * 5;
}

/* Runs op (which posts one collective in the given mode) to completion;
 * persistent requests are started twice. */
#define RUN(mode, req, call)                                              \
    do {                                                                  \
        MT_CHECK_RC(call);                                                \
        if ((mode) == PERSISTENT) {                                       \
            MT_CHECK_RC(MPI_Start(&(req)));                               \
            MT_CHECK_RC(MPI_Wait(&(req), MPI_STATUS_IGNORE));             \
            MT_CHECK_RC(MPI_Start(&(req)));                               \
        }                                                                 \
        if ((mode) != BLOCKING)                                           \
            MT_CHECK_RC(MPI_Wait(&(req), MPI_STATUS_IGNORE));             \
        if ((mode) == PERSISTENT)                                         \
            MT_CHECK_RC(MPI_Request_free(&(req)));                        \
    } while (0)

static void check_slot(const int *rb, MPI_Count n, int sender, int slot,
                       int round, const char *what, int mode)
{
    for (MPI_Count i = 0; i < n; i++)
        MT_CHECK(rb[i] == val(sender, slot, (int)i, round),
                 "%s (%s): slot %d from %d elt %lld = %d", what,
                 mode_name[mode], slot, sender, (long long)i, rb[i]);
    MT_CHECK(rb[n] == -1, "%s (%s): gap after slot %d overwritten", what,
             mode_name[mode], slot);
}

static void test_v_w(MPI_Comm g, const int *srcs, const int *dsts, int mode)
{
    MPI_Count sc[2], rc[2], ac[2];
    MPI_Aint sd[2], rd[2], sdb[2], rdb[2], ad[2];
    MPI_Datatype st[2] = {MPI_INT, MPI_INT}, rt[2] = {MPI_INT, MPI_INT};
    int sb[64], rb[64];
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Aint at = 0, rat = 0;

    (void)dsts;
    for (int j = 0; j < 2; j++) {
        sc[j] = cnt(rank, j);
        sd[j] = at;
        sdb[j] = at * (MPI_Aint)sizeof(int);
        at += (MPI_Aint)sc[j] + 1;
        rc[j] = cnt(srcs[j], j);
        rd[j] = rat;
        rdb[j] = rat * (MPI_Aint)sizeof(int);
        rat += (MPI_Aint)rc[j] + 1;
    }
    for (int w = 0; w < 2; w++) {
        for (int j = 0; j < 2; j++)
            for (int i = 0; i < sc[j]; i++)
                sb[sd[j] + i] = val(rank, j, i, w);
        memset(rb, 0xff, sizeof(rb));
        if (w == 0 && mode == BLOCKING)
            RUN(mode, req, MPI_Neighbor_alltoallv_c(sb, sc, sd, MPI_INT, rb,
                                                    rc, rd, MPI_INT, g));
        else if (w == 0 && mode == NONBLOCKING)
            RUN(mode, req, MPI_Ineighbor_alltoallv_c(sb, sc, sd, MPI_INT, rb,
                                                     rc, rd, MPI_INT, g,
                                                     &req));
        else if (w == 0)
            RUN(mode, req, MPI_Neighbor_alltoallv_init_c(
                               sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, g,
                               MPI_INFO_NULL, &req));
        else if (mode == BLOCKING)
            RUN(mode, req, MPI_Neighbor_alltoallw_c(sb, sc, sdb, st, rb, rc,
                                                    rdb, rt, g));
        else if (mode == NONBLOCKING)
            RUN(mode, req, MPI_Ineighbor_alltoallw_c(sb, sc, sdb, st, rb, rc,
                                                     rdb, rt, g, &req));
        else
            RUN(mode, req, MPI_Neighbor_alltoallw_init_c(
                               sb, sc, sdb, st, rb, rc, rdb, rt, g,
                               MPI_INFO_NULL, &req));
        for (int j = 0; j < 2; j++)
            check_slot(rb + rd[j], rc[j], srcs[j], j, w,
                       w ? "alltoallw_c" : "alltoallv_c", mode);
    }
    /* allgatherv_c: my slot-0 block to both destinations */
    for (int i = 0; i < cnt(rank, 0); i++)
        sb[i] = val(rank, 0, i, 3);
    for (int j = 0; j < 2; j++) {
        ac[j] = cnt(srcs[j], 0);
        ad[j] = 20 * j;
    }
    memset(rb, 0xff, sizeof(rb));
    if (mode == BLOCKING)
        RUN(mode, req, MPI_Neighbor_allgatherv_c(sb, cnt(rank, 0), MPI_INT,
                                                 rb, ac, ad, MPI_INT, g));
    else if (mode == NONBLOCKING)
        RUN(mode, req, MPI_Ineighbor_allgatherv_c(sb, cnt(rank, 0), MPI_INT,
                                                  rb, ac, ad, MPI_INT, g,
                                                  &req));
    else
        RUN(mode, req, MPI_Neighbor_allgatherv_init_c(
                           sb, cnt(rank, 0), MPI_INT, rb, ac, ad, MPI_INT, g,
                           MPI_INFO_NULL, &req));
    for (int j = 0; j < 2; j++)
        check_slot(rb + ad[j], ac[j], srcs[j], 0, 3, "allgatherv_c", mode);
}

/* uniform forms on comm c whose receive slot j comes from srcs[j] and
 * holds what that rank sent in its slot j ^ swap (alltoall: a cartesian
 * slot 0 gets what the negative neighbour sent in the positive
 * direction) or its block (allgather) */
static void test_uniform(MPI_Comm c, const int *srcs, int swap, int mode)
{
    enum { N = 6 };
    int sb[2 * N], rb[2 * N + 1], ab[N];
    MPI_Request req = MPI_REQUEST_NULL;

    for (int j = 0; j < 2; j++)
        for (int i = 0; i < N; i++)
            sb[j * N + i] = val(rank, j, i, 5);
    for (int i = 0; i <= 2 * N; i++)
        rb[i] = -1;
    if (mode == BLOCKING)
        RUN(mode, req, MPI_Neighbor_alltoall_c(sb, N, MPI_INT, rb, N,
                                               MPI_INT, c));
    else if (mode == NONBLOCKING)
        RUN(mode, req, MPI_Ineighbor_alltoall_c(sb, N, MPI_INT, rb, N,
                                                MPI_INT, c, &req));
    else
        RUN(mode, req, MPI_Neighbor_alltoall_init_c(sb, N, MPI_INT, rb, N,
                                                    MPI_INT, c,
                                                    MPI_INFO_NULL, &req));
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < N; i++)
            MT_CHECK(rb[j * N + i] == val(srcs[j], j ^ swap, i, 5),
                     "alltoall_c (%s): slot %d elt %d = %d", mode_name[mode],
                     j, i, rb[j * N + i]);
    for (int i = 0; i < N; i++)
        ab[i] = val(rank, 0, i, 6);
    for (int i = 0; i <= 2 * N; i++)
        rb[i] = -1;
    if (mode == BLOCKING)
        RUN(mode, req, MPI_Neighbor_allgather_c(ab, N, MPI_INT, rb, N,
                                                MPI_INT, c));
    else if (mode == NONBLOCKING)
        RUN(mode, req, MPI_Ineighbor_allgather_c(ab, N, MPI_INT, rb, N,
                                                 MPI_INT, c, &req));
    else
        RUN(mode, req, MPI_Neighbor_allgather_init_c(ab, N, MPI_INT, rb, N,
                                                     MPI_INT, c,
                                                     MPI_INFO_NULL, &req));
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < N; i++)
            MT_CHECK(rb[j * N + i] == val(srcs[j], 0, i, 6),
                     "allgather_c (%s): slot %d elt %d = %d",
                     mode_name[mode], j, i, rb[j * N + i]);
    MT_CHECK(rb[2 * N] == -1, "allgather_c wrote past its blocks");
}

static void test_errors(MPI_Comm g)
{
    MPI_Count bad[2] = {1, -1};
    MPI_Aint d[2] = {0, 4};
    int buf[8];
    MPI_Comm_set_errhandler(g, MPI_ERRORS_RETURN);
    int rc = MPI_Neighbor_alltoallv_c(buf, bad, d, MPI_INT, buf, bad, d,
                                      MPI_INT, g);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    MT_CHECK(cls == MPI_ERR_COUNT, "negative count gave class %d", cls);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    rc = MPI_Neighbor_allgather_c(buf, 1, MPI_INT, buf, 1, MPI_INT, dup);
    MPI_Error_class(rc, &cls);
    MT_CHECK(cls == MPI_ERR_TOPOLOGY, "no topology gave class %d", cls);
    MPI_Comm_free(&dup);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int srcs[2] = {(rank + size - 1) % size, (rank + 1) % size};
    int dsts[2] = {(rank + 1) % size, (rank + size - 1) % size};
    MPI_Comm g, cart;
    int wts[2] = {1, 1};      /* gcc 12 flags MPI_UNWEIGHTED as overread */
    MT_CHECK_RC(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, srcs, wts,
                                               2, dsts, wts, MPI_INFO_NULL,
                                               0, &g));
    int dims[1] = {size}, periods[1] = {1};
    MT_CHECK_RC(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart));
    int csrc[2], cdst;
    MPI_Cart_shift(cart, 0, 1, &csrc[0], &cdst);     /* slot 0: from r-1 */
    MPI_Cart_shift(cart, 0, -1, &csrc[1], &cdst);    /* slot 1: from r+1 */
    for (int mode = 0; mode < NMODES; mode++) {
        test_v_w(g, srcs, dsts, mode);
        test_uniform(g, srcs, 0, mode);
        test_uniform(cart, csrc, 1, mode);
    }
    test_errors(g);
    MPI_Comm_free(&cart);
    MPI_Comm_free(&g);
    return mt_finish();
}
