/* Intercomm_create between the two halves of world, p2p across it,
 * dup, split with MPI_UNDEFINED, merge (both high orders), many
 * create/free cycles. */
#include "../mpitest.h"

int main(int argc, char **argv)
{
    int rank, size, r, n, rs, flag;
    MPI_Comm half, inter, d, merged, s;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2)
        return mt_finish();
    int low = rank < size / 2, nlow = size / 2;
    MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half);
    MT_CHECK_RC(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD,
                                     low ? nlow : 0, 99, &inter));
    MPI_Comm_test_inter(inter, &flag);
    MPI_Comm_rank(inter, &r);
    MPI_Comm_size(inter, &n);
    MPI_Comm_remote_size(inter, &rs);
    MT_CHECK(flag && n == (low ? nlow : size - nlow) &&
             rs == (low ? size - nlow : nlow), "inter %d %d %d", flag, n, rs);
    /* p2p: low rank i <-> high rank i (where both exist) */
    if (r < rs && r < n) {
        int v = rank, got = -1;
        MT_CHECK_RC(MPI_Sendrecv(&v, 1, MPI_INT, r, 5, &got, 1, MPI_INT, r, 5,
                                 inter, MPI_STATUS_IGNORE));
        MT_CHECK(got == (low ? nlow + r : r), "inter p2p got %d", got);
    }
    MT_CHECK_RC(MPI_Comm_dup(inter, &d));
    MPI_Comm_remote_size(d, &rs);
    MT_CHECK(rs == (low ? size - nlow : nlow), "dup remote size %d", rs);
    if (r == 0) {
        int v = 1, got = 0;
        MPI_Sendrecv(&v, 1, MPI_INT, 0, 1, &got, 1, MPI_INT, 0, 1, d,
                     MPI_STATUS_IGNORE);
        MT_CHECK(got == 1, "dup p2p");
    }
    /* split: only rank 0 of each side keeps a colour */
    MT_CHECK_RC(MPI_Comm_split(d, r == 0 ? 0 : MPI_UNDEFINED, 0, &s));
    MT_CHECK((r == 0) == (s != MPI_COMM_NULL), "inter split membership");
    if (s != MPI_COMM_NULL) {
        MPI_Comm_remote_size(s, &rs);
        MT_CHECK(rs == 1, "inter split remote size %d", rs);
        MPI_Comm_free(&s);
    }
    for (int high = 0; high < 2; high++) {
        MT_CHECK_RC(MPI_Intercomm_merge(inter, low ? high : !high, &merged));
        MPI_Comm_rank(merged, &r);
        MPI_Comm_size(merged, &n);
        int expect = high ? (low ? rank - 0 + (size - nlow) : rank - nlow)
                          : rank;
        MT_CHECK(n == size && r == expect, "merge(high=%d) rank %d expect %d",
                 high, r, expect);
        int sum = 0, one = 1;
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, merged);
        MT_CHECK(sum == size, "allreduce on merged %d", sum);
        MPI_Comm_free(&merged);
    }
    MPI_Comm_free(&d);
    MPI_Comm_free(&inter);
    /* create/free cycles must recycle context ids */
    for (int i = 0; i < 200; i++) {
        MT_CHECK_RC(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD,
                                         low ? nlow : 0, i, &inter));
        MPI_Comm_free(&inter);
    }
    MPI_Comm_free(&half);
    return mt_finish();
}
