/* A count above INT_MAX: 2 GiB + 4 KiB of MPI_BYTE from rank 0 to rank 1
 * with MPI_Send_c / MPI_Recv_c, checked page by page, MPI_Get_count_c and
 * MPI_Get_elements_c on the status. */
#include "../mpitest.h"
#include <limits.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size;
    const MPI_Count n = (MPI_Count)INT_MAX + 4097;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size >= 2 && rank < 2) {
        unsigned char *b = malloc((size_t)n);
        MT_CHECK(b != NULL, "cannot allocate %lld bytes", (long long)n);
        if (rank == 0) {
            for (MPI_Count i = 0; i < n; i += 4096)
                b[i] = (unsigned char)(i >> 12);
            b[n - 1] = 0xab;
            MPI_Send_c(b, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        } else {
            memset(b, 0, (size_t)n);
            MPI_Status st;
            MPI_Recv_c(b, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &st);
            long bad = 0;
            for (MPI_Count i = 0; i < n; i += 4096)
                bad += b[i] != (unsigned char)(i >> 12);
            MT_CHECK(bad == 0 && b[n - 1] == 0xab, "%ld pages differ", bad);
            MPI_Count c = -1, e = -1;
            int ci = 0;
            MPI_Get_count_c(&st, MPI_BYTE, &c);
            MPI_Get_elements_c(&st, MPI_BYTE, &e);
            MPI_Get_count(&st, MPI_BYTE, &ci);
            MT_CHECK(c == n && e == n, "count %lld elements %lld",
                     (long long)c, (long long)e);
            MT_CHECK(ci == MPI_UNDEFINED, "int count %d", ci);
        }
        free(b);
    }
    return mt_finish();
}
