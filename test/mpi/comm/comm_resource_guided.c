/* MPI_COMM_TYPE_RESOURCE_GUIDED (MPI-4.1): by mpi_hw_resource_type as
 * HW_GUIDED does, or by mpi_pset_name; unknown values give MPI_COMM_NULL.
 * MPI_Get_hw_resource_info returns an info object the caller frees. */
#include "../mpitest.h"

static int split_size(const char *key, const char *value)
{
    MPI_Info info;
    MPI_Comm c;
    int n = -1;

    MPI_Info_create(&info);
    MPI_Info_set(info, key, value);
    int rc = MPI_Comm_split_type(MPI_COMM_WORLD,
                                 MPI_COMM_TYPE_RESOURCE_GUIDED, 0, info, &c);
    MT_CHECK_RC(rc);
    MPI_Info_free(&info);
    if (c != MPI_COMM_NULL) {
        MPI_Comm_size(c, &n);
        MPI_Comm_free(&c);
    }
    return n;
}

int main(int argc, char **argv)
{
    int size, nshared, nkeys = -1, cls;
    MPI_Comm shm;
    MPI_Info hw;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                        MPI_INFO_NULL, &shm);
    MPI_Comm_size(shm, &nshared);
    MPI_Comm_free(&shm);

    int n = split_size("mpi_hw_resource_type", "mpi_shared_memory");
    MT_CHECK(n == nshared, "mpi_shared_memory: size %d, node has %d", n,
             nshared);
    n = split_size("mpi_pset_name", "mpi://WORLD");
    MT_CHECK(n == size, "mpi://WORLD: size %d of %d", n, size);
    n = split_size("mpi_pset_name", "mpi://SELF");
    MT_CHECK(n == 1, "mpi://SELF: size %d", n);
    n = split_size("mpi_pset_name", "mpi://nonexistent");
    MT_CHECK(n == -1, "unknown pset: size %d", n);
    n = split_size("mpi_hw_resource_type", "__garbage_value__");
    MT_CHECK(n == -1, "unknown resource type: size %d", n);
    n = split_size("unrelated_key", "x");
    MT_CHECK(n == -1, "no resource key: size %d", n);

    MT_CHECK_RC(MPI_Get_hw_resource_info(&hw));
    MT_CHECK(hw != MPI_INFO_NULL, "no info object");
    MT_CHECK_RC(MPI_Info_get_nkeys(hw, &nkeys));
    MT_CHECK(nkeys >= 0, "nkeys %d", nkeys);
    MT_CHECK_RC(MPI_Info_free(&hw));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Error_class(MPI_Get_hw_resource_info(NULL), &cls);
    MT_CHECK(cls == MPI_ERR_ARG, "NULL hw_info: class %d", cls);
    return mt_finish();
}
