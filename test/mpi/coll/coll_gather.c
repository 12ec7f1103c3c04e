/* MPI_Gather and MPI_Gatherv: every root, sizes 0..1.2 MiB per rank,
 * blocking / nonblocking / persistent (restarted), MPI_IN_PLACE, a
 * strided receive type, uneven and zero gatherv counts.  The algorithm
 * comes from UCMPI_GATHER_ALGORITHM (the list forces each in turn). */
#include "coll_xfer.h"

static int rank, size;

static void test_gather(int count, int root, int f, int inplace)
{
    int *sbuf = xalloc(sizeof(int) * (size_t)count);
    int *rbuf = xalloc(sizeof(int) * (size_t)count * size);
    MPI_Request req = MPI_REQUEST_NULL;
    char what[96];

    snprintf(what, sizeof(what), "gather count=%d root=%d %s%s", count, root,
             xform_name[f], inplace ? " in-place" : "");
    for (int g = 0; g < xreps(f); g++) {
        const void *sb = inplace && rank == root ? MPI_IN_PLACE : sbuf;
        for (int i = 0; i < count; i++)
            sbuf[i] = xv(rank, root, i, g);
        for (size_t i = 0; i < (size_t)count * size; i++)
            rbuf[i] = -1;
        if (inplace && rank == root)
            memcpy(rbuf + (size_t)root * count, sbuf, sizeof(int) * count);
        XRUN(f, g, req,
             MPI_Gather(sb, count, MPI_INT, rbuf, count, MPI_INT, root,
                        MPI_COMM_WORLD),
             MPI_Igather(sb, count, MPI_INT, rbuf, count, MPI_INT, root,
                         MPI_COMM_WORLD, &req),
             MPI_Gather_init(sb, count, MPI_INT, rbuf, count, MPI_INT, root,
                             MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        if (rank == root)
            for (int r = 0; r < size; r++)
                XCHECK_BLOCK(rbuf + (size_t)r * count, count, 1, r, root, g,
                             what);
    }
    xfree_req(f, &req);
    free(sbuf);
    free(rbuf);
}

/* root receives into a strided type: every other int */
static void test_gather_strided(int count, int root)
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
        sbuf[i] = xv(rank, root, i, 0);
    for (size_t i = 0; i < 2 * (size_t)count * size; i++)
        rbuf[i] = -1;
    MT_CHECK_RC(MPI_Gather(sbuf, count, MPI_INT, rbuf, 1, rvec, root,
                           MPI_COMM_WORLD));
    if (rank == root)
        for (int r = 0; r < size; r++)
            XCHECK_BLOCK(rbuf + (size_t)r * 2 * count, count, 2, r, root, 0,
                         "gather strided");
    MPI_Type_free(&vec);
    MPI_Type_free(&rvec);
    free(sbuf);
    free(rbuf);
}

/* gatherv: rank r sends (r * 3 + base) % 7 ints (zeros included), the
 * root stores them in reverse rank order */
static void test_gatherv(int base, int root, int f, int inplace)
{
    int *counts = xalloc(sizeof(int) * size), *displs = xalloc(sizeof(int) * size);
    int total = 0, mine;
    MPI_Request req = MPI_REQUEST_NULL;
    char what[96];

    for (int r = size - 1; r >= 0; r--) {
        counts[r] = (r * 3 + base) % 7;
        displs[r] = total;
        total += counts[r] + 1;   /* gaps stay untouched */
    }
    mine = counts[rank];
    int *sbuf = xalloc(sizeof(int) * (size_t)(mine + 1));
    int *rbuf = xalloc(sizeof(int) * (size_t)(total + 1));
    snprintf(what, sizeof(what), "gatherv base=%d root=%d %s%s", base, root,
             xform_name[f], inplace ? " in-place" : "");
    for (int g = 0; g < xreps(f); g++) {
        const void *sb = inplace && rank == root ? MPI_IN_PLACE : sbuf;
        for (int i = 0; i < mine; i++)
            sbuf[i] = xv(rank, root, i, g);
        for (int i = 0; i < total; i++)
            rbuf[i] = -1;
        if (inplace && rank == root)
            memcpy(rbuf + displs[root], sbuf, sizeof(int) * mine);
        XRUN(f, g, req,
             MPI_Gatherv(sb, mine, MPI_INT, rbuf, counts, displs, MPI_INT,
                         root, MPI_COMM_WORLD),
             MPI_Igatherv(sb, mine, MPI_INT, rbuf, counts, displs, MPI_INT,
                          root, MPI_COMM_WORLD, &req),
             MPI_Gatherv_init(sb, mine, MPI_INT, rbuf, counts, displs,
                              MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL,
                              &req));
        if (rank == root)
            for (int r = 0; r < size; r++) {
                XCHECK_BLOCK(rbuf + displs[r], counts[r], 1, r, root, g, what);
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
    for (int si = 0; si < XNSIZES; si++) {
        int big = xsizes[si] > 10000;
        for (int root = 0; root < size; root++) {
            if (big && root != size - 1)
                continue;
            for (int f = 0; f < F_NFORMS; f++)
                test_gather(xsizes[si], root, f, 0);
            test_gather(xsizes[si], root, F_BLOCKING, 1);
            test_gather(xsizes[si], root, F_NONBLOCKING, 1);
        }
    }
    test_gather_strided(3, 0);
    test_gather_strided(2000, size / 2);
    for (int root = 0; root < size; root++)
        for (int f = 0; f < F_NFORMS; f++) {
            test_gatherv(root, root, f, 0);
            test_gatherv(root + 1, root, f, 1);
        }
    return mt_finish();
}
