/* Neighbor collectives on cartesian (periodic 1-d ring, where both
 * neighbours may be one rank, and a non-periodic 2-d grid with
 * MPI_PROC_NULL edges), graph and dist-graph topologies, in blocking,
 * nonblocking and persistent forms: allgather(v) and alltoall(v,w); blocks
 * of 0 to 70000 ints (rendezvous), strided receive types. */
#include "coll_xfer.h"

static int rank, size;

/* cartesian: slot 2d receives what the negative-direction neighbour sent
 * in the positive direction (its slot 2d+1), and vice versa.  st = 2
 * receives into a strided type (ints 8 bytes apart: the gaps stay -1). */
static void test_cart_st(MPI_Comm cart, int ndims, int count, int f, int st)
{
    int deg = 2 * ndims, src[8];
    int *sb = xalloc(sizeof(int) * (size_t)count * deg);
    int *rb = xalloc(sizeof(int) * (size_t)count * deg * st);
    int *ab = xalloc(sizeof(int) * (size_t)count);
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Datatype rt = MPI_INT;
    int me;

    if (st > 1) {
        MPI_Type_create_resized(MPI_INT, 0, st * sizeof(int), &rt);
        MPI_Type_commit(&rt);
    }

    MPI_Comm_rank(cart, &me);
    for (int d = 0; d < ndims; d++)
        MPI_Cart_shift(cart, d, 1, &src[2 * d], &src[2 * d + 1]);
    for (int g = 0; g < xreps(f); g++) {
        for (int j = 0; j < deg; j++)
            for (int i = 0; i < count; i++)
                sb[j * count + i] = xv(me, j, i, g);
        for (int i = 0; i < count * deg * st; i++)
            rb[i] = -1;
        XRUN(f, g, req,
             MPI_Neighbor_alltoall(sb, count, MPI_INT, rb, count, rt, cart),
             MPI_Ineighbor_alltoall(sb, count, MPI_INT, rb, count, rt, cart,
                                    &req),
             MPI_Neighbor_alltoall_init(sb, count, MPI_INT, rb, count, rt,
                                        cart, MPI_INFO_NULL, &req));
        for (int j = 0; j < deg; j++) {
            if (src[j] == MPI_PROC_NULL) {
                for (int i = 0; i < count * st; i++)
                    MT_CHECK(rb[(j * count) * st + i] == -1, "cart: PROC_NULL "
                             "slot %d written", j);
                continue;
            }
            XCHECK_BLOCK(rb + j * count * st, count, st, src[j], j ^ 1, g,
                         "cart neighbor_alltoall");
        }
        for (int i = 1; st > 1 && i < count * deg * st; i += st)
            if (rb[i] != -1) {
                MT_CHECK(0, "cart neighbor_alltoall: gap %d written", i);
                break;
            }
    }
    xfree_req(f, &req);
    /* allgather: every neighbour's one block */
    for (int i = 0; i < count; i++)
        ab[i] = xv(me, 0, i, 5);
    for (int i = 0; i < count * deg * st; i++)
        rb[i] = -1;
    for (int g = 0; g < xreps(f); g++)
        XRUN(f, g, req,
             MPI_Neighbor_allgather(ab, count, MPI_INT, rb, count, rt, cart),
             MPI_Ineighbor_allgather(ab, count, MPI_INT, rb, count, rt, cart,
                                     &req),
             MPI_Neighbor_allgather_init(ab, count, MPI_INT, rb, count, rt,
                                         cart, MPI_INFO_NULL, &req));
    xfree_req(f, &req);
    for (int j = 0; j < deg; j++)
        if (src[j] != MPI_PROC_NULL)
            XCHECK_BLOCK(rb + j * count * st, count, st, src[j], 0, 5,
                         "cart neighbor_allgather");
    if (st > 1)
        MPI_Type_free(&rt);
    free(sb), free(rb), free(ab);
}

static void test_cart(MPI_Comm cart, int ndims, int count, int f)
{
    test_cart_st(cart, ndims, count, f, 1);
}


