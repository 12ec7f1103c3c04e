/*
 * Unit tests of the gather/scatter/allgather/alltoall/neighbor schedule
 * builders: n simulated ranks in one process (coll_mock: rendezvous-only
 * sends, so a schedule that relies on eager completion deadlocks here),
 * every algorithm, every root, n = 1..12, zero/uneven counts, in place.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "coll_mock.h"
#include "coll/gather/gather.h"
#include "coll/allgather/allgather.h"
#include "coll/alltoall/alltoall.h"
#include "coll/neighbor/neighbor.h"

#define MAXN 12

static int xv(int src, int dst, int i) { return src * 100003 + dst * 307 + i; }

/* Builds a's schedule on every rank, runs them together and checks the
 * engine saw no error, no deadlock and no stray message. */
static void run_all(ucmpi_coll_build_fn_t fn, ucmpi_coll_args_t *a, int n)
{
    ucmpi_request_t *reqs[MAXN];

    for (int r = 0; r < n; r++) {
        ucmpi_sched_t *s = ucmpi_sched_create(mock_comms[r]);
        ck_assert_ptr_nonnull(s);
        a[r].comm = mock_comms[r];
        a[r].rank = r;
        a[r].size = n;
        ck_assert_int_eq(ucmpi_xfer_prepare(s, &a[r]), MPI_SUCCESS);
        ck_assert_int_eq(fn(s, &a[r]), MPI_SUCCESS);
        ck_assert_int_eq(ucmpi_sched_start(s, 0, &reqs[r]), MPI_SUCCESS);
    }
    ck_assert_int_eq(mock_wait_all(reqs, n), 0);
    ck_assert_int_eq(mock_pending_messages(), 0);
    ck_assert_int_eq(mock_errors, 0);
    for (int r = 0; r < n; r++) {
        ck_assert_int_eq(reqs[r]->status.MPI_ERROR, MPI_SUCCESS);
        ucmpi_request_free(reqs[r]);
    }
}

static int *ibuf(size_t n, int fill)
{
    int *p = malloc(sizeof(int) * (n ? n : 1));
    for (size_t i = 0; i < n; i++)
        p[i] = fill;
    return p;
}

/* ---- gather / scatter ---- */

static void check_gather(ucmpi_coll_build_fn_t fn, int n, int root,
                         int count, int inplace)
{
    ucmpi_coll_args_t a[MAXN];
    int *sb[MAXN], *rb = ibuf((size_t)n * count, -1);

    mock_setup(n, NULL);
    for (int r = 0; r < n; r++) {
        sb[r] = ibuf(count, 0);
        for (int i = 0; i < count; i++)
            sb[r][i] = xv(r, root, i);
        a[r] = (ucmpi_coll_args_t){.root = root, .sbuf = sb[r],
                                   .scount = count, .sdt = MPI_INT,
                                   .rbuf = NULL, .rcount = 0,
                                   .rdt = MPI_BYTE};
    }
    a[root].rbuf = rb;
    a[root].rcount = count;
    a[root].rdt = MPI_INT;
    if (inplace) {
        memcpy(rb + (size_t)root * count, sb[root], sizeof(int) * count);
        a[root].sbuf = MPI_IN_PLACE;
        a[root].scount = 0;
        a[root].sdt = MPI_BYTE;
    }
    run_all(fn, a, n);
    for (int r = 0; r < n; r++)
        for (int i = 0; i < count; i++)
            ck_assert_msg(rb[(size_t)r * count + i] == xv(r, root, i),
                          "n=%d root=%d count=%d: block %d elem %d", n, root,
                          count, r, i);
    for (int r = 0; r < n; r++)
        free(sb[r]);
    free(rb);
}

