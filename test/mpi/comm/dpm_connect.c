/* MPI_Open_port / MPI_Comm_accept / MPI_Comm_connect within one job: the
 * lower half of MPI_COMM_WORLD accepts, the upper half connects; the
 * intercommunicator carries p2p and collectives, merges, disconnects.  Bad
 * port names and an accept or connect nobody answers give MPI_ERR_PORT. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;
#define CHECK(c, ...) do { if (!(c)) { fails++; printf("rank %d: ", wrank); \
    printf(__VA_ARGS__); printf("\n"); } } while (0)
static int wrank, wsize;

static int eclass(int rc)
{
    int c = rc;
    MPI_Error_class(rc, &c);
    return c;
}

static void bad_input(void)
{
    MPI_Comm ic = MPI_COMM_NULL;
    char port[MPI_MAX_PORT_NAME];
    int rc;

    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Comm_connect("garbage", MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic);
    CHECK(eclass(rc) == MPI_ERR_PORT, "connect(garbage) gave class %d",
          eclass(rc));
    CHECK(ic == MPI_COMM_NULL, "connect(garbage) set a comm");
    rc = MPI_Comm_connect("ucmpi-port:1:5:0:1:0:zz:x", MPI_INFO_NULL, 0,
                          MPI_COMM_SELF, &ic);
    CHECK(eclass(rc) == MPI_ERR_PORT, "connect(damaged) gave class %d",
          eclass(rc));
    rc = MPI_Comm_accept("nonsense", MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic);
    CHECK(eclass(rc) == MPI_ERR_PORT, "accept(nonsense) gave class %d",
          eclass(rc));
    rc = MPI_Close_port("nonsense");
    CHECK(eclass(rc) == MPI_ERR_PORT, "close(nonsense) gave class %d",
          eclass(rc));
    /* an accept nobody connects to is bounded by the tunable */
    MPI_Open_port(MPI_INFO_NULL, port);
    setenv("UCMPI_DPM_ACCEPT_TIMEOUT", "1", 1);
    rc = MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic);
    CHECK(eclass(rc) == MPI_ERR_PORT, "accept without connect gave class %d",
          eclass(rc));
    unsetenv("UCMPI_DPM_ACCEPT_TIMEOUT");
    /* a closed port: the connect gives up after its timeout */
    rc = MPI_Close_port(port);
    CHECK(rc == MPI_SUCCESS, "close_port failed");
    rc = MPI_Close_port(port);
    CHECK(eclass(rc) == MPI_ERR_PORT, "second close gave class %d",
          eclass(rc));
    setenv("UCMPI_DPM_CONNECT_TIMEOUT", "1", 1);
    rc = MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic);
    CHECK(eclass(rc) == MPI_ERR_PORT, "connect to a closed port gave "
          "class %d", eclass(rc));
    unsetenv("UCMPI_DPM_CONNECT_TIMEOUT");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void use_intercomm(MPI_Comm ic, int side, int lsize, int rsize_want)
{
    int rank, size, rsize, flag, sum, v, i;
    MPI_Comm merged;
    MPI_Status st;

    MPI_Comm_test_inter(ic, &flag);
    MPI_Comm_rank(ic, &rank);
    MPI_Comm_size(ic, &size);
    MPI_Comm_remote_size(ic, &rsize);
    CHECK(flag && size == lsize && rsize == rsize_want,
          "inter %d size %d (want %d) remote %d (want %d)", flag, size,
          lsize, rsize, rsize_want);
    /* p2p: local rank i <-> remote rank i % rsize */
    if (rank < rsize) {
        int peer = rank, out = side * 1000 + rank, in = -1;
        MPI_Sendrecv(&out, 1, MPI_INT, peer, 7, &in, 1, MPI_INT, peer, 7, ic,
                     &st);
        CHECK(in == (1 - side) * 1000 + peer && st.MPI_SOURCE == peer,
              "sendrecv got %d from %d", in, st.MPI_SOURCE);
    }
    /* allreduce: the remote group's sum of (rank + 1) */
    v = rank + 1;
    MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, ic);
    CHECK(sum == rsize * (rsize + 1) / 2, "inter allreduce %d", sum);
    /* bcast from the acceptors' rank 0 */
    v = side == 0 && rank == 0 ? 4242 : -1;
    MPI_Bcast(&v, 1, MPI_INT, side == 0 ? (rank == 0 ? MPI_ROOT
                                                     : MPI_PROC_NULL) : 0, ic);
    CHECK(side == 0 ? (rank == 0 ? v == 4242 : v == -1) : v == 4242,
          "inter bcast %d", v);
    MPI_Barrier(ic);
    /* merge: acceptors low */
    MPI_Intercomm_merge(ic, side, &merged);
    MPI_Comm_rank(merged, &i);
    MPI_Comm_size(merged, &size);
    CHECK(size == lsize + rsize && i == (side ? rsize : 0) + rank,
          "merged rank %d size %d", i, size);
    v = i;
    MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, merged);
    CHECK(sum == size * (size - 1) / 2, "merged allreduce %d", sum);
    {
        int *all = malloc(sizeof(int) * (size_t)size);
        MPI_Allgather(&i, 1, MPI_INT, all, 1, MPI_INT, merged);
        for (int k = 0; k < size; k++)
            CHECK(all[k] == k, "merged allgather [%d] = %d", k, all[k]);
        free(all);
    }
    MPI_Comm_free(&merged);
}

int main(int argc, char **argv)
{
    MPI_Comm half, ic;
    char port[MPI_MAX_PORT_NAME] = "";
    int side, hrank, hsize, total;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    bad_input();
    if (wsize >= 2) {
        int nacc = wsize / 2;
        side = wrank >= nacc;             /* 0 accepts, 1 connects */
        MPI_Comm_split(MPI_COMM_WORLD, side, wrank, &half);
        MPI_Comm_rank(half, &hrank);
        MPI_Comm_size(half, &hsize);
        for (int round = 0; round < 3; round++) {
            /* root of the acceptors: half's last rank in odd rounds */
            int root = round % 2 ? hsize - 1 : 0;
            if (side == 0 && hrank == root)
                MPI_Open_port(MPI_INFO_NULL, port);
            /* the port name goes from the acceptors' root to the connectors'
             * root (world rank nacc) */
            if (side == 0 && hrank == root)
                MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, nacc, round,
                         MPI_COMM_WORLD);
            if (wrank == nacc)
                MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, MPI_ANY_SOURCE,
                         round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (side == 0)
                MPI_Comm_accept(port, MPI_INFO_NULL, root, half, &ic);
            else
                MPI_Comm_connect(port, MPI_INFO_NULL, 0, half, &ic);
            use_intercomm(ic, side, hsize, side ? nacc : wsize - nacc);
            if (round == 2)
                MPI_Comm_disconnect(&ic);
            else
                MPI_Comm_free(&ic);
            CHECK(ic == MPI_COMM_NULL, "comm not NULL after free");
            if (side == 0 && hrank == root)
                MPI_Close_port(port);
        }
        MPI_Comm_free(&half);
    }
    MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (wrank == 0 && total == 0)
        printf("No Errors\n");
    MPI_Finalize();
    return total != 0;
}
