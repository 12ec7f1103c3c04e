/* Aliased send and receive buffers: every collective that uses both on a
 * rank returns MPI_ERR_BUFFER there (whole or partial overlap, contiguous
 * or strided types, v/w blocks, blocking, nonblocking, persistent and
 * large-count forms) and the program goes on; layouts that share no byte
 * (MPI_IN_PLACE, adjacent buffers, interleaved strided types or blocks,
 * zero-count blocks, ignored buffers at non-roots) run and give the right
 * result.  Rooted cases that only the root can see run on the root alone,
 * as MPICH's errors/coll/noalias2 does. */
#include "../mpitest.h"
#include <string.h>

#define MAXN 64
static int rank, size;
static MPI_Comm w = MPI_COMM_WORLD;

static void expect_buf(int rc, const char *what)
{
    int cls = MPI_SUCCESS;

    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    MT_CHECK(cls == MPI_ERR_BUFFER, "%s: class %d, want MPI_ERR_BUFFER",
             what, cls);
}

/* rc of a call that must work; nonblocking/persistent ones completed */
static void expect_ok(int rc, MPI_Request *req, int persistent,
                      const char *what)
{
    MT_CHECK(rc == MPI_SUCCESS, "%s: rc %d, want success", what, rc);
    if (rc != MPI_SUCCESS || req == NULL)
        return;
    if (persistent) {
        MT_CHECK_RC(MPI_Start(req));
        MT_CHECK_RC(MPI_Wait(req, MPI_STATUS_IGNORE));
        MT_CHECK_RC(MPI_Request_free(req));
    } else {
        MT_CHECK_RC(MPI_Wait(req, MPI_STATUS_IGNORE));
    }
}

static void fill(int *b, int n, int base)
{
    for (int i = 0; i < n; i++)
        b[i] = base + i;
}

