/* A message past 1 GiB between two ranks, checked at both ends. */
#include "../mpitest.h"
#include <stdint.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size;
    const size_t n = (1UL << 30) + 4096;   /* bytes */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size >= 2 && rank < 2) {
        MPI_Datatype chunk;   /* 1 KiB elements keep the count an int */
        MPI_Type_contiguous(1024, MPI_BYTE, &chunk);
        MPI_Type_commit(&chunk);
        unsigned char *b = malloc(n);
        MT_CHECK(b != NULL, "cannot allocate %zu bytes", n);
        if (rank == 0) {
            for (size_t i = 0; i < n; i += 4096)
                b[i] = (unsigned char)(i >> 12);
            b[n - 1] = 0xab;
            MPI_Send(b, (int)(n / 1024), chunk, 1, 0, MPI_COMM_WORLD);
        } else {
            memset(b, 0, n);
            MPI_Status st;
            MPI_Recv(b, (int)(n / 1024), chunk, 0, 0, MPI_COMM_WORLD, &st);
            int bad = 0;
            for (size_t i = 0; i < n; i += 4096)
                bad += b[i] != (unsigned char)(i >> 12);
            MT_CHECK(bad == 0 && b[n - 1] == 0xab, "%d pages differ", bad);
            MPI_Count c;
            MPI_Get_elements_x(&st, MPI_BYTE, &c);
            MT_CHECK(c == (MPI_Count)n, "received %lld bytes", (long long)c);
        }
        free(b);
        MPI_Type_free(&chunk);
    }
    return mt_finish();
}
