/*
 * Datatype engine: predefined types, the compiled representation of each
 * constructor, and pack/unpack/cursor against the reference model
 * (datatype_ref.c), including random type trees five levels deep.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "datatype/dt.h"
#include "datatype_ref.h"
#include "datatype_stubs.h"

/* ---- predefined types ---- */
START_TEST(test_predefined)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len, n, a, t, comb;
    struct { double d; int i; } di;
    struct { short s; int i; } si;

    ck_assert_int_eq(MPI_INT->size, sizeof(int));
    ck_assert_int_eq(MPI_LONG_DOUBLE->extent, sizeof(long double));
    ck_assert(MPI_INT->contig && MPI_INT->committed && MPI_INT->predefined);
    ck_assert_int_eq(MPI_DOUBLE_INT->size, 12);
    ck_assert_int_eq(MPI_DOUBLE_INT->extent, sizeof(di));
    ck_assert(!MPI_DOUBLE_INT->contig);
    ck_assert_int_eq(MPI_SHORT_INT->size, 6);
    ck_assert_int_eq(MPI_SHORT_INT->extent, sizeof(si));
    ck_assert_int_eq(ucmpi_dt_impl(MPI_SHORT_INT)->nnodes, 2);
    ck_assert(MPI_2INT->contig);
    MPI_Type_get_name(MPI_INT, name, &len);
    ck_assert_str_eq(name, "MPI_INT");
    ck_assert_int_eq(len, 7);
    MPI_Type_get_name(MPI_LONG_DOUBLE_INT, name, &len);
    ck_assert_str_eq(name, "MPI_LONG_DOUBLE_INT");
    MPI_Type_get_envelope(MPI_2INT, &n, &a, &t, &comb);
    ck_assert_int_eq(comb, MPI_COMBINER_NAMED);
    ck_assert_int_eq(n + a + t, 0);
    /* every predefined type is consistent */
    for (int i = 0; ucmpi_dt_predefined[i]; i++) {
        MPI_Datatype dt = ucmpi_dt_predefined[i];
        ck_assert(dt->size > 0 && dt->extent >= dt->size);
        ck_assert_str_ne(ucmpi_dt_impl(dt)->name, "");
    }
    MPI_Datatype m;
    ck_assert_int_eq(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &m), 0);
    ck_assert_ptr_eq(m, MPI_REAL8);
    ck_assert_int_eq(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &m),
                     MPI_ERR_ARG);
}
END_TEST

/* ---- compiled representation ---- */
START_TEST(test_compact_vector)
{
    MPI_Datatype v, w;
    ucmpi_dt_node_t *n;

    MPI_Type_vector(100, 1, 3, MPI_DOUBLE, &v);
    n = ucmpi_dt_impl(v)->nodes;
    ck_assert_int_eq(ucmpi_dt_impl(v)->nnodes, 1);
    ck_assert_int_eq(n->kind, UCMPI_DTN_VEC);
    ck_assert_int_eq(n->count, 100);
    ck_assert_int_eq(n->stride, 24);
    ck_assert_int_eq(n->len, 8);
    ck_assert_int_eq(v->extent, 99 * 24 + 8);
    /* a vector of vectors whose blocks line up is one longer vector */
    MPI_Type_create_resized(v, 0, 100 * 24, &w);
    MPI_Type_free(&v);
    MPI_Type_contiguous(4, w, &v);
    n = ucmpi_dt_impl(v)->nodes;
    ck_assert_int_eq(ucmpi_dt_impl(v)->nnodes, 1);
    ck_assert_int_eq(n->count, 400);
    MPI_Type_free(&v);
    MPI_Type_free(&w);
    /* stride == blocklength: one block, contiguous */
    MPI_Type_vector(10, 4, 4, MPI_INT, &v);
    MPI_Type_commit(&v);
    ck_assert(v->contig);
    ck_assert_int_eq(ucmpi_dt_impl(v)->nodes->len, 160);
    MPI_Type_free(&v);
    /* 2-level: vector of a 2-block struct keeps a LOOP over 2 leaves */
    MPI_Type_vector(8, 2, 5, MPI_SHORT_INT, &v);
    ck_assert_int_eq(ucmpi_dt_impl(v)->nodes->kind, UCMPI_DTN_LOOP);
    ck_assert_int_eq(ucmpi_dt_impl(v)->depth, 2);
    MPI_Type_free(&v);
}
END_TEST

