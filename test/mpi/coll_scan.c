/* MPI_Scan / Exscan and their I/_init forms: sizes, in place, a
 * non-commutative op (prefixes in rank order). */
#include "coll_common.h"

static int rank, size;

int main(int argc, char **argv)
{
    static const int counts[] = {0, 1, 9, 5000, 262144};
    MPI_Op op;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    for (int c = 0; c < 5; c++)
        for (int v = 0; v < 4; v++) {
            int n = counts[c], excl = v & 1, inplace = v >> 1;
            int *s = malloc((n + 1) * sizeof(int)), *r = malloc((n + 1) * sizeof(int));
            for (int i = 0; i < n; i++) {
                s[i] = rank + 1 + i;
                r[i] = inplace ? s[i] : -1;
            }
            const void *in = inplace ? MPI_IN_PLACE : s;
            MT_CHECK_RC(excl ? MPI_Exscan(in, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD)
                             : MPI_Scan(in, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
            int upto = excl ? rank : rank + 1;   /* ranks included */
            for (int i = 0; (!excl || rank > 0) && i < n; i++)
                if (r[i] != upto * (upto + 1) / 2 + upto * i) {
                    MT_CHECK(0, "n %d excl %d inplace %d [%d] = %d", n, excl,
                             inplace, i, r[i]);
                    break;
                }
            free(s);
            free(r);
        }

    MT_CHECK_RC(MPI_Op_create(affine_fn, 0, &op));
    for (int excl = 0; excl < 2; excl++) {
        int n = 21, s[42], r[42], want[42], tmp[42];
        affine_fill(s, rank, n);
        MT_CHECK_RC(excl ? MPI_Exscan(s, r, n, MPI_2INT, op, MPI_COMM_WORLD)
                         : MPI_Scan(s, r, n, MPI_2INT, op, MPI_COMM_WORLD));
        if (!excl || rank > 0) {
            affine_expect(want, 0, excl ? rank : rank + 1, n, tmp);
            MT_CHECK(memcmp(r, want, sizeof(r)) == 0,
                     "non-commutative %s out of order", excl ? "exscan" : "scan");
        }
    }
    MT_CHECK_RC(MPI_Op_free(&op));

    {
        MPI_Request req[2];
        int s = rank + 1, r1 = -1, r2 = -1;
        MT_CHECK_RC(MPI_Iscan(&s, &r1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[0]));
        MT_CHECK_RC(MPI_Iexscan(&s, &r2, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[1]));
        MT_CHECK_RC(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
        MT_CHECK(r1 == (rank + 1) * (rank + 2) / 2, "iscan %d", r1);
        MT_CHECK(rank == 0 || r2 == rank * (rank + 1) / 2, "iexscan %d", r2);
        MT_CHECK_RC(MPI_Scan_init(&s, &r1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                  MPI_INFO_NULL, &req[0]));
        MT_CHECK_RC(MPI_Exscan_init(&s, &r2, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                    MPI_INFO_NULL, &req[1]));
        for (int it = 0; it < 3; it++) {
            s = rank + 1 + it;
            MT_CHECK_RC(MPI_Startall(2, req));
            MT_CHECK_RC(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
            MT_CHECK(r1 == (rank + 1) * (rank + 2) / 2 + (rank + 1) * it,
                     "persistent scan it %d: %d", it, r1);
            MT_CHECK(rank == 0 || r2 == rank * (rank + 1) / 2 + rank * it,
                     "persistent exscan it %d: %d", it, r2);
        }
        MT_CHECK_RC(MPI_Request_free(&req[0]));
        MT_CHECK_RC(MPI_Request_free(&req[1]));
    }
    /* large-count forms */
    {
        int s = rank + 1, r1 = -1, r2 = -1;
        MT_CHECK_RC(MPI_Scan_c(&s, &r1, (MPI_Count)1, MPI_INT, MPI_SUM,
                               MPI_COMM_WORLD));
        MT_CHECK_RC(MPI_Exscan_c(&s, &r2, (MPI_Count)1, MPI_INT, MPI_SUM,
                                 MPI_COMM_WORLD));
        MT_CHECK(r1 == (rank + 1) * (rank + 2) / 2, "scan_c %d", r1);
        MT_CHECK(rank == 0 || r2 == rank * (rank + 1) / 2, "exscan_c %d", r2);
    }
    return mt_finish();
}
