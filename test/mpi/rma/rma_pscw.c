/*
 * Generalized active target with partial groups: every rank exposes its
 * window to its left neighbour and accesses its right one, finishing the
 * exposure with MPI_Win_wait or a MPI_Win_test loop; then fences with
 * every legal assertion.
 */
#include "../mpitest.h"

#define ROUNDS 20

int main(int argc, char **argv)
{
    int rank, size, *mem;
    MPI_Win win;
    MPI_Group world, left_g, right_g;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &left, &left_g);
    MPI_Group_incl(world, 1, &right, &right_g);
    MT_CHECK_RC(MPI_Win_allocate(ROUNDS * sizeof(int), sizeof(int),
                                 MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    for (int i = 0; i < ROUNDS; i++)
        mem[i] = -1;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int r = 0; r < ROUNDS; r++) {
        int v = 100 * rank + r, got = -1;
        MT_CHECK_RC(MPI_Win_post(left_g, r % 3 == 2 ? MPI_MODE_NOSTORE : 0,
                                 win));
        MT_CHECK_RC(MPI_Win_start(right_g, 0, win));
        MT_CHECK_RC(MPI_Put(&v, 1, MPI_INT, right, r, 1, MPI_INT, win));
        if (r > 0)
            MT_CHECK_RC(MPI_Get(&got, 1, MPI_INT, right, r - 1, 1, MPI_INT,
                                win));
        MT_CHECK_RC(MPI_Win_complete(win));
        if (r > 0)
            MT_CHECK(got == 100 * rank + r - 1, "round %d: get %d", r, got);
        if (r % 2) {
            MT_CHECK_RC(MPI_Win_wait(win));
        } else {
            int flag = 0;
            while (!flag)
                MT_CHECK_RC(MPI_Win_test(win, &flag));
        }
        MT_CHECK(mem[r] == 100 * left + r, "round %d: exposed %d", r,
                 mem[r]);
    }
    /* fences with assertions */
    int v = rank;
    MT_CHECK_RC(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    MT_CHECK_RC(MPI_Accumulate(&v, 1, MPI_INT, right, 0, 1, MPI_INT,
                               MPI_REPLACE, win));
    MT_CHECK_RC(MPI_Win_fence(MPI_MODE_NOSTORE, win));
    MT_CHECK(mem[0] == left, "fence epoch 1: %d", mem[0]);
    MT_CHECK_RC(MPI_Win_fence(MPI_MODE_NOPUT | MPI_MODE_NOSTORE, win));
    MT_CHECK_RC(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    /* a lock epoch may follow a closed fence sequence */
    MT_CHECK_RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    MT_CHECK_RC(MPI_Put(&v, 1, MPI_INT, right, 1, 1, MPI_INT, win));
    MT_CHECK_RC(MPI_Win_unlock(right, win));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK(mem[1] == left, "after lock epoch: %d", mem[1]);
    MT_CHECK_RC(MPI_Win_free(&win));
    MPI_Group_free(&left_g);
    MPI_Group_free(&right_g);
    MPI_Group_free(&world);
    return mt_finish();
}
