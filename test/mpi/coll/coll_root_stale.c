/*
 * A scatter root that cannot send (its sendtype is null) sends
 * the others empty messages, which their exact receives turn into an
 * error.  It must send them along the algorithm the others run: when it
 * sent every rank one directly (linear) while the others ran the binomial
 * tree, the ranks that are not the root's children got their empty
 * message from their parent and the root's stayed unmatched.  Collective
 * tags are 24 bits wide, so such a message is received by whatever
 * collective takes the same tag 2^24 collectives later.  This test takes
 * exactly that many (calls that fail at every rank take one each and send
 * nothing), then a scatterv whose receives come straight from the root
 * (linear below 16 ranks) must get its data, not the stale empty message.
 * Run with the binomial scatter forced (3 ranks are enough for the tree to
 * have a rank that is not the root's child: from 4).
 */
#include "../mpitest.h"

enum { N = 4, TAG_SPACE = 1 << 24 };

int main(int argc, char **argv)
{
    int rank, size, rc, cls, sbuf[N * 64], rbuf[N], counts[64], displs[64];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 64) {
        fprintf(stderr, "at most 64 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i < N * size; i++)
        sbuf[i] = 1000 + i;
    /* the root's receive side is fine: it tells the blocks' size */
    rc = MPI_Scatter(sbuf, N, rank == 0 ? MPI_DATATYPE_NULL : MPI_INT, rbuf,
                     N, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    if (rank == 0)
        MT_CHECK(cls == MPI_ERR_TYPE, "root: class %d", cls);
    else
        MT_CHECK(cls != MPI_SUCCESS, "rank %d: success without data", rank);
    /* TAG_SPACE - 1 collectives that fail everywhere (a root out of
     * range): the next one takes the failed scatter's tag again */
    for (int i = 0; i < TAG_SPACE - 1; i++)
        if (MPI_Gather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, -7,
                       MPI_COMM_WORLD) == MPI_SUCCESS) {
            MT_CHECK(0, "gather to root -7 succeeded");
            break;
        }
    for (int i = 0; i < size; i++) {
        counts[i] = N;
        displs[i] = i * N;
    }
    for (int i = 0; i < N; i++)
        rbuf[i] = -1;
    MT_CHECK_RC(MPI_Scatterv(sbuf, counts, displs, MPI_INT, rbuf, N, MPI_INT,
                             0, MPI_COMM_WORLD));
    for (int i = 0; i < N; i++)
        MT_CHECK(rbuf[i] == 1000 + rank * N + i, "scatterv[%d]=%d", i,
                 rbuf[i]);
    MT_CHECK_RC(MPI_Barrier(MPI_COMM_WORLD));
    return mt_finish();
}
