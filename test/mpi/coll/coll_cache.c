/*
 * Reuse of built schedules: a collective called again with the same
 * buffers, counts, types, op and root reruns the schedule built the first
 * time.  Checks that reuse never returns stale results: same buffers with
 * new data, counts, types, ops and recvcounts contents; more distinct
 * calls than cache slots; the same call in flight several times at once
 * (nonblocking) and blocking while a nonblocking twin is pending; types
 * and ops freed between calls; requests freed while in flight; and
 * communicators created and freed around cached schedules.
 */
#include "../mpitest.h"

#include <string.h>

#define N 64

static int rank, size;

static void affine(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int *a = in, *b = inout;   /* b = a o b, maps x -> m*x + c mod 10007 */
    for (int i = 0; i < *len; i++) {
        long m = (long)a[2 * i] * b[2 * i] % 10007;
        long c = ((long)a[2 * i] * b[2 * i + 1] + a[2 * i + 1]) % 10007;
        b[2 * i] = (int)m;
        b[2 * i + 1] = (int)c;
    }
    (void)dt;
}

/* Same buffers, new data every iteration, counts and types changing. */
static void same_buffers(MPI_Comm comm)
{
    static double sd[N], rd[N];
    static int si[N], ri[N];

    for (int it = 0; it < 40; it++) {
        int count = 1 + it % 5 * 7;      /* 1, 8, 15, 22, 29 */
        for (int i = 0; i < N; i++) {
            sd[i] = rank + it + i;
            rd[i] = -1;
            si[i] = rank * 3 + it - i;
            ri[i] = -1;
        }
        MT_CHECK_RC(MPI_Allreduce(sd, rd, count, MPI_DOUBLE, MPI_SUM, comm));
        for (int i = 0; i < count; i++) {
            double want = (double)size * (size - 1) / 2 + size * (it + i);
            MT_CHECK(rd[i] == want, "it %d count %d rd[%d] = %g, want %g",
                     it, count, i, rd[i], want);
        }
        MT_CHECK(rd[count] == -1, "it %d wrote past count", it);
        MT_CHECK_RC(MPI_Allreduce(si, ri, count, MPI_INT,
                                  it % 2 ? MPI_MAX : MPI_MIN, comm));
        for (int i = 0; i < count; i++) {
            int want = (it % 2 ? (size - 1) * 3 : 0) + it - i;
            MT_CHECK(ri[i] == want, "it %d op %s ri[%d] = %d, want %d", it,
                     it % 2 ? "max" : "min", i, ri[i], want);
        }
        /* in place on the same buffer */
        for (int i = 0; i < count; i++)
            rd[i] = rank + it;
        MT_CHECK_RC(MPI_Allreduce(MPI_IN_PLACE, rd, count, MPI_DOUBLE,
                                  MPI_SUM, comm));
        MT_CHECK(rd[0] == (double)size * (size - 1) / 2 + (double)size * it,
                 "it %d in place %g", it, rd[0]);
        /* bcast from a moving root, same buffer */
        int root = it % size;
        for (int i = 0; i < count; i++)
            si[i] = rank == root ? 1000 * it + i : -7;
        MT_CHECK_RC(MPI_Bcast(si, count, MPI_INT, root, comm));
        for (int i = 0; i < count; i++)
            MT_CHECK(si[i] == 1000 * it + i, "it %d bcast si[%d] = %d", it,
                     i, si[i]);
        /* reduce to a moving root */
        for (int i = 0; i < count; i++)
            si[i] = rank + it;
        memset(ri, 0xff, sizeof(ri));
        MT_CHECK_RC(MPI_Reduce(si, ri, count, MPI_INT, MPI_SUM, root, comm));
        if (rank == root)
            MT_CHECK(ri[count - 1] == size * (size - 1) / 2 + size * it,
                     "it %d reduce %d", it, ri[count - 1]);
        /* allgather and alltoall on the same buffers */
        for (int i = 0; i < size; i++)
            si[i] = rank * 100 + i + it;
        MT_CHECK_RC(MPI_Allgather(si, 1, MPI_INT, ri, 1, MPI_INT, comm));
        for (int i = 0; i < size; i++)
            MT_CHECK(ri[i] == i * 100 + it, "it %d allgather ri[%d] = %d",
                     it, i, ri[i]);
        MT_CHECK_RC(MPI_Alltoall(si, 1, MPI_INT, ri, 1, MPI_INT, comm));
        for (int i = 0; i < size; i++)
            MT_CHECK(ri[i] == i * 100 + rank + it,
                     "it %d alltoall ri[%d] = %d", it, i, ri[i]);
        /* scan */
        si[0] = rank + it;
        MT_CHECK_RC(MPI_Scan(si, ri, 1, MPI_INT, MPI_SUM, comm));
        MT_CHECK(ri[0] == rank * (rank + 1) / 2 + (rank + 1) * it,
                 "it %d scan %d", it, ri[0]);
        MT_CHECK_RC(MPI_Barrier(comm));
    }
}

