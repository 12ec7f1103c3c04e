/*
 * Runs the real collective entry points, schedule builders and engine for
 * n simulated ranks in one process (coll_mock.c stands in for p2p and
 * progress), forcing every algorithm in turn: sizes 1..9 and 16, roots,
 * in place, a non-commutative op, node layouts for the hierarchical
 * allreduce, reduce, bcast and barrier, overlapping and persistent
 * collectives.
 */
#include "coll_mock.h"
#include "p2p/progress_api.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN MOCK_MAX_RANKS
#define MAXC 70000

static int *sbuf[MAXN], *rbuf[MAXN], *expect;
static ucmpi_request_t *reqs[MAXN];

static const int sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 16};
#define NSIZES ((int)(sizeof(sizes) / sizeof(sizes[0])))

static void setup(void)
{
    for (int r = 0; r < MAXN; r++) {
        sbuf[r] = calloc(2 * MAXC, sizeof(int));
        rbuf[r] = calloc(2 * MAXC, sizeof(int));
    }
    expect = calloc(2 * MAXC, sizeof(int));
}

static void teardown(void)
{
    for (int r = 0; r < MAXN; r++) {
        free(sbuf[r]);
        free(rbuf[r]);
    }
    free(expect);
}

static int others_in_flight;

static void finish(int n)
{
    ck_assert_int_eq(mock_wait_all(reqs, n), 0);
    if (!others_in_flight)
        ck_assert_int_eq(mock_pending_messages(), 0);
    ck_assert_int_eq(mock_errors, 0);
    for (int r = 0; r < n; r++) {
        ck_assert_int_eq(reqs[r]->status.MPI_ERROR, MPI_SUCCESS);
        ucmpi_request_free(reqs[r]);
        reqs[r] = NULL;
    }
}

/* element i of rank r's input: ints for SUM, affine pairs otherwise */
static void fill(int n, int count, int affine)
{
    for (int r = 0; r < n; r++)
        for (int i = 0; i < count; i++) {
            if (affine) {
                sbuf[r][2 * i] = (r * 7 + i) % 13 + 2;
                sbuf[r][2 * i + 1] = (r * 3 + i * 5) % 17;
            } else {
                sbuf[r][i] = r * 1000 + i;
            }
        }
}

/* expect = fold of ranks [lo, hi) in rank order */
static void fold(int lo, int hi, int count, int affine)
{
    int w = affine ? 2 : 1;
    memcpy(expect, sbuf[hi - 1], count * w * sizeof(int));
    for (int r = hi - 2; r >= lo; r--) {
        if (affine)
            mock_affine(sbuf[r], expect, count);
        else
            for (int i = 0; i < count; i++)
                expect[i] += sbuf[r][i];
    }
}

static void check_eq(const int *got, int count, int affine, int r)
{
    int w = affine ? 2 : 1;
    for (int i = 0; i < count * w; i++)
        if (got[i] != expect[i])
            ck_abort_msg("rank %d element %d: got %d, expected %d", r, i,
                         got[i], expect[i]);
}

static void force(const char *knob, const char *alg)
{
    char var[64];
    snprintf(var, sizeof(var), "UCMPI_%s", knob);
    setenv(var, alg, 1);
}

/* ---- allreduce ---- */
static void allreduce_case(const char *alg, int n, const int *layout,
                           int count, int affine, int inplace)
{
    MPI_Datatype dt = affine ? MPI_2INT : MPI_INT;
    MPI_Op op = affine ? mock_op_affine : MPI_SUM;
    int w = affine ? 2 : 1;

    force("ALLREDUCE_ALGORITHM", alg);
    mock_setup(n, layout);
    fill(n, count, affine);
    for (int r = 0; r < n; r++) {
        if (inplace)
            memcpy(rbuf[r], sbuf[r], count * w * sizeof(int));
        ck_assert_int_eq(PMPI_Iallreduce(inplace ? MPI_IN_PLACE : sbuf[r],
                                         rbuf[r], count, dt, op,
                                         mock_comms[r], &reqs[r]), 0);
    }
    finish(n);
    fold(0, n, count, affine);
    for (int r = 0; r < n; r++)
        check_eq(rbuf[r], count, affine, r);
}

static const char *allreduce_algs[] = {"recursive_doubling", "rabenseifner",
    "ring", "reduce_bcast", "hierarchical", "auto"};

