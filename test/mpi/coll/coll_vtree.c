/* MPI_Gatherv / MPI_Scatterv with counts that differ a lot between ranks
 * (zeros, a few ints, 200k ints), every root, a strided type on the
 * non-root side, blocking, nonblocking (two in flight at once) and
 * persistent (restarted with new data).  The list runs it with each
 * UCMPI_GATHERV/SCATTERV_ALGORITHM, so the binomial trees (whose inner
 * nodes learn the counts while the schedule runs) see every shape. */
#include "../mpitest.h"

#include <string.h>

static int rank, size;

static int count_of(int r, int root, int salt)
{
    static const int menu[] = {0, 3, 200000, 17, 0, 1, 4096, 65536};
    return menu[(r * 5 + root * 3 + salt) % 8];
}

static int val(int r, int i, int g)
{
    return r * 1000003 + i * 7 + g * 13;
}

/* every other int: the non-root side uses a strided type */
static MPI_Datatype strided(void)
{
    MPI_Datatype v, t;
    MPI_Type_vector(1, 1, 2, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, 2 * sizeof(int), &t);
    MPI_Type_commit(&t);
    MPI_Type_free(&v);
    return t;
}

static void layout(int root, int salt, int *counts, int *displs, int *total)
{
    *total = 0;
    for (int r = size - 1; r >= 0; r--) {   /* reverse order, gaps */
        counts[r] = count_of(r, root, salt);
        displs[r] = *total;
        *total += counts[r] + 1;
    }
}

static void gatherv_case(int root, int salt, int mode, MPI_Datatype st)
{
    int *counts = malloc(size * sizeof(int)), *displs = malloc(size * sizeof(int));
    int total, mine, reps = mode == 2 ? 3 : 1;
    MPI_Request req[2];

    layout(root, salt, counts, displs, &total);
    mine = counts[rank];
    int *sb = malloc((2 * (size_t)mine + 1) * sizeof(int));
    int *rb = malloc(((size_t)total + 1) * sizeof(int));
    int *rb2 = malloc(((size_t)total + 1) * sizeof(int));
    if (mode == 2)
        MT_CHECK_RC(MPI_Gatherv_init(sb, mine, st, rb, counts, displs,
                                     MPI_INT, root, MPI_COMM_WORLD,
                                     MPI_INFO_NULL, &req[0]));
    for (int g = 0; g < reps; g++) {
        for (int i = 0; i < mine; i++)
            sb[2 * i] = val(rank, i, g);
        for (int i = 0; i < total; i++)
            rb[i] = rb2[i] = -1;
        if (mode == 0) {
            MT_CHECK_RC(MPI_Gatherv(sb, mine, st, rb, counts, displs, MPI_INT,
                                    root, MPI_COMM_WORLD));
        } else if (mode == 1) {   /* two in flight, waited in reverse */
            MT_CHECK_RC(MPI_Igatherv(sb, mine, st, rb, counts, displs,
                                     MPI_INT, root, MPI_COMM_WORLD, &req[0]));
            MT_CHECK_RC(MPI_Igatherv(sb, mine, st, rb2, counts, displs,
                                     MPI_INT, root, MPI_COMM_WORLD, &req[1]));
            MT_CHECK_RC(MPI_Wait(&req[1], MPI_STATUS_IGNORE));
            MT_CHECK_RC(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
        } else {
            MT_CHECK_RC(MPI_Start(&req[0]));
            MT_CHECK_RC(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
        }
        for (int r = 0; rank == root && r < size; r++) {
            int bad = -1;
            for (int i = 0; i < counts[r] && bad < 0; i++)
                if (rb[displs[r] + i] != val(r, i, g) ||
                    (mode == 1 && rb2[displs[r] + i] != val(r, i, g)))
                    bad = i;
            MT_CHECK(bad < 0, "gatherv root %d salt %d mode %d: block %d "
                     "element %d wrong", root, salt, mode, r, bad);
            MT_CHECK(rb[displs[r] + counts[r]] == -1, "gatherv: gap after "
                     "block %d overwritten", r);
        }
    }
    if (mode == 2)
        MPI_Request_free(&req[0]);
    free(sb); free(rb); free(rb2); free(counts); free(displs);
}

static void scatterv_case(int root, int salt, int mode, MPI_Datatype rt)
{
    int *counts = malloc(size * sizeof(int)), *displs = malloc(size * sizeof(int));
    int total, mine, reps = mode == 2 ? 3 : 1;
    MPI_Request req[2];

    layout(root, salt, counts, displs, &total);
    mine = counts[rank];
    int *sb = malloc(((size_t)total + 1) * sizeof(int));
    int *rb = malloc((2 * (size_t)mine + 1) * sizeof(int));
    int *rb2 = malloc((2 * (size_t)mine + 1) * sizeof(int));
    if (mode == 2)
        MT_CHECK_RC(MPI_Scatterv_init(sb, counts, displs, MPI_INT, rb, mine,
                                      rt, root, MPI_COMM_WORLD,
                                      MPI_INFO_NULL, &req[0]));
    for (int g = 0; g < reps; g++) {
        for (int r = 0; r < size; r++)
            for (int i = 0; i < counts[r]; i++)
                sb[displs[r] + i] = val(r, i, g);
        for (int i = 0; i < 2 * mine + 1; i++)
            rb[i] = rb2[i] = -1;
        if (mode == 0) {
            MT_CHECK_RC(MPI_Scatterv(sb, counts, displs, MPI_INT, rb, mine,
                                     rt, root, MPI_COMM_WORLD));
        } else if (mode == 1) {
            MT_CHECK_RC(MPI_Iscatterv(sb, counts, displs, MPI_INT, rb, mine,
                                      rt, root, MPI_COMM_WORLD, &req[0]));
            MT_CHECK_RC(MPI_Iscatterv(sb, counts, displs, MPI_INT, rb2, mine,
                                      rt, root, MPI_COMM_WORLD, &req[1]));
            MT_CHECK_RC(MPI_Wait(&req[1], MPI_STATUS_IGNORE));
            MT_CHECK_RC(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
        } else {
            MT_CHECK_RC(MPI_Start(&req[0]));
            MT_CHECK_RC(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
        }
        int bad = -1;
        for (int i = 0; i < mine && bad < 0; i++)
            if (rb[2 * i] != val(rank, i, g) || rb[2 * i + 1] != -1 ||
                (mode == 1 && rb2[2 * i] != val(rank, i, g)))
                bad = i;
        MT_CHECK(bad < 0, "scatterv root %d salt %d mode %d: element %d "
                 "wrong", root, salt, mode, bad);
    }
    if (mode == 2)
        MPI_Request_free(&req[0]);
    free(sb); free(rb); free(rb2); free(counts); free(displs);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Datatype st = strided();

    for (int root = 0; root < size; root++)
        for (int salt = 0; salt < 2; salt++)
            for (int mode = 0; mode < 3; mode++) {
                gatherv_case(root, salt, mode, st);
                scatterv_case(root, salt, mode, st);
            }
    MPI_Type_free(&st);
    return mt_finish();
}
