/* MPI_Reduce_scatter(_block) and their I/_init forms: uneven and zero
 * counts, in place, long vectors, a non-commutative op (also on vectors
 * long enough for the shm path's chunks, in place and not, and six
 * nonblocking calls in flight), a strided type in every form. */
#include "coll_common.h"

static int rank, size;

static void sum_case(int base, int block, int inplace)
{
    int *counts = malloc(size * sizeof(int)), total = 0, off = 0;
    for (int i = 0; i < size; i++) {
        counts[i] = block ? base : (i * 7 + base) % 5 + base;
        if (i < rank)
            off += counts[i];
        total += counts[i];
    }
    int *s = malloc((total + 1) * sizeof(int)), *r = malloc((total + 1) * sizeof(int));
    for (int i = 0; i < total; i++) {
        s[i] = rank * 5 + i;
        r[i] = inplace ? s[i] : -1;
    }
    const void *in = inplace ? MPI_IN_PLACE : s;
    MT_CHECK_RC(block ? MPI_Reduce_scatter_block(in, r, base, MPI_INT, MPI_SUM,
                                                 MPI_COMM_WORLD)
                      : MPI_Reduce_scatter(in, r, counts, MPI_INT, MPI_SUM,
                                           MPI_COMM_WORLD));
    for (int i = 0; i < counts[rank]; i++)
        if (r[i] != 5 * size * (size - 1) / 2 + size * (off + i)) {
            MT_CHECK(0, "base %d block %d inplace %d: [%d] = %d", base, block,
                     inplace, i, r[i]);
            break;
        }
    free(s);
    free(r);
    free(counts);
}

/* Non-commutative op, block i of about `base` pairs (uneven, some
 * blocks empty when base is 0): the rank-ordered composition. */
static void affine_case(MPI_Op op, int base, int inplace)
{
    int *counts = malloc(size * sizeof(int)), total = 0, off = 0;
    for (int i = 0; i < size; i++) {
        counts[i] = base == 0 ? (i % 2) * 3 : base + (i * 37) % 101;
        if (i < rank)
            off += counts[i];
        total += counts[i];
    }
    int *s = malloc(2 * (total + 1) * sizeof(int));
    int *r = malloc(2 * (total + 1) * sizeof(int));
    int *want = malloc(2 * (total + 1) * sizeof(int));
    int *tmp = malloc(2 * (total + 1) * sizeof(int));
    affine_fill(inplace ? r : s, rank, total);
    MT_CHECK_RC(MPI_Reduce_scatter(inplace ? MPI_IN_PLACE : s, r, counts,
                                   MPI_2INT, op, MPI_COMM_WORLD));
    affine_expect(want, 0, size, total, tmp);
    MT_CHECK(memcmp(r, want + 2 * off, 2 * counts[rank] * sizeof(int)) == 0,
             "non-commutative base %d inplace %d: wrong or out of order",
             base, inplace);
    free(s); free(r); free(want); free(tmp);
    free(counts);
}

/* A strided type (vector(2,1,2) of ints: extent 3 ints, the middle one a
 * gap that must stay untouched), uneven counts, in place or not, in form
 * 0 blocking, 1 nonblocking, 2 persistent (started twice). */
