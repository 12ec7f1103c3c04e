/* MPI_Comm_create_from_group / MPI_Intercomm_create_from_groups in the
 * world model: the even ranks build a communicator by themselves (the odd
 * ones are busy elsewhere), then evens and odds an intercommunicator; the
 * new communicators carry the given error handler and work. */
#include <mpi.h>
#include "../mpitest.h"

static MPI_Group parity_group(int parity, int size)
{
    MPI_Group world, g;
    int n = 0, ranks[64];
    for (int r = parity; r < size && n < 64; r += 2)
        ranks[n++] = r;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, n, ranks, &g);
    MPI_Group_free(&world);
    return g;
}

static void check_intra(int rank, int size)
{
    MPI_Group g = parity_group(rank % 2, size);
    MPI_Comm c;
    MPI_Errhandler eh;
    int crank, csize, sum = 0;
    MT_CHECK(MPI_Comm_create_from_group(g, rank % 2 ? "odd" : "even",
                                        MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                        &c) == MPI_SUCCESS, "create");
    MPI_Comm_rank(c, &crank);
    MPI_Comm_size(c, &csize);
    MT_CHECK(crank == rank / 2 && csize == (size + 1 - rank % 2) / 2,
             "rank %d size %d", crank, csize);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
    int want = 0;
    for (int r = rank % 2; r < size; r += 2)
        want += r;
    MT_CHECK(sum == want, "sum %d want %d", sum, want);
    MPI_Comm_get_errhandler(c, &eh);
    MT_CHECK(eh == MPI_ERRORS_RETURN, "errhandler not installed");
    MPI_Errhandler_free(&eh);
    MT_CHECK(MPI_Send(&sum, 1, MPI_INT, csize, 0, c) == MPI_ERR_RANK,
             "errors return on the new comm");
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
}

static void check_inter(int rank, int size)
{
    MPI_Group mine = parity_group(rank % 2, size);
    MPI_Group other = parity_group(1 - rank % 2, size);
    MPI_Comm ic;
    int rsize, flag, peer = -1;
    MT_CHECK(MPI_Intercomm_create_from_groups(mine, 0, other, 0, "evens-odds",
                                              MPI_INFO_NULL,
                                              MPI_ERRORS_RETURN,
                                              &ic) == MPI_SUCCESS, "inter");
    MPI_Comm_test_inter(ic, &flag);
    MPI_Comm_remote_size(ic, &rsize);
    MT_CHECK(flag && rsize == (size + rank % 2) / 2, "remote size %d", rsize);
    /* Each rank of the smaller side talks to the same rank of the other. */
    int me = rank / 2;
    if (me < size / 2) {
        MPI_Sendrecv(&rank, 1, MPI_INT, me, 7, &peer, 1, MPI_INT, me, 7, ic,
                     MPI_STATUS_IGNORE);
        MT_CHECK(peer == (rank % 2 ? rank - 1 : rank + 1), "peer %d", peer);
    }
    MPI_Comm_free(&ic);
    MPI_Group_free(&mine);
    MPI_Group_free(&other);
}

static void check_errors(void)
{
    MPI_Comm c;
    MT_CHECK(MPI_Comm_create_from_group(MPI_GROUP_EMPTY, "x", MPI_INFO_NULL,
                                        MPI_ERRORS_RETURN, &c) ==
                     MPI_SUCCESS && c == MPI_COMM_NULL,
             "a non-member gets MPI_COMM_NULL");
    MT_CHECK(MPI_Comm_create_from_group(MPI_GROUP_NULL, "x", MPI_INFO_NULL,
                                        MPI_ERRORS_RETURN, &c) ==
                 MPI_ERR_GROUP, "null group");
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_intra(rank, size);
    if (size > 1)
        check_inter(rank, size);
    check_errors();
    return mt_finish();
}
