/* MPI_Scan / Exscan and their I/_init forms: sizes, in place, a
 * non-commutative op (prefixes in rank order; also 60000 pairs and eight
 * nonblocking calls in flight), a strided type in every form. */
#include "coll_common.h"

static int rank, size;

/* A strided type (vector(2,1,2) of ints, the middle int of each 3 a gap
 * that stays untouched), in place or not, form 0 blocking, 1 nonblocking,
 * 2 persistent (started twice). */
static void vec_case(int n, int excl, int inplace, int form)
{
    MPI_Datatype vec;
    MPI_Request req;
    int *s = malloc((3 * n + 1) * sizeof(int)), *r = malloc((3 * n + 1) * sizeof(int));
    int upto = excl ? rank : rank + 1;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    for (int it = 0; it < (form == 2 ? 2 : 1); it++) {
        for (int i = 0; i < 3 * n; i++) {
            s[i] = rank + 1 + i + it;
            r[i] = inplace ? s[i] : -7;
        }
        const void *in = inplace ? MPI_IN_PLACE : s;
        if (form == 0)
            MT_CHECK_RC(excl ? MPI_Exscan(in, r, n, vec, MPI_SUM, MPI_COMM_WORLD)
                             : MPI_Scan(in, r, n, vec, MPI_SUM, MPI_COMM_WORLD));
        else if (form == 1)
            MT_CHECK_RC(excl ? MPI_Iexscan(in, r, n, vec, MPI_SUM, MPI_COMM_WORLD, &req)
                             : MPI_Iscan(in, r, n, vec, MPI_SUM, MPI_COMM_WORLD, &req));
        else if (it == 0)
            MT_CHECK_RC(excl ? MPI_Exscan_init(in, r, n, vec, MPI_SUM, MPI_COMM_WORLD,
                                               MPI_INFO_NULL, &req)
                             : MPI_Scan_init(in, r, n, vec, MPI_SUM, MPI_COMM_WORLD,
                                             MPI_INFO_NULL, &req));
        if (form == 2)
            MT_CHECK_RC(MPI_Start(&req));
        if (form != 0)
            MT_CHECK_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
        for (int i = 0; (!excl || rank > 0) && i < 3 * n; i++) {
            int want = i % 3 == 1 ? (inplace ? rank + 1 + i + it : -7)
                                  : upto * (upto + 1) / 2 + upto * (i + it);
            if (r[i] != want) {
                MT_CHECK(0, "vector n %d excl %d inplace %d form %d it %d: "
                         "[%d] = %d want %d", n, excl, inplace, form, it, i,
                         r[i], want);
                break;
            }
        }
    }
    if (form == 2)
        MT_CHECK_RC(MPI_Request_free(&req));
    MPI_Type_free(&vec);
    free(s);
    free(r);
}

/* Non-commutative scans and exscans, one of 60000 pairs, eight in flight
 * at once (waited in reverse order): prefixes in rank order. */
static void affine_in_flight(MPI_Op op)
{
    enum { K = 8 };
    static const int ns[K] = {60000, 1, 7, 0, 300, 2, 33, 1000};
    MPI_Request req[K];
    int *s[K], *r[K];
    for (int k = 0; k < K; k++) {
        s[k] = malloc(2 * (ns[k] + 1) * sizeof(int));
        r[k] = malloc(2 * (ns[k] + 1) * sizeof(int));
        affine_fill(s[k], rank + k, ns[k]);
        if (k % 2)
            MT_CHECK_RC(MPI_Iexscan(s[k], r[k], ns[k], MPI_2INT, op,
                                    MPI_COMM_WORLD, &req[k]));
        else
            MT_CHECK_RC(MPI_Iscan(s[k], r[k], ns[k], MPI_2INT, op,
                                  MPI_COMM_WORLD, &req[k]));
    }
    for (int k = K - 1; k >= 0; k--)
        MT_CHECK_RC(MPI_Wait(&req[k], MPI_STATUS_IGNORE));
    for (int k = 0; k < K; k++) {
        int hi = k % 2 ? rank : rank + 1;
        int *want = malloc(2 * (ns[k] + 1) * sizeof(int));
        int *tmp = malloc(2 * (ns[k] + 1) * sizeof(int));
        if (hi > 0 && ns[k] > 0) {
            affine_expect(want, k, hi + k, ns[k], tmp);   /* fills rank + k */
            MT_CHECK(memcmp(r[k], want, 2 * ns[k] * sizeof(int)) == 0,
                     "in-flight non-commutative %s %d of %d pairs out of order",
                     k % 2 ? "exscan" : "scan", k, ns[k]);
        }
        free(want); free(tmp); free(s[k]); free(r[k]);
    }
}

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
    affine_in_flight(op);
    MT_CHECK_RC(MPI_Op_free(&op));
    {
        static const int vn[] = {0, 1, 50, 100000};
        for (int c = 0; c < 4; c++)
            for (int v = 0; v < 4; v++)
                for (int form = 0; form < 3; form++)
                    if (c < 3 || form == v % 3)
                        vec_case(vn[c], v & 1, v >> 1, form);
    }

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