/* node layouts (world rank -> node) for the hierarchical rows */
static const int blocks2[MAXN] = {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7};
static const int interleaved[MAXN] = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
static const int uneven[MAXN] = {0, 0, 0, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3};
static const int *const layouts[] = {NULL, blocks2, interleaved, uneven};

START_TEST(test_allreduce)
{
    const char *alg = allreduce_algs[_i];
    static const int counts[] = {0, 1, 3, 17, 1000};

    for (int si = 0; si < NSIZES; si++)
        for (int ci = 0; ci < 5; ci++)
            for (int l = 0; l < (strcmp(alg, "hierarchical") ? 1 : 4); l++)
                for (int v = 0; v < 4; v++)
                    allreduce_case(alg, sizes[si], layouts[l], counts[ci],
                                   v & 1, v >> 1);
}
END_TEST

/* ---- reduce ---- */
START_TEST(test_reduce)
{
    static const char *algs[] = {"binomial", "linear", "hierarchical"};
    const char *alg = algs[_i];
    static const int counts[] = {0, 1, 5, 300};

    force("REDUCE_ALGORITHM", alg);
    for (int si = 0; si < NSIZES; si++)
        for (int ci = 0; ci < 4; ci++)
          for (int l = 0; l < (_i == 2 ? 4 : 1); l++)
            for (int v = 0; v < 4; v++) {
                int n = sizes[si], count = counts[ci], affine = v & 1;
                int inplace = v >> 1, w = affine ? 2 : 1;
                for (int root = 0; root < n; root += (n > 3 ? n / 3 : 1)) {
                    mock_setup(n, layouts[l]);
                    fill(n, count, affine);
                    memset(rbuf[root], 0, count * w * sizeof(int));
                    if (inplace)
                        memcpy(rbuf[root], sbuf[root], count * w * sizeof(int));
                    for (int r = 0; r < n; r++)
                        ck_assert_int_eq(PMPI_Ireduce(
                            inplace && r == root ? MPI_IN_PLACE : sbuf[r],
                            rbuf[r], count, affine ? MPI_2INT : MPI_INT,
                            affine ? mock_op_affine : MPI_SUM, root,
                            mock_comms[r], &reqs[r]), 0);
                    finish(n);
                    fold(0, n, count, affine);
                    check_eq(rbuf[root], count, affine, root);
                }
            }
}
END_TEST

/* ---- bcast ---- */
START_TEST(test_bcast)
{
    static const char *algs[] = {"binomial", "scatter_allgather", "chain",
                                 "auto", "hierarchical"};
    static const int counts[] = {0, 1, 7, 1000, 65536 + 3};

    force("BCAST_ALGORITHM", algs[_i]);
    for (int si = 0; si < NSIZES; si++)
        for (int ci = 0; ci < 5; ci++)
          for (int l = 0; l < (_i == 4 ? 4 : 1); l++) {
            int n = sizes[si], count = counts[ci];
            for (int root = 0; root < n; root += (n > 2 ? n / 2 : 1)) {
                mock_setup(n, layouts[l]);
                for (int r = 0; r < n; r++)
                    for (int i = 0; i < count; i++)
                        rbuf[r][i] = r == root ? i * 3 + root : -1;
                for (int r = 0; r < n; r++)
                    ck_assert_int_eq(PMPI_Ibcast(rbuf[r], count, MPI_INT, root,
                                                 mock_comms[r], &reqs[r]), 0);
                finish(n);
                for (int r = 0; r < n; r++)
                    for (int i = 0; i < count; i++)
                        if (rbuf[r][i] != i * 3 + root)
                            ck_abort_msg("%s n=%d root=%d rank %d [%d]=%d",
                                         algs[_i], n, root, r, i, rbuf[r][i]);
            }
        }
}
END_TEST

/* ---- barrier: nobody completes before the last rank entered ---- */
START_TEST(test_barrier)
{
    static const char *algs[] = {"dissemination", "knomial", "hierarchical"};

    force("BARRIER_ALGORITHM", algs[_i]);
    for (int si = 0; si < NSIZES; si++)
      for (int l = 0; l < (_i == 2 ? 4 : 1); l++) {
        int n = sizes[si];
        for (int late = 0; late < n; late++) {
            mock_setup(n, layouts[l]);
            for (int r = 0; r < n; r++)
                if (r != late)
                    ck_assert_int_eq(PMPI_Ibarrier(mock_comms[r], &reqs[r]), 0);
            reqs[late] = NULL;
            for (int k = 0; k < 10; k++)
                ucmpi_progress();
            for (int r = 0; r < n; r++)
                ck_assert(reqs[r] == NULL || !ucmpi_request_is_complete(reqs[r]));
            ck_assert_int_eq(PMPI_Ibarrier(mock_comms[late], &reqs[late]), 0);
            finish(n);
        }
    }
}
END_TEST

