/* MPI_Allreduce / Iallreduce / Allreduce_init: sizes 0..4 MiB, in place,
 * MAX on doubles, a non-contiguous type, a non-commutative user op,
 * overlapping nonblocking calls and persistent restarts.  Run with each
 * UCMPI_ALLREDUCE_ALGORITHM in turn. */
#include "coll_common.h"

static int rank, size;

static void sum_case(int count, int inplace)
{
    int *s = malloc((count + 1) * sizeof(int)), *r = malloc((count + 1) * sizeof(int));
    for (int i = 0; i < count; i++) {
        s[i] = rank * 3 + i;
        r[i] = inplace ? s[i] : -1;
    }
    MT_CHECK_RC(MPI_Allreduce(inplace ? MPI_IN_PLACE : s, r, count, MPI_INT,
                              MPI_SUM, MPI_COMM_WORLD));
    for (int i = 0; i < count; i++)
        if (r[i] != 3 * size * (size - 1) / 2 + size * i) {
            MT_CHECK(0, "count %d inplace %d: [%d] = %d", count, inplace, i, r[i]);
            break;
        }
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    static const int counts[] = {0, 1, 2, 7, 100, 4097, 65536, 1048576};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    for (int c = 0; c < 8; c++) {
        sum_case(counts[c], 0);
        if (counts[c] < 1048576)
            sum_case(counts[c], 1);
    }

    /* MAX on doubles */
    {
        double v[33], out[33];
        for (int i = 0; i < 33; i++)
            v[i] = (rank * 31 + i * 17) % (size + 5) + 0.5;
        MT_CHECK_RC(MPI_Allreduce(v, out, 33, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
        for (int i = 0; i < 33; i++) {
            double want = -1;
            for (int r = 0; r < size; r++) {
                double x = (r * 31 + i * 17) % (size + 5) + 0.5;
                want = x > want ? x : want;
            }
            MT_CHECK(out[i] == want, "max [%d] = %f want %f", i, out[i], want);
        }
    }

    /* non-contiguous: vector(2,1,2) of ints, the gaps stay untouched */
    {
        MPI_Datatype vec;
        int n = 3000, *s = malloc(3 * n * sizeof(int)), *r = malloc(3 * n * sizeof(int));
        MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
        MPI_Type_commit(&vec);
        for (int i = 0; i < 3 * n; i++) {
            s[i] = rank + i;
            r[i] = -7;
        }
        MT_CHECK_RC(MPI_Allreduce(s, r, n, vec, MPI_SUM, MPI_COMM_WORLD));
        for (int i = 0; i < 3 * n; i++) {
            int want = i % 3 == 1 ? -7 : size * (size - 1) / 2 + size * i;
            if (r[i] != want) {
                MT_CHECK(0, "vector [%d] = %d want %d", i, r[i], want);
                break;
            }
        }
        MPI_Type_free(&vec);
        free(s);
        free(r);
    }

    /* a type whose data starts at byte 8 of each 12 (true_lb != 0) */
    {
        MPI_Datatype hi, rs;
        int bl = 1, n = 1000, *s = malloc(3 * n * sizeof(int));
        int *r = malloc(3 * n * sizeof(int));
        MPI_Aint disp = 8;
        MPI_Type_create_hindexed(1, &bl, &disp, MPI_INT, &hi);
        MPI_Type_create_resized(hi, 0, 12, &rs);
        MPI_Type_commit(&rs);
        for (int inplace = 0; inplace < 2; inplace++) {
            for (int i = 0; i < 3 * n; i++) {
                s[i] = rank + i;
                r[i] = inplace ? s[i] : -1;
            }
            MT_CHECK_RC(MPI_Allreduce(inplace ? MPI_IN_PLACE : s, r, n, rs,
                                      MPI_SUM, MPI_COMM_WORLD));
            for (int i = 0; i < 3 * n; i++) {
                int want = i % 3 == 2 ? size * (size - 1) / 2 + size * i
                                      : (inplace ? rank + i : -1);
                if (r[i] != want) {
                    MT_CHECK(0, "lb-8 type inplace %d [%d] = %d want %d",
                             inplace, i, r[i], want);
                    break;
                }
            }
        }
        MPI_Type_free(&rs);
        MPI_Type_free(&hi);
        free(s);
        free(r);
    }

    /* non-commutative user op: rank order */
    {
        MPI_Op op;
        static const int ncs[] = {1, 5, 2000};
        MT_CHECK_RC(MPI_Op_create(affine_fn, 0, &op));
        for (int c = 0; c < 3; c++) {
            int n = ncs[c];
            int *s = malloc(2 * n * sizeof(int)), *r = malloc(2 * n * sizeof(int));
            int *want = malloc(2 * n * sizeof(int)), *tmp = malloc(2 * n * sizeof(int));
            affine_fill(s, rank, n);
            MT_CHECK_RC(MPI_Allreduce(s, r, n, MPI_2INT, op, MPI_COMM_WORLD));
            affine_expect(want, 0, size, n, tmp);
            MT_CHECK(memcmp(r, want, 2 * n * sizeof(int)) == 0,
                     "non-commutative allreduce of %d pairs out of order", n);
            free(s); free(r); free(want); free(tmp);
        }
        MT_CHECK_RC(MPI_Op_free(&op));
    }

    /* many overlapping nonblocking allreduces, waited in reverse order */
    {
        enum { K = 12 };
        MPI_Request req[K];
        static int in[K][512], out[K][512];
        for (int k = 0; k < K; k++) {
            for (int i = 0; i < 512; i++)
                in[k][i] = rank + k + i;
            MT_CHECK_RC(MPI_Iallreduce(in[k], out[k], 1 + k * 40, MPI_INT,
                                       MPI_SUM, MPI_COMM_WORLD, &req[k]));
        }
        for (int k = K - 1; k >= 0; k--)
            MT_CHECK_RC(MPI_Wait(&req[k], MPI_STATUS_IGNORE));
        for (int k = 0; k < K; k++)
            for (int i = 0; i < 1 + k * 40; i++)
                if (out[k][i] != size * (size - 1) / 2 + size * (k + i)) {
                    MT_CHECK(0, "iallreduce %d [%d] = %d", k, i, out[k][i]);
                    break;
                }
    }

    /* user op and derived type freed while the collective is pending */
    {
        MPI_Op op;
        MPI_Datatype vec;
        MPI_Request req, req2;
        int in[30], out[30], in2[10], out2[10];
        MT_CHECK_RC(MPI_Op_create(affine_fn, 0, &op));
        MPI_Type_contiguous(2, MPI_INT, &vec);     /* freed while in use */
        MPI_Type_commit(&vec);
        affine_fill(in, rank, 15);
        MT_CHECK_RC(MPI_Iallreduce(in, out, 15, MPI_2INT, op, MPI_COMM_WORLD,
                                   &req));
        for (int i = 0; i < 10; i++)
            in2[i] = rank + i;
        MT_CHECK_RC(MPI_Iallreduce(in2, out2, 5, vec, MPI_SUM, MPI_COMM_WORLD,
                                   &req2));
        MT_CHECK_RC(MPI_Op_free(&op));
        MPI_Type_free(&vec);
        MT_CHECK_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
        MT_CHECK_RC(MPI_Wait(&req2, MPI_STATUS_IGNORE));
        for (int i = 0; i < 10; i++)
            MT_CHECK(out2[i] == size * (size - 1) / 2 + size * i,
                     "allreduce on a freed type [%d] = %d", i, out2[i]);
        int want[30], tmp[30];
        affine_expect(want, 0, size, 15, tmp);
        MT_CHECK(memcmp(out, want, sizeof(out)) == 0,
                 "allreduce with an op freed before the wait");
    }

    /* persistent, restarted with new data */
    {
        MPI_Request req;
        int in[64], out[64];
        MT_CHECK_RC(MPI_Allreduce_init(in, out, 64, MPI_INT, MPI_SUM,
                                       MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        for (int it = 0; it < 4; it++) {
            for (int i = 0; i < 64; i++)
                in[i] = rank * it + i;
            MT_CHECK_RC(MPI_Start(&req));
            MT_CHECK_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
            for (int i = 0; i < 64; i++)
                if (out[i] != it * size * (size - 1) / 2 + size * i) {
                    MT_CHECK(0, "persistent it %d [%d] = %d", it, i, out[i]);
                    break;
                }
        }
        MT_CHECK_RC(MPI_Request_free(&req));
    }
    /* large-count forms */
    {
        int in[5] = {1, 2, 3, 4, 5}, out[5], out2[5];
        MPI_Request req;
        MT_CHECK_RC(MPI_Allreduce_c(in, out, (MPI_Count)5, MPI_INT, MPI_SUM,
                                    MPI_COMM_WORLD));
        MT_CHECK_RC(MPI_Iallreduce_c(in, out2, (MPI_Count)5, MPI_INT, MPI_MAX,
                                     MPI_COMM_WORLD, &req));
        MT_CHECK_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
        for (int i = 0; i < 5; i++)
            MT_CHECK(out[i] == size * (i + 1) && out2[i] == i + 1,
                     "allreduce_c [%d] = %d %d", i, out[i], out2[i]);
    }
    return mt_finish();
}
