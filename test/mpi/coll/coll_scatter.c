/* MPI_Scatter and MPI_Scatterv: every root, sizes 0..1.2 MiB per rank,
 * blocking / nonblocking / persistent (restarted), MPI_IN_PLACE, a
 * strided send type, uneven and zero scatterv counts.  The algorithm
 * comes from UCMPI_SCATTER_ALGORITHM (the list forces each in turn). */
#include "coll_xfer.h"

static int rank, size;

static void test_scatter(int count, int root, int f, int inplace)
{
    int *sbuf = xalloc(sizeof(int) * (size_t)count * size);
    int *rbuf = xalloc(sizeof(int) * (size_t)count);
    MPI_Request req = MPI_REQUEST_NULL;
    char what[96];

    snprintf(what, sizeof(what), "scatter count=%d root=%d %s%s", count,
             root, xform_name[f], inplace ? " in-place" : "");
    for (int g = 0; g < xreps(f); g++) {
        void *rb = inplace && rank == root ? MPI_IN_PLACE : rbuf;
        for (int r = 0; r < size; r++)
            for (int i = 0; i < count; i++)
                sbuf[(size_t)r * count + i] = xv(root, r, i, g);
        for (int i = 0; i < count; i++)
            rbuf[i] = -1;
        XRUN(f, g, req,
             MPI_Scatter(sbuf, count, MPI_INT, rb, count, MPI_INT, root,
                         MPI_COMM_WORLD),
             MPI_Iscatter(sbuf, count, MPI_INT, rb, count, MPI_INT, root,
                          MPI_COMM_WORLD, &req),
             MPI_Scatter_init(sbuf, count, MPI_INT, rb, count, MPI_INT, root,
                              MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        if (inplace && rank == root) {
            for (int r = 0; r < size; r++)   /* send buffer untouched */
                XCHECK_BLOCK(sbuf + (size_t)r * count, count, 1, root, r, g,
                             what);
        } else {
            XCHECK_BLOCK(rbuf, count, 1, root, rank, g, what);
        }
    }
    xfree_req(f, &req);
    free(sbuf);
    free(rbuf);
}

/* root sends from a strided type: every other int */
static void test_scatter_strided(int count, int root)
{
    MPI_Datatype vec, svec;
    int *sbuf = xalloc(sizeof(int) * 2 * (size_t)count * size);
    int *rbuf = xalloc(sizeof(int) * (size_t)count);

    MT_CHECK_RC(MPI_Type_vector(count, 1, 2, MPI_INT, &vec));
    MT_CHECK_RC(MPI_Type_create_resized(vec, 0,
                                        (MPI_Aint)(2 * count * sizeof(int)),
                                        &svec));
    MT_CHECK_RC(MPI_Type_commit(&svec));
    for (int r = 0; r < size; r++)
        for (int i = 0; i < count; i++) {
            sbuf[(size_t)r * 2 * count + 2 * i] = xv(root, r, i, 0);
            sbuf[(size_t)r * 2 * count + 2 * i + 1] = -7;
        }
    MT_CHECK_RC(MPI_Scatter(sbuf, 1, svec, rbuf, count, MPI_INT, root,
                            MPI_COMM_WORLD));
    XCHECK_BLOCK(rbuf, count, 1, root, rank, 0, "scatter strided");
    MPI_Type_free(&vec);
    MPI_Type_free(&svec);
    free(sbuf);
    free(rbuf);
}

/* scatterv: rank r gets (r * 5 + base) % 6 ints, taken in reverse rank
 * order with gaps from the root's buffer */
static void test_scatterv(int base, int root, int f, int inplace)
{
    int *counts = xalloc(sizeof(int) * size), *displs = xalloc(sizeof(int) * size);
    int total = 0, mine;
    MPI_Request req = MPI_REQUEST_NULL;
    char what[96];

    for (int r = size - 1; r >= 0; r--) {
        counts[r] = (r * 5 + base) % 6;
        displs[r] = total;
        total += counts[r] + 2;
    }
    mine = counts[rank];
    int *sbuf = xalloc(sizeof(int) * (size_t)total);
    int *rbuf = xalloc(sizeof(int) * (size_t)(mine + 1));
    snprintf(what, sizeof(what), "scatterv base=%d root=%d %s%s", base, root,
             xform_name[f], inplace ? " in-place" : "");
    for (int g = 0; g < xreps(f); g++) {
        void *rb = inplace && rank == root ? MPI_IN_PLACE : rbuf;
        for (int r = 0; r < size; r++)
            for (int i = 0; i < counts[r]; i++)
                sbuf[displs[r] + i] = xv(root, r, i, g);
        for (int i = 0; i <= mine; i++)
            rbuf[i] = -1;
        XRUN(f, g, req,
             MPI_Scatterv(sbuf, counts, displs, MPI_INT, rb, mine, MPI_INT,
                          root, MPI_COMM_WORLD),
             MPI_Iscatterv(sbuf, counts, displs, MPI_INT, rb, mine, MPI_INT,
                           root, MPI_COMM_WORLD, &req),
             MPI_Scatterv_init(sbuf, counts, displs, MPI_INT, rb, mine,
                               MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL,
                               &req));
        if (!(inplace && rank == root)) {
            XCHECK_BLOCK(rbuf, mine, 1, root, rank, g, what);
            MT_CHECK(rbuf[mine] == -1, "%s: wrote past the block", what);
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
                test_scatter(xsizes[si], root, f, 0);
            test_scatter(xsizes[si], root, F_BLOCKING, 1);
            test_scatter(xsizes[si], root, F_NONBLOCKING, 1);
        }
    }
    test_scatter_strided(3, 0);
    test_scatter_strided(2000, size / 2);
    for (int root = 0; root < size; root++)
        for (int f = 0; f < F_NFORMS; f++) {
            test_scatterv(root, root, f, 0);
            test_scatterv(root + 2, root, f, 1);
        }
    return mt_finish();
}
