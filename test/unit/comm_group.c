/* Pure logic of the comm area: group set operations and representations,
 * rank translation, balanced dims and cartesian arithmetic. */
#include <check.h>
#include <stdlib.h>

#include "comm/comm_internal.h"
#include "comm/topo.h"

ucmpi_global_t ucmpi_global = {.world_rank = 3, .world_size = 1000000};
/* dpm_procs.c's count of other jobs' processes (none here) */
void ucmpi_dpm_pin(const ucmpi_group_t *g, int delta)
{
    (void)g;
    (void)delta;
}

static ucmpi_group_t *tab(int n, const int *r)
{
    int *t = malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        t[i] = r[i];
    return ucmpi_group_from_table(t, n);
}

static void expect(const ucmpi_group_t *g, int n, const int *r)
{
    ck_assert_int_eq(g->size, n);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(ucmpi_group_world(g, i), r[i]);
}

START_TEST(world_is_a_range)
{
    ucmpi_group_t *w = ucmpi_group_create_range(0, 1000000, 1);
    int ranges[1][3] = {{1, 999999, 2}};
    ucmpi_group_t *odd = ucmpi_group_range_incl(w, 1, ranges);
    ck_assert_int_eq(odd->kind, UCMPI_GROUP_RANGE);    /* no table */
    ck_assert_int_eq(odd->size, 500000);
    ck_assert_int_eq(odd->my_rank, 1);                 /* world rank 3 */
    ck_assert_int_eq(ucmpi_group_world(odd, 499999), 999999);
    int r1[3] = {0, 5, 999999}, r2[3];
    ucmpi_group_translate(w, 3, r1, odd, r2);
    ck_assert_int_eq(r2[0], MPI_UNDEFINED);
    ck_assert_int_eq(r2[1], 2);
    ck_assert_int_eq(r2[2], 499999);
    ucmpi_group_release(odd);
    ucmpi_group_release(w);
}
END_TEST

START_TEST(progression_becomes_range)
{
    int r[4] = {10, 7, 4, 1};
    ucmpi_group_t *g = tab(4, r);
    ck_assert_int_eq(g->kind, UCMPI_GROUP_RANGE);
    expect(g, 4, r);
    ucmpi_group_release(g);
    int q[3] = {5, 3, 9};
    g = tab(3, q);
    ck_assert_int_eq(g->kind, UCMPI_GROUP_TABLE);
    ck_assert_int_eq(g->my_rank, 1);
    expect(g, 3, q);
    ucmpi_group_release(g);
}
END_TEST

START_TEST(set_operations)
{
    int a[5] = {9, 3, 5, 0, 7}, b[4] = {5, 8, 9, 1};
    ucmpi_group_t *ga = tab(5, a), *gb = tab(4, b);
    ucmpi_group_t *u = ucmpi_group_combine(ga, gb, UCMPI_GROUP_UNION);
    int eu[8] = {9, 3, 5, 0, 7, 8, 1};
    expect(u, 7, eu);
    ucmpi_group_t *in = ucmpi_group_combine(ga, gb, UCMPI_GROUP_INTERSECTION);
    int ei[2] = {9, 5};
    expect(in, 2, ei);
    ucmpi_group_t *d = ucmpi_group_combine(ga, gb, UCMPI_GROUP_DIFFERENCE);
    int ed[3] = {3, 0, 7};
    expect(d, 3, ed);
    ucmpi_group_t *e = ucmpi_group_combine(gb, u, UCMPI_GROUP_DIFFERENCE);
    ck_assert_ptr_eq(e, &ucmpi_group_empty);
    int ranks[2] = {4, 0};
    ucmpi_group_t *x = ucmpi_group_excl(ga, 2, ranks);
    int ex[3] = {3, 5, 0};
    expect(x, 3, ex);
    ucmpi_group_t *i2 = ucmpi_group_incl(ga, 2, ranks);
    int e2[2] = {7, 9};
    expect(i2, 2, e2);
    int rr[2][3] = {{4, 2, -2}, {0, 0, 1}};
    ucmpi_group_t *ri = ucmpi_group_range_incl(ga, 2, rr);
    int eri[4] = {7, 5, 9};
    expect(ri, 3, eri);
    ucmpi_group_t *re = ucmpi_group_range_excl(ga, 2, rr);
    int ere[2] = {3, 0};
    expect(re, 2, ere);
    ck_assert_int_eq(ucmpi_group_compare(ga, ga), MPI_IDENT);
    ucmpi_group_t *similar = tab(2, (int[]){5, 9});
    ck_assert_int_eq(ucmpi_group_compare(in, similar), MPI_SIMILAR);
    ucmpi_group_release(similar);
    ck_assert_int_eq(ucmpi_group_compare(in, d), MPI_UNEQUAL);
    ucmpi_group_t *all[] = {ga, gb, u, in, d, x, i2, ri, re};
    for (unsigned k = 0; k < sizeof(all) / sizeof(all[0]); k++)
        ucmpi_group_release(all[k]);
}
END_TEST

static void dims(int n, int nd, const int *in, const int *out)
{
    int d[8];
    for (int i = 0; i < nd; i++)
        d[i] = in[i];
    ck_assert_int_eq(ucmpi_dims_balance(n, nd, d), MPI_SUCCESS);
    for (int i = 0; i < nd; i++)
        ck_assert_int_eq(d[i], out[i]);
}

START_TEST(dims_balanced)
{
    dims(12, 3, (int[]){0, 0, 0}, (int[]){3, 2, 2});
    dims(16, 3, (int[]){0, 0, 0}, (int[]){4, 2, 2});
    dims(7, 2, (int[]){0, 0}, (int[]){7, 1});
    dims(24, 3, (int[]){0, 3, 0}, (int[]){4, 3, 2});
    dims(15984, 4, (int[]){0, 0, 0, 0}, (int[]){37, 9, 8, 6});
    dims(590520, 4, (int[]){0, 0, 0, 0}, (int[]){38, 37, 21, 20});
    int bad[2] = {0, 5};
    ck_assert_int_eq(ucmpi_dims_balance(12, 2, bad), MPI_ERR_DIMS);
}
END_TEST

START_TEST(cart_arithmetic)
{
    int d[3] = {4, 3, 2}, p[3] = {1, 0, 0}, c[3], src, dst;
    ucmpi_cart_coords(d, 3, 17, c);
    ck_assert(c[0] == 2 && c[1] == 2 && c[2] == 1);
    ck_assert_int_eq(ucmpi_cart_rank(d, p, 3, c), 17);
    int w[3] = {-1, 0, 0};
    ck_assert_int_eq(ucmpi_cart_rank(d, p, 3, w), 18);   /* periodic */
    int o[3] = {0, 3, 0};
    ck_assert_int_eq(ucmpi_cart_rank(d, p, 3, o), -1);
    ucmpi_cart_shift(d, p, 3, 0, 0, 1, &src, &dst);
    ck_assert(src == 18 && dst == 6);
    ucmpi_cart_shift(d, p, 3, 0, 1, 1, &src, &dst);
    ck_assert(src == MPI_PROC_NULL && dst == 2);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("comm");
    TCase *t = tcase_create("pure");
    tcase_add_test(t, world_is_a_range);
    tcase_add_test(t, progression_becomes_range);
    tcase_add_test(t, set_operations);
    tcase_add_test(t, dims_balanced);
    tcase_add_test(t, cart_arithmetic);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
