/* MPI_Alltoall, MPI_Alltoallv, MPI_Alltoallw: sizes 0..1.2 MiB per block,
 * blocking / nonblocking / persistent (restarted), MPI_IN_PLACE, strided
 * types, MoE-like alltoallv (very uneven, mostly zero, one hot rank).
 * Algorithms from UCMPI_ALLTOALL_ALGORITHM / UCMPI_ALLTOALLV_ALGORITHM
 * (forced in turn by the list; XTEST_PART=uniform|v picks the part). */
#include "coll_xfer.h"

static int rank, size;

static void test_alltoall(int count, int f, int inplace)
{
    size_t n = (size_t)count * size;
    int *sbuf = xalloc(sizeof(int) * n), *rbuf = xalloc(sizeof(int) * n);
    MPI_Request req = MPI_REQUEST_NULL;
    char what[96];

    snprintf(what, sizeof(what), "alltoall count=%d %s%s", count,
             xform_name[f], inplace ? " in-place" : "");
    for (int g = 0; g < xreps(f); g++) {
        const void *sb = inplace ? MPI_IN_PLACE : sbuf;
        int *fill = inplace ? rbuf : sbuf;
        for (int d = 0; d < size; d++)
            for (int i = 0; i < count; i++)
                fill[(size_t)d * count + i] = xv(rank, d, i, g);
        if (!inplace)
            for (size_t i = 0; i < n; i++)
                rbuf[i] = -1;
        XRUN(f, g, req,
             MPI_Alltoall(sb, count, MPI_INT, rbuf, count, MPI_INT,
                          MPI_COMM_WORLD),
             MPI_Ialltoall(sb, count, MPI_INT, rbuf, count, MPI_INT,
                           MPI_COMM_WORLD, &req),
             MPI_Alltoall_init(sb, count, MPI_INT, rbuf, count, MPI_INT,
                               MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        for (int s = 0; s < size; s++)
            XCHECK_BLOCK(rbuf + (size_t)s * count, count, 1, s, rank, g,
                         what);
    }
    xfree_req(f, &req);
    free(sbuf);
    free(rbuf);
}

/* one side every other int (vector type), the other contiguous: the
 * receive side (send_strided 0) or the send side (1) */
static void test_alltoall_strided(int count, int send_strided)
{
    MPI_Datatype vec, svec;
    size_t n = (size_t)count * size;
    int *cbuf = xalloc(sizeof(int) * n), *vbuf = xalloc(sizeof(int) * 2 * n);
    int *sbuf = send_strided ? vbuf : cbuf, *rbuf = send_strided ? cbuf
                                                                 : vbuf;

    MT_CHECK_RC(MPI_Type_vector(count, 1, 2, MPI_INT, &vec));
    MT_CHECK_RC(MPI_Type_create_resized(vec, 0,
                                        (MPI_Aint)(2 * count * sizeof(int)),
                                        &svec));
    MT_CHECK_RC(MPI_Type_commit(&svec));
    for (int d = 0; d < size; d++)
        for (int i = 0; i < count; i++)
            sbuf[send_strided ? ((size_t)d * count + i) * 2
                              : (size_t)d * count + i] = xv(rank, d, i, 0);
    if (send_strided)
        MT_CHECK_RC(MPI_Alltoall(sbuf, 1, svec, rbuf, count, MPI_INT,
                                 MPI_COMM_WORLD));
    else
        MT_CHECK_RC(MPI_Alltoall(sbuf, count, MPI_INT, rbuf, 1, svec,
                                 MPI_COMM_WORLD));
    for (int s = 0; s < size; s++)
        XCHECK_BLOCK(rbuf + (size_t)s * (send_strided ? 1 : 2) * count,
                     count, send_strided ? 1 : 2, s, rank, 0,
                     send_strided ? "alltoall strided send"
                                  : "alltoall strided receive");
    MPI_Type_free(&vec);
    MPI_Type_free(&svec);
    free(cbuf);
    free(vbuf);
}

/* MoE-like counts: mostly zero, some small, a hot destination (rank 0
 * gets a lot from everyone) and one heavy pair */
static int moe_count(int src, int dst, int pattern)
{
    unsigned h = (unsigned)(src * 7919 + dst * 104729 + pattern * 31);
    h ^= h >> 7;
    if (pattern == 0)
        return (src * 3 + dst) % 4;          /* small, some zeros */
    if (dst == 0)
        return 20000 + (int)(h % 5000);       /* hot expert */
    if (src == 1 && dst == size - 1)
        return 150000;                        /* heavy pair */
    return h % 5 == 0 ? (int)(h % 3000) : 0;
}

static void test_alltoallv(int pattern, int f, int inplace, int w)
{
    int *sc = xalloc(sizeof(int) * size), *sd = xalloc(sizeof(int) * size);
    int *rc = xalloc(sizeof(int) * size), *rd = xalloc(sizeof(int) * size);
    MPI_Datatype *st = xalloc(sizeof(MPI_Datatype) * size);
    MPI_Datatype *rt = xalloc(sizeof(MPI_Datatype) * size);
    int stot = 0, rtot = 0;
    MPI_Request req = MPI_REQUEST_NULL;
    char what[96];

    if (inplace)   /* in place needs symmetric counts */
        for (int p = 0; p < size; p++)
            sc[p] = rc[p] = moe_count(rank < p ? rank : p,
                                      rank < p ? p : rank, pattern);
    else
        for (int p = 0; p < size; p++) {
            sc[p] = moe_count(rank, p, pattern);
            rc[p] = moe_count(p, rank, pattern);
        }
    for (int p = size - 1; p >= 0; p--) {   /* reverse order, gaps */
        sd[p] = stot;
        stot += sc[p] + 1;
        rd[p] = rtot;
        rtot += rc[p] + 1;
    }
    int *sbuf = xalloc(sizeof(int) * (size_t)stot);
    int *rbuf = xalloc(sizeof(int) * (size_t)rtot);
    int sdb[64], rdb[64];
    for (int p = 0; p < size && p < 64; p++) {
        sdb[p] = sd[p] * (int)sizeof(int);
        rdb[p] = rd[p] * (int)sizeof(int);
        st[p] = rt[p] = MPI_INT;
    }
    snprintf(what, sizeof(what), "alltoall%s pattern=%d %s%s", w ? "w" : "v",
             pattern, xform_name[f], inplace ? " in-place" : "");
    for (int g = 0; g < xreps(f); g++) {
        const void *sb = inplace ? MPI_IN_PLACE : sbuf;
        int *fill = inplace ? rbuf : sbuf;
        int *fd = inplace ? rd : sd;
        for (int i = 0; i < rtot; i++)
            rbuf[i] = -1;
        for (int p = 0; p < size; p++)
            for (int i = 0; i < sc[p]; i++)
                fill[fd[p] + i] = xv(rank, p, i, g);
        if (w)
            XRUN(f, g, req,
                 MPI_Alltoallw(sb, sc, sdb, st, rbuf, rc, rdb, rt,
                               MPI_COMM_WORLD),
                 MPI_Ialltoallw(sb, sc, sdb, st, rbuf, rc, rdb, rt,
                                MPI_COMM_WORLD, &req),
                 MPI_Alltoallw_init(sb, sc, sdb, st, rbuf, rc, rdb, rt,
                                    MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        else
            XRUN(f, g, req,
                 MPI_Alltoallv(sb, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT,
                               MPI_COMM_WORLD),
                 MPI_Ialltoallv(sb, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT,
                                MPI_COMM_WORLD, &req),
                 MPI_Alltoallv_init(sb, sc, sd, MPI_INT, rbuf, rc, rd,
                                    MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                                    &req));
        for (int p = 0; p < size; p++) {
            XCHECK_BLOCK(rbuf + rd[p], rc[p], 1, p, rank, g, what);
            MT_CHECK(rbuf[rd[p] + rc[p]] == -1, "%s: gap after block %d "
                     "overwritten", what, p);
        }
    }
    xfree_req(f, &req);
    free(sbuf);
    free(rbuf);
    free(sc), free(sd), free(rc), free(rd), free(st), free(rt);
}

/* alltoallw with a different receive type per peer: odd peers land
 * strided (every other int) */
static void test_alltoallw_types(int count)
{
    MPI_Datatype spread;
    int *sc = xalloc(sizeof(int) * size), *sd = xalloc(sizeof(int) * size);
    int *rc = xalloc(sizeof(int) * size), *rd = xalloc(sizeof(int) * size);
    MPI_Datatype *st = xalloc(sizeof(MPI_Datatype) * size);
    MPI_Datatype *rt = xalloc(sizeof(MPI_Datatype) * size);
    int *sbuf = xalloc(sizeof(int) * (size_t)count * size);
    int *rbuf = xalloc(sizeof(int) * 2 * (size_t)count * size);

    MT_CHECK_RC(MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &spread));
    MT_CHECK_RC(MPI_Type_commit(&spread));
    for (int p = 0; p < size; p++) {
        sc[p] = rc[p] = count;
        sd[p] = p * count * (int)sizeof(int);
        rd[p] = p * 2 * count * (int)sizeof(int);
        st[p] = MPI_INT;
        rt[p] = p % 2 ? spread : MPI_INT;
        for (int i = 0; i < count; i++)
            sbuf[(size_t)p * count + i] = xv(rank, p, i, 0);
    }
    MT_CHECK_RC(MPI_Alltoallw(sbuf, sc, sd, st, rbuf, rc, rd, rt,
                              MPI_COMM_WORLD));
    for (int p = 0; p < size; p++)
        XCHECK_BLOCK(rbuf + (size_t)p * 2 * count, count, p % 2 ? 2 : 1, p,
                     rank, 0, "alltoallw types");
    MPI_Type_free(&spread);
    free(sbuf), free(rbuf);
    free(sc), free(sd), free(rc), free(rd), free(st), free(rt);
}

int main(int argc, char **argv)
{
    static const int a2a_sizes[] = {0, 1, 5, 60, 1000, 33000};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (xpart("uniform")) {
        for (int si = 0; si < 6; si++) {
            for (int f = 0; f < F_NFORMS; f++)
                test_alltoall(a2a_sizes[si], f, 0);
            test_alltoall(a2a_sizes[si], F_BLOCKING, 1);
        }
        test_alltoall(300000, F_BLOCKING, 0);
        /* many shm chunks (in place; non-contiguous receive side) */
        test_alltoall(300000, F_BLOCKING, 1);
        for (int sv = 0; sv < 2; sv++) {
            test_alltoall_strided(3, sv);
            test_alltoall_strided(3000, sv);
            test_alltoall_strided(100000, sv);
        }
    }
    if (xpart("v") && size <= 64)
        for (int f = 0; f < F_NFORMS; f++)
            for (int pattern = 0; pattern < 2; pattern++)
                for (int w = 0; w < 2; w++) {
                    test_alltoallv(pattern, f, 0, w);
                    test_alltoallv(pattern, f, 1, w);
                }
    if (xpart("v")) {
        test_alltoallw_types(1);
        test_alltoallw_types(5000);
    }
    return mt_finish();
}