static void gathers(void)
{
    int buf[4 * MAXN] = {0}, c[MAXN], d[MAXN], ca[MAXN], root = size - 1;
    MPI_Count cc[MAXN];
    MPI_Aint cd[MAXN];
    MPI_Request req;

    for (int i = 0; i < size; i++) {
        c[i] = 1;
        d[i] = i;
        cc[i] = 1;
        cd[i] = i;
        ca[i] = 0;
    }
    /* allgather: sendbuf is this rank's block of recvbuf */
    expect_buf(MPI_Allgather(&buf[rank], 1, MPI_INT, buf, 1, MPI_INT, w),
               "allgather send in recv");
    expect_buf(MPI_Iallgather(&buf[rank], 1, MPI_INT, buf, 1, MPI_INT, w,
                              &req), "iallgather send in recv");
    /* half in, half after the receive blocks */
    expect_buf(MPI_Allgather_init((char *)&buf[size] - 2, 4, MPI_BYTE, buf,
                                  1, MPI_INT, w, MPI_INFO_NULL, &req),
               "allgather_init partial overlap");
    expect_buf(MPI_Allgather_c(&buf[rank], 1, MPI_INT, buf, 1, MPI_INT, w),
               "allgather_c");
    expect_buf(MPI_Allgatherv(&buf[rank], 1, MPI_INT, buf, c, d, MPI_INT, w),
               "allgatherv");
    expect_buf(MPI_Iallgatherv(&buf[rank], 1, MPI_INT, buf, c, d, MPI_INT,
                               w, &req), "iallgatherv");
    expect_buf(MPI_Allgatherv_c(&buf[rank], 1, MPI_INT, buf, cc, cd, MPI_INT,
                                w), "allgatherv_c");
    /* adjacent: recv blocks [0, n), send right after */
    fill(buf, 2 * size, 100);
    buf[size] = 1000 + rank;
    expect_ok(MPI_Allgather(&buf[size], 1, MPI_INT, buf, 1, MPI_INT, w),
              NULL, 0, "allgather adjacent");
    for (int i = 0; i < size; i++)
        MT_CHECK(buf[i] == 1000 + i, "allgather adjacent [%d]=%d", i,
                 buf[i]);
    buf[size] = 2000 + rank;
    expect_ok(MPI_Allgatherv_init(&buf[size], 1, MPI_INT, buf, c, d,
                                  MPI_INT, w, MPI_INFO_NULL, &req),
              &req, 1, "allgatherv_init adjacent");
    for (int i = 0; i < size; i++)
        MT_CHECK(buf[i] == 2000 + i, "allgatherv adjacent [%d]=%d", i,
                 buf[i]);
    /* in place, and zero-count blocks on the send buffer */
    fill(buf, size, 0);
    buf[rank] = 3000 + rank;
    expect_ok(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 1,
                            MPI_INT, w), NULL, 0, "allgather in place");
    for (int i = 0; i < size; i++)
        MT_CHECK(buf[i] == 3000 + i, "in place [%d]=%d", i, buf[i]);
    expect_ok(MPI_Allgatherv(buf, 0, MPI_INT, buf, ca, d, MPI_INT, w), NULL,
              0, "allgatherv zero counts, same buffer");

    /* rooted: the root sees the overlap alone; the others call too
     * (the root's failed calls still take their collective
     * numbers, and an erring root still serves the others: it takes
     * their blocks and sends its valid send buffer), so none waits */
    if (rank != root) {
        MT_CHECK_RC(MPI_Gather(buf, 4, MPI_BYTE, NULL, 0, MPI_INT, root, w));
        MT_CHECK_RC(MPI_Igatherv(buf, 1, MPI_INT, NULL, NULL, NULL, MPI_INT,
                                 root, w, &req));
        MT_CHECK_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
        MT_CHECK_RC(MPI_Gatherv_c(buf, 1, MPI_INT, NULL, NULL, NULL, MPI_INT,
                                  root, w));
        buf[2 * size] = -1;
        MT_CHECK_RC(MPI_Scatter(NULL, 0, MPI_INT, &buf[2 * size], 1, MPI_INT,
                                root, w));
        MT_CHECK(buf[2 * size] == 3000 + rank,
                 "scatter from an erring root: %d",
                 buf[2 * size]);
        MT_CHECK_RC(MPI_Scatterv_init(NULL, NULL, NULL, MPI_INT, buf, 0,
                                      MPI_INT, root, w, MPI_INFO_NULL, &req));
        MT_CHECK_RC(MPI_Request_free(&req));
        MT_CHECK_RC(MPI_Iscatterv_c(NULL, NULL, NULL, MPI_INT,
                                    &buf[2 * size], 1, MPI_INT, root, w,
                                    &req));
        MT_CHECK_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
        expect_buf(MPI_Gather((char *)buf + 2, 4, MPI_BYTE, buf, 1, MPI_INT,
                              root, w), "gather root, partial");
        expect_buf(MPI_Igatherv(&buf[root], 1, MPI_INT, buf, c, d, MPI_INT,
                                root, w, &req), "igatherv root");
        expect_buf(MPI_Gatherv_c(&buf[0], 1, MPI_INT, buf, cc, cd, MPI_INT,
                                 root, w), "gatherv_c root");
        expect_buf(MPI_Scatter(buf, 1, MPI_INT, &buf[size - 1], 1, MPI_INT,
                               root, w), "scatter root");
        req = MPI_REQUEST_NULL;
        expect_buf(MPI_Scatterv_init(buf, c, d, MPI_INT, &buf[root], 1,
                                     MPI_INT, root, w, MPI_INFO_NULL, &req),
                   "scatterv_init root");
        /* the erring init still hands back the request that serves the
         * others: it is the caller's to free (valgrind saw its
         * schedule lost at exit) */
        if (req != MPI_REQUEST_NULL)
            MT_CHECK_RC(MPI_Request_free(&req));
        expect_buf(MPI_Iscatterv_c(buf, cc, cd, MPI_INT, buf, 1, MPI_INT,
                                   root, w, &req), "iscatterv_c root");
    }
    /* non-roots pass aliased (ignored) buffers: no error anywhere */
    fill(buf, 4 * size, 0);
    buf[0] = 50 + rank;
    if (rank == root)
        expect_ok(MPI_Gather(buf, 1, MPI_INT, &buf[size], 1, MPI_INT, root,
                             w), NULL, 0, "gather, separate at root");
    else
        expect_ok(MPI_Gather(buf, 1, MPI_INT, buf, 1, MPI_INT, root, w),
                  NULL, 0, "gather, ignored recvbuf at non-root");
    if (rank == root)
        for (int i = 0; i < size; i++)
            MT_CHECK(buf[size + i] == 50 + i, "gather [%d]=%d", i,
                     buf[size + i]);
    fill(buf, 2 * size, 70);
    if (rank != root)
        buf[0] = -1;
    if (rank == root)
        expect_ok(MPI_Iscatterv(buf, c, d, MPI_INT, &buf[size], 1, MPI_INT,
                                root, w, &req), &req, 0,
                  "iscatterv adjacent at root");
    else
        expect_ok(MPI_Iscatterv(buf, c, d, MPI_INT, buf, 1, MPI_INT, root, w,
                                &req), &req, 0,
                  "iscatterv ignored sendbuf at non-root");
    MT_CHECK(buf[rank == root ? size : 0] == 70 + rank, "scatterv got %d",
             buf[rank == root ? size : 0]);
}

