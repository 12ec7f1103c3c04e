/* Peer arithmetic of lib/coll/coll_util.c: k-nomial trees, recursive
 * doubling folds, block partitions. */
#include "coll/coll_util.h"
#include "coll/check/sched_sig.h"
#include "p2p/tag.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* Every vrank but 0 has one parent, which lists it as a child, and the
 * subtrees of a node's children tile [v+1, subtree_end(v)). */
START_TEST(test_knomial_tree)
{
    int ch[256];

    for (int k = 2; k <= 5; k++)
        for (int n = 1; n <= 40; n++) {
            int *seen = calloc(n, sizeof(int));
            for (int v = 0; v < n; v++) {
                int nc = ucmpi_coll_knomial_children(v, n, k, ch, 256);
                int next = v + 1;
                for (int i = 0; i < nc; i++) {
                    ck_assert_int_eq(ch[i], next);
                    ck_assert_int_eq(ucmpi_coll_knomial_parent(ch[i], n, k), v);
                    seen[ch[i]]++;
                    next = ucmpi_coll_knomial_subtree_end(ch[i], n, k);
                }
                ck_assert_int_eq(next, ucmpi_coll_knomial_subtree_end(v, n, k));
            }
            ck_assert_int_eq(ucmpi_coll_knomial_parent(0, n, k), -1);
            for (int v = 1; v < n; v++)
                ck_assert_int_eq(seen[v], 1);
            free(seen);
        }
}
END_TEST

START_TEST(test_knomial_binomial_shape)
{
    int ch[64];
    /* binomial tree of 8: 0 -> 1,2,4; 4 -> 5,6; 6 -> 7 */
    ck_assert_int_eq(ucmpi_coll_knomial_children(0, 8, 2, ch, 64), 3);
    ck_assert_int_eq(ch[0], 1);
    ck_assert_int_eq(ch[1], 2);
    ck_assert_int_eq(ch[2], 4);
    ck_assert_int_eq(ucmpi_coll_knomial_children(4, 8, 2, ch, 64), 2);
    ck_assert_int_eq(ucmpi_coll_knomial_parent(7, 8, 2), 6);
    ck_assert_int_eq(ucmpi_coll_knomial_parent(6, 8, 2), 4);
    ck_assert_int_eq(ucmpi_coll_knomial_children(7, 8, 2, ch, 64), 0);
}
END_TEST

START_TEST(test_recursive_doubling_fold)
{
    for (int n = 1; n <= 33; n++) {
        int pof2 = ucmpi_coll_pof2_floor(n), rem = n - pof2, next = 0;
        ck_assert(pof2 <= n && 2 * pof2 > n);
        for (int nr = 0; nr < pof2; nr++) {
            int old = ucmpi_coll_rd_oldrank(nr, rem);
            ck_assert_int_eq(ucmpi_coll_rd_newrank(old, rem), nr);
            ck_assert_int_eq(ucmpi_coll_rd_first(nr, rem), next);  /* tiles */
            next = old + 1;
        }
        ck_assert_int_eq(next, n);
    }
    ck_assert_int_eq(ucmpi_coll_rd_newrank(0, 1), -1);
}
END_TEST

START_TEST(test_blocks_and_rings)
{
    for (int n = 1; n <= 9; n++)
        for (MPI_Count c = 0; c < 30; c++) {
            MPI_Count next = 0, off, cnt;
            for (int i = 0; i < n; i++) {
                ucmpi_coll_block(c, n, i, &off, &cnt);
                ck_assert_int_eq(off, next);
                ck_assert(cnt == c / n || cnt == c / n + 1);
                next = off + cnt;
            }
            ck_assert_int_eq(next, c);
        }
    ck_assert_int_eq(ucmpi_coll_ring_left(0, 5), 4);
    ck_assert_int_eq(ucmpi_coll_ring_right(4, 5), 0);
    ck_assert_int_eq(ucmpi_coll_vrank(1, 3, 5), 3);
    ck_assert_int_eq(ucmpi_coll_rank_of(3, 3, 5), 1);
}
END_TEST

/* Ring segments: the knob's size while a block has at most
 * UCMPI_COLL_RING_MAX_SEGS of them, longer segments beyond; every
 * element covered, never an empty segment count. */
