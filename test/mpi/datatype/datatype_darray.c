/*
 * Darray and subarray across ranks: every rank builds the darray of its
 * share of a global matrix, packs its elements from a globally numbered
 * array, and checks them against its own ownership computation; rank 0
 * then receives every rank's share straight into a global array through
 * that rank's darray type and checks the whole array is covered once.
 */
#include "../mpitest.h"

#include <string.h>

static int owner_coord(int g, int gsize, int dist, int darg, int np)
{
    if (dist == MPI_DISTRIBUTE_NONE)
        return 0;
    if (dist == MPI_DISTRIBUTE_BLOCK) {
        int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (gsize + np - 1) / np
                                                 : darg;
        return g / b;
    }
    int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    return (g / b) % np;
}

static void check_darray(int order, const int *dist, const int *darg)
{
    int rank, size, dims[2] = {0, 0};
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* grid: size = P0 x P1 (row-major), NONE dims get 1 process */
    if (dist[0] == MPI_DISTRIBUTE_NONE) {
        dims[0] = 1;
        dims[1] = size;
    } else if (dist[1] == MPI_DISTRIBUTE_NONE) {
        dims[0] = size;
        dims[1] = 1;
    } else {
        dims[0] = size % 2 == 0 ? 2 : 1;
        dims[1] = size / dims[0];
    }
    int gs[2] = {13, 9};
    int n = gs[0] * gs[1];
    int coord[2] = {rank / dims[1], rank % dims[1]};
    MPI_Datatype t;
    MT_CHECK_RC(MPI_Type_create_darray(size, rank, 2, gs, dist, darg, dims,
                                       order, MPI_INT, &t));
    MPI_Type_commit(&t);
    int *global = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        global[i] = i;
    int tsize;
    MPI_Type_size(t, &tsize);
    int *mine = malloc((size_t)tsize + 4), pos = 0;
    MPI_Pack(global, 1, t, mine, tsize, &pos, MPI_COMM_WORLD);
    /* expected: owned elements in array order */
    int k = 0, bad = 0;
    for (int a = 0; a < gs[order == MPI_ORDER_C ? 0 : 1]; a++)
        for (int b = 0; b < gs[order == MPI_ORDER_C ? 1 : 0]; b++) {
            int i = order == MPI_ORDER_C ? a : b, j = order == MPI_ORDER_C ? b : a;
            if (owner_coord(i, gs[0], dist[0], darg[0], dims[0]) != coord[0] ||
                owner_coord(j, gs[1], dist[1], darg[1], dims[1]) != coord[1])
                continue;
            int lin = order == MPI_ORDER_C ? i * gs[1] + j : j * gs[0] + i;
            if (k * 4 >= tsize || mine[k] != lin)
                bad++;
            k++;
        }
    MT_CHECK(bad == 0 && k * 4 == tsize, "order %d dist %d/%d: %d wrong, "
             "%d owned, type size %d", order, dist[0], dist[1], bad, k,
             tsize);
    /* gather into one global array through the darray types */
    if (rank == 0) {
        int *g2 = malloc(sizeof(int) * (size_t)n);
        for (int i = 0; i < n; i++)
            g2[i] = -1;
        MPI_Request *r = malloc(sizeof(MPI_Request) * (size_t)size);
        MPI_Datatype *ts = malloc(sizeof(MPI_Datatype) * (size_t)size);
        for (int p = 0; p < size; p++) {
            MPI_Type_create_darray(size, p, 2, gs, dist, darg, dims, order,
                                   MPI_INT, &ts[p]);
            MPI_Type_commit(&ts[p]);
            MPI_Irecv(g2, 1, ts[p], p, 9, MPI_COMM_WORLD, &r[p]);
        }
        MPI_Send(mine, tsize / 4, MPI_INT, 0, 9, MPI_COMM_WORLD);
        MPI_Waitall(size, r, MPI_STATUSES_IGNORE);
        for (int i = 0; i < n; i++)
            if (g2[i] != i) {
                MT_CHECK(0, "gathered[%d] = %d", i, g2[i]);
                break;
            }
        for (int p = 0; p < size; p++)
            MPI_Type_free(&ts[p]);
        free(ts);
        free(r);
        free(g2);
    } else {
        MPI_Send(mine, tsize / 4, MPI_INT, 0, 9, MPI_COMM_WORLD);
    }
    MPI_Type_free(&t);
    free(mine);
    free(global);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int B = MPI_DISTRIBUTE_BLOCK, C = MPI_DISTRIBUTE_CYCLIC,
        N = MPI_DISTRIBUTE_NONE, D = MPI_DISTRIBUTE_DFLT_DARG;
    int cases[][4] = {{B, B, D, D}, {C, C, D, D}, {C, B, 2, D}, {B, C, D, 3},
                      {N, B, D, D}, {C, N, 3, D}, {B, B, 13, 9}};
    for (int order = 0; order < 2; order++)
        for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
            int dist[2] = {cases[c][0], cases[c][1]};
            int darg[2] = {cases[c][2], cases[c][3]};
            check_darray(order ? MPI_ORDER_FORTRAN : MPI_ORDER_C, dist, darg);
        }
    return mt_finish();
}