/* dist graph: rank r sends to r+1 .. r+k (k = r % 3 + 1, mod size, no
 * duplicates) with uneven counts; alltoallv, alltoallw, allgatherv */
static void test_dist_graph(int f)
{
    int k = size > 1 ? (rank % 3 + 1 < size ? rank % 3 + 1 : size - 1) : 0;
    int dsts[4], srcs[64], nsrc = 0;
    MPI_Comm dg;
    MPI_Request req = MPI_REQUEST_NULL;

    if (size > 64)
        return;
    for (int j = 0; j < k; j++)
        dsts[j] = (rank + 1 + j) % size;
    for (int s = 0; s < size; s++) {   /* who sends to me, in rank order */
        int ks = size > 1 ? (s % 3 + 1 < size ? s % 3 + 1 : size - 1) : 0;
        for (int j = 0; j < ks; j++)
            if ((s + 1 + j) % size == rank)
                srcs[nsrc++] = s;
    }
    /* weights given: gcc 12 flags MPI_UNWEIGHTED ((int *)1) as an overread
     * of the array parameter */
    int wts[64] = {0};
    MT_CHECK_RC(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, nsrc, srcs,
                                               wts, k, dsts, wts,
                                               MPI_INFO_NULL, 0, &dg));
    int sc[4], sd[4], rc[64], rd[64], st = 0, rt = 0;
    MPI_Aint sdb[4], rdb[64];
    MPI_Datatype sts[4], rts[64];
    for (int j = 0; j < k; j++) {
        sc[j] = (rank + dsts[j]) % 4 * 500;   /* zeros included */
        sd[j] = st;
        sdb[j] = (MPI_Aint)st * sizeof(int);
        sts[j] = MPI_INT;
        st += sc[j] + 1;
    }
    for (int i = 0; i < nsrc; i++) {
        rc[i] = (srcs[i] + rank) % 4 * 500;
        rd[i] = rt;
        rdb[i] = (MPI_Aint)rt * sizeof(int);
        rts[i] = MPI_INT;
        rt += rc[i] + 1;
    }
    int *sb = xalloc(sizeof(int) * (size_t)(st + 1));
    int *rb = xalloc(sizeof(int) * (size_t)(rt + 1));
    for (int w = 0; w < 2; w++)
        for (int g = 0; g < xreps(f); g++) {
            for (int j = 0; j < k; j++)
                for (int i = 0; i < sc[j]; i++)
                    sb[sd[j] + i] = xv(rank, dsts[j], i, g + w);
            for (int i = 0; i < rt; i++)
                rb[i] = -1;
            if (w)
                XRUN(f, g, req,
                     MPI_Neighbor_alltoallw(sb, sc, sdb, sts, rb, rc, rdb,
                                            rts, dg),
                     MPI_Ineighbor_alltoallw(sb, sc, sdb, sts, rb, rc, rdb,
                                             rts, dg, &req),
                     MPI_Neighbor_alltoallw_init(sb, sc, sdb, sts, rb, rc,
                                                 rdb, rts, dg, MPI_INFO_NULL,
                                                 &req));
            else
                XRUN(f, g, req,
                     MPI_Neighbor_alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd,
                                            MPI_INT, dg),
                     MPI_Ineighbor_alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd,
                                             MPI_INT, dg, &req),
                     MPI_Neighbor_alltoallv_init(sb, sc, sd, MPI_INT, rb, rc,
                                                 rd, MPI_INT, dg,
                                                 MPI_INFO_NULL, &req));
            for (int i = 0; i < nsrc; i++) {
                XCHECK_BLOCK(rb + rd[i], rc[i], 1, srcs[i], rank, g + w,
                             w ? "dist graph alltoallw"
                               : "dist graph alltoallv");
                MT_CHECK(rb[rd[i] + rc[i]] == -1, "gap overwritten");
            }
            if (f == F_PERSISTENT && g == xreps(f) - 1)
                xfree_req(f, &req);
        }
    /* allgatherv: my block of rank % 3 * 7 ints to every destination */
    int mine = rank % 3 * 7;
    for (int i = 0; i < mine; i++)
        sb[i] = xv(rank, 0, i, 9);
    for (int i = 0; i < nsrc; i++) {
        rc[i] = srcs[i] % 3 * 7;
        rd[i] = i * 15;
    }
    free(rb);
    rb = xalloc(sizeof(int) * (size_t)(15 * nsrc + 1));
    for (int g = 0; g < xreps(f); g++)
        XRUN(f, g, req,
             MPI_Neighbor_allgatherv(sb, mine, MPI_INT, rb, rc, rd, MPI_INT,
                                     dg),
             MPI_Ineighbor_allgatherv(sb, mine, MPI_INT, rb, rc, rd, MPI_INT,
                                      dg, &req),
             MPI_Neighbor_allgatherv_init(sb, mine, MPI_INT, rb, rc, rd,
                                          MPI_INT, dg, MPI_INFO_NULL, &req));
    xfree_req(f, &req);
    for (int i = 0; i < nsrc; i++)
        XCHECK_BLOCK(rb + rd[i], rc[i], 1, srcs[i], 0, 9,
                     "dist graph allgatherv");
    free(sb), free(rb);
    MPI_Comm_free(&dg);
}