static void vec_case(int base, int block, int inplace, int form)
{
    int *counts = malloc(size * sizeof(int)), total = 0, off = 0, mine;
    MPI_Datatype vec;
    MPI_Request req;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    for (int i = 0; i < size; i++) {
        counts[i] = block ? base : (i * 5 + base) % 4 + base;
        if (i < rank)
            off += counts[i];
        total += counts[i];
    }
    mine = counts[rank];
    int *s = malloc((3 * total + 1) * sizeof(int)), *r = malloc((3 * total + 1) * sizeof(int));
    for (int it = 0; it < (form == 2 ? 2 : 1); it++) {
        for (int i = 0; i < 3 * total; i++) {
            s[i] = rank * 5 + i + it;
            r[i] = inplace ? s[i] : -7;
        }
        const void *in = inplace ? MPI_IN_PLACE : s;
        if (form == 0)
            MT_CHECK_RC(block ? MPI_Reduce_scatter_block(in, r, base, vec, MPI_SUM,
                                                         MPI_COMM_WORLD)
                              : MPI_Reduce_scatter(in, r, counts, vec, MPI_SUM,
                                                   MPI_COMM_WORLD));
        else if (form == 1)
            MT_CHECK_RC(block ? MPI_Ireduce_scatter_block(in, r, base, vec, MPI_SUM,
                                                          MPI_COMM_WORLD, &req)
                              : MPI_Ireduce_scatter(in, r, counts, vec, MPI_SUM,
                                                    MPI_COMM_WORLD, &req));
        else if (it == 0)
            MT_CHECK_RC(block ? MPI_Reduce_scatter_block_init(
                                    in, r, base, vec, MPI_SUM, MPI_COMM_WORLD,
                                    MPI_INFO_NULL, &req)
                              : MPI_Reduce_scatter_init(in, r, counts, vec,
                                                        MPI_SUM, MPI_COMM_WORLD,
                                                        MPI_INFO_NULL, &req));
        if (form == 2)
            MT_CHECK_RC(MPI_Start(&req));
        if (form != 0)
            MT_CHECK_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
        for (int i = 0; i < 3 * mine; i++) {
            int j = 3 * off + i;      /* the int's place in the whole vector */
            int want = i % 3 == 1 ? (inplace ? rank * 5 + i + it : -7)
                                  : 5 * size * (size - 1) / 2 + size * (j + it);
            if (r[i] != want) {
                MT_CHECK(0, "vector base %d block %d inplace %d form %d it %d: "
                         "[%d] = %d want %d", base, block, inplace, form, it, i,
                         r[i], want);
                break;
            }
        }
        for (int i = 3 * mine; !inplace && i < 3 * total; i++)
            if (r[i] != -7) {
                MT_CHECK(0, "vector base %d: wrote past my block at [%d]", base, i);
                break;
            }
    }
    if (form == 2)
        MT_CHECK_RC(MPI_Request_free(&req));
    MPI_Type_free(&vec);
    free(s);
    free(r);
    free(counts);
}

/* Non-commutative reduce_scatter(_block) in nonblocking forms, six in
 * flight at once (uneven and block counts, each call its own counts
 * array: it must stay valid until the call completes), waited in reverse
 * order. */
static void affine_in_flight(MPI_Op op)
{
    enum { K = 6 };
    MPI_Request req[K];
    int *s[K], *r[K], *cnts[K], total[K], off[K];
    for (int k = 0; k < K; k++) {
        int base = k * 50, *counts = cnts[k] = malloc(size * sizeof(int));
        total[k] = off[k] = 0;
        for (int i = 0; i < size; i++) {
            int c = k % 2 ? base : base + (i * 3 + k) % 7;
            if (i < rank)
                off[k] += c;
            total[k] += c;
            counts[i] = c;
        }
        s[k] = malloc(2 * (total[k] + 1) * sizeof(int));
        r[k] = malloc(2 * (counts[rank] + 1) * sizeof(int));
        affine_fill(s[k], rank + k, total[k]);
        if (k % 2)
            MT_CHECK_RC(MPI_Ireduce_scatter_block(s[k], r[k], base, MPI_2INT, op,
                                                  MPI_COMM_WORLD, &req[k]));
        else
            MT_CHECK_RC(MPI_Ireduce_scatter(s[k], r[k], counts, MPI_2INT, op,
                                            MPI_COMM_WORLD, &req[k]));
    }
    for (int k = K - 1; k >= 0; k--)
        MT_CHECK_RC(MPI_Wait(&req[k], MPI_STATUS_IGNORE));
    for (int k = 0; k < K; k++) {
        int mine = k % 2 ? k * 50 : k * 50 + (rank * 3 + k) % 7;
        int *want = malloc(2 * (total[k] + 1) * sizeof(int));
        int *tmp = malloc(2 * (total[k] + 1) * sizeof(int));
        /* fills are rank + k: compose ranks k .. size-1+k */
        affine_expect(want, k, size + k, total[k], tmp);
        MT_CHECK(memcmp(r[k], want + 2 * off[k], 2 * mine * sizeof(int)) == 0,
                 "in-flight non-commutative reduce_scatter %d out of order", k);
        free(want); free(tmp); free(s[k]); free(r[k]); free(cnts[k]);
    }
}

