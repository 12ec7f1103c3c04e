/* Nonblocking and persistent collectives run as schedules driven by a
 * progress hook (lib/coll/sched.c), MPI_Comm_idup's context-id agreement
 * by another (lib/comm/comm_ctx.c).  Once none runs, the hook must be
 * gone again: while one is registered every single-operation wait of
 * point-to-point leaves its fast path (lib/p2p/progress.h).  Checks the
 * engine's hook count through its internal symbol (weak: elsewhere only
 * the results are checked) after each kind, the collectives' results, and
 * messages sent afterwards. */
#include "hooktest.h"

static int rank, size;

static void check_hooks(int base, const char *after)
{
    int n = mt_hooks_settle(base);
    MT_CHECK(n <= base, "%d progress hooks registered after %s, %d before",
             n, after, base);
}

static void pingpong(int iters)
{
    int next = (rank + 1) % size, prev = (rank + size - 1) % size, r;

    for (int i = 0; i < iters; i++) {
        int s = i * size + rank;
        MPI_Request q;
        MPI_Irecv(&r, 1, MPI_INT, prev, 3, MPI_COMM_WORLD, &q);
        MPI_Send(&s, 1, MPI_INT, next, 3, MPI_COMM_WORLD);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        MT_CHECK(r == i * size + prev, "message %d got %d", i, r);
    }
}

int main(int argc, char **argv)
{
    MPI_Request req;
    int in, out, want;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    want = size * (size - 1) / 2;
    MPI_Barrier(MPI_COMM_WORLD);
    int base = mt_hooks_settle(mt_hooks());

    for (int round = 0; round < 3; round++) {
        MPI_Ibarrier(MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        check_hooks(base, "MPI_Ibarrier");

        in = rank;
        out = -1;
        MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MT_CHECK(out == want, "iallreduce %d, want %d", out, want);
        check_hooks(base, "MPI_Iallreduce");

        MPI_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                           MPI_INFO_NULL, &req);
        for (int k = 0; k < 3; k++) {
            in = rank + k;
            out = -1;
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            MT_CHECK(out == want + k * size, "allreduce_init start %d: %d",
                     k, out);
        }
        MPI_Request_free(&req);
        check_hooks(base, "a persistent MPI_Allreduce_init");

        MPI_Comm dup;
        MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        check_hooks(base, "MPI_Comm_idup");
        in = rank;
        MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, dup);
        MT_CHECK(out == want, "allreduce on the idup'ed comm %d", out);
        MPI_Comm_free(&dup);
        pingpong(300);
    }
    return mt_finish();
}