/* ---- reduce_scatter and reduce_scatter_block ---- */
START_TEST(test_reduce_scatter)
{
    static const char *algs[] = {"recursive_halving", "ring", "pairwise"};
    int rcounts[MAXN], displs[MAXN + 1];

    force("REDUCE_SCATTER_ALGORITHM", algs[_i]);
    for (int si = 0; si < NSIZES; si++)
        for (int base = 0; base < 3; base++)
            for (int v = 0; v < 8; v++) {
                int n = sizes[si], affine = v & 1, inplace = (v >> 1) & 1;
                int block = v >> 2, w = affine ? 2 : 1, total = 0;
                for (int i = 0; i < n; i++) {
                    rcounts[i] = block ? base * 5 : (i * 7 + base) % 4 + base;
                    displs[i] = total;
                    total += rcounts[i];
                }
                mock_setup(n, NULL);
                fill(n, total, affine);
                for (int r = 0; r < n; r++) {
                    const void *in = sbuf[r];
                    if (inplace) {
                        memcpy(rbuf[r], sbuf[r], total * w * sizeof(int));
                        in = MPI_IN_PLACE;
                    }
                    MPI_Datatype dt = affine ? MPI_2INT : MPI_INT;
                    MPI_Op op = affine ? mock_op_affine : MPI_SUM;
                    ck_assert_int_eq(block
                        ? PMPI_Ireduce_scatter_block(in, rbuf[r], rcounts[0],
                              dt, op, mock_comms[r], &reqs[r])
                        : PMPI_Ireduce_scatter(in, rbuf[r], rcounts, dt, op,
                              mock_comms[r], &reqs[r]), 0);
                }
                finish(n);
                fold(0, n, total, affine);
                for (int r = 0; r < n; r++)
                    for (int i = 0; i < rcounts[r] * w; i++)
                        if (rbuf[r][i] != expect[displs[r] * w + i])
                            ck_abort_msg("%s n=%d v=%d rank %d [%d]", algs[_i],
                                         n, v, r, i);
            }
}
END_TEST

/* ---- scan and exscan ---- */
START_TEST(test_scan)
{
    for (int si = 0; si < NSIZES; si++)
        for (int v = 0; v < 8; v++) {
            int n = sizes[si], affine = v & 1, inplace = (v >> 1) & 1;
            int excl = v >> 2, count = 13, w = affine ? 2 : 1;
            mock_setup(n, NULL);
            fill(n, count, affine);
            for (int r = 0; r < n; r++) {
                if (inplace)
                    memcpy(rbuf[r], sbuf[r], count * w * sizeof(int));
                const void *in = inplace ? MPI_IN_PLACE : sbuf[r];
                MPI_Datatype dt = affine ? MPI_2INT : MPI_INT;
                MPI_Op op = affine ? mock_op_affine : MPI_SUM;
                ck_assert_int_eq(excl
                    ? PMPI_Iexscan(in, rbuf[r], count, dt, op, mock_comms[r], &reqs[r])
                    : PMPI_Iscan(in, rbuf[r], count, dt, op, mock_comms[r], &reqs[r]), 0);
            }
            finish(n);
            for (int r = excl; r < n; r++) {
                fold(0, excl ? r : r + 1, count, affine);
                check_eq(rbuf[r], count, affine, r);
            }
        }
}
END_TEST

/* ---- several collectives in flight, completed in reverse order ---- */
START_TEST(test_overlap)
{
    enum { K = 6 };
    ucmpi_request_t *all[MAXN][K];
    static int out[MAXN][K][64];
    int n = 7, count = 40;

    setenv("UCMPI_ALLREDUCE_ALGORITHM", "ring", 1);
    mock_setup(n, NULL);
    fill(n, count, 0);
    for (int r = 0; r < n; r++)
        for (int k = 0; k < K; k++) {
            int rc = k % 3 == 0 ? PMPI_Iallreduce(sbuf[r], out[r][k], count,
                                      MPI_INT, MPI_SUM, mock_comms[r], &all[r][k])
                   : k % 3 == 1 ? PMPI_Ibarrier(mock_comms[r], &all[r][k])
                   : PMPI_Ireduce(sbuf[r], out[r][k], count, MPI_INT, MPI_SUM,
                                  k % n, mock_comms[r], &all[r][k]);
            ck_assert_int_eq(rc, 0);
        }
    fold(0, n, count, 0);
    others_in_flight = 1;
    for (int k = K - 1; k >= 0; k--) {
        for (int r = 0; r < n; r++)
            reqs[r] = all[r][k];
        finish(n);
        for (int r = 0; r < n; r++)
            if (k % 3 == 0 || (k % 3 == 2 && r == k % n))
                check_eq(out[r][k], count, 0, r);
    }
    ck_assert_int_eq(mock_pending_messages(), 0);
}
END_TEST

