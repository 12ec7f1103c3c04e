/*
 * Collectives out of step.  A rank whose collective fails its
 * argument check still consumes that collective (the others learn of the
 * error instead of waiting); a program written for the other reading (the
 * failed call consumed nothing, as in MPICH's errors/coll/noalias*) ends up
 * one collective apart, and a rank that skips a collective waits on ranks
 * already in MPI_Finalize.  Such programs must end in errors on the ranks
 * that are out of step, never in a hang.  One scenario per run
 * (XTEST_CASE), blocking or nonblocking calls (XTEST_FORM=b|nb), on
 * MPI_COMM_WORLD under MPI_ERRORS_RETURN:
 *  cold    rank 0 alone calls MPI_Gather with aliased buffers
 *          (MPI_ERR_BUFFER), then every rank calls MPI_Allreduce twice
 *          (the lead's alone.c).  The others' first allreduce meets rank
 *          0's failed gather (MPI_ERR_TRUNCATE), rank 0's first meets their
 *          second (the right sum), and rank 0's second waits for ranks in
 *          MPI_Finalize (MPI_ERR_OTHER).  With shm on, the blocking calls'
 *          segment set-up runs out of step too: it fails, and they take
 *          the p2p schedules with the same outcome.
 *  lone    the same after a first allreduce on every rank: with shm on the
 *          blocking allreduces take the shm path (its own numbering,
 *          untouched by the p2p sequence) and are both right.
 *  skip    every rank calls a checked MPI_Allreduce; then the ranks other
 *          than 0 call one more, which waits for rank 0 in MPI_Finalize:
 *          MPI_ERR_OTHER on each of them.
 *  makeup  rank 0 calls MPI_Gather with aliased buffers, then again with
 *          good ones (MPICH's make-up call); the others call it once (their
 *          data went to rank 0's failed call).  Then every rank calls
 *          MPI_Allreduce: the others' meets rank 0's make-up gather and
 *          both fail (MPI_ERR_TRUNCATE); after that the ranks are in step
 *          again and a checked MPI_Allreduce is right.  p2p schedules only
 *          (the line sets UCMPI_COLL_SHM=0 or XTEST_FORM=nb).  At 3 and 5
 *          ranks no message of either call reaches the other (the
 *          allreduce's first step pairs rank 0 with rank 1 only): the
 *          stalled ranks tell the ranks they wait for (before that fix,
 *          a hang).
 *  roots   blocking MPI_Bcast where the last rank names root 1 and the
 *          others root 0 (size >= 3): its parent in the root-1 tree
 *          (rank 1, a leaf of the root-0 tree) never sends to it, and the
 *          others go on to MPI_Allreduce, where rank 1 sends it nothing
 *          either (once a hang on the p2p path): the last
 *          rank fails with MPI_ERR_TRUNCATE (bcast schedules are signed
 *          with their root: its root-0 parent's message is foreign), the
 *          others have root 0's data, and a checked MPI_Allreduce after
 *          that is right.  Blocking calls on p2p schedules (the line sets
 *          UCMPI_COLL_SHM=0).
 * On the library before the fix all of them hang (mpiexec's timeout).
 */
#include "../mpitest.h"

#include <string.h>

static int rank, size, nb;

static int err_class(int rc)
{
    int cls = MPI_SUCCESS;

    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls;
}

