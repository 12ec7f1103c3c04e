/* Bad input to the reduction-type collectives returns the standard's
 * error class under MPI_ERRORS_RETURN, and the library stays usable. */
#include "coll_common.h"

static void expect_class(int rc, int cls, const char *what)
{
    int got = -1;
    MPI_Error_class(rc, &got);
    MT_CHECK(got == cls, "%s: class %d, expected %d", what, got, cls);
}

int main(int argc, char **argv)
{
    int rank, size, a[4] = {1, 2, 3, 4}, b[4], counts[64];
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    expect_class(MPI_Bcast(a, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT,
                 "bcast root out of range");
    expect_class(MPI_Bcast(a, 1, MPI_INT, -1, MPI_COMM_WORLD), MPI_ERR_ROOT,
                 "bcast negative root");
    expect_class(MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD),
                 MPI_ERR_BUFFER, "bcast in place");
    expect_class(MPI_Bcast(a, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT,
                 "bcast negative count");
    expect_class(MPI_Bcast(a, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD),
                 MPI_ERR_TYPE, "bcast null type");
    expect_class(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, size + 3, MPI_COMM_WORLD),
                 MPI_ERR_ROOT, "reduce root");
    expect_class(MPI_Allreduce(a, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM,
                               MPI_COMM_WORLD), MPI_ERR_BUFFER,
                 "allreduce recvbuf in place");
    expect_class(MPI_Allreduce(a, b, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD),
                 MPI_ERR_OP, "allreduce null op");
    expect_class(MPI_Allreduce(a, b, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD),
                 MPI_ERR_OP, "allreduce BAND on double");
    expect_class(MPI_Allreduce(a, b, -2, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                 MPI_ERR_COUNT, "allreduce negative count");
    expect_class(MPI_Allreduce(a, a, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                 MPI_ERR_BUFFER, "allreduce aliased buffers");
    expect_class(MPI_Iallreduce(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, NULL),
                 MPI_ERR_REQUEST, "iallreduce null request");
    expect_class(MPI_Scan(a, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                 MPI_ERR_BUFFER, "scan recvbuf in place");
    for (int i = 0; i < size && i < 64; i++)
        counts[i] = i == size - 1 ? -1 : 1;
    expect_class(MPI_Reduce_scatter(a, b, counts, MPI_INT, MPI_SUM,
                                    MPI_COMM_WORLD), MPI_ERR_COUNT,
                 "reduce_scatter negative count");
    expect_class(MPI_Reduce_scatter_block(a, b, -1, MPI_INT, MPI_SUM,
                                          MPI_COMM_WORLD), MPI_ERR_COUNT,
                 "reduce_scatter_block negative count");
    if (size > 1)   /* in place is only for the root */
        expect_class(MPI_Reduce(MPI_IN_PLACE, b, 1, MPI_INT, MPI_SUM,
                                (rank + 1) % size, MPI_COMM_WORLD),
                     MPI_ERR_BUFFER, "reduce in place at a non-root");
    expect_class(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM, "barrier null comm");
    expect_class(MPI_Ibarrier(MPI_COMM_WORLD, NULL), MPI_ERR_REQUEST,
                 "ibarrier null request");

    /* still usable */
    MT_CHECK_RC(MPI_Allreduce(a, b, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    MT_CHECK(b[3] == 4 * size, "allreduce after errors: %d", b[3]);
    MT_CHECK_RC(MPI_Ibarrier(MPI_COMM_WORLD, &req));
    MT_CHECK_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
    return mt_finish();
}