static void check_scatter(ucmpi_coll_build_fn_t fn, int n, int root,
                          int count, int inplace)
{
    ucmpi_coll_args_t a[MAXN];
    int *rb[MAXN], *sb = ibuf((size_t)n * count, 0);

    mock_setup(n, NULL);
    for (int r = 0; r < n; r++)
        for (int i = 0; i < count; i++)
            sb[(size_t)r * count + i] = xv(root, r, i);
    for (int r = 0; r < n; r++) {
        rb[r] = ibuf(count, -1);
        a[r] = (ucmpi_coll_args_t){.root = root, .sbuf = NULL, .scount = 0,
                                   .sdt = MPI_BYTE, .rbuf = rb[r],
                                   .rcount = count, .rdt = MPI_INT};
    }
    a[root].sbuf = sb;
    a[root].scount = count;
    a[root].sdt = MPI_INT;
    if (inplace) {
        a[root].rbuf = MPI_IN_PLACE;
        a[root].rcount = 0;
        a[root].rdt = MPI_BYTE;
    }
    run_all(fn, a, n);
    for (int r = 0; r < n; r++) {
        if (inplace && r == root)
            continue;
        for (int i = 0; i < count; i++)
            ck_assert_msg(rb[r][i] == xv(root, r, i), "n=%d root=%d "
                          "count=%d: rank %d elem %d", n, root, count, r, i);
    }
    for (int r = 0; r < n; r++)
        free(rb[r]);
    free(sb);
}

START_TEST(test_gather_scatter)
{
    static const ucmpi_coll_build_fn_t g[] = {ucmpi_gather_linear,
                                              ucmpi_gather_binomial};
    static const ucmpi_coll_build_fn_t sc[] = {ucmpi_scatter_linear,
                                               ucmpi_scatter_binomial};
    static const int counts[] = {0, 1, 3};

    for (int alg = 0; alg < 2; alg++)
        for (int n = 1; n <= MAXN; n++)
            for (int root = 0; root < n; root++)
                for (int c = 0; c < 3; c++)
                    for (int ip = 0; ip < 2; ip++) {
                        check_gather(g[alg], n, root, counts[c], ip);
                        check_scatter(sc[alg], n, root, counts[c], ip);
                    }
}
END_TEST

/* gatherv/scatterv through the block lists, uneven and zero counts */
START_TEST(test_gatherv_scatterv)
{
    /* linear, then the binomial trees (counts learnt at run time) */
    static const ucmpi_coll_build_fn_t gv[] = {ucmpi_gather_linear,
                                               ucmpi_gatherv_binomial};
    static const ucmpi_coll_build_fn_t sv[] = {ucmpi_scatter_linear,
                                               ucmpi_scatterv_binomial};
    for (int alg = 0; alg < 2; alg++)
    for (int n = 1; n <= MAXN; n++)
        for (int root = 0; root < n; root++) {
            ucmpi_coll_args_t a[MAXN];
            int counts[MAXN], displs[MAXN], total = 0;
            int *sb[MAXN], *rb;

            for (int r = n - 1; r >= 0; r--) {
                counts[r] = (r * 3 + root) % 4;
                displs[r] = total;
                total += counts[r];
            }
            rb = ibuf(total, -1);
            mock_setup(n, NULL);
            for (int r = 0; r < n; r++) {
                sb[r] = ibuf(counts[r], 0);
                for (int i = 0; i < counts[r]; i++)
                    sb[r][i] = xv(r, root, i);
                a[r] = (ucmpi_coll_args_t){.root = root, .sbuf = sb[r],
                                           .scount = counts[r],
                                           .sdt = MPI_INT, .rdt = MPI_BYTE};
            }
            a[root].rbuf = rb;
            a[root].rdt = MPI_INT;
            a[root].rcounts = counts;
            a[root].rdispls = displs;
            a[root].nrblk = n;
            run_all(gv[alg], a, n);
            for (int r = 0; r < n; r++)
                for (int i = 0; i < counts[r]; i++)
                    ck_assert_int_eq(rb[displs[r] + i], xv(r, root, i));
            /* and back: scatterv of the gathered buffer */
            mock_setup(n, NULL);
            for (int r = 0; r < n; r++) {
                memset(sb[r], 0xff, sizeof(int) * counts[r]);
                a[r] = (ucmpi_coll_args_t){.root = root, .rbuf = sb[r],
                                           .rcount = counts[r],
                                           .rdt = MPI_INT, .sdt = MPI_BYTE};
            }
            a[root].sbuf = rb;
            a[root].sdt = MPI_INT;
            a[root].scounts = counts;
            a[root].sdispls = displs;
            a[root].nsblk = n;
            run_all(sv[alg], a, n);
            for (int r = 0; r < n; r++) {
                for (int i = 0; i < counts[r]; i++)
                    ck_assert_int_eq(sb[r][i], xv(r, root, i));
                free(sb[r]);
            }
            free(rb);
        }
}
END_TEST

