/* MPI_Allgather and MPI_Allgatherv: sizes 0..1.2 MiB per rank, blocking /
 * nonblocking / persistent (restarted), MPI_IN_PLACE, a strided receive
 * type, uneven and zero allgatherv counts.  Algorithms come from
 * UCMPI_ALLGATHER_ALGORITHM / UCMPI_ALLGATHERV_ALGORITHM (forced in turn
 * by the list, XTEST_PART=uniform|v picks the part). */
#include "coll_xfer.h"

static int rank, size;

static void test_allgather(int count, int f, int inplace)
{
    int *sbuf = xalloc(sizeof(int) * (size_t)count);
    int *rbuf = xalloc(sizeof(int) * (size_t)count * size);
    MPI_Request req = MPI_REQUEST_NULL;
    char what[96];

    snprintf(what, sizeof(what), "allgather count=%d %s%s", count,
             xform_name[f], inplace ? " in-place" : "");
    for (int g = 0; g < xreps(f); g++) {
        const void *sb = inplace ? MPI_IN_PLACE : sbuf;
        for (int i = 0; i < count; i++)
            sbuf[i] = xv(rank, 0, i, g);
        for (size_t i = 0; i < (size_t)count * size; i++)
            rbuf[i] = -1;
        if (inplace)
            memcpy(rbuf + (size_t)rank * count, sbuf, sizeof(int) * count);
        XRUN(f, g, req,
             MPI_Allgather(sb, count, MPI_INT, rbuf, count, MPI_INT,
                           MPI_COMM_WORLD),
             MPI_Iallgather(sb, count, MPI_INT, rbuf, count, MPI_INT,
                            MPI_COMM_WORLD, &req),
             MPI_Allgather_init(sb, count, MPI_INT, rbuf, count, MPI_INT,
                                MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        for (int r = 0; r < size; r++)
            XCHECK_BLOCK(rbuf + (size_t)r * count, count, 1, r, 0, g, what);
    }
    xfree_req(f, &req);
    free(sbuf);
    free(rbuf);
}

static void test_allgather_strided(int count)
{
    MPI_Datatype vec, rvec;
    int *sbuf = xalloc(sizeof(int) * (size_t)count);
    int *rbuf = xalloc(sizeof(int) * 2 * (size_t)count * size);

    MT_CHECK_RC(MPI_Type_vector(count, 1, 2, MPI_INT, &vec));
    MT_CHECK_RC(MPI_Type_create_resized(vec, 0,
                                        (MPI_Aint)(2 * count * sizeof(int)),
                                        &rvec));
    MT_CHECK_RC(MPI_Type_commit(&rvec));
    for (int i = 0; i < count; i++)
        sbuf[i] = xv(rank, 0, i, 0);
    MT_CHECK_RC(MPI_Allgather(sbuf, count, MPI_INT, rbuf, 1, rvec,
                              MPI_COMM_WORLD));
    for (int r = 0; r < size; r++)
        XCHECK_BLOCK(rbuf + (size_t)r * 2 * count, count, 2, r, 0, 0,
                     "allgather strided");
    /* and in place with the strided type */
    for (int r = 0; r < size; r++)
        for (int i = 0; i < count; i++)
            rbuf[(size_t)r * 2 * count + 2 * i] = r == rank ? xv(r, 0, i, 1)
                                                            : -1;
    MT_CHECK_RC(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rbuf, 1,
                              rvec, MPI_COMM_WORLD));
    for (int r = 0; r < size; r++)
        XCHECK_BLOCK(rbuf + (size_t)r * 2 * count, count, 2, r, 0, 1,
                     "allgather strided in-place");
    MPI_Type_free(&vec);
    MPI_Type_free(&rvec);
    free(sbuf);
    free(rbuf);
}

/* allgatherv: rank r contributes (r * scale + base) % mod ints, stored in
 * reverse rank order with gaps */
static void test_allgatherv(int base, int scale, int mod, int f, int inplace)
{
    int *counts = xalloc(sizeof(int) * size), *displs = xalloc(sizeof(int) * size);
    int total = 0, mine;
    MPI_Request req = MPI_REQUEST_NULL;
    char what[128];

    for (int r = size - 1; r >= 0; r--) {
        counts[r] = (r * scale + base) % mod;
        displs[r] = total;
        total += counts[r] + 1;
    }
    mine = counts[rank];
    int *sbuf = xalloc(sizeof(int) * (size_t)(mine + 1));
    int *rbuf = xalloc(sizeof(int) * (size_t)(total + 1));
    snprintf(what, sizeof(what), "allgatherv base=%d scale=%d mod=%d %s%s",
             base, scale, mod, xform_name[f], inplace ? " in-place" : "");
    for (int g = 0; g < xreps(f); g++) {
        const void *sb = inplace ? MPI_IN_PLACE : sbuf;
        for (int i = 0; i < mine; i++)
            sbuf[i] = xv(rank, 0, i, g);
        for (int i = 0; i < total; i++)
            rbuf[i] = -1;
        if (inplace)
            memcpy(rbuf + displs[rank], sbuf, sizeof(int) * mine);
        XRUN(f, g, req,
             MPI_Allgatherv(sb, mine, MPI_INT, rbuf, counts, displs, MPI_INT,
                            MPI_COMM_WORLD),
             MPI_Iallgatherv(sb, mine, MPI_INT, rbuf, counts, displs,
                             MPI_INT, MPI_COMM_WORLD, &req),
             MPI_Allgatherv_init(sb, mine, MPI_INT, rbuf, counts, displs,
                                 MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                                 &req));
        for (int r = 0; r < size; r++) {
            XCHECK_BLOCK(rbuf + displs[r], counts[r], 1, r, 0, g, what);
            MT_CHECK(rbuf[displs[r] + counts[r]] == -1, "%s: gap after "
                     "block %d overwritten", what, r);
        }
    }
    xfree_req(f, &req);
    free(sbuf);
    free(rbuf);
    free(counts);
    free(displs);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (xpart("uniform")) {
        for (int si = 0; si < XNSIZES; si++) {
            int big = xsizes[si] > 10000;
            for (int f = 0; f < F_NFORMS; f++)
                if (!big || f != F_PERSISTENT)
                    test_allgather(xsizes[si], f, 0);
            test_allgather(xsizes[si], F_BLOCKING, 1);
        }
        test_allgather_strided(3);
        test_allgather_strided(2000);
    }
    if (xpart("v"))
        for (int f = 0; f < F_NFORMS; f++) {
            test_allgatherv(0, 3, 7, f, 0);
            test_allgatherv(1, 3, 7, f, 1);
            test_allgatherv(0, 1, 1, f, 0);            /* all zero */
            test_allgatherv(5, 40000, 90001, f, 0);    /* large, uneven */
        }
    return mt_finish();
}