static void alltoalls(void)
{
    int buf[4 * MAXN] = {0}, c[MAXN], sd[MAXN], rd[MAXN], c2[MAXN];
    int sbd[MAXN], rbd[MAXN];
    MPI_Datatype t[MAXN];
    MPI_Count cc[MAXN];
    MPI_Aint scd[MAXN], rcd[MAXN];
    MPI_Request req;

    for (int i = 0; i < size; i++) {
        c[i] = 1;
        c2[i] = 2;
        sd[i] = 2 * i;          /* interleaved: sends at even, */
        rd[i] = 2 * i + 1;      /* receives at odd elements */
        sbd[i] = sd[i] * (int)sizeof(int);
        rbd[i] = rd[i] * (int)sizeof(int);
        t[i] = MPI_INT;
        cc[i] = 1;
        scd[i] = sd[i];
        rcd[i] = rd[i];
    }
    expect_buf(MPI_Alltoall(buf, 1, MPI_INT, buf, 1, MPI_INT, w),
               "alltoall same");
    expect_buf(MPI_Ialltoall((char *)buf + 2, 4, MPI_BYTE, buf, 1, MPI_INT,
                             w, &req), "ialltoall shifted by 2 bytes");
    expect_buf(MPI_Alltoall_init(buf, 1, MPI_INT, &buf[size - 1], 1, MPI_INT,
                                 w, MPI_INFO_NULL, &req),
               "alltoall_init last send = first recv");
    /* a send block of 2 covers the receive block after it */
    expect_buf(MPI_Alltoallv(buf, c2, sd, MPI_INT, buf, c, rd, MPI_INT, w),
               "alltoallv 2-blocks over interleaved recv");
    expect_buf(MPI_Ialltoallw(buf, c2, sbd, t, buf, c, rbd, t, w, &req),
               "ialltoallw");
    expect_buf(MPI_Alltoallv_c(buf, cc, scd, MPI_INT, buf, cc, scd, MPI_INT,
                               w), "alltoallv_c same blocks");
    expect_buf(MPI_Ialltoallv_c(buf, cc, rcd, MPI_INT, buf, cc, rcd, MPI_INT,
                                w, &req), "ialltoallv_c same blocks");
    /* interleaved, sharing no byte: must run */
    for (int i = 0; i < size; i++) {
        buf[2 * i] = 100 * rank + i;
        buf[2 * i + 1] = -1;
    }
    expect_ok(MPI_Alltoallv(buf, c, sd, MPI_INT, buf, c, rd, MPI_INT, w),
              NULL, 0, "alltoallv interleaved");
    for (int i = 0; i < size; i++)
        MT_CHECK(buf[2 * i + 1] == 100 * i + rank, "a2av [%d]=%d", i,
                 buf[2 * i + 1]);
    for (int i = 0; i < size; i++)
        buf[2 * i] = 200 * rank + i;
    expect_ok(MPI_Alltoallw_init(buf, c, sbd, t, buf, c, rbd, t, w,
                                 MPI_INFO_NULL, &req), &req, 1,
              "alltoallw_init interleaved");
    for (int i = 0; i < size; i++)
        MT_CHECK(buf[2 * i + 1] == 200 * i + rank, "a2aw [%d]=%d", i,
                 buf[2 * i + 1]);
    /* adjacent uniform buffers */
    fill(buf, size, 300 * rank);
    expect_ok(MPI_Alltoall(buf, 1, MPI_INT, &buf[size], 1, MPI_INT, w),
              NULL, 0, "alltoall adjacent");
    for (int i = 0; i < size; i++)
        MT_CHECK(buf[size + i] == 300 * i + rank, "a2a [%d]=%d", i,
                 buf[size + i]);
}