/* ---- allgather(v) ---- */

/* counts NULL: uniform count; else allgatherv with these counts */
static void check_allgather(ucmpi_coll_build_fn_t fn, int n, int count,
                            const int *counts, int inplace)
{
    ucmpi_coll_args_t a[MAXN];
    int displs[MAXN], c[MAXN], total = 0;
    int *sb[MAXN], *rb[MAXN];

    for (int r = 0; r < n; r++) {   /* reverse order with one-int gaps */
        int q = n - 1 - r;
        c[q] = counts ? counts[q] : count;
        displs[q] = counts ? total : q * count;
        total += counts ? c[q] + 1 : count;
    }
    mock_setup(n, NULL);
    for (int r = 0; r < n; r++) {
        sb[r] = ibuf(c[r], 0);
        rb[r] = ibuf(total, -1);
        for (int i = 0; i < c[r]; i++)
            sb[r][i] = xv(r, 0, i);
        a[r] = (ucmpi_coll_args_t){.sbuf = sb[r], .scount = c[r],
                                   .sdt = MPI_INT, .rbuf = rb[r],
                                   .rcount = count, .rdt = MPI_INT};
        if (counts) {
            a[r].rcounts = c;
            a[r].rdispls = displs;
            a[r].nrblk = n;
        }
        if (inplace) {
            memcpy(rb[r] + displs[r], sb[r], sizeof(int) * c[r]);
            a[r].sbuf = MPI_IN_PLACE;
            a[r].scount = 0;
            a[r].sdt = MPI_BYTE;
        }
    }
    run_all(fn, a, n);
    for (int r = 0; r < n; r++) {
        for (int q = 0; q < n; q++) {
            for (int i = 0; i < c[q]; i++)
                ck_assert_msg(rb[r][displs[q] + i] == xv(q, 0, i), "n=%d "
                              "count=%d v=%d ip=%d: rank %d block %d elem %d",
                              n, count, counts != NULL, inplace, r, q, i);
            if (counts)
                ck_assert_int_eq(rb[r][displs[q] + c[q]], -1);
        }
        free(sb[r]);
        free(rb[r]);
    }
}

START_TEST(test_allgather)
{
    static const ucmpi_coll_build_fn_t fns[] = {
        ucmpi_allgather_ring, ucmpi_allgather_bruck,
        ucmpi_allgather_recursive_doubling, ucmpi_allgather_linear};
    int counts[MAXN];

    for (int alg = 0; alg < 4; alg++)
        for (int n = 1; n <= MAXN; n++)
            for (int ip = 0; ip < 2; ip++) {
                for (int count = 0; count < 4; count += 1 + (count > 0))
                    check_allgather(fns[alg], n, count, NULL, ip);
                if (alg == 2)
                    continue;   /* recursive doubling: uniform only */
                for (int base = 0; base < 3; base++) {
                    for (int r = 0; r < n; r++)
                        counts[r] = (r * 5 + base) % 4;
                    check_allgather(fns[alg], n, 0, counts, ip);
                }
            }
}
END_TEST

/* ---- alltoall(v) ---- */

