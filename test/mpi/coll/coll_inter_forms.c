/* Intercommunicator barrier, bcast, reduce, allreduce, reduce_scatter and
 * reduce_scatter_block in their blocking, nonblocking and persistent
 * (started twice) forms: every root of both groups, counts from 0 to
 * ~1 MiB, a non-commutative op (the remote group's order must be its
 * local rank order), uneven and zero reduce_scatter counts, and all the
 * nonblocking forms in flight at once.  World splits into even and odd
 * ranks (groups of different sizes when the job size is odd); a group's
 * local rank 0 is its highest world rank. */
#include "coll_common.h"

enum { BLOCKING, NONBLOCKING, PERSISTENT };
static const char *fname[] = {"blocking", "nonblocking", "persistent"};

static int rank, size, color, hrank, lsize, rsize;
static MPI_Comm inter;

/* the fill id of local rank r of group c (affine_fill's rank argument) */
static int fid(int c, int r)
{
    return c * 50 + r;
}

/* run one call in `form`: blocking calls return rc, the others hand back a
 * request the caller completes with finish() */
static void finish(int form, int it, MPI_Request *req)
{
    if (form == PERSISTENT)
        MT_CHECK_RC(MPI_Start(req));
    if (form != BLOCKING)
        MT_CHECK_RC(MPI_Wait(req, MPI_STATUS_IGNORE));
    if (form == PERSISTENT && it == 1)
        MT_CHECK_RC(MPI_Request_free(req));
}

static void barrier(int form)
{
    MPI_Request req;
    for (int it = 0; it < (form == PERSISTENT ? 2 : 1); it++) {
        if (form == BLOCKING)
            MT_CHECK_RC(MPI_Barrier(inter));
        else if (form == NONBLOCKING)
            MT_CHECK_RC(MPI_Ibarrier(inter, &req));
        else if (it == 0)
            MT_CHECK_RC(MPI_Barrier_init(inter, MPI_INFO_NULL, &req));
        finish(form, it, &req);
    }
}

static void bcast(int form, int count, int sgroup, int sroot)
{
    int *v = malloc((count + 1) * sizeof(int)), root;
    MPI_Request req;
    if (color == sgroup)
        root = hrank == sroot ? MPI_ROOT : MPI_PROC_NULL;
    else
        root = sroot;
    for (int it = 0; it < (form == PERSISTENT ? 2 : 1); it++) {
        for (int i = 0; i < count; i++)
            v[i] = root == MPI_ROOT ? i * 3 + sroot + it : -1;
        if (form == BLOCKING)
            MT_CHECK_RC(MPI_Bcast(v, count, MPI_INT, root, inter));
        else if (form == NONBLOCKING)
            MT_CHECK_RC(MPI_Ibcast(v, count, MPI_INT, root, inter, &req));
        else if (it == 0)
            MT_CHECK_RC(MPI_Bcast_init(v, count, MPI_INT, root, inter,
                                       MPI_INFO_NULL, &req));
        finish(form, it, &req);
        for (int i = 0; color != sgroup && i < count; i++)
            if (v[i] != i * 3 + sroot + it) {
                MT_CHECK(0, "%s bcast n=%d root %d/%d it %d [%d] = %d",
                         fname[form], count, sgroup, sroot, it, i, v[i]);
                break;
            }
    }
    free(v);
}

/* non-commutative reduce of the other group's pairs: to sroot of sgroup,
 * or (all) allreduce, where every rank gets the other group's result */
static void reduce(int form, int n, int sgroup, int sroot, MPI_Op op, int all)
{
    int *in = malloc((2 * n + 2) * sizeof(int)), *out = malloc((2 * n + 2) * sizeof(int));
    int *want = malloc((2 * n + 2) * sizeof(int)), *tmp = malloc((2 * n + 2) * sizeof(int));
    MPI_Request req;
    int root;
    if (color == sgroup)
        root = hrank == sroot ? MPI_ROOT : MPI_PROC_NULL;
    else
        root = sroot;
    affine_fill(in, fid(color, hrank), n);
    if (n > 0)
        affine_expect(want, fid(1 - color, 0), fid(1 - color, rsize), n, tmp);
    for (int it = 0; it < (form == PERSISTENT ? 2 : 1); it++) {
        for (int i = 0; i < 2 * n; i++)
            out[i] = -1;
        if (form == BLOCKING)
            MT_CHECK_RC(all ? MPI_Allreduce(in, out, n, MPI_2INT, op, inter)
                            : MPI_Reduce(in, out, n, MPI_2INT, op, root, inter));
        else if (form == NONBLOCKING)
            MT_CHECK_RC(all ? MPI_Iallreduce(in, out, n, MPI_2INT, op, inter, &req)
                            : MPI_Ireduce(in, out, n, MPI_2INT, op, root, inter,
                                          &req));
        else if (it == 0)
            MT_CHECK_RC(all ? MPI_Allreduce_init(in, out, n, MPI_2INT, op, inter,
                                                 MPI_INFO_NULL, &req)
                            : MPI_Reduce_init(in, out, n, MPI_2INT, op, root,
                                              inter, MPI_INFO_NULL, &req));
        finish(form, it, &req);
        if (all || root == MPI_ROOT)
            MT_CHECK(memcmp(out, want, 2 * n * sizeof(int)) == 0,
                     "%s %sreduce n=%d to %d/%d it %d: wrong or out of order",
                     fname[form], all ? "all" : "", n, sgroup, sroot, it);
    }
    free(in); free(out); free(want); free(tmp);
}

