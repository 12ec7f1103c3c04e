/* Comm_split_type: SHARED gives the node (one node here: everyone);
 * HW_GUIDED with an unknown level gives MPI_COMM_NULL; UNGUIDED gives
 * strict subsets or MPI_COMM_NULL. */
#include "mpitest.h"

int main(int argc, char **argv)
{
    int rank, size, n;
    MPI_Comm c;
    MPI_Info info;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                                    MPI_INFO_NULL, &c));
    MPI_Comm_size(c, &n);
    MT_CHECK(n == size, "shared size %d", n);
    MPI_Comm_free(&c);
    MT_CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0,
                                    MPI_INFO_NULL, &c));
    MT_CHECK(c == MPI_COMM_NULL, "undefined type");
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_hw_resource_type", "NoSuchLevel");
    MT_CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED,
                                    0, info, &c));
    MT_CHECK(c == MPI_COMM_NULL, "unknown level gave a comm");
    MPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory");
    MT_CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED,
                                    0, info, &c));
    MT_CHECK(c != MPI_COMM_NULL, "shared memory level");
    if (c != MPI_COMM_NULL)
        MPI_Comm_free(&c);
    MPI_Info_set(info, "mpi_hw_resource_type", "Package");
    MT_CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED,
                                    0, info, &c));
    if (c != MPI_COMM_NULL)
        MPI_Comm_free(&c);
    MT_CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD,
                                    MPI_COMM_TYPE_HW_UNGUIDED, rank,
                                    MPI_INFO_NULL, &c));
    if (c != MPI_COMM_NULL) {
        MPI_Comm_size(c, &n);
        MT_CHECK(n < size, "unguided not a strict subset (%d)", n);
        MPI_Comm_free(&c);
    }
    MPI_Info_free(&info);
    return mt_finish();
}