static int a2a_count(int src, int dst, int pattern, int sym)
{
    if (sym && src > dst) {
        int t = src;
        src = dst;
        dst = t;
    }
    if (pattern < 0)
        return -pattern - 1;   /* uniform: pattern -1 - count */
    return (src * 7 + dst * 3 + pattern) % 5 == 0 ? 0
                                                  : (src + 2 * dst) % 4 + 1;
}

static void check_alltoall(ucmpi_coll_build_fn_t fn, int n, int pattern,
                           int inplace)
{
    ucmpi_coll_args_t a[MAXN];
    int sc[MAXN][MAXN], sd[MAXN][MAXN], rc[MAXN][MAXN], rd[MAXN][MAXN];
    int *sb[MAXN], *rb[MAXN], uniform = pattern < 0;

    mock_setup(n, NULL);
    for (int r = 0; r < n; r++) {
        int st = 0, rt = 0;
        for (int p = n - 1; p >= 0; p--) {
            sc[r][p] = a2a_count(r, p, pattern, inplace);
            rc[r][p] = a2a_count(p, r, pattern, inplace);
            sd[r][p] = uniform ? p * sc[r][p] : st;
            rd[r][p] = uniform ? p * rc[r][p] : rt;
            st += sc[r][p] + !uniform;
            rt += rc[r][p] + !uniform;
        }
        sb[r] = ibuf(st, 0);
        rb[r] = ibuf(rt, -1);
        for (int p = 0; p < n; p++)
            for (int i = 0; i < sc[r][p]; i++)
                (inplace ? rb[r] + rd[r][p] : sb[r] + sd[r][p])[i] =
                    xv(r, p, i);
        a[r] = (ucmpi_coll_args_t){.sbuf = inplace ? MPI_IN_PLACE : sb[r],
                                   .scount = uniform ? -pattern - 1 : 0,
                                   .sdt = MPI_INT, .rbuf = rb[r],
                                   .rcount = uniform ? -pattern - 1 : 0,
                                   .rdt = MPI_INT};
        if (!uniform) {
            a[r].scounts = sc[r];
            a[r].sdispls = sd[r];
            a[r].rcounts = rc[r];
            a[r].rdispls = rd[r];
            a[r].nsblk = a[r].nrblk = n;
        }
    }
    run_all(fn, a, n);
    for (int r = 0; r < n; r++) {
        for (int p = 0; p < n; p++) {
            for (int i = 0; i < rc[r][p]; i++)
                ck_assert_msg(rb[r][rd[r][p] + i] == xv(p, r, i), "n=%d "
                              "pattern=%d ip=%d: rank %d from %d elem %d",
                              n, pattern, inplace, r, p, i);
            if (!uniform)
                ck_assert_int_eq(rb[r][rd[r][p] + rc[r][p]], -1);
        }
        free(sb[r]);
        free(rb[r]);
    }
}

START_TEST(test_alltoall)
{
    static const ucmpi_coll_build_fn_t fns[] = {
        ucmpi_alltoall_scattered, ucmpi_alltoall_pairwise,
        ucmpi_alltoall_bruck};
    static const char *const windows[] = {"32", "1", "2", "3"};

    for (int w = 0; w < 4; w++) {
        setenv("UCMPI_ALLTOALL_WINDOW", windows[w], 1);
        for (int alg = 0; alg < 3; alg++) {
            if (w > 0 && alg > 0)
                continue;
            for (int n = 1; n <= MAXN; n++)
                for (int ip = 0; ip < 2; ip++) {
                    check_alltoall(fns[alg], n, -1, ip);   /* count 0 */
                    check_alltoall(fns[alg], n, -2, ip);   /* count 1 */
                    check_alltoall(fns[alg], n, -4, ip);   /* count 3 */
                    if (alg < 2)
                        for (int pat = 0; pat < 3; pat++)
                            check_alltoall(fns[alg], n, pat, ip);
                }
        }
    }
    unsetenv("UCMPI_ALLTOALL_WINDOW");
}
END_TEST

/* ---- neighbor ---- */

