/* Comm_split (MPI_UNDEFINED colours, reordering keys), dup, create,
 * create_group, compare, groups of communicators; p2p on each result. */
#include "../mpitest.h"

static void check_ring(MPI_Comm c, const char *what)
{
    int r, n, got = -1;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    MT_CHECK_RC(MPI_Sendrecv(&r, 1, MPI_INT, (r + 1) % n, 7, &got, 1, MPI_INT,
                             (r + n - 1) % n, 7, c, MPI_STATUS_IGNORE));
    MT_CHECK(got == (r + n - 1) % n, "%s: ring got %d", what, got);
}

int main(int argc, char **argv)
{
    int rank, size, r, n, res;
    MPI_Comm a, b, d;
    MPI_Group wg, g;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* parity split with reversed keys; rank 0 (if size > 2) stays out */
    int color = (rank == 0 && size > 2) ? MPI_UNDEFINED : rank % 2;
    MT_CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, color, size - rank, &a));
    if (color == MPI_UNDEFINED) {
        MT_CHECK(a == MPI_COMM_NULL, "undefined colour gives a comm");
    } else {
        MPI_Comm_rank(a, &r);
        MPI_Comm_size(a, &n);
        int expect_n = 0, expect_r = 0;
        for (int i = 0; i < size; i++)
            if (!(i == 0 && size > 2) && i % 2 == color) {
                expect_n++;
                if (i > rank)
                    expect_r++;
            }
        MT_CHECK(n == expect_n && r == expect_r,
                 "split: rank %d size %d, expected %d %d", r, n, expect_r,
                 expect_n);
        check_ring(a, "split");
        MT_CHECK_RC(MPI_Comm_dup(a, &d));
        MPI_Comm_compare(a, d, &res);
        MT_CHECK(res == MPI_CONGRUENT, "dup compare %d", res);
        check_ring(d, "dup of split");
        MPI_Comm_free(&d);
        MT_CHECK(d == MPI_COMM_NULL, "free did not null the handle");
        MPI_Comm_free(&a);
    }

    /* create from the group of the even world ranks */
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int ranges[1][3] = {{0, size - 1, 2}};
    MPI_Group_range_incl(wg, 1, ranges, &g);
    MT_CHECK_RC(MPI_Comm_create(MPI_COMM_WORLD, g, &b));
    MT_CHECK((rank % 2 == 0) == (b != MPI_COMM_NULL), "create membership");
    if (b != MPI_COMM_NULL) {
        MPI_Comm_rank(b, &r);
        MT_CHECK(r == rank / 2, "create rank %d", r);
        check_ring(b, "create");
        MPI_Comm_free(&b);
    }
    /* create_group: only the members call */
    if (rank % 2 == 0) {
        MT_CHECK_RC(MPI_Comm_create_group(MPI_COMM_WORLD, g, 42, &b));
        MPI_Comm_rank(b, &r);
        MT_CHECK(r == rank / 2, "create_group rank %d", r);
        check_ring(b, "create_group");
        MPI_Group gg;
        MPI_Comm_group(b, &gg);
        MPI_Group_compare(gg, g, &res);
        MT_CHECK(res == MPI_IDENT, "create_group group compare %d", res);
        MPI_Group_free(&gg);
        MPI_Comm_free(&b);
    }
    MPI_Group_free(&g);
    MPI_Group_free(&wg);

    /* a dup of world is congruent; world and self are unequal (size>1) */
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Comm_compare(MPI_COMM_WORLD, d, &res);
    MT_CHECK(res == MPI_CONGRUENT, "world dup compare %d", res);
    MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, &res);
    MT_CHECK(res == (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL),
             "world/self %d", res);
    /* split with one colour and reversed keys is similar */
    MPI_Comm_split(d, 0, -rank, &a);
    MPI_Comm_compare(d, a, &res);
    MT_CHECK(res == (size == 1 ? MPI_CONGRUENT : MPI_SIMILAR),
             "reversed split compare %d", res);
    MPI_Comm_rank(a, &r);
    MT_CHECK(r == size - 1 - rank, "reversed rank %d", r);
    check_ring(a, "reversed");
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Comm_set_name(a, "reversed");
    MPI_Comm_get_name(a, name, &len);
    MT_CHECK(len == 8 && name[0] == 'r', "name %s", name);
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    MT_CHECK(len == 14, "world name %s", name);
    MPI_Comm_free(&a);

    /* two idups pending while a blocking dup runs on another comm */
    MPI_Comm i1, i2, b2;
    MPI_Request rq[2];
    MT_CHECK_RC(MPI_Comm_idup(MPI_COMM_WORLD, &i1, &rq[0]));
    MT_CHECK_RC(MPI_Comm_idup(d, &i2, &rq[1]));
    MT_CHECK_RC(MPI_Comm_dup(d, &b2));
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    check_ring(i1, "idup 1");
    check_ring(i2, "idup 2");
    check_ring(b2, "dup while idups pend");
    MPI_Comm_compare(i1, i2, &res);
    MT_CHECK(res == MPI_CONGRUENT, "idups compare %d", res);
    MPI_Comm_free(&i1);
    MPI_Comm_free(&i2);
    MPI_Comm_free(&b2);
    MPI_Comm_free(&d);
    return mt_finish();
}