int main(int argc, char **argv)
{
    static const int bases[] = {0, 1, 3, 1000, 131072};
    MPI_Op op;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    for (int b = 0; b < 5; b++)
        for (int v = 0; v < 4; v++)
            sum_case(bases[b], v & 1, v >> 1);

    /* non-commutative: block i of the rank-ordered composition */
    MT_CHECK_RC(MPI_Op_create(affine_fn, 0, &op));
    {
        int n = 3, total = n * size;
        int *s = malloc(2 * total * sizeof(int)), *r = malloc(2 * n * sizeof(int));
        int *want = malloc(2 * total * sizeof(int)), *tmp = malloc(2 * total * sizeof(int));
        affine_fill(s, rank, total);
        MT_CHECK_RC(MPI_Reduce_scatter_block(s, r, n, MPI_2INT, op, MPI_COMM_WORLD));
        affine_expect(want, 0, size, total, tmp);
        MT_CHECK(memcmp(r, want + 2 * n * rank, 2 * n * sizeof(int)) == 0,
                 "non-commutative reduce_scatter_block out of order");
        free(s); free(r); free(want); free(tmp);
    }
    for (int inplace = 0; inplace < 2; inplace++) {
        affine_case(op, 0, inplace);
        affine_case(op, 1000, inplace);
        affine_case(op, 20000, inplace);
    }
    affine_in_flight(op);
    MT_CHECK_RC(MPI_Op_free(&op));

    /* nonblocking and persistent forms */
    {
        MPI_Request req[2];
        int *counts = malloc(size * sizeof(int));
        int *s = malloc(4 * size * sizeof(int)), r1[4], r2[4];
        for (int i = 0; i < size; i++)
            counts[i] = 4;
        for (int i = 0; i < 4 * size; i++)
            s[i] = i + rank;
        MT_CHECK_RC(MPI_Ireduce_scatter(s, r1, counts, MPI_INT, MPI_SUM,
                                        MPI_COMM_WORLD, &req[0]));
        MT_CHECK_RC(MPI_Ireduce_scatter_block(s, r2, 4, MPI_INT, MPI_SUM,
                                              MPI_COMM_WORLD, &req[1]));
        MT_CHECK_RC(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
        for (int i = 0; i < 4; i++) {
            int want = size * (4 * rank + i) + size * (size - 1) / 2;
            MT_CHECK(r1[i] == want && r2[i] == want, "i-forms [%d] = %d %d want %d",
                     i, r1[i], r2[i], want);
        }
        MT_CHECK_RC(MPI_Reduce_scatter_init(s, r1, counts, MPI_INT, MPI_SUM,
                                            MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]));
        MT_CHECK_RC(MPI_Reduce_scatter_block_init(s, r2, 4, MPI_INT, MPI_SUM,
                                                  MPI_COMM_WORLD, MPI_INFO_NULL,
                                                  &req[1]));
        for (int it = 0; it < 3; it++) {
            for (int i = 0; i < 4 * size; i++)
                s[i] = i + rank + it;
            MT_CHECK_RC(MPI_Startall(2, req));
            MT_CHECK_RC(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
            for (int i = 0; i < 4; i++) {
                int want = size * (4 * rank + i + it) + size * (size - 1) / 2;
                MT_CHECK(r1[i] == want && r2[i] == want,
                         "persistent it %d [%d] = %d %d want %d", it, i, r1[i],
                         r2[i], want);
            }
        }
        MT_CHECK_RC(MPI_Request_free(&req[0]));
        MT_CHECK_RC(MPI_Request_free(&req[1]));
        free(counts);
        free(s);
    }
    /* strided type, every form; 20000 x 12 B blocks take the big paths
     * (with 64-byte ring segments 8000 rounds per call before the ring's
     * segment bound, 20-250 s at 3 ranks under load: now 128) */
    {
        const int vb[] = {0, 1, 100, 20000};
        for (int b = 0; b < 4; b++)
            for (int v = 0; v < 4; v++)
                for (int form = 0; form < 3; form++)
                    if (b < 3 || form == v % 3)
                        vec_case(vb[b], v & 1, v >> 1, form);
    }
    /* large-count forms */
    {
        MPI_Count *cc = malloc(size * sizeof(MPI_Count));
        int *s = malloc(2 * size * sizeof(int)), r[2];
        for (int i = 0; i < size; i++)
            cc[i] = 2;
        for (int i = 0; i < 2 * size; i++)
            s[i] = i;
        MT_CHECK_RC(MPI_Reduce_scatter_c(s, r, cc, MPI_INT, MPI_SUM,
                                         MPI_COMM_WORLD));
        MT_CHECK(r[0] == 2 * rank * size && r[1] == (2 * rank + 1) * size,
                 "reduce_scatter_c %d %d", r[0], r[1]);
        MT_CHECK_RC(MPI_Reduce_scatter_block_c(s, r, (MPI_Count)2, MPI_INT,
                                               MPI_SUM, MPI_COMM_WORLD));
        MT_CHECK(r[0] == 2 * rank * size, "reduce_scatter_block_c %d", r[0]);
        free(cc);
        free(s);
    }
    return mt_finish();
}
