/* MPI_Bcast / Ibcast / Bcast_init: sizes 0..4 MiB, several roots,
 * a non-contiguous type, overlapping nonblocking bcasts, restarts. */
#include "coll_common.h"

static int rank, size;

static void check_bcast(int count, int root)
{
    int *buf = malloc((count + 1) * sizeof(int));
    for (int i = 0; i < count; i++)
        buf[i] = rank == root ? i * 7 + root : -1;
    MT_CHECK_RC(MPI_Bcast(buf, count, MPI_INT, root, MPI_COMM_WORLD));
    for (int i = 0; i < count; i++)
        if (buf[i] != i * 7 + root) {
            MT_CHECK(0, "count %d root %d: [%d] = %d", count, root, i, buf[i]);
            break;
        }
    free(buf);
}

int main(int argc, char **argv)
{
    static const int counts[] = {0, 1, 3, 1000, 16384 + 5, 262144, 1048576};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    for (int c = 0; c < 7; c++) {
        check_bcast(counts[c], 0);
        if (counts[c] <= 262144) {
            check_bcast(counts[c], size - 1);
            check_bcast(counts[c], size / 2);
        }
    }

    /* non-contiguous: every other int of a strided vector */
    {
        MPI_Datatype vec;
        int n = 5000, *buf = malloc(3 * n * sizeof(int));
        MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
        MPI_Type_commit(&vec);
        for (int i = 0; i < 3 * n; i++)
            buf[i] = rank == 1 % size ? i : -5;
        MT_CHECK_RC(MPI_Bcast(buf, n, vec, 1 % size, MPI_COMM_WORLD));
        for (int i = 0; i < 3 * n; i++) {
            int want = i % 3 == 1 ? (rank == 1 % size ? i : -5) : i;
            if (buf[i] != want) {
                MT_CHECK(0, "vector bcast [%d] = %d, want %d", i, buf[i], want);
                break;
            }
        }
        MPI_Type_free(&vec);
        free(buf);
    }

    /* overlapping nonblocking bcasts from different roots, reverse waits */
    {
        enum { K = 8 };
        MPI_Request req[K];
        static int bufs[K][300];
        for (int k = 0; k < K; k++) {
            for (int i = 0; i < 300; i++)
                bufs[k][i] = rank == k % size ? k * 1000 + i : -1;
            MT_CHECK_RC(MPI_Ibcast(bufs[k], 100 * (k % 3), MPI_INT, k % size,
                                   MPI_COMM_WORLD, &req[k]));
        }
        for (int k = K - 1; k >= 0; k--)
            MT_CHECK_RC(MPI_Wait(&req[k], MPI_STATUS_IGNORE));
        for (int k = 0; k < K; k++)
            for (int i = 0; i < 100 * (k % 3); i++)
                if (bufs[k][i] != k * 1000 + i) {
                    MT_CHECK(0, "ibcast %d [%d] = %d", k, i, bufs[k][i]);
                    break;
                }
    }

    /* persistent: build once, start three times with new data */
    {
        MPI_Request req;
        int buf[50];
        MT_CHECK_RC(MPI_Bcast_init(buf, 50, MPI_INT, size - 1, MPI_COMM_WORLD,
                                   MPI_INFO_NULL, &req));
        for (int it = 0; it < 3; it++) {
            for (int i = 0; i < 50; i++)
                buf[i] = rank == size - 1 ? it * 100 + i : -1;
            MT_CHECK_RC(MPI_Start(&req));
            MT_CHECK_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
            for (int i = 0; i < 50; i++)
                if (buf[i] != it * 100 + i) {
                    MT_CHECK(0, "persistent it %d [%d] = %d", it, i, buf[i]);
                    break;
                }
        }
        MT_CHECK_RC(MPI_Request_free(&req));
    }
    /* large-count form */
    {
        int v[3] = {rank, rank, rank};
        MT_CHECK_RC(MPI_Bcast_c(v, (MPI_Count)3, MPI_INT, size - 1,
                                MPI_COMM_WORLD));
        MT_CHECK(v[0] == size - 1 && v[2] == size - 1, "bcast_c %d", v[0]);
    }
    return mt_finish();
}
