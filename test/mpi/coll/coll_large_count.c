/* The large-count ("_c") data-movement collectives: Gather(v), Scatter(v),
 * Allgather(v), Alltoall(v,w), each blocking, nonblocking and persistent
 * (started twice), with MPI_Count counts (zeros included) and MPI_Aint
 * displacements (elements for v, bytes for w, blocks in reverse order with
 * gaps).  Counts stay small: the point is the argument plumbing. */
#include "../mpitest.h"

#include <string.h>

static int rank, size;

static int cnt(int from, int to)
{
    return (from * 3 + to * 5) % 4;   /* 0..3 elements */
}

static int val(int from, int to, int i, int g)
{
    return from * 10000 + to * 100 + i * 7 + g;
}

/* Runs one of the three forms: mode 0 blocking, 1 I, 2 _init + Start. */
#define RUN(mode, g, req, blocking, nonblocking, init)                    \
    do {                                                                  \
        if ((mode) == 0) {                                                \
            MT_CHECK_RC(blocking);                                        \
        } else if ((mode) == 1) {                                         \
            MT_CHECK_RC(nonblocking);                                     \
            MT_CHECK_RC(MPI_Wait(&(req), MPI_STATUS_IGNORE));             \
        } else {                                                          \
            if ((g) == 0)                                                 \
                MT_CHECK_RC(init);                                        \
            MT_CHECK_RC(MPI_Start(&(req)));                               \
            MT_CHECK_RC(MPI_Wait(&(req), MPI_STATUS_IGNORE));             \
        }                                                                 \
    } while (0)

/* v layout over all ranks as seen by `me`: block r of cnt(r, me) (gather
 * side) or cnt(me, r) (scatter side) elements, reverse order, one gap */
static MPI_Aint vlayout(int me, int gather, MPI_Count *c, MPI_Aint *d)
{
    MPI_Aint t = 0;
    for (int r = size - 1; r >= 0; r--) {
        c[r] = gather ? cnt(r, me) : cnt(me, r);
        d[r] = t;
        t += c[r] + 1;
    }
    return t;
}

static void rooted(int mode)
{
    MPI_Count *c = malloc(size * sizeof(MPI_Count));
    MPI_Aint *d = malloc(size * sizeof(MPI_Aint));
    int root = size - 1, big = 4 * size + 8;
    int *sb = malloc(big * sizeof(int)), *rb = malloc(big * sizeof(int));
    MPI_Request req[4];

    for (int g = 0; g < (mode == 2 ? 2 : 1); g++) {
        /* gather_c: 3 ints each */
        for (int i = 0; i < 3; i++)
            sb[i] = val(rank, root, i, g);
        memset(rb, 0xff, big * sizeof(int));
        RUN(mode, g, req[0],
            MPI_Gather_c(sb, 3, MPI_INT, rb, 3, MPI_INT, root, MPI_COMM_WORLD),
            MPI_Igather_c(sb, 3, MPI_INT, rb, 3, MPI_INT, root,
                          MPI_COMM_WORLD, &req[0]),
            MPI_Gather_init_c(sb, 3, MPI_INT, rb, 3, MPI_INT, root,
                              MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]));
        for (int r = 0; rank == root && r < size; r++)
            for (int i = 0; i < 3; i++)
                MT_CHECK(rb[3 * r + i] == val(r, root, i, g),
                         "gather_c mode %d [%d][%d]", mode, r, i);
        /* gatherv_c */
        vlayout(root, 1, c, d);
        for (int i = 0; i < cnt(rank, root); i++)
            sb[i] = val(rank, root, i, g);
        memset(rb, 0xff, big * sizeof(int));
        RUN(mode, g, req[1],
            MPI_Gatherv_c(sb, cnt(rank, root), MPI_INT, rb, c, d, MPI_INT,
                          root, MPI_COMM_WORLD),
            MPI_Igatherv_c(sb, cnt(rank, root), MPI_INT, rb, c, d, MPI_INT,
                           root, MPI_COMM_WORLD, &req[1]),
            MPI_Gatherv_init_c(sb, cnt(rank, root), MPI_INT, rb, c, d,
                               MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL,
                               &req[1]));
        for (int r = 0; rank == root && r < size; r++) {
            for (int i = 0; i < c[r]; i++)
                MT_CHECK(rb[d[r] + i] == val(r, root, i, g),
                         "gatherv_c mode %d [%d][%d]", mode, r, i);
            MT_CHECK(rb[d[r] + c[r]] == -1, "gatherv_c gap %d", r);
        }
        /* scatter_c: 2 ints each */
        for (int r = 0; r < size; r++)
            for (int i = 0; i < 2; i++)
                sb[2 * r + i] = val(root, r, i, g);
        memset(rb, 0xff, big * sizeof(int));
        RUN(mode, g, req[2],
            MPI_Scatter_c(sb, 2, MPI_INT, rb, 2, MPI_INT, root,
                          MPI_COMM_WORLD),
            MPI_Iscatter_c(sb, 2, MPI_INT, rb, 2, MPI_INT, root,
                           MPI_COMM_WORLD, &req[2]),
            MPI_Scatter_init_c(sb, 2, MPI_INT, rb, 2, MPI_INT, root,
                               MPI_COMM_WORLD, MPI_INFO_NULL, &req[2]));
        for (int i = 0; i < 2; i++)
            MT_CHECK(rb[i] == val(root, rank, i, g), "scatter_c mode %d [%d]",
                     mode, i);
        MT_CHECK(rb[2] == -1, "scatter_c wrote past its block");
        /* scatterv_c */
        vlayout(root, 0, c, d);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < c[r]; i++)
                sb[d[r] + i] = val(root, r, i, g);
        memset(rb, 0xff, big * sizeof(int));
        RUN(mode, g, req[3],
            MPI_Scatterv_c(sb, c, d, MPI_INT, rb, cnt(root, rank), MPI_INT,
                           root, MPI_COMM_WORLD),
            MPI_Iscatterv_c(sb, c, d, MPI_INT, rb, cnt(root, rank), MPI_INT,
                            root, MPI_COMM_WORLD, &req[3]),
            MPI_Scatterv_init_c(sb, c, d, MPI_INT, rb, cnt(root, rank),
                                MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL,
                                &req[3]));
        for (int i = 0; i < cnt(root, rank); i++)
            MT_CHECK(rb[i] == val(root, rank, i, g), "scatterv_c mode %d [%d]",
                     mode, i);
        MT_CHECK(rb[cnt(root, rank)] == -1, "scatterv_c wrote past");
    }
    for (int i = 0; mode == 2 && i < 4; i++)
        MPI_Request_free(&req[i]);
    free(c); free(d); free(sb); free(rb);
}