static int allreduce(int v, int *sum)
{
    MPI_Request r;
    int rc;

    *sum = -1;
    if (!nb)
        return MPI_Allreduce(&v, sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    rc = MPI_Iallreduce(&v, sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
    return rc != MPI_SUCCESS ? rc : MPI_Wait(&r, MPI_STATUS_IGNORE);
}

static int gather(const int *s, int *g)
{
    MPI_Request r;
    int rc;

    if (!nb)
        return MPI_Gather(s, 1, MPI_INT, g, 1, MPI_INT, 0, MPI_COMM_WORLD);
    rc = MPI_Igather(s, 1, MPI_INT, g, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
    return rc != MPI_SUCCESS ? rc : MPI_Wait(&r, MPI_STATUS_IGNORE);
}

/* The blocking allreduce of one int takes the shm path once its segment
 * is set up (its own numbering: the p2p collectives being out of step
 * does not touch it). */
static int shm_path(int warm)
{
    const char *e = getenv("UCMPI_COLL_SHM");

    return warm && !nb && size > 1 && (e == NULL || strcmp(e, "0") != 0);
}

/* Expects class cls (MPI_SUCCESS: the sum of rank + 1) from call. */
static void expect(const char *what, int rc, int sum, int cls)
{
    MT_CHECK(err_class(rc) == cls, "%s: class %d, expected %d", what,
             err_class(rc), cls);
    if (cls == MPI_SUCCESS && rc == MPI_SUCCESS)
        MT_CHECK(sum == size * (size + 1) / 2, "%s: sum %d, expected %d",
                 what, sum, size * (size + 1) / 2);
}

static void lone(int warm)
{
    int *buf = calloc((size_t)size, sizeof(int)), s1, s2, rc1, rc2;
    int p2p = !shm_path(warm) && size > 1;

    if (warm) {
        rc1 = allreduce(rank + 1, &s1);
        expect("first allreduce in step", rc1, s1, MPI_SUCCESS);
    }
    if (rank == 0)
        MT_CHECK(err_class(gather(buf, buf)) == MPI_ERR_BUFFER,
                 "aliased gather");
    rc1 = allreduce(rank + 1, &s1);
    rc2 = allreduce(rank + 1, &s2);
    expect("first allreduce", rc1, s1,
           p2p && rank != 0 ? MPI_ERR_TRUNCATE : MPI_SUCCESS);
    expect("second allreduce", rc2, s2,
           p2p && rank == 0 ? MPI_ERR_OTHER : MPI_SUCCESS);
    free(buf);
}

static void skip(void)
{
    int s, rc = allreduce(rank + 1, &s);

    expect("allreduce", rc, s, MPI_SUCCESS);
    if (rank == 0)
        return;
    rc = allreduce(rank + 1, &s);
    expect("allreduce rank 0 skipped", rc, s,
           size > 1 ? MPI_ERR_OTHER : MPI_SUCCESS);
}

static void makeup(void)
{
    int *buf = calloc((size_t)size, sizeof(int)), v = rank + 1, s, rc;

    if (rank == 0) {
        MT_CHECK(err_class(gather(buf, buf)) == MPI_ERR_BUFFER,
                 "aliased gather");
        MT_CHECK(err_class(gather(&v, buf)) ==
                     (size > 1 ? MPI_ERR_TRUNCATE : MPI_SUCCESS),
                 "make-up gather");
    } else {
        MT_CHECK_RC(gather(&v, buf));
    }
    if (rank != 0) {
        rc = allreduce(rank + 1, &s);
        expect("allreduce against the make-up gather", rc, s,
               MPI_ERR_TRUNCATE);
    }
    rc = allreduce(rank + 1, &s);
    expect("allreduce in step again", rc, s, MPI_SUCCESS);
    free(buf);
}

static void roots(void)
{
    int data[4] = {rank, rank, rank, rank}, s, rc;
    int odd = size >= 3 && rank == size - 1;

    rc = MPI_Bcast(data, 4, MPI_INT, odd ? 1 : 0, MPI_COMM_WORLD);
    MT_CHECK(err_class(rc) == (odd ? MPI_ERR_TRUNCATE : MPI_SUCCESS),
             "bcast with roots 0 and 1: class %d", err_class(rc));
    if (!odd)
        MT_CHECK(data[0] == 0 && data[3] == 0, "bcast data %d", data[0]);
    rc = allreduce(rank + 1, &s);
    expect("allreduce after the bcast", rc, s, MPI_SUCCESS);
    rc = allreduce(rank + 1, &s);
    expect("allreduce in step", rc, s, MPI_SUCCESS);
}

int main(int argc, char **argv)
{
    const char *c = getenv("XTEST_CASE"), *f = getenv("XTEST_FORM");

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    nb = f != NULL && strcmp(f, "nb") == 0;
    if (c == NULL || strcmp(c, "cold") == 0)
        lone(0);
    else if (strcmp(c, "lone") == 0)
        lone(1);
    else if (strcmp(c, "skip") == 0)
        skip();
    else if (strcmp(c, "makeup") == 0)
        makeup();
    else if (strcmp(c, "roots") == 0)
        roots();
    else
        MT_CHECK(0, "unknown XTEST_CASE %s", c);
    return mt_finish();
}