/* group of n ranks: total pairs spread unevenly, the last rank gets none */
static void rs_counts(int *counts, int n, int total)
{
    int left = total;
    for (int i = 0; i < n; i++) {
        counts[i] = i == n - 1 && n > 1 ? 0 : (i % 3 + 1) * total / (2 * n);
        if (counts[i] > left)
            counts[i] = left;
        left -= counts[i];
    }
    counts[0] += left;
}

/* block: Reduce_scatter_block with recvcount total / lsize (both groups'
 * totals agree: total = k * na * nb) */
static void reduce_scatter(int form, int total, int block, MPI_Op op)
{
    int *counts = malloc(lsize * sizeof(int)), first = 0, mine;
    int *in = malloc((2 * total + 2) * sizeof(int)), *out, *want, *tmp;
    MPI_Request req;
    if (block)
        for (int i = 0; i < lsize; i++)
            counts[i] = total / lsize;
    else
        rs_counts(counts, lsize, total);
    for (int i = 0; i < hrank; i++)
        first += counts[i];
    mine = counts[hrank];
    out = malloc((2 * mine + 2) * sizeof(int));
    want = malloc((2 * total + 2) * sizeof(int));
    tmp = malloc((2 * total + 2) * sizeof(int));
    affine_fill(in, fid(color, hrank), total);
    if (total > 0)
        affine_expect(want, fid(1 - color, 0), fid(1 - color, rsize), total, tmp);
    for (int it = 0; it < (form == PERSISTENT ? 2 : 1); it++) {
        for (int i = 0; i < 2 * mine; i++)
            out[i] = -1;
        if (form == BLOCKING)
            MT_CHECK_RC(block ? MPI_Reduce_scatter_block(in, out, mine, MPI_2INT,
                                                         op, inter)
                              : MPI_Reduce_scatter(in, out, counts, MPI_2INT,
                                                   op, inter));
        else if (form == NONBLOCKING)
            MT_CHECK_RC(block ? MPI_Ireduce_scatter_block(in, out, mine, MPI_2INT,
                                                          op, inter, &req)
                              : MPI_Ireduce_scatter(in, out, counts, MPI_2INT,
                                                    op, inter, &req));
        else if (it == 0)
            MT_CHECK_RC(block ? MPI_Reduce_scatter_block_init(
                                    in, out, mine, MPI_2INT, op, inter,
                                    MPI_INFO_NULL, &req)
                              : MPI_Reduce_scatter_init(in, out, counts,
                                                        MPI_2INT, op, inter,
                                                        MPI_INFO_NULL, &req));
        finish(form, it, &req);
        MT_CHECK(memcmp(out, want + 2 * first, 2 * mine * sizeof(int)) == 0,
                 "%s reduce_scatter%s total %d it %d: my %d pairs from %d "
                 "wrong or out of order", fname[form], block ? "_block" : "",
                 total, it, mine, first);
    }
    free(counts); free(in); free(out); free(want); free(tmp);
}

/* every nonblocking form at once, with an intracomm allreduce among them,
 * completed in reverse order */
