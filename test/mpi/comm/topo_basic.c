/* Cartesian grids (create, coords, rank, shift, sub, get), Dims_create,
 * graphs, distributed graphs, bad input. */
#include "../mpitest.h"

int main(int argc, char **argv)
{
    int rank, size, dims[3] = {0, 0, 0}, periods[3] = {1, 0, 0}, coords[3];
    int r, src, dst, st;
    MPI_Comm cart, sub;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    MT_CHECK(dims[0] * dims[1] == size && dims[0] >= dims[1], "dims %d %d",
             dims[0], dims[1]);
    int d12[3] = {0, 0, 0};
    MPI_Dims_create(12, 3, d12);
    MT_CHECK(d12[0] == 3 && d12[1] == 2 && d12[2] == 2, "dims 12");
    MT_CHECK_RC(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    MPI_Topo_test(cart, &st);
    MT_CHECK(st == MPI_CART, "topo_test %d", st);
    MPI_Cart_coords(cart, rank, 2, coords);
    MPI_Cart_rank(cart, coords, &r);
    MT_CHECK(r == rank && coords[0] == rank / dims[1], "coords");
    MPI_Cart_shift(cart, 0, 1, &src, &dst);
    MT_CHECK(dst == ((coords[0] + 1) % dims[0]) * dims[1] + coords[1],
             "periodic shift dst %d", dst);
    MPI_Cart_shift(cart, 1, 1, &src, &dst);
    MT_CHECK((coords[1] == dims[1] - 1) == (dst == MPI_PROC_NULL),
             "non-periodic shift");
    int remain[2] = {0, 1};
    MT_CHECK_RC(MPI_Cart_sub(cart, remain, &sub));
    int sr, ss, nd;
    MPI_Comm_rank(sub, &sr);
    MPI_Comm_size(sub, &ss);
    MPI_Cartdim_get(sub, &nd);
    MT_CHECK(ss == dims[1] && sr == coords[1] && nd == 1, "cart_sub");
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, sub);
    int expect = 0;
    for (int j = 0; j < dims[1]; j++)
        expect += coords[0] * dims[1] + j;
    MT_CHECK(sum == expect, "sub allreduce %d != %d", sum, expect);
    MPI_Comm_free(&sub);
    MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
    int bad[2] = {dims[0], -1};
    MT_CHECK(MPI_Cart_rank(cart, bad, &r) == MPI_ERR_ARG, "bad coords");
    MPI_Comm_free(&cart);
    /* a grid larger than the group: an error, and MPI_COMM_NULL */
    int big[2] = {size, size + 1}, per[2] = {0, 0};
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    cart = MPI_COMM_WORLD;
    MT_CHECK(MPI_Cart_create(MPI_COMM_WORLD, 2, big, per, 0, &cart) !=
                 MPI_SUCCESS && cart == MPI_COMM_NULL, "oversized grid");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    /* ring graph and dist graph */
    int *index = malloc(size * sizeof(int)), *edges = malloc(size * sizeof(int));
    for (int i = 0; i < size; i++) {
        index[i] = i + 1;
        edges[i] = (i + 1) % size;
    }
    MPI_Comm g;
    MT_CHECK_RC(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &g));
    int nn;
    MPI_Graph_neighbors_count(g, rank, &nn);
    int nb;
    MPI_Graph_neighbors(g, rank, 1, &nb);
    MT_CHECK(nn == 1 && nb == (rank + 1) % size, "graph neighbors");
    MPI_Comm_free(&g);
    int to = (rank + 1) % size, one = 1, w = rank;
    MT_CHECK_RC(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &one, &to,
                                      &w, MPI_INFO_NULL, 0, &g));
    int in, out, weighted, s2, sw, d2, dw;
    MPI_Dist_graph_neighbors_count(g, &in, &out, &weighted);
    MT_CHECK(in == 1 && out == 1 && weighted, "dist counts %d %d", in, out);
    MPI_Dist_graph_neighbors(g, 1, &s2, &sw, 1, &d2, &dw);
    MT_CHECK(s2 == (rank + size - 1) % size && sw == s2 && d2 == to &&
             dw == rank, "dist neighbors %d %d %d %d", s2, sw, d2, dw);
    MPI_Comm_free(&g);
    int from = (rank + size - 1) % size;
    MT_CHECK_RC(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &from,
                                               MPI_UNWEIGHTED, 1, &to,
                                               MPI_UNWEIGHTED, MPI_INFO_NULL,
                                               0, &g));
    MPI_Dist_graph_neighbors_count(g, &in, &out, &weighted);
    MT_CHECK(in == 1 && out == 1 && !weighted, "adjacent counts");
    MPI_Comm_free(&g);
    free(index);
    free(edges);
    return mt_finish();
}
