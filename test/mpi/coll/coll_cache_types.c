/* The schedule cache must not hand a new datatype the schedule built for a
 * freed one that had the same address: each round creates a type (dense,
 * then strided, then dense after a lower bound), bcasts the same buffer with the
 * same count and root, checks every element and gap, and frees the type,
 * so malloc tends to give the next type the freed one's address.  (MPICH
 * coll/bcast with dtpools types found this with the chain and
 * scatter_allgather algorithms, which turn a dense type into bytes.) */
#include "../mpitest.h"

#define N 64
#define ROUNDS 30

/* One object per type (no inner types), so the allocator tends to give
 * every round's type the address the previous round freed. */
static MPI_Datatype make_type(int kind)
{
    MPI_Datatype t;

    if (kind == 0)             /* dense: ints 2e, 2e+1 */
        MPI_Type_contiguous(2, MPI_INT, &t);
    else if (kind == 1)        /* ints 3e, 3e+2 */
        MPI_Type_vector(2, 1, 2, MPI_INT, &t);
    else                       /* lb 1 int, extent 2: ints 1 .. 2 count */
        MPI_Type_create_indexed_block(1, 2, (int[]){1}, MPI_INT, &t);
    MPI_Type_commit(&t);
    return t;
}

/* Does `count` elements of kind k at buf carry buf[i]? */
static int carries(int kind, int i, int count)
{
    return kind == 0   ? i < 2 * count
           : kind == 1 ? i < 3 * count && i % 3 != 1
                       : i >= 1 && i <= 2 * count;
}

int main(int argc, char **argv)
{
    static int buf[4 * N];
    int rank, size, count = N / 2;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int r = 0; r < ROUNDS; r++) {
        int kind = r % 3, root = (r / 3) % size;
        MPI_Datatype t = make_type(kind);

        for (int i = 0; i < 4 * N; i++)
            buf[i] = rank == root ? 1000 * r + i : -1;
        MT_CHECK_RC(MPI_Bcast(buf, count, t, root, MPI_COMM_WORLD));
        for (int i = 0; i < 4 * N; i++) {
            int want = rank == root || carries(kind, i, count) ? 1000 * r + i
                                                               : -1;
            MT_CHECK(buf[i] == want, "round %d kind %d: [%d] = %d, want %d",
                     r, kind, i, buf[i], want);
        }
        MPI_Type_free(&t);
    }
    return mt_finish();
}