static void all_in_flight(MPI_Op op)
{
    enum { N = 40 };
    MPI_Request req[6];
    int bc[N], in[2 * N], out[2 * N], red[2 * N], rsin[2 * N * 8];
    int rsout[2 * N * 8], want[2 * N * 8], tmp[2 * N * 8], counts[16];
    int wsum, first = 0;
    int bt = color == 0 ? (hrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    int rt = color == 1 ? (hrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    for (int i = 0; i < N; i++)
        bc[i] = bt == MPI_ROOT ? 5 * i : -1;
    affine_fill(in, fid(color, hrank), N);
    affine_fill(rsin, fid(color, hrank), N * 8);
    for (int i = 0; i < lsize; i++)
        counts[i] = 8 * N / lsize;
    counts[0] += 8 * N - lsize * (8 * N / lsize);
    for (int i = 0; i < hrank; i++)
        first += counts[i];
    MT_CHECK_RC(MPI_Ibarrier(inter, &req[0]));
    MT_CHECK_RC(MPI_Ibcast(bc, N, MPI_INT, bt, inter, &req[1]));
    MT_CHECK_RC(MPI_Iallreduce(in, out, N, MPI_2INT, op, inter, &req[2]));
    MT_CHECK_RC(MPI_Iallreduce(&rank, &wsum, 1, MPI_INT, MPI_SUM,
                               MPI_COMM_WORLD, &req[3]));
    MT_CHECK_RC(MPI_Ireduce_scatter(rsin, rsout, counts, MPI_2INT, op, inter,
                                    &req[4]));
    MT_CHECK_RC(MPI_Ireduce(in, red, N, MPI_2INT, op, rt, inter, &req[5]));
    for (int k = 5; k >= 0; k--)
        MT_CHECK_RC(MPI_Wait(&req[k], MPI_STATUS_IGNORE));
    for (int i = 0; color == 1 && i < N; i++)
        MT_CHECK(bc[i] == 5 * i, "in flight: bcast [%d] = %d", i, bc[i]);
    affine_expect(want, fid(1 - color, 0), fid(1 - color, rsize), N, tmp);
    MT_CHECK(memcmp(out, want, sizeof(out)) == 0, "in flight: allreduce");
    MT_CHECK(rt != MPI_ROOT || memcmp(red, want, sizeof(red)) == 0,
             "in flight: reduce");
    MT_CHECK(wsum == size * (size - 1) / 2, "in flight: world sum %d", wsum);
    affine_expect(want, fid(1 - color, 0), fid(1 - color, rsize), 8 * N, tmp);
    MT_CHECK(memcmp(rsout, want + 2 * first, 2 * counts[hrank] * sizeof(int))
             == 0, "in flight: reduce_scatter");
}

int main(int argc, char **argv)
{
    static const int bcounts[] = {0, 5, 300000};
    static const int rcounts[] = {0, 1, 37, 60000};
    MPI_Comm half;
    MPI_Op op;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2)
        return mt_finish();      /* no intercommunicator with one rank */
    color = rank % 2;
    MT_CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, color, size - rank, &half));
    MPI_Comm_rank(half, &hrank);
    MPI_Comm_size(half, &lsize);
    {
        int even_leader = (size - 1) / 2 * 2, odd_leader = (size - 2) / 2 * 2 + 1;
        MT_CHECK_RC(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD,
                                         color ? even_leader : odd_leader, 12,
                                         &inter));
    }
    MPI_Comm_remote_size(inter, &rsize);
    MT_CHECK_RC(MPI_Op_create(affine_fn, 0, &op));

    for (int form = BLOCKING; form <= PERSISTENT; form++) {
        barrier(form);
        for (int c = 0; c < 3; c++)
            for (int g = 0; g < 2; g++) {
                int gsize = g == color ? lsize : rsize;
                for (int r = 0; r < gsize; r += c == 2 ? gsize : 1)
                    bcast(form, bcounts[c], g, r);
            }
        for (int c = 0; c < 4; c++) {
            for (int g = 0; g < 2; g++) {
                int gsize = g == color ? lsize : rsize;
                for (int r = 0; r < gsize; r += c == 3 ? gsize : 1)
                    reduce(form, rcounts[c], g, r, op, 0);
            }
            reduce(form, rcounts[c], 0, 0, op, 1);
        }
        /* totals that both groups can split: k * na * nb */
        for (int k = 0; k < 3; k++) {
            static const int ks[] = {0, 1, 3000};
            int total = ks[k] * lsize * rsize;
            reduce_scatter(form, total, 0, op);
            reduce_scatter(form, total, 1, op);
        }
        reduce_scatter(form, 1001, 0, op);      /* odd, more than one each */
    }
    all_in_flight(op);

    MT_CHECK_RC(MPI_Op_free(&op));
    MT_CHECK_RC(MPI_Comm_free(&inter));
    MT_CHECK_RC(MPI_Comm_free(&half));
    return mt_finish();
}
