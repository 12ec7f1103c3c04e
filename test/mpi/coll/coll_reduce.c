/* MPI_Reduce / Ireduce / Reduce_init: every root, in place at the root,
 * sizes up to 4 MiB, a non-contiguous type and a non-commutative op. */
#include "coll_common.h"

static int rank, size;

static void sum_case(int count, int root, int inplace)
{
    int *s = malloc((count + 1) * sizeof(int)), *r = malloc((count + 1) * sizeof(int));
    for (int i = 0; i < count; i++) {
        s[i] = rank * 3 + i;
        r[i] = inplace ? s[i] : -1;
    }
    MT_CHECK_RC(MPI_Reduce(inplace && rank == root ? MPI_IN_PLACE : s, r,
                           count, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD));
    for (int i = 0; rank == root && i < count; i++)
        if (r[i] != 3 * size * (size - 1) / 2 + size * i) {
            MT_CHECK(0, "count %d root %d: [%d] = %d", count, root, i, r[i]);
            break;
        }
    free(s);
    free(r);
}

/* Non-commutative reduce of a long vector (several of the chain's
 * REDUCE_SEGMENT pieces, going by rendezvous): roots first, middle and
 * last (in place there), blocking and nonblocking.  A chain whose head is
 * the root (non-commutative: the last rank) hung once the pieces went by
 * rendezvous. */
static void affine_long(MPI_Op op)
{
    const char *segenv = getenv("UCMPI_REDUCE_SEGMENT");
    /* tiny segments: fewer pairs, or thousands of rounds */
    int n = segenv && atol(segenv) < 65536 ? 3000 : 70000;
    int *s = malloc(2 * n * sizeof(int)), *r = malloc(2 * n * sizeof(int));
    int *want = malloc(2 * n * sizeof(int)), *tmp = malloc(2 * n * sizeof(int));
    int roots[3] = {0, size / 2, size - 1};
    affine_expect(want, 0, size, n, tmp);
    for (int k = 0; k < 3; k++)
        for (int nb = 0; nb < 2; nb++) {
            int root = roots[k], inplace = k == 2 && rank == root;
            MPI_Request req;
            affine_fill(inplace ? r : s, rank, n);
            const void *in = inplace ? MPI_IN_PLACE : s;
            if (nb) {
                MT_CHECK_RC(MPI_Ireduce(in, r, n, MPI_2INT, op, root,
                                        MPI_COMM_WORLD, &req));
                MT_CHECK_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
            } else {
                MT_CHECK_RC(MPI_Reduce(in, r, n, MPI_2INT, op, root,
                                       MPI_COMM_WORLD));
            }
            MT_CHECK(rank != root || memcmp(r, want, 2 * n * sizeof(int)) == 0,
                     "non-commutative %sreduce of %d pairs to %d%s out of order",
                     nb ? "i" : "", n, root, inplace ? " in place" : "");
        }
    free(s); free(r); free(want); free(tmp);
}

int main(int argc, char **argv)
{
    static const int counts[] = {0, 1, 7, 1000, 65536, 1048576};
    MPI_Op op;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    for (int c = 0; c < 6; c++)
        for (int root = 0; root < size; root += (counts[c] > 1000 ? size : 1))
            sum_case(counts[c], root, (root + c) % 2);

    MT_CHECK_RC(MPI_Op_create(affine_fn, 0, &op));
    for (int root = 0; root < size; root++) {
        int n = 37, s[74], r[74], want[74], tmp[74];
        affine_fill(s, rank, n);
        if (rank == root && root % 2)
            memcpy(r, s, sizeof(s));
        MT_CHECK_RC(MPI_Reduce(rank == root && root % 2 ? MPI_IN_PLACE : s, r,
                               n, MPI_2INT, op, root, MPI_COMM_WORLD));
        affine_expect(want, 0, size, n, tmp);
        MT_CHECK(rank != root || memcmp(r, want, sizeof(r)) == 0,
                 "non-commutative reduce to %d out of order", root);
    }
    affine_long(op);
    MT_CHECK_RC(MPI_Op_free(&op));

    /* non-contiguous */
    {
        MPI_Datatype vec;
        int n = 500, s[1500], r[1500];
        MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
        MPI_Type_commit(&vec);
        for (int i = 0; i < 1500; i++) {
            s[i] = rank + i;
            r[i] = -7;
        }
        MT_CHECK_RC(MPI_Reduce(s, r, n, vec, MPI_SUM, size - 1, MPI_COMM_WORLD));
        for (int i = 0; rank == size - 1 && i < 1500; i++) {
            int want = i % 3 == 1 ? -7 : size * (size - 1) / 2 + size * i;
            if (r[i] != want) {
                MT_CHECK(0, "vector [%d] = %d want %d", i, r[i], want);
                break;
            }
        }
        MPI_Type_free(&vec);
    }

    /* nonblocking to every root at once, then persistent restarts */
    {
        MPI_Request req[16];
        int in[16][10], out[16][10];
        int k_max = size < 16 ? size : 16;
        for (int k = 0; k < k_max; k++) {
            for (int i = 0; i < 10; i++)
                in[k][i] = rank * k + i;
            MT_CHECK_RC(MPI_Ireduce(in[k], out[k], 10, MPI_INT, MPI_SUM, k,
                                    MPI_COMM_WORLD, &req[k]));
        }
        MT_CHECK_RC(MPI_Waitall(k_max, req, MPI_STATUSES_IGNORE));
        if (rank < k_max)
            for (int i = 0; i < 10; i++)
                MT_CHECK(out[rank][i] == rank * size * (size - 1) / 2 + size * i,
                         "ireduce root %d [%d] = %d", rank, i, out[rank][i]);
        MT_CHECK_RC(MPI_Reduce_init(in[0], out[0], 10, MPI_INT, MPI_SUM, 0,
                                    MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]));
        for (int it = 0; it < 3; it++) {
            for (int i = 0; i < 10; i++)
                in[0][i] = rank + it;
            MT_CHECK_RC(MPI_Start(&req[0]));
            MT_CHECK_RC(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
            for (int i = 0; rank == 0 && i < 10; i++)
                MT_CHECK(out[0][i] == size * (size - 1) / 2 + size * it,
                         "persistent it %d [%d] = %d", it, i, out[0][i]);
        }
        MT_CHECK_RC(MPI_Request_free(&req[0]));
    }
    /* large-count form */
    {
        int in = rank + 1, out = -1;
        MT_CHECK_RC(MPI_Reduce_c(&in, &out, (MPI_Count)1, MPI_INT, MPI_SUM, 0,
                                 MPI_COMM_WORLD));
        MT_CHECK(rank != 0 || out == size * (size + 1) / 2, "reduce_c %d", out);
    }
    return mt_finish();
}
