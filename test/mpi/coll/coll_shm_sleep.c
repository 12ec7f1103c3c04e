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
#include "../mpitest.h"

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
    /* a root up to 200 bcasts ahead of a reader that naps every few of
     * them (past the depth of both shm buffer rings: small and, every
     * third call, large data) */
    for (int it = 0; it < 200; it++) {
        int x[300], len = it % 3 == 0 ? 300 : 4, root = n - 1;
        for (int j = 0; j < len; j++)
            x[j] = me == root ? it + j : 0;
        if (me != root && me == 0 && it % 25 == 0)
            nap(300);
        MT_CHECK_RC(MPI_Bcast(x, len, MPI_INT, root, MPI_COMM_WORLD));
        MT_CHECK(x[0] == it && x[len - 1] == it + len - 1,
                 "ahead it %d got %d %d", it, x[0], x[len - 1]);
    }
    /* reduce contributors running ahead of a napping root */
    for (int it = 0; it < 200; it++) {
        int x = me + it, y = -1, root = 0;
        if (me == root && it % 25 == 0)
            nap(300);
        MT_CHECK_RC(MPI_Reduce(&x, &y, 1, MPI_INT, MPI_SUM, root,
                               MPI_COMM_WORLD));
        MT_CHECK(me != root || y == n * (n - 1) / 2 + n * it,
                 "reduce ahead it %d got %d", it, y);
    }
    MPI_Comm_free(&half);
    return mt_finish();
}