/* The recvcounts array of reduce_scatter changes in place. */
static void rs_counts(MPI_Comm comm)
{
    int counts[16], in[16 * 4], out[16 * 4];

    if (size > 16)
        return;
    for (int it = 0; it < 12; it++) {
        int total = 0;
        for (int i = 0; i < size; i++) {
            counts[i] = (i + it) % 3 + (it % 2);
            total += counts[i];
        }
        for (int i = 0; i < total; i++)
            in[i] = rank + i + it;
        MT_CHECK_RC(MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM,
                                       comm));
        int off = 0;
        for (int i = 0; i < rank; i++)
            off += counts[i];
        for (int i = 0; i < counts[rank]; i++)
            MT_CHECK(out[i] == size * (size - 1) / 2 + size * (off + i + it),
                     "it %d out[%d] = %d", it, i, out[i]);
    }
}

/* More distinct calls than cache slots, revisited in turn. */
static void many_keys(MPI_Comm comm)
{
    static long s[32], r[32];

    for (int round = 0; round < 3; round++) {
        for (int count = 1; count <= 20; count++) {
            for (int i = 0; i < count; i++)
                s[i] = rank + round + count;
            MT_CHECK_RC(MPI_Allreduce(s, r, count, MPI_LONG, MPI_SUM, comm));
            long want = (long)size * (size - 1) / 2 + (long)size * (round + count);
            MT_CHECK(r[count - 1] == want, "round %d count %d: %ld != %ld",
                     round, count, r[count - 1], want);
        }
    }
}

/* The same call in flight several times, blocking twins while pending,
 * completion in reverse order, and requests freed in flight. */
static void in_flight(MPI_Comm comm)
{
    MPI_Request rq[4];
    int v = rank, sum;

    for (int it = 0; it < 10; it++) {
        for (int k = 0; k < 4; k++)
            MT_CHECK_RC(MPI_Ibarrier(comm, &rq[k]));
        MT_CHECK_RC(MPI_Barrier(comm));
        for (int k = 3; k >= 0; k--)
            MT_CHECK_RC(MPI_Wait(&rq[k], MPI_STATUS_IGNORE));
        MT_CHECK_RC(MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, comm,
                                   &rq[0]));
        MT_CHECK_RC(MPI_Ibarrier(comm, &rq[1]));
        MT_CHECK_RC(MPI_Request_free(&rq[1]));   /* completes on its own */
        MT_CHECK_RC(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
        MT_CHECK(sum == size * (size - 1) / 2, "it %d iallreduce %d", it, sum);
        sum = -1;
        MT_CHECK_RC(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, comm));
        MT_CHECK(sum == size * (size - 1) / 2, "it %d allreduce %d", it, sum);
    }
}

/* Types and ops freed and created again between identical calls. */
static void freed_objects(MPI_Comm comm)
{
    int s[2 * N], r[2 * N];

    for (int it = 0; it < 8; it++) {
        MPI_Datatype pair;
        MPI_Op op;
        MPI_Type_contiguous(2 + it % 2, MPI_INT, &pair);  /* 2 or 3 ints */
        MPI_Type_commit(&pair);
        MPI_Op_create(affine, 0, &op);
        int width = 2 + it % 2;
        for (int i = 0; i < 4; i++) {
            s[width * i] = rank + 2;
            s[width * i + 1] = rank + it;
            if (width == 3)
                s[width * i + 2] = 0;
        }
        /* the affine op reads pairs: use it only on the 2-int type */
        if (width == 2) {
            MT_CHECK_RC(MPI_Allreduce(s, r, 4, pair, op, comm));
            long m = 1, c = 0;   /* compose in rank order: f0 o f1 o ... */
            for (int q = size - 1; q >= 0; q--) {
                c = ((q + 2) * c + q + it) % 10007;
                m = m * (q + 2) % 10007;
            }
            MT_CHECK(r[0] == m && r[1] == c, "it %d affine (%d,%d) != "
                     "(%ld,%ld)", it, r[0], r[1], m, c);
        } else {
            MT_CHECK_RC(MPI_Bcast(s, 4, pair, 0, comm));
            MT_CHECK(s[0] == 2 && s[1] == it, "it %d bcast %d %d", it, s[0],
                     s[1]);
        }
        MPI_Op_free(&op);
        MPI_Type_free(&pair);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    same_buffers(MPI_COMM_WORLD);
    rs_counts(MPI_COMM_WORLD);
    many_keys(MPI_COMM_WORLD);
    in_flight(MPI_COMM_WORLD);
    freed_objects(MPI_COMM_WORLD);
    /* communicators freed with schedules cached on them */
    for (int it = 0; it < 5; it++) {
        MPI_Comm dup;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        same_buffers(dup);
        in_flight(dup);
        MPI_Comm_free(&dup);
    }
    return mt_finish();
}
