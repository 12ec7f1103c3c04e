/* MPI_INTEGER16 (optional Fortran type, visible in C): size, extent, name,
 * MPI_Type_match_size, and 128-bit values around a ring. */
#include "../mpitest.h"
#include <string.h>

__extension__ typedef __int128 i128_t;

int main(int argc, char **argv)
{
    int rank, size, sz = 0, len = 0;
    MPI_Aint lb = -1, ext = 0;
    char name[MPI_MAX_OBJECT_NAME];
    MPI_Datatype m = MPI_DATATYPE_NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK(MPI_INTEGER16 != MPI_DATATYPE_NULL, "MPI_INTEGER16 is null");
    MPI_Type_size(MPI_INTEGER16, &sz);
    MPI_Type_get_extent(MPI_INTEGER16, &lb, &ext);
    MT_CHECK(sz == 16 && lb == 0 && ext == 16, "size %d lb %ld extent %ld",
             sz, (long)lb, (long)ext);
    MPI_Type_get_name(MPI_INTEGER16, name, &len);
    MT_CHECK(strcmp(name, "MPI_INTEGER16") == 0, "name %s", name);
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 16, &m);
    MT_CHECK(m == MPI_INTEGER16, "Type_match_size(INTEGER, 16)");

    enum { N = 10 };
    i128_t out[N], in[N];
    for (int i = 0; i < N; i++)
        out[i] = ((i128_t)(rank + 1) << 100) + i;
    memset(in, 0, sizeof(in));
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Status st;
    MPI_Sendrecv(out, N, MPI_INTEGER16, right, 0, in, N, MPI_INTEGER16, left,
                 0, MPI_COMM_WORLD, &st);
    int bad = 0, n = -1;
    for (int i = 0; i < N; i++)
        bad += in[i] != ((i128_t)(left + 1) << 100) + i;
    MPI_Get_count(&st, MPI_INTEGER16, &n);
    MT_CHECK(bad == 0 && n == N, "%d wrong values, count %d", bad, n);

    /* non-contiguous: every other element */
    MPI_Datatype vec;
    MPI_Type_vector(N / 2, 1, 2, MPI_INTEGER16, &vec);
    MPI_Type_commit(&vec);
    memset(in, 0, sizeof(in));
    MPI_Sendrecv(out, 1, vec, right, 1, in, N / 2, MPI_INTEGER16, left, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    bad = 0;
    for (int i = 0; i < N / 2; i++)
        bad += in[i] != ((i128_t)(left + 1) << 100) + 2 * i;
    MT_CHECK(bad == 0, "vector of MPI_INTEGER16: %d wrong", bad);
    MPI_Type_free(&vec);
    return mt_finish();
}
