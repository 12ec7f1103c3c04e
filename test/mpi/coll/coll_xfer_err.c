/* Bad arguments to gather/scatter/allgather/alltoall/neighbor calls get
 * the standard's error class under MPI_ERRORS_RETURN, and the library
 * stays usable (a correct collective runs after each).  Every case is
 * detected on every rank, or (the root's own block) the collective still
 * runs for the other ranks, so no rank is left waiting. */
#include "coll_xfer.h"

static int rank, size;

static void expect(int rc, int cls, const char *what)
{
    int got = MPI_SUCCESS;

    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &got);
    MT_CHECK(got == cls, "%s: error class %d, want %d", what, got, cls);
}

int main(int argc, char **argv)
{
    int sb[64] = {0}, rb[64 * 16] = {0}, counts[64], displs[64];
    MPI_Datatype types[64], unc;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Comm w = MPI_COMM_WORLD;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(w, &rank);
    MPI_Comm_size(w, &size);
    if (size > 16)
        return mt_finish();
    MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN);
    for (int i = 0; i < size; i++) {
        counts[i] = 1;
        displs[i] = i;
        types[i] = MPI_INT;
    }
    /* bad roots */
    expect(MPI_Gather(sb, 1, MPI_INT, rb, 1, MPI_INT, size, w), MPI_ERR_ROOT,
           "gather root=size");
    expect(MPI_Scatter(sb, 1, MPI_INT, rb, 1, MPI_INT, -1, w), MPI_ERR_ROOT,
           "scatter root=-1");
    expect(MPI_Igatherv(sb, 1, MPI_INT, rb, counts, displs, MPI_INT,
                        MPI_ROOT, w, &req), MPI_ERR_ROOT,
           "igatherv root=MPI_ROOT on an intracomm");
    expect(MPI_Scatterv_init(sb, counts, displs, MPI_INT, rb, 1, MPI_INT,
                             size + 3, w, MPI_INFO_NULL, &req), MPI_ERR_ROOT,
           "scatterv_init bad root");
    /* negative counts */
    expect(MPI_Allgather(sb, -1, MPI_INT, rb, 1, MPI_INT, w), MPI_ERR_COUNT,
           "allgather sendcount=-1");
    expect(MPI_Alltoall(sb, 1, MPI_INT, rb, -2, MPI_INT, w), MPI_ERR_COUNT,
           "alltoall recvcount=-2");
    counts[size - 1] = -1;
    expect(MPI_Alltoallv(sb, counts, displs, MPI_INT, rb, counts, displs,
                         MPI_INT, w), MPI_ERR_COUNT, "alltoallv count -1");
    expect(MPI_Allgatherv(sb, 1, MPI_INT, rb, counts, displs, MPI_INT, w),
           MPI_ERR_COUNT, "allgatherv count -1");
    counts[size - 1] = 1;
    /* bad types */
    expect(MPI_Allgather(sb, 1, MPI_DATATYPE_NULL, rb, 1, MPI_INT, w),
           MPI_ERR_TYPE, "allgather null type");
    MPI_Type_contiguous(2, MPI_INT, &unc);
    expect(MPI_Alltoall(sb, 1, unc, rb, 2, MPI_INT, w), MPI_ERR_TYPE,
           "alltoall uncommitted type");
    types[0] = unc;
    expect(MPI_Alltoallw(sb, counts, displs, types, rb, counts, displs,
                         types, w), MPI_ERR_TYPE, "alltoallw uncommitted");
    types[0] = MPI_INT;
    MPI_Type_free(&unc);
    /* MPI_IN_PLACE where not allowed */
    expect(MPI_Allgather(sb, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, w),
           MPI_ERR_BUFFER, "allgather recvbuf in place");
    expect(MPI_Alltoall(sb, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, w),
           MPI_ERR_BUFFER, "alltoall recvbuf in place");
    expect(MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, rb, 1, MPI_INT,
                      (rank + 1) % size == rank ? size : (rank + 1) % size,
                      w), size == 1 ? MPI_ERR_ROOT : MPI_ERR_BUFFER,
           "gather in place on a non-root");
    expect(MPI_Scatter(MPI_IN_PLACE, 1, MPI_INT, rb, 1, MPI_INT, rank, w),
           MPI_ERR_BUFFER, "scatter sendbuf in place at the root");
    expect(MPI_Neighbor_allgather(MPI_IN_PLACE, 1, MPI_INT, rb, 1, MPI_INT,
                                  w), MPI_ERR_BUFFER,
           "neighbor_allgather in place");
    /* counts that do not add up, seen locally */
    expect(MPI_Allgather(sb, 2, MPI_INT, rb, 1, MPI_INT, w),
           MPI_ERR_TRUNCATE, "allgather sends 2 receives 1");
    expect(MPI_Alltoall(sb, 1, MPI_INT, rb, 2, MPI_INT, w), MPI_ERR_COUNT,
           "alltoall sends 1 receives 2");
    /* only the root sees its own block's mismatch; the other blocks still
     * move: ints into the root's double slots, and a double
     * into each int receive (truncated there too) */
    expect(MPI_Gather(sb, 1, MPI_INT, rb, 1, MPI_DOUBLE, 0, w),
           rank == 0 ? MPI_ERR_COUNT : MPI_SUCCESS,
           "gather root receives more than it sends");
    expect(MPI_Scatterv(sb, counts, displs, MPI_DOUBLE, rb, 1, MPI_INT, 0,
                        w), MPI_ERR_TRUNCATE, "scatterv root mismatch");
    /* no topology */
    expect(MPI_Neighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, w),
           MPI_ERR_TOPOLOGY, "neighbor_alltoall without topology");
    /* null request, null communicator */
    expect(MPI_Ialltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, w, NULL),
           MPI_ERR_REQUEST, "ialltoall request NULL");
    expect(MPI_Allgather(sb, 1, MPI_INT, rb, 1, MPI_INT, MPI_COMM_NULL),
           MPI_ERR_COMM, "allgather MPI_COMM_NULL");
    /* still usable */
    sb[0] = rank;
    MT_CHECK_RC(MPI_Allgather(sb, 1, MPI_INT, rb, 1, MPI_INT, w));
    for (int i = 0; i < size; i++)
        MT_CHECK(rb[i] == i, "allgather after errors: %d", rb[i]);
    return mt_finish();
}