/* graph topology: a ring with both edges (a rank of a 2-ring lists its
 * peer twice); the allgather blocks are identical so order does not
 * matter */
static void test_graph(int f)
{
    MPI_Comm gc;
    MPI_Request req = MPI_REQUEST_NULL;
    int nb[2], v = xv(rank, 0, 0, 3), rb[2] = {-1, -1};

    if (size < 2)
        return;
    int *index = xalloc(sizeof(int) * size);
    int *edges = xalloc(sizeof(int) * 2 * size);
    for (int r = 0; r < size; r++) {
        index[r] = 2 * (r + 1);
        edges[2 * r] = (r + size - 1) % size;
        edges[2 * r + 1] = (r + 1) % size;
    }
    MT_CHECK_RC(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &gc));
    MT_CHECK_RC(MPI_Graph_neighbors(gc, rank, 2, nb));
    for (int g = 0; g < xreps(f); g++)
        XRUN(f, g, req,
             MPI_Neighbor_allgather(&v, 1, MPI_INT, rb, 1, MPI_INT, gc),
             MPI_Ineighbor_allgather(&v, 1, MPI_INT, rb, 1, MPI_INT, gc,
                                     &req),
             MPI_Neighbor_allgather_init(&v, 1, MPI_INT, rb, 1, MPI_INT, gc,
                                         MPI_INFO_NULL, &req));
    xfree_req(f, &req);
    for (int j = 0; j < 2; j++)
        MT_CHECK(rb[j] == xv(nb[j], 0, 0, 3), "graph allgather slot %d", j);
    MPI_Comm_free(&gc);
    free(index), free(edges);
}

int main(int argc, char **argv)
{
    MPI_Comm ring, grid;
    int dims[2] = {0, 0}, periods[2] = {0, 0}, one = 1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK_RC(MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &one, 0, &ring));
    MT_CHECK_RC(MPI_Dims_create(size, 2, dims));
    MT_CHECK_RC(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid));
    for (int f = 0; f < F_NFORMS; f++) {
        test_cart(ring, 1, 1, f);
        test_cart(ring, 1, 3000, f);
        test_cart(grid, 2, 0, f);
        test_cart(grid, 2, 5, f);
        test_cart_st(ring, 1, 7, f, 2);       /* strided receive type */
        test_cart_st(grid, 2, 70000, f, f == F_NONBLOCKING ? 2 : 1);
        test_dist_graph(f);
        test_graph(f);
    }
    /* a periodic 2-d torus of 1 x size: dimension 0 has itself twice */
    int tdims[2] = {1, size}, tper[2] = {1, 1};
    MPI_Comm torus;
    MT_CHECK_RC(MPI_Cart_create(MPI_COMM_WORLD, 2, tdims, tper, 0, &torus));
    test_cart(torus, 2, 4, F_BLOCKING);
    MPI_Comm_free(&torus);
    MPI_Comm_free(&ring);
    MPI_Comm_free(&grid);
    return mt_finish();
}
