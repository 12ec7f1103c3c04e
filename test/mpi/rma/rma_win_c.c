/*
 * Large-count window creation (MPI 4.1): MPI_Win_create_c,
 * MPI_Win_allocate_c, MPI_Win_allocate_shared_c and MPI_Win_shared_query_c,
 * with a disp_unit beyond INT_MAX: displacements scale by it (disp 0 is
 * in the window, disp 1 is outside it), the int query reports
 * MPI_ERR_VALUE_TOO_LARGE and the _c query the exact value.
 */
#include "../mpitest.h"

#include <limits.h>
#include <string.h>

#define BIG_UNIT ((MPI_Aint)3 << 31)   /* 6 GiB, more than INT_MAX */

static int cls(int rc)
{
    int c = rc;
    MPI_Error_class(rc, &c);
    return c;
}

/* Everyone puts its rank+1 into the first long of its right neighbour and
 * checks what its left neighbour put into its own memory. */
static void ring_put(MPI_Win win, long *mem, int rank, int size,
                     const char *what)
{
    long v = rank + 1;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MT_CHECK_RC(MPI_Win_fence(0, win));
    MT_CHECK_RC(MPI_Put(&v, 1, MPI_LONG, right, 0, 1, MPI_LONG, win));
    /* disp 1 is BIG_UNIT bytes in: outside every window */
    int rc = MPI_Put(&v, 1, MPI_LONG, right, 1, 1, MPI_LONG, win);
    MT_CHECK(cls(rc) == MPI_ERR_RMA_RANGE, "%s: put at disp 1 gave %d",
             what, rc);
    MT_CHECK_RC(MPI_Win_fence(0, win));
    MT_CHECK(mem[0] == left + 1, "%s: got %ld, want %d", what, mem[0],
             left + 1);
    MT_CHECK(mem[1] == -1, "%s: word after the target changed: %ld", what,
             mem[1]);
}

static void check_unit(MPI_Win win, int rank, MPI_Aint size_want,
                       const char *what)
{
    MPI_Aint sz = -1, du = -1;
    int idu = -1, *attr, flag = 0;
    void *base;
    MT_CHECK_RC(MPI_Win_shared_query_c(win, rank, &sz, &du, &base));
    MT_CHECK(du == BIG_UNIT, "%s: shared_query_c disp_unit %ld", what,
             (long)du);
    MT_CHECK(sz == size_want, "%s: shared_query_c size %ld want %ld", what,
             (long)sz, (long)size_want);
    int rc = MPI_Win_shared_query(win, rank, &sz, &idu, &base);
    MT_CHECK(cls(rc) == MPI_ERR_VALUE_TOO_LARGE,
             "%s: int shared_query gave %d (disp_unit %d)", what, rc, idu);
    MT_CHECK_RC(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &attr, &flag));
    MT_CHECK(flag && *attr == INT_MAX, "%s: MPI_WIN_DISP_UNIT attribute %d",
             what, flag ? *attr : -1);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Win win;
    long *mem, local[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* Win_create_c over user memory */
    memset(local, 0xff, sizeof(local));   /* -1 everywhere */
    MT_CHECK_RC(MPI_Win_create_c(local, sizeof(long), BIG_UNIT, MPI_INFO_NULL,
                                 MPI_COMM_WORLD, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    ring_put(win, local, rank, size, "create_c");
    check_unit(win, rank, 0, "create_c");
    MT_CHECK_RC(MPI_Win_free(&win));

    /* Win_allocate_c: 2 longs, only the first is in the window's range */
    MT_CHECK_RC(MPI_Win_allocate_c(2 * sizeof(long), BIG_UNIT, MPI_INFO_NULL,
                                   MPI_COMM_WORLD, &mem, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    mem[0] = mem[1] = -1;
    ring_put(win, mem, rank, size, "allocate_c");
    check_unit(win, rank, 0, "allocate_c");
    MT_CHECK_RC(MPI_Win_free(&win));

    /* Win_allocate_shared_c on each node's ranks */
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                        MPI_INFO_NULL, &node);
    int nrank, nsize;
    MPI_Comm_rank(node, &nrank);
    MPI_Comm_size(node, &nsize);
    MT_CHECK_RC(MPI_Win_allocate_shared_c(2 * sizeof(long), BIG_UNIT,
                                          MPI_INFO_NULL, node, &mem, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    mem[0] = mem[1] = -1;
    ring_put(win, mem, nrank, nsize, "allocate_shared_c");
    check_unit(win, (nrank + 1) % nsize, 2 * sizeof(long),
               "allocate_shared_c");
    MT_CHECK_RC(MPI_Win_free(&win));
    MPI_Comm_free(&node);

    /* bad disp_unit values are refused, also in the _c forms */
    int rc = MPI_Win_allocate_c(8, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &mem,
                                &win);
    MT_CHECK(cls(rc) == MPI_ERR_DISP, "allocate_c disp_unit 0 gave %d", rc);
    rc = MPI_Win_create_c(local, 8, -((MPI_Aint)1 << 40), MPI_INFO_NULL,
                          MPI_COMM_WORLD, &win);
    MT_CHECK(cls(rc) == MPI_ERR_DISP, "create_c negative disp_unit gave %d",
             rc);
    return mt_finish();
}
