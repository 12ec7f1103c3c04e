/*
 * Back-to-back small collectives where one rank arrives late (it sleeps
 * first), so that the others give up spinning and sleep on the shm
 * path's flags (a futex when ranks outnumber cores or
 * UCMPI_WAIT_MODE=yield): the late rank's post must wake them, with the
 * right data.  Also a bcast root running many collectives ahead of a slow
 * reader (the root then sleeps until a buffer is free again), and runs of
 * collectives without delays (wakes racing with going to sleep).  The
 * same pseudo-random sequence on every rank; every result is checked.
 */
#include "mpitest.h"

#include <string.h>
#include <time.h>

#define ITERS 600
#define MAXC 64

static unsigned rng = 4242;
static unsigned next(void)
{
    rng = rng * 1103515245u + 12345u;
    return (rng >> 8) & 0xffffff;
}

static void nap(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

static int val(int r, int it, int j)
{
    return r * 1000 + it * 7 + j;
}

static void one(MPI_Comm c, int it, int kind, int count, int root)
{
    int n, me, s[MAXC * 8], r[MAXC * 8];

    MPI_Comm_size(c, &n);
    MPI_Comm_rank(c, &me);
    root %= n;
    for (int j = 0; j < count * n; j++)
        s[j] = val(me, it, j);
    memset(r, 0xff, sizeof(r));
    switch (kind) {
    case 0:
        MT_CHECK_RC(MPI_Barrier(c));
        break;
    case 1:
        memcpy(r, s, sizeof(int) * (size_t)count);
        MT_CHECK_RC(MPI_Bcast(r, count, MPI_INT, root, c));
        for (int j = 0; j < count; j++)
            MT_CHECK(r[j] == val(root, it, j), "it %d bcast [%d] %d", it, j,
                     r[j]);
        break;
    case 2:
        MT_CHECK_RC(MPI_Allreduce(s, r, count, MPI_INT, MPI_SUM, c));
        for (int j = 0; j < count; j++) {
            int e = 0;
            for (int q = 0; q < n; q++)
                e += val(q, it, j);
            MT_CHECK(r[j] == e, "it %d allreduce [%d] %d != %d", it, j, r[j],
                     e);
        }
        break;
    case 3:
        MT_CHECK_RC(MPI_Reduce(s, r, count, MPI_INT, MPI_MAX, root, c));
        for (int j = 0; j < count && me == root; j++)
            MT_CHECK(r[j] == val(n - 1, it, j), "it %d reduce [%d] %d", it,
                     j, r[j]);
        break;
    case 4:
        MT_CHECK_RC(MPI_Alltoall(s, count, MPI_INT, r, count, MPI_INT, c));
        for (int q = 0; q < n; q++)
            for (int j = 0; j < count; j++)
                MT_CHECK(r[q * count + j] == val(q, it, me * count + j),
                         "it %d alltoall from %d [%d]", it, q, j);
        break;
    default:
        MT_CHECK_RC(MPI_Allgather(s, count, MPI_INT, r, count, MPI_INT, c));
        for (int q = 0; q < n; q++)
            for (int j = 0; j < count; j++)
                MT_CHECK(r[q * count + j] == val(q, it, j),
                         "it %d allgather from %d [%d]", it, q, j);
        break;
    }
}

int main(int argc, char **argv)
{
    int n, me;
    MPI_Comm half;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
    for (int it = 0; it < ITERS; it++) {
        int kind = (int)(next() % 6), count = 1 + (int)(next() % MAXC);
        int root = (int)(next() % 8), late = (int)(next() % (n + 2));
        int burst = next() % 4 == 0 ? 1 + (int)(next() % 8) : 1;
        MPI_Comm c = next() % 3 == 0 ? half : MPI_COMM_WORLD;

        if (late == me)          /* the others sleep waiting for me */
            nap(200 + (long)(next() % 800));
        else
            next();
        for (int b = 0; b < burst; b++)
            one(c, it, kind, count, root);
    }
    /* a root 40 bcasts ahead of a reader that naps every few of them */
    for (int it = 0; it < 40; it++) {
        int x[4] = {it, it + 1, it + 2, it + 3}, root = n - 1;
        if (me != root && me == 0 && it % 5 == 0)
            nap(300);
        if (me != root)
            memset(x, 0, sizeof(x));
        MT_CHECK_RC(MPI_Bcast(x, 4, MPI_INT, root, MPI_COMM_WORLD));
        MT_CHECK(x[0] == it && x[3] == it + 3, "ahead it %d got %d %d", it,
                 x[0], x[3]);
    }
    MPI_Comm_free(&half);
    return mt_finish();
}
