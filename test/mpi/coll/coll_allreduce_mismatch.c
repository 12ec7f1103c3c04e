/*
 * An allreduce whose ranks pass different counts, run over the
 * p2p schedules (UCMPI_COLL_SHM=0 or the nonblocking/persistent forms,
 * each algorithm forced in turn), must end in an error on every rank,
 * never hang and never return success with data a short message did not
 * fill (MPICH errors/coll/allreducelength -nonblocking hung at 4 ranks:
 * the allreduce receives were not exact, so a truncated one stopped its
 * schedule and its peers waited for it forever).  Afterwards correct
 * collectives on the same comm must still give the right results.
 * The counts differ enough that every block of every algorithm differs in
 * size, and stay under one ring segment, so each algorithm takes the same
 * steps at both counts (a count that changes the steps themselves is not
 * detectable without a handshake the good path would pay for).
 */
#include "coll_common.h"

#include <string.h>

static int rank, size;

/* Counts (ints): rank `odd` passes a, the others b. */
static const int pairs[][2] = {
    {1, 10}, {10, 1}, {5, 100}, {100, 5}, {40, 1000}, {1000, 40},
};
#define NPAIRS ((int)(sizeof(pairs) / sizeof(pairs[0])))

static int run(int form, const int *s, int *r, int count)
{
    MPI_Request req = MPI_REQUEST_NULL;
    int rc;

    switch (form) {
    case 0:
        return MPI_Allreduce(s, r, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    case 1:
        rc = MPI_Iallreduce(s, r, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                            &req);
        return rc == MPI_SUCCESS ? MPI_Wait(&req, MPI_STATUS_IGNORE) : rc;
    default:
        rc = MPI_Allreduce_init(s, r, count, MPI_INT, MPI_SUM,
                                MPI_COMM_WORLD, MPI_INFO_NULL, &req);
        if (rc == MPI_SUCCESS)
            rc = MPI_Start(&req);
        if (rc == MPI_SUCCESS)
            rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (req != MPI_REQUEST_NULL)
            MPI_Request_free(&req);
        return rc;
    }
}

/* A correct allreduce in each form and a barrier: results checked. */
static void check_usable(int p, int form)
{
    enum { M = 1000 };
    static int s[M], r[M];

    for (int f = 0; f < 3; f++) {
        for (int i = 0; i < M; i++) {
            s[i] = rank + i;
            r[i] = -1;
        }
        MT_CHECK_RC(run(f, s, r, M));
        for (int i = 0; i < M; i++)
            MT_CHECK(r[i] == size * (size - 1) / 2 + size * i,
                     "after pair %d form %d: form %d [%d] = %d", p, form, f,
                     i, r[i]);
    }
    MT_CHECK_RC(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    enum { MAXC = 1000 };
    static int s[MAXC], r[MAXC];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i < MAXC; i++)
        s[i] = i;
    check_usable(-1, -1);
    for (int form = 0; form < 3; form++) {
        for (int p = 0; p < NPAIRS && size > 1; p++) {
            int odd = p % 2 == 0 ? 0 : size - 1;
            int count = rank == odd ? pairs[p][0] : pairs[p][1];
            int rc = run(form, s, r, count);

            MT_CHECK(coll_mismatch_err(rc), "form %d pair %d (count %d): rc %d", form,
                     p, count, rc);
            check_usable(p, form);
        }
    }
    return mt_finish();
}