static void all(int mode)
{
    MPI_Count *sc = malloc(size * sizeof(MPI_Count)), *rc = malloc(size * sizeof(MPI_Count));
    MPI_Aint *sd = malloc(size * sizeof(MPI_Aint)), *rd = malloc(size * sizeof(MPI_Aint));
    MPI_Datatype *ty = malloc(size * sizeof(MPI_Datatype));
    int big = 4 * size + 8;
    int *sb = malloc(big * sizeof(int)), *rb = malloc(big * sizeof(int));
    MPI_Request req[5];

    for (int r = 0; r < size; r++)
        ty[r] = MPI_INT;
    for (int g = 0; g < (mode == 2 ? 2 : 1); g++) {
        /* allgather_c: 2 ints each */
        sb[0] = val(rank, 0, 0, g);
        sb[1] = val(rank, 0, 1, g);
        memset(rb, 0xff, big * sizeof(int));
        RUN(mode, g, req[0],
            MPI_Allgather_c(sb, 2, MPI_INT, rb, 2, MPI_INT, MPI_COMM_WORLD),
            MPI_Iallgather_c(sb, 2, MPI_INT, rb, 2, MPI_INT, MPI_COMM_WORLD,
                             &req[0]),
            MPI_Allgather_init_c(sb, 2, MPI_INT, rb, 2, MPI_INT,
                                 MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]));
        for (int r = 0; r < size; r++)
            for (int i = 0; i < 2; i++)
                MT_CHECK(rb[2 * r + i] == val(r, 0, i, g),
                         "allgather_c mode %d [%d][%d]", mode, r, i);
        /* allgatherv_c: rank r contributes cnt(r, 0) */
        for (int r = size - 1, t = 0; r >= 0; t += (int)rc[r] + 1, r--) {
            rc[r] = cnt(r, 0);
            rd[r] = t;
        }
        for (int i = 0; i < cnt(rank, 0); i++)
            sb[i] = val(rank, 0, i, g);
        memset(rb, 0xff, big * sizeof(int));
        RUN(mode, g, req[1],
            MPI_Allgatherv_c(sb, cnt(rank, 0), MPI_INT, rb, rc, rd, MPI_INT,
                             MPI_COMM_WORLD),
            MPI_Iallgatherv_c(sb, cnt(rank, 0), MPI_INT, rb, rc, rd, MPI_INT,
                              MPI_COMM_WORLD, &req[1]),
            MPI_Allgatherv_init_c(sb, cnt(rank, 0), MPI_INT, rb, rc, rd,
                                  MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                                  &req[1]));
        for (int r = 0; r < size; r++) {
            for (int i = 0; i < rc[r]; i++)
                MT_CHECK(rb[rd[r] + i] == val(r, 0, i, g),
                         "allgatherv_c mode %d [%d][%d]", mode, r, i);
            MT_CHECK(rb[rd[r] + rc[r]] == -1, "allgatherv_c gap %d", r);
        }
        /* alltoall_c: 1 int to each */
        for (int r = 0; r < size; r++)
            sb[r] = val(rank, r, 0, g);
        memset(rb, 0xff, big * sizeof(int));
        RUN(mode, g, req[2],
            MPI_Alltoall_c(sb, 1, MPI_INT, rb, 1, MPI_INT, MPI_COMM_WORLD),
            MPI_Ialltoall_c(sb, 1, MPI_INT, rb, 1, MPI_INT, MPI_COMM_WORLD,
                            &req[2]),
            MPI_Alltoall_init_c(sb, 1, MPI_INT, rb, 1, MPI_INT,
                                MPI_COMM_WORLD, MPI_INFO_NULL, &req[2]));
        for (int r = 0; r < size; r++)
            MT_CHECK(rb[r] == val(r, rank, 0, g), "alltoall_c mode %d [%d]",
                     mode, r);
        /* alltoallv_c / alltoallw_c: cnt(me, r) to r, reverse layouts */
        for (int w = 0; w < 2; w++) {
            MPI_Aint st = 0, rt = 0;
            for (int r = size - 1; r >= 0; r--) {
                sc[r] = cnt(rank, r);
                rc[r] = cnt(r, rank);
                sd[r] = w ? st * (MPI_Aint)sizeof(int) : st;
                rd[r] = w ? rt * (MPI_Aint)sizeof(int) : rt;
                st += sc[r] + 1;
                rt += rc[r] + 1;
            }
            for (int r = 0; r < size; r++)
                for (int i = 0; i < sc[r]; i++)
                    sb[(w ? sd[r] / (MPI_Aint)sizeof(int) : sd[r]) + i] =
                        val(rank, r, i, g + w);
            memset(rb, 0xff, big * sizeof(int));
            if (w)
                RUN(mode, g, req[4],
                    MPI_Alltoallw_c(sb, sc, sd, ty, rb, rc, rd, ty,
                                    MPI_COMM_WORLD),
                    MPI_Ialltoallw_c(sb, sc, sd, ty, rb, rc, rd, ty,
                                     MPI_COMM_WORLD, &req[4]),
                    MPI_Alltoallw_init_c(sb, sc, sd, ty, rb, rc, rd, ty,
                                         MPI_COMM_WORLD, MPI_INFO_NULL,
                                         &req[4]));
            else
                RUN(mode, g, req[3],
                    MPI_Alltoallv_c(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT,
                                    MPI_COMM_WORLD),
                    MPI_Ialltoallv_c(sb, sc, sd, MPI_INT, rb, rc, rd,
                                     MPI_INT, MPI_COMM_WORLD, &req[3]),
                    MPI_Alltoallv_init_c(sb, sc, sd, MPI_INT, rb, rc, rd,
                                         MPI_INT, MPI_COMM_WORLD,
                                         MPI_INFO_NULL, &req[3]));
            for (int r = 0; r < size; r++) {
                MPI_Aint at = w ? rd[r] / (MPI_Aint)sizeof(int) : rd[r];
                for (int i = 0; i < rc[r]; i++)
                    MT_CHECK(rb[at + i] == val(r, rank, i, g + w),
                             "alltoall%c_c mode %d [%d][%d]", w ? 'w' : 'v',
                             mode, r, i);
                MT_CHECK(rb[at + rc[r]] == -1, "alltoall%c_c gap %d",
                         w ? 'w' : 'v', r);
            }
        }
    }
    for (int i = 0; mode == 2 && i < 5; i++)
        MPI_Request_free(&req[i]);
    free(sc); free(rc); free(sd); free(rd); free(ty); free(sb); free(rb);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int mode = 0; mode < 3; mode++) {
        rooted(mode);
        all(mode);
    }
    /* a negative count is an error, not a huge one */
    {
        MPI_Count c[64];
        MPI_Aint d[64] = {0};
        int x = 0;
        for (int r = 0; r < size && r < 64; r++)
            c[r] = r == 0 ? -1 : 0;
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        if (size <= 64) {
            int err = MPI_Allgatherv_c(&x, 0, MPI_INT, &x, c, d, MPI_INT,
                                       MPI_COMM_WORLD), cls = -1;
            MPI_Error_class(err, &cls);
            MT_CHECK(cls == MPI_ERR_COUNT, "negative count: class %d", cls);
        }
    }
    return mt_finish();
}
