/*
 * hello: every rank says who it is and where it runs.
 *   mpiexec -n 4 examples/hello
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, len, version, subversion;
    char host[MPI_MAX_PROCESSOR_NAME];
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(host, &len);
    MPI_Get_version(&version, &subversion);
    if (rank == 0) {
        MPI_Get_library_version(lib, &len);
        printf("hello: MPI %d.%d, %s\n", version, subversion, lib);
    }
    printf("hello from rank %d of %d on %s\n", rank, size, host);
    MPI_Finalize();
    return 0;
}
