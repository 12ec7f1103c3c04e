/* Windows of every flavour still alive at MPI_Finalize (one with data just
 * put into it, one in a lock_all epoch): MPI_Finalize completes and frees
 * them (their registered memory used to make ucp_cleanup abort) and runs
 * their attribute delete callbacks once each. */
#include "../mpitest.h"

static int deleted;

static int count_delete(MPI_Win win, int key, void *val, void *extra)
{
    (void)win, (void)key, (void)val, (void)extra;
    deleted++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Win w[4];
    int rank, size, key, local[8] = {0}, region[4], *abase, *sbase;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_delete, &key, NULL);
    MPI_Win_create(local, sizeof(local), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &w[0]);
    MPI_Win_allocate(64, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &abase,
                     &w[1]);
    MPI_Win_allocate_shared(64, sizeof(int), MPI_INFO_NULL, MPI_COMM_SELF,
                            &sbase, &w[2]);
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w[3]);
    MPI_Win_attach(w[3], region, sizeof(region));
    for (int i = 0; i < 4; i++)
        MPI_Win_set_attr(w[i], key, NULL);

    /* every rank puts its rank into its right neighbour's local[0] */
    MPI_Win_fence(0, w[0]);
    MPI_Put(&rank, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, w[0]);
    MPI_Win_fence(0, w[0]);
    MT_CHECK(local[0] == (rank + size - 1) % size, "got %d", local[0]);
    MPI_Win_lock_all(0, w[1]);
    MPI_Put(&rank, 1, MPI_INT, (rank + 1) % size, 1, 1, MPI_INT, w[1]);
    MPI_Win_flush_all(w[1]);
    int rc = mt_finish();             /* windows left for MPI_Finalize */
    if (deleted != 4) {
        fprintf(stderr, "[rank %d] %d delete callbacks ran, not 4\n", rank,
                deleted);
        rc = 1;
    }
    return rc;
}
