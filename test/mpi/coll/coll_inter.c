/* Intercommunicator forms (barrier, bcast, reduce, allreduce,
 * reduce_scatter(_block)) and collectives on split/dup communicators
 * running at the same time as on MPI_COMM_WORLD. */
#include "coll_common.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Comm half, inter, dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* split into even/odd ranks; sums inside each half and on a dup of
     * world, all in flight together */
    int color = rank % 2, hrank, hsize;
    MT_CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, color, size - rank, &half));
    MT_CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_Comm_rank(half, &hrank);
    MPI_Comm_size(half, &hsize);
    {
        MPI_Request req[3];
        int a = rank, b = rank, c = rank, ra, rb, rc2;
        MT_CHECK_RC(MPI_Iallreduce(&a, &ra, 1, MPI_INT, MPI_SUM, half, &req[0]));
        MT_CHECK_RC(MPI_Iallreduce(&b, &rb, 1, MPI_INT, MPI_SUM, dup, &req[1]));
        MT_CHECK_RC(MPI_Iscan(&c, &rc2, 1, MPI_INT, MPI_SUM, half, &req[2]));
        MT_CHECK_RC(MPI_Waitall(3, req, MPI_STATUSES_IGNORE));
        int want = 0, scan = 0;
        for (int r = color; r < size; r += 2) {
            want += r;
            if (r >= rank)      /* key = size - rank: reversed order */
                scan += r;
        }
        MT_CHECK(ra == want, "half sum %d want %d", ra, want);
        MT_CHECK(rb == size * (size - 1) / 2, "dup sum %d", rb);
        MT_CHECK(rc2 == scan, "half scan %d want %d", rc2, scan);
        int x = hrank == 0 ? 77 + color : -1;
        MT_CHECK_RC(MPI_Bcast(&x, 1, MPI_INT, 0, half));
        MT_CHECK(x == 77 + color, "half bcast %d", x);
    }

    if (size >= 2) {
        /* group A = even ranks, group B = odd ranks */
        /* local rank 0 of each half is its highest world rank (key) */
        int even_leader = (size - 1) / 2 * 2, odd_leader = (size - 2) / 2 * 2 + 1;
        int remote_leader = color ? even_leader : odd_leader;
        int na = (size + 1) / 2, nb = size / 2;
        int lsize = color ? nb : na, rsize = color ? na : nb;
        MT_CHECK_RC(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, remote_leader,
                                         12, &inter));
        MT_CHECK_RC(MPI_Barrier(inter));

        /* bcast from A's rank 0 to B, then from B's last rank to A */
        for (int dir = 0; dir < 2; dir++) {
            int sender_group = dir, v[100];
            int sroot = dir ? nb - 1 : 0;
            int root;
            if (color == sender_group)
                root = hrank == sroot ? MPI_ROOT : MPI_PROC_NULL;
            else
                root = sroot;
            for (int i = 0; i < 100; i++)
                v[i] = root == MPI_ROOT ? i + dir : -1;
            MT_CHECK_RC(MPI_Bcast(v, 100, MPI_INT, root, inter));
            if (color != sender_group)
                for (int i = 0; i < 100; i++)
                    if (v[i] != i + dir) {
                        MT_CHECK(0, "inter bcast dir %d [%d] = %d", dir, i, v[i]);
                        break;
                    }
        }

        /* reduce: B's data to A's rank 0 */
        {
            int in[5], out[5] = {0}, root;
            for (int i = 0; i < 5; i++)
                in[i] = rank + i;
            root = color == 0 ? (hrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
            MT_CHECK_RC(MPI_Reduce(in, out, 5, MPI_INT, MPI_SUM, root, inter));
            if (root == MPI_ROOT) {
                int want = 0;
                for (int r = 1; r < size; r += 2)
                    want += r;
                for (int i = 0; i < 5; i++)
                    MT_CHECK(out[i] == want + nb * i, "inter reduce [%d] = %d", i,
                             out[i]);
            }
        }

        /* allreduce: each group gets the other group's sum */
        {
            int in[3], out[3];
            for (int i = 0; i < 3; i++)
                in[i] = rank * 10 + i;
            MT_CHECK_RC(MPI_Allreduce(in, out, 3, MPI_INT, MPI_SUM, inter));
            int want = 0;
            for (int r = 1 - color; r < size; r += 2)
                want += r * 10;
            for (int i = 0; i < 3; i++)
                MT_CHECK(out[i] == want + rsize * i, "inter allreduce [%d] = %d "
                         "want %d", i, out[i], want + rsize * i);
        }

        /* reduce_scatter_block: both groups must give the same total, so
         * use counts whose sums agree: total = na * nb */
        {
            int blk = rsize, total = lsize * blk;
            int *in = malloc(total * sizeof(int)), *out = malloc(blk * sizeof(int));
            for (int i = 0; i < total; i++)
                in[i] = rank + i;
            MT_CHECK_RC(MPI_Reduce_scatter_block(in, out, blk, MPI_INT, MPI_SUM,
                                                 inter));
            int base = 0;
            for (int r = 1 - color; r < size; r += 2)
                base += r;
            for (int i = 0; i < blk; i++)
                MT_CHECK(out[i] == base + rsize * (hrank * blk + i),
                         "inter rsb [%d] = %d", i, out[i]);
            free(in);
            free(out);
        }
        MT_CHECK_RC(MPI_Comm_free(&inter));
    }
    MT_CHECK_RC(MPI_Comm_free(&half));
    MT_CHECK_RC(MPI_Comm_free(&dup));
    return mt_finish();
}
