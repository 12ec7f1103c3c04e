/* Comm_split_type: SHARED gives the node (everyone on a single node);
 * HW_GUIDED with an unknown level gives MPI_COMM_NULL; UNGUIDED gives
 * strict subsets or MPI_COMM_NULL. */
#include "../mpitest.h"

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
    /* one communicator per node: its members agree on its size, and the
     * node communicators partition the world (all of it on one node) */
    int lo, hi;
    double nodes = 0, mine = 1.0 / n;
    MPI_Allreduce(&n, &lo, 1, MPI_INT, MPI_MIN, c);
    MPI_Allreduce(&n, &hi, 1, MPI_INT, MPI_MAX, c);
    MPI_Allreduce(&mine, &nodes, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK(n >= 1 && n <= size && lo == n && hi == n,
             "shared size %d (members see %d..%d)", n, lo, hi);
    MT_CHECK(nodes > 0.999 && nodes - (int)(nodes + 0.5) < 1e-9 &&
             (int)(nodes + 0.5) - nodes < 1e-9, "%.3f node groups", nodes);
    if (getenv("SLURM_NNODES") == NULL || atoi(getenv("SLURM_NNODES")) == 1)
        MT_CHECK(n == size, "one node, yet shared size %d of %d", n, size);
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