/* ---- persistent: built once, started three times ---- */
START_TEST(test_persistent)
{
    int n = 5, count = 9;

    setenv("UCMPI_ALLREDUCE_ALGORITHM", "rabenseifner", 1);
    mock_setup(n, NULL);
    for (int r = 0; r < n; r++) {
        ck_assert_int_eq(PMPI_Allreduce_init(sbuf[r], rbuf[r], count, MPI_INT,
                                             MPI_SUM, mock_comms[r],
                                             MPI_INFO_NULL, &reqs[r]), 0);
        ck_assert(ucmpi_request_is_complete(reqs[r]));   /* inactive */
    }
    for (int it = 0; it < 3; it++) {
        fill(n, count, 0);
        for (int r = 0; r < n; r++)
            for (int i = 0; i < count; i++)
                sbuf[r][i] += it;
        for (int r = 0; r < n; r++)
            ck_assert_int_eq(mock_start(reqs[r]), 0);
        ck_assert_int_eq(mock_wait_all(reqs, n), 0);
        fold(0, n, count, 0);
        for (int r = 0; r < n; r++)
            check_eq(rbuf[r], count, 0, r);
    }
    ck_assert_int_eq(mock_pending_messages(), 0);
    for (int r = 0; r < n; r++)
        ucmpi_request_free(reqs[r]);
}
END_TEST

/* ---- bad input reports the standard's class ---- */
START_TEST(test_errors)
{
    mock_setup(3, NULL);
    ck_assert_int_eq(PMPI_Iallreduce(sbuf[0], MPI_IN_PLACE, 1, MPI_INT,
                                     MPI_SUM, mock_comms[0], &reqs[0]),
                     MPI_ERR_BUFFER);
    ck_assert_int_eq(PMPI_Ireduce(MPI_IN_PLACE, rbuf[1], 1, MPI_INT, MPI_SUM,
                                  0, mock_comms[1], &reqs[1]), MPI_ERR_BUFFER);
    ck_assert_int_eq(PMPI_Ibcast(rbuf[0], 1, MPI_INT, 3, mock_comms[0],
                                 &reqs[0]), MPI_ERR_ROOT);
    ck_assert_int_eq(PMPI_Ibcast(MPI_IN_PLACE, 1, MPI_INT, 0, mock_comms[0],
                                 &reqs[0]), MPI_ERR_BUFFER);
    ck_assert_int_eq(PMPI_Iallreduce(sbuf[0], rbuf[0], -1, MPI_INT, MPI_SUM,
                                     mock_comms[0], &reqs[0]), MPI_ERR_COUNT);
    ck_assert_int_eq(PMPI_Iallreduce(sbuf[0], rbuf[0], 1, MPI_INT, MPI_OP_NULL,
                                     mock_comms[0], &reqs[0]), MPI_ERR_OP);
    ck_assert_int_eq(PMPI_Iallreduce(sbuf[0], sbuf[0], 1, MPI_INT, MPI_SUM,
                                     mock_comms[0], &reqs[0]), MPI_ERR_BUFFER);
    ck_assert_int_eq(mock_pending_messages(), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("coll_sim");
    TCase *tc = tcase_create("sim");
    SRunner *sr;
    int failed;

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_allreduce, 0, 6);
    tcase_add_loop_test(tc, test_reduce, 0, 3);
    tcase_add_loop_test(tc, test_bcast, 0, 5);
    tcase_add_loop_test(tc, test_barrier, 0, 3);
    tcase_add_loop_test(tc, test_reduce_scatter, 0, 3);
    tcase_add_test(tc, test_scan);
    tcase_add_test(tc, test_overlap);
    tcase_add_test(tc, test_persistent);
    tcase_add_test(tc, test_errors);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