START_TEST(test_compact_indexed)
{
    MPI_Datatype t;
    int bl[4] = {2, 2, 2, 2}, d[4] = {0, 5, 10, 15}, d2[3] = {0, 2, 4};
    /* evenly spaced blocks become one VEC */
    MPI_Type_indexed(4, bl, d, MPI_INT, &t);
    ck_assert_int_eq(ucmpi_dt_impl(t)->nnodes, 1);
    ck_assert_int_eq(ucmpi_dt_impl(t)->nodes->count, 4);
    ck_assert_int_eq(ucmpi_dt_impl(t)->nodes->stride, 20);
    MPI_Type_free(&t);
    /* adjacent blocks merge */
    MPI_Type_create_indexed_block(3, 2, d2, MPI_INT, &t);
    MPI_Type_commit(&t);
    ck_assert_int_eq(ucmpi_dt_impl(t)->nnodes, 1);
    ck_assert_int_eq(ucmpi_dt_impl(t)->nodes->len, 24);
    ck_assert(t->contig);
    MPI_Type_free(&t);
}
END_TEST

START_TEST(test_struct_padding)
{
    MPI_Datatype t, r;
    int bl[2] = {1, 1};
    MPI_Aint d[2] = {0, 8};
    MPI_Datatype ty[2] = {MPI_DOUBLE, MPI_CHAR};
    MPI_Type_create_struct(2, bl, d, ty, &t);
    ck_assert_int_eq(t->size, 9);
    ck_assert_int_eq(t->extent, 16);     /* like struct { double; char; } */
    ck_assert_int_eq(t->true_extent, 9);
    /* resized bounds are sticky: no padding on top */
    MPI_Type_create_resized(MPI_DOUBLE, 0, 9, &r);
    ty[0] = r;
    MPI_Type_free(&t);
    MPI_Type_create_struct(2, bl, d, ty, &t);
    ck_assert_int_eq(t->extent, 9);
    MPI_Type_free(&t);
    MPI_Type_free(&r);
}
END_TEST

START_TEST(test_negative_and_resized)
{
    MPI_Datatype v, r;
    double buf[64], out[64];
    for (int i = 0; i < 64; i++)
        buf[i] = i;
    /* negative stride: blocks walk backwards from the origin */
    MPI_Type_vector(3, 2, -4, MPI_DOUBLE, &v);
    ck_assert_int_eq(v->lb, -64);
    ck_assert_int_eq(v->extent, 80);
    MPI_Type_create_resized(v, -8, 200, &r);
    MPI_Type_commit(&r);
    ck_assert_int_eq(r->lb, -8);
    ck_assert_int_eq(r->true_lb, -64);
    size_t n = ucmpi_dt_pack(r, buf + 20, 2, out);
    ck_assert_int_eq(n, 12 * 8);
    double want[12] = {20, 21, 16, 17, 12, 13, 45, 46, 41, 42, 37, 38};
    ck_assert(memcmp(out, want, sizeof(want)) == 0);
    MPI_Type_free(&v);
    MPI_Type_free(&r);
}
END_TEST

/* ---- random trees against the reference model ---- */
static void random_trees(uint64_t first, int n, int depth, int full)
{
    for (int i = 0; i < n; i++) {
        ref_rng_t g;
        ref_rng_seed(&g, first + (uint64_t)i);
        g.full = full;
        ref_t *r = ref_random(&g, depth);
        ck_assert_msg(r != NULL, "seed %d: build failed: %s", i,
                      dt_stub_last_msg);
        MPI_Type_commit(&r->dt);
        for (MPI_Count c = 0; c <= 3; c++)
            ck_assert_msg(ref_check(r, c, &g) == 0, "seed %llu count %lld",
                          (unsigned long long)(first + (uint64_t)i), c);
        ref_free(r);
    }
}