static void reductions(void)
{
    int buf[4 * MAXN] = {0}, c[MAXN], root = 0, n = size;
    MPI_Datatype vec;
    MPI_Request req;

    for (int i = 0; i < size; i++)
        c[i] = 1;
    expect_buf(MPI_Allreduce(buf, &buf[1], 2, MPI_INT, MPI_SUM, w),
               "allreduce shifted");
    expect_buf(MPI_Iallreduce(&buf[1], buf, 2, MPI_INT, MPI_SUM, w, &req),
               "iallreduce shifted");
    expect_buf(MPI_Allreduce_init(buf, buf, 1, MPI_INT, MPI_SUM, w,
                                  MPI_INFO_NULL, &req), "allreduce_init");
    expect_buf(MPI_Reduce_scatter_block(buf, &buf[n - 1], 1, MPI_INT,
                                        MPI_SUM, w),
               "reduce_scatter_block recv in send tail");
    expect_buf(MPI_Ireduce_scatter(buf, &buf[rank], c, MPI_INT, MPI_SUM, w,
                                   &req), "ireduce_scatter");
    expect_buf(MPI_Scan(buf, &buf[1], 2, MPI_INT, MPI_SUM, w), "scan");
    expect_buf(MPI_Exscan_init(buf, &buf[1], 2, MPI_INT, MPI_SUM, w,
                               MPI_INFO_NULL, &req), "exscan_init");
    expect_buf(MPI_Reduce_local(buf, &buf[1], 2, MPI_INT, MPI_SUM),
               "reduce_local shifted");
    if (rank == root) {
        expect_buf(MPI_Ireduce(buf, &buf[1], 2, MPI_INT, MPI_SUM, root, w,
                               &req), "ireduce at root");
    } else {   /* the others only send (see the rooted calls above) */
        MT_CHECK_RC(MPI_Ireduce(buf, NULL, 2, MPI_INT, MPI_SUM, root, w,
                                &req));
        MT_CHECK_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
    }
    /* adjacent, and an ignored recvbuf at non-roots */
    buf[0] = buf[1] = rank + 1;
    expect_ok(MPI_Allreduce(buf, &buf[2], 2, MPI_INT, MPI_SUM, w), NULL, 0,
              "allreduce adjacent");
    MT_CHECK(buf[2] == n * (n + 1) / 2 && buf[3] == buf[2], "sum %d %d",
             buf[2], buf[3]);
    buf[0] = rank + 1;
    expect_ok(MPI_Reduce(buf, rank == root ? &buf[1] : buf, 1, MPI_INT,
                         MPI_SUM, root, w), NULL, 0,
              "reduce, recvbuf ignored at non-roots");
    if (rank == root)
        MT_CHECK(buf[1] == n * (n + 1) / 2, "reduce sum %d", buf[1]);
    buf[0] = 5;
    buf[1] = 7;
    expect_ok(MPI_Reduce_local(buf, &buf[1], 1, MPI_INT, MPI_SUM), NULL, 0,
              "reduce_local adjacent");
    MT_CHECK(buf[1] == 12, "reduce_local %d", buf[1]);
    /* strided: even elements against odd ones share no byte */
    MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    for (int i = 0; i < 6; i++)
        buf[i] = i % 2 ? -1 : rank + i;
    expect_ok(MPI_Allreduce(buf, &buf[1], 1, vec, MPI_SUM, w), NULL, 0,
              "allreduce interleaved vectors");
    for (int i = 0; i < 3; i++)
        MT_CHECK(buf[2 * i + 1] == n * (n - 1) / 2 + 2 * i * n,
                 "vector sum [%d]=%d", i, buf[2 * i + 1]);
    expect_buf(MPI_Allreduce(buf, &buf[2], 1, vec, MPI_SUM, w),
               "allreduce vectors shifted by one stride");
    expect_buf(MPI_Scan(&buf[4], buf, 1, vec, MPI_SUM, w),
               "scan vectors, last meets first");
    MPI_Type_free(&vec);
    /* scan, in place and zero count */
    buf[0] = 1;
    expect_ok(MPI_Scan(MPI_IN_PLACE, buf, 1, MPI_INT, MPI_SUM, w), NULL, 0,
              "scan in place");
    MT_CHECK(buf[0] == rank + 1, "scan %d", buf[0]);
    expect_ok(MPI_Exscan(buf, buf, 0, MPI_INT, MPI_SUM, w), NULL, 0,
              "exscan zero count, same buffer");
}