START_TEST(test_neighbor_order)
{
    int order[6];
    const int ring2[] = {1, 1}, line[] = {MPI_PROC_NULL, 1};
    const int grid[] = {3, 3, 0, 2, 5, 5};

    ucmpi_neighbor_recv_order(2, ring2, 1, order);
    ck_assert(order[0] == 1 && order[1] == 0);
    ucmpi_neighbor_recv_order(2, ring2, 0, order);   /* graph: as listed */
    ck_assert(order[0] == 0 && order[1] == 1);
    ucmpi_neighbor_recv_order(2, line, 1, order);
    ck_assert(order[0] == 0 && order[1] == 1);
    ucmpi_neighbor_recv_order(6, grid, 1, order);
    ck_assert(order[0] == 1 && order[1] == 0 && order[2] == 2 &&
              order[3] == 3 && order[4] == 5 && order[5] == 4);
}
END_TEST

/* 1-d periodic cartesian ring: slot 0 from the left neighbour must hold
 * what it sent to the right (its slot 1), even when left == right */
START_TEST(test_neighbor_ring)
{
    for (int n = 1; n <= 5; n++) {
        ucmpi_coll_args_t a[MAXN];
        int nb[MAXN][2], sb[MAXN][2], rb[MAXN][2];

        mock_setup(n, NULL);
        for (int r = 0; r < n; r++) {
            nb[r][0] = (r - 1 + n) % n;
            nb[r][1] = (r + 1) % n;
            sb[r][0] = xv(r, 0, 0);   /* to the left */
            sb[r][1] = xv(r, 1, 0);   /* to the right */
            rb[r][0] = rb[r][1] = -1;
            a[r] = (ucmpi_coll_args_t){.sbuf = sb[r], .scount = 1,
                                       .sdt = MPI_INT, .rbuf = rb[r],
                                       .rcount = 1, .rdt = MPI_INT,
                                       .indeg = 2, .outdeg = 2,
                                       .srcs = nb[r], .dsts = nb[r],
                                       .cart = 1, .nsblk = 2};
        }
        run_all(ucmpi_neighbor_exchange, a, n);
        for (int r = 0; r < n; r++) {
            ck_assert_int_eq(rb[r][0], xv((r - 1 + n) % n, 1, 0));
            ck_assert_int_eq(rb[r][1], xv((r + 1) % n, 0, 0));
        }
    }
}
END_TEST

/* shape: Bruck alltoall and allgather take ceil(log2 n) exchange rounds */
START_TEST(test_rounds)
{
    for (int n = 2; n <= MAXN; n++) {
        int lg = 0, v = 3;
        ucmpi_coll_args_t a = {.rank = 0, .size = n, .sbuf = &v, .scount = 1,
                               .sdt = MPI_INT, .rcount = 1, .rdt = MPI_INT};
        int *rb = ibuf((size_t)n, 0);
        ucmpi_sched_t *s;

        while ((1 << lg) < n)
            lg++;
        mock_setup(n, NULL);
        a.comm = mock_comms[0];
        a.rbuf = rb;
        s = ucmpi_sched_create(mock_comms[0]);
        ck_assert_int_eq(ucmpi_allgather_bruck(s, &a), MPI_SUCCESS);
        ck_assert_int_eq(ucmpi_sched_num_rounds(s), lg + 1);
        ucmpi_sched_free(s);
        free(rb);
    }
}
END_TEST

int main(void)
{
    Suite *su = suite_create("coll_xfer");
    TCase *tc = tcase_create("builders");
    SRunner *sr;
    int nfail;

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_gather_scatter);
    tcase_add_test(tc, test_gatherv_scatterv);
    tcase_add_test(tc, test_allgather);
    tcase_add_test(tc, test_alltoall);
    tcase_add_test(tc, test_neighbor_order);
    tcase_add_test(tc, test_neighbor_ring);
    tcase_add_test(tc, test_rounds);
    suite_add_tcase(su, tc);
    sr = srunner_create(su);
    srunner_run_all(sr, CK_NORMAL);
    nfail = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nfail ? 1 : 0;
}