START_TEST(test_random_shallow)
{
    random_trees(1, 3000, 2, 0);
}
END_TEST

START_TEST(test_random_deep)
{
    random_trees(100000, 2000, 5, 1);
}
END_TEST

/* ---- cursor: sequential calls must not rescan from the start ---- */
START_TEST(test_cursor_sequential)
{
    MPI_Datatype v;
    int n = 1 << 20;
    char *src = calloc((size_t)n, 16), *p = malloc((size_t)n * 8);
    MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &v);
    MPI_Type_commit(&v);
    ucmpi_dt_cursor_t *c = ucmpi_dt_cursor_create(v, src, 1);
    /* 8 Mi bytes in 3-byte steps: quadratic if each call rescanned */
    size_t pos = 0;
    while (pos < (size_t)n * 8)
        pos += ucmpi_dt_cursor_pack(c, pos, p + pos, 3);
    ck_assert_int_eq(pos, (size_t)n * 8);
    ucmpi_dt_cursor_destroy(c);
    MPI_Type_free(&v);
    free(src);
    free(p);
}
END_TEST

/* ---- one block per element: the element loop runs as a vector ---- */
/* pack/unpack of n resized ints (extent 12: a 4-byte block, 8-byte gap) in
 * chunks of 1..13 bytes, so chunks start and end inside blocks */
START_TEST(test_cursor_resized_elements)
{
    enum { N = 1000 };
    MPI_Datatype r;
    int32_t src[3 * N], back[3 * N], p[N];
    for (int i = 0; i < 3 * N; i++)
        src[i] = i % 3 == 0 ? i / 3 : -1;
    MPI_Type_create_resized(MPI_INT, 0, 12, &r);
    MPI_Type_commit(&r);
    ucmpi_dt_cursor_t *c = ucmpi_dt_cursor_create(r, src, N);
    size_t pos = 0;
    for (size_t step = 1; pos < sizeof(p); step = step % 13 + 1)
        pos += ucmpi_dt_cursor_pack(c, pos, (char *)p + pos, step);
    ucmpi_dt_cursor_destroy(c);
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(p[i], i);
    memset(back, 0x5a, sizeof(back));
    c = ucmpi_dt_cursor_create(r, back, N);
    for (size_t step = 1, pos = 0; pos < sizeof(p); step = step % 13 + 1)
        pos += ucmpi_dt_cursor_unpack(c, pos, (char *)p + pos, step);
    ucmpi_dt_cursor_destroy(c);
    for (int i = 0; i < 3 * N; i++)
        ck_assert_int_eq(back[i], i % 3 == 0 ? i / 3 : 0x5a5a5a5a);
    MPI_Type_free(&r);
}
END_TEST

/* ---- deferred free: a type used by a cursor outlives MPI_Type_free ---- */
START_TEST(test_deferred_free)
{
    MPI_Datatype v;
    int buf[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[4];
    MPI_Type_vector(4, 1, 2, MPI_INT, &v);
    MPI_Type_commit(&v);
    ucmpi_dt_cursor_t *c = ucmpi_dt_cursor_create(v, buf, 1);
    MPI_Type_free(&v);
    ck_assert_ptr_eq(v, MPI_DATATYPE_NULL);
    ck_assert_int_eq(ucmpi_dt_cursor_pack(c, 0, out, 16), 16);
    ck_assert_int_eq(out[3], 7);
    ucmpi_dt_cursor_destroy(c);
}
END_TEST

Suite *datatype_suite(void)
{
    Suite *s = suite_create("datatype");
    TCase *tc = tcase_create("engine");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_predefined);
    tcase_add_test(tc, test_compact_vector);
    tcase_add_test(tc, test_compact_indexed);
    tcase_add_test(tc, test_struct_padding);
    tcase_add_test(tc, test_negative_and_resized);
    tcase_add_test(tc, test_random_shallow);
    tcase_add_test(tc, test_random_deep);
    tcase_add_test(tc, test_cursor_sequential);
    tcase_add_test(tc, test_cursor_resized_elements);
    tcase_add_test(tc, test_deferred_free);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(datatype_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