static void neighbors(void)
{
    int buf[8 * MAXN] = {0}, c[2] = {1, 1}, c2[2] = {2, 2}, d[2] = {0, 2};
    int dr[2] = {1, 3}, dims[1] = {0}, periods[1] = {1};
    MPI_Aint ad[2] = {0, 2 * sizeof(int)}, adr[2] = {sizeof(int),
                                                     3 * sizeof(int)};
    MPI_Count cc[2] = {1, 1};
    MPI_Aint cd[2] = {0, 1};
    MPI_Datatype t[2] = {MPI_INT, MPI_INT};
    MPI_Comm ring;
    MPI_Request req;
    int left, right;

    MPI_Dims_create(size, 1, dims);
    MPI_Cart_create(w, 1, dims, periods, 0, &ring);
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    MPI_Cart_shift(ring, 0, 1, &left, &right);
    expect_buf(MPI_Neighbor_allgather(&buf[1], 1, MPI_INT, buf, 1, MPI_INT,
                                      ring), "neighbor_allgather");
    expect_buf(MPI_Ineighbor_allgatherv(buf, 1, MPI_INT, buf, c, d, MPI_INT,
                                        ring, &req), "ineighbor_allgatherv");
    expect_buf(MPI_Neighbor_alltoall_init(buf, 1, MPI_INT, &buf[1], 1,
                                          MPI_INT, ring, MPI_INFO_NULL,
                                          &req), "neighbor_alltoall_init");
    expect_buf(MPI_Neighbor_alltoallv(buf, c2, d, MPI_INT, buf, c, dr,
                                      MPI_INT, ring), "neighbor_alltoallv");
    expect_buf(MPI_Neighbor_alltoallw(buf, c2, ad, t, buf, c, adr, t, ring),
               "neighbor_alltoallw");
    expect_buf(MPI_Neighbor_allgather_c(&buf[1], 1, MPI_INT, buf, 1, MPI_INT,
                                        ring), "neighbor_allgather_c");
    expect_buf(MPI_Neighbor_alltoallv_c(buf, cc, cd, MPI_INT, buf, cc, cd,
                                        MPI_INT, ring),
               "neighbor_alltoallv_c");
    /* interleaved blocks: sends at 0 and 2, receives at 1 and 3 */
    buf[0] = 10 * rank;        /* to the left neighbour */
    buf[2] = 10 * rank + 1;    /* to the right one */
    buf[1] = buf[3] = -1;
    expect_ok(MPI_Neighbor_alltoallv(buf, c, d, MPI_INT, buf, c, dr, MPI_INT,
                                     ring), NULL, 0,
              "neighbor_alltoallv interleaved");
    MT_CHECK(buf[1] == 10 * left + 1 && buf[3] == 10 * right,
             "from left %d, from right %d", buf[1], buf[3]);
    buf[4] = rank;
    expect_ok(MPI_Ineighbor_allgather(&buf[4], 1, MPI_INT, buf, 1, MPI_INT,
                                      ring, &req), &req, 0,
              "ineighbor_allgather adjacent");
    MT_CHECK(buf[0] == left && buf[1] == right, "got %d %d", buf[0], buf[1]);
    MPI_Comm_free(&ring);
}

int main(int argc, char **argv)
{
    int x;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(w, &rank);
    MPI_Comm_size(w, &size);
    if (size > MAXN)
        return mt_finish();
    MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN);
    gathers();
    alltoalls();
    reductions();
    neighbors();
    /* still in step: one more collective with a known answer */
    x = rank;
    MT_CHECK_RC(MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, w));
    MT_CHECK(x == size * (size - 1) / 2, "final sum %d", x);
    return mt_finish();
}