START_TEST(test_ring_segments)
{
    int nseg;

    ck_assert_int_eq(ucmpi_coll_ring_segs(1000, 8, 64, &nseg), 16);
    ck_assert_int_eq(nseg, 63);
    ck_assert_int_eq(ucmpi_coll_ring_segs(100, 8, 64, &nseg), 8);
    ck_assert_int_eq(nseg, 13);
    /* 20000 strided elements of 12 bytes at 64-byte segments: 8000+
     * segments before, now the bound */
    MPI_Count segc = ucmpi_coll_ring_segs(20003, 12, 64, &nseg);
    ck_assert_int_eq(nseg, UCMPI_COLL_RING_MAX_SEGS);
    ck_assert(segc * nseg >= 20003 && segc * (nseg - 1) < 20003);
    ck_assert_int_eq(ucmpi_coll_ring_segs(0, 4, 64, &nseg), 1);
    ck_assert_int_eq(nseg, 1);
    ck_assert_int_eq(ucmpi_coll_ring_segs(10, 0, 64, &nseg), 1);
    ck_assert_int_eq(nseg, 10);
    ck_assert_int_eq(ucmpi_coll_ring_segs(10, 4, 1 << 20, &nseg), 10);
    ck_assert_int_eq(nseg, 1);
    for (MPI_Count c = 1; c < 5000; c += 37) {
        segc = ucmpi_coll_ring_segs(c, 12, 64, &nseg);
        ck_assert(nseg >= 1 && nseg <= UCMPI_COLL_RING_MAX_SEGS);
        ck_assert(segc * nseg >= c && segc * (nseg - 1) < c);
    }
}
END_TEST

/* Signatures (lib/p2p/tag.h): never 0, EMPTY or ABORT; every (collective,
 * algorithm) at shape 0 differs; algorithms of one collective differ at
 * shapes below 16; shapes of one (collective, algorithm) below 251
 * differ.  The forms of a call share its collective. */
START_TEST(test_coll_signatures)
{
    static unsigned char seen[256];

    for (unsigned c = 0; c < UCMPI_COLL_SIG_COLLS; c++)
        for (unsigned a = 0; a < UCMPI_COLL_SIG_ALGS; a++) {
            unsigned sig = ucmpi_coll_sig(c, a, 0);
            ck_assert(sig != 0 && sig != UCMPI_COLL_SIG_EMPTY &&
                      sig < UCMPI_COLL_SIG_ABORT);
            ck_assert_int_eq(seen[sig]++, 0);
        }
    for (unsigned c = 0; c < UCMPI_COLL_SIG_COLLS; c += 5) {
        memset(seen, 0, sizeof(seen));
        for (unsigned a = 0; a < UCMPI_COLL_SIG_ALGS; a++)
            for (unsigned sh = 0; sh < 16; sh++)
                ck_assert_int_eq(seen[ucmpi_coll_sig(c, a, sh)]++, 0);
        memset(seen, 0, sizeof(seen));
        for (unsigned sh = 0; sh < UCMPI_COLL_SIG_MOD; sh++)
            ck_assert_int_eq(seen[ucmpi_coll_sig(c, 3, sh)]++, 0);
    }
    unsigned bcast = ucmpi_coll_sig_id("MPI_Bcast");
    ck_assert_uint_ne(bcast, 0);
    ck_assert_uint_eq(ucmpi_coll_sig_id("MPI_Ibcast"), bcast);
    ck_assert_uint_eq(ucmpi_coll_sig_id("MPI_Bcast_init"), bcast);
    ck_assert_uint_eq(ucmpi_coll_sig_id("MPI_Ibcast_c"), bcast);
    ck_assert_uint_eq(ucmpi_coll_sig_id("MPI_Bcast_init_c"), bcast);
    ck_assert_uint_ne(ucmpi_coll_sig_id("MPI_Reduce"), bcast);
    ck_assert_uint_ne(ucmpi_coll_sig_id("MPI_Reduce_scatter"),
                      ucmpi_coll_sig_id("MPI_Reduce_scatter_block"));
    ck_assert_uint_eq(ucmpi_coll_sig_id("MPI_Ineighbor_alltoallw"),
                      ucmpi_coll_sig_id("MPI_Neighbor_alltoallw"));
    ck_assert_uint_ne(ucmpi_coll_sig_id("MPI_Neighbor_alltoallw"), 0);
    ck_assert_uint_eq(ucmpi_coll_sig_id("MPI_Comm_split"), 0);
    ck_assert_uint_eq(ucmpi_coll_sig_id(NULL), 0);
    ck_assert_str_eq(ucmpi_coll_sig_coll_name(bcast), "Bcast");
    ck_assert_uint_eq(ucmpi_coll_sig_coll_of(ucmpi_coll_sig(bcast, 2, 0)),
                      bcast);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("coll_util");
    TCase *tc = tcase_create("peers");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, test_knomial_tree);
    tcase_add_test(tc, test_knomial_binomial_shape);
    tcase_add_test(tc, test_recursive_doubling_fold);
    tcase_add_test(tc, test_blocks_and_rings);
    tcase_add_test(tc, test_ring_segments);
    tcase_add_test(tc, test_coll_signatures);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
