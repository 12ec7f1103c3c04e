/*
 * Datatype API: envelopes and contents, element counts of partial
 * receives, MPI_Pack positions, external32 bytes, and bad arguments.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "datatype/dt.h"
#include "datatype_stubs.h"

/* ---- envelope/contents give back exactly what was built ---- */
static void expect_envelope(MPI_Datatype t, int comb, int ni, int na, int nt)
{
    int i, a, d, c;
    ck_assert_int_eq(MPI_Type_get_envelope(t, &i, &a, &d, &c), MPI_SUCCESS);
    ck_assert_int_eq(c, comb);
    ck_assert_int_eq(i, ni);
    ck_assert_int_eq(a, na);
    ck_assert_int_eq(d, nt);
}

START_TEST(test_envelopes)
{
    MPI_Datatype t, types[3];
    int ints[32], bl[3] = {1, 2, 3}, disp[3] = {5, 0, -3};
    MPI_Aint ad[3] = {16, -8, 40}, aints[8];

    MPI_Type_vector(3, 2, -5, MPI_INT, &t);
    expect_envelope(t, MPI_COMBINER_VECTOR, 3, 0, 1);
    MPI_Type_get_contents(t, 32, 8, 3, ints, aints, types);
    ck_assert(ints[0] == 3 && ints[1] == 2 && ints[2] == -5);
    ck_assert_ptr_eq(types[0], MPI_INT);
    MPI_Type_free(&t);

    MPI_Type_indexed(3, bl, disp, MPI_DOUBLE, &t);
    expect_envelope(t, MPI_COMBINER_INDEXED, 7, 0, 1);
    MPI_Type_get_contents(t, 32, 8, 3, ints, aints, types);
    ck_assert(ints[0] == 3 && ints[3] == 3 && ints[4] == 5 && ints[6] == -3);
    MPI_Type_free(&t);

    MPI_Type_create_hindexed_block(3, 4, ad, MPI_CHAR, &t);
    expect_envelope(t, MPI_COMBINER_HINDEXED_BLOCK, 2, 3, 1);
    MPI_Type_get_contents(t, 32, 8, 3, ints, aints, types);
    ck_assert(ints[1] == 4 && aints[1] == -8 && aints[2] == 40);

    /* struct of a derived type: the returned handle is a new reference */
    MPI_Datatype st, tt[3] = {MPI_INT, t, MPI_DOUBLE};
    MPI_Type_create_struct(3, bl, ad, tt, &st);
    expect_envelope(st, MPI_COMBINER_STRUCT, 4, 3, 3);
    MPI_Type_get_contents(st, 32, 8, 3, ints, aints, types);
    ck_assert_ptr_eq(types[1], t);
    ck_assert_ptr_eq(types[2], MPI_DOUBLE);
    MPI_Type_free(&types[1]);
    MPI_Type_free(&t);
    MPI_Type_free(&st);

    int sz[2] = {4, 6}, sub[2] = {2, 3}, start[2] = {1, 2};
    MPI_Type_create_subarray(2, sz, sub, start, MPI_ORDER_FORTRAN, MPI_INT,
                             &t);
    expect_envelope(t, MPI_COMBINER_SUBARRAY, 8, 0, 1);
    MPI_Type_get_contents(t, 32, 8, 3, ints, aints, types);
    ck_assert(ints[0] == 2 && ints[2] == 6 && ints[5] == 1 &&
              ints[7] == MPI_ORDER_FORTRAN);
    ck_assert_int_eq(t->extent, 96);
    ck_assert_int_eq(t->size, 24);
    MPI_Type_free(&t);

    int gs[2] = {10, 7}, ds[2] = {MPI_DISTRIBUTE_CYCLIC,
                                  MPI_DISTRIBUTE_BLOCK};
    int da[2] = {2, MPI_DISTRIBUTE_DFLT_DARG}, ps[2] = {3, 2};
    MPI_Type_create_darray(6, 4, 2, gs, ds, da, ps, MPI_ORDER_C, MPI_FLOAT,
                           &t);
    expect_envelope(t, MPI_COMBINER_DARRAY, 12, 0, 1);
    MPI_Type_get_contents(t, 32, 8, 3, ints, aints, types);
    ck_assert(ints[0] == 6 && ints[1] == 4 && ints[2] == 2 &&
              ints[3] == 10 && ints[7] == 2 &&
              ints[8] == MPI_DISTRIBUTE_DFLT_DARG && ints[11] == MPI_ORDER_C);
    /* rank 4 = coords (2, 0): rows 4,5 of 10 (cyclic 2 over 3), cols 0..3 */
    ck_assert_int_eq(t->size, 2 * 4 * 4);
    ck_assert_int_eq(t->extent, 10 * 7 * 4);
    MPI_Type_free(&t);

    MPI_Type_create_resized(MPI_INT, -4, 12, &t);
    expect_envelope(t, MPI_COMBINER_RESIZED, 0, 2, 1);
    MPI_Type_get_contents(t, 0, 8, 1, NULL, aints, types);
    ck_assert(aints[0] == -4 && aints[1] == 12);
    MPI_Datatype d;
    MPI_Type_dup(t, &d);
    expect_envelope(d, MPI_COMBINER_DUP, 0, 0, 1);
    ck_assert_int_eq(d->lb, -4);
    ck_assert_int_eq(d->extent, 12);
    MPI_Type_free(&d);
    MPI_Type_free(&t);
}
END_TEST

/* ---- counts and elements ---- */
START_TEST(test_elements)
{
    MPI_Status st;
    MPI_Datatype t, s;
    int n;
    MPI_Count nx;
    int bl[2] = {1, 2};
    MPI_Aint d[2] = {0, 8};
    MPI_Datatype ty[2] = {MPI_DOUBLE, MPI_INT};

    MPI_Type_create_struct(2, bl, d, ty, &s);      /* double, int, int */
    MPI_Type_contiguous(2, s, &t);
    memset(&st, 0, sizeof(st));
    st.ucmpi_count = 16 + 12;                      /* 1 s + double + int */
    MPI_Get_count(&st, s, &n);
    ck_assert_int_eq(n, MPI_UNDEFINED);
    MPI_Get_elements(&st, s, &n);
    ck_assert_int_eq(n, 3 + 2);
    MPI_Get_elements_x(&st, t, &nx);
    ck_assert_int_eq(nx, 5);
    st.ucmpi_count = 16 + 10;                      /* cuts an int */
    MPI_Get_elements(&st, s, &n);
    ck_assert_int_eq(n, MPI_UNDEFINED);
    st.ucmpi_count = 32;
    MPI_Get_count(&st, s, &n);
    ck_assert_int_eq(n, 2);
    MPI_Get_count(&st, t, &n);
    ck_assert_int_eq(n, 1);
    /* set_elements is the inverse */
    MPI_Status_set_elements(&st, t, 4);
    ck_assert_int_eq(st.ucmpi_count, 16 + 8);
    MPI_Get_elements(&st, t, &n);
    ck_assert_int_eq(n, 4);
    MPI_Status_set_elements_x(&st, MPI_2INT, 3);
    ck_assert_int_eq(st.ucmpi_count, 12);
    MPI_Get_elements(&st, MPI_2INT, &n);
    ck_assert_int_eq(n, 3);
    MPI_Get_count(&st, MPI_2INT, &n);
    ck_assert_int_eq(n, MPI_UNDEFINED);
    MPI_Type_free(&t);
    MPI_Type_free(&s);
}
END_TEST

/* ---- MPI_Pack / MPI_Unpack ---- */
START_TEST(test_pack_positions)
{
    MPI_Datatype v;
    int a[12], b[12], sz, pos = 0;
    char buf[64];
    for (int i = 0; i < 12; i++)
        a[i] = i;
    MPI_Type_vector(3, 1, 4, MPI_INT, &v);
    MPI_Type_commit(&v);
    MPI_Pack_size(2, v, MPI_COMM_WORLD, &sz);
    ck_assert_int_eq(sz, 24);
    ck_assert_int_eq(MPI_Pack(a, 1, MPI_INT, buf, 64, &pos, MPI_COMM_WORLD),
                     0);
    ck_assert_int_eq(MPI_Pack(a + 1, 1, v, buf, 64, &pos, MPI_COMM_WORLD),
                     0);
    ck_assert_int_eq(pos, 16);
    int *p = (int *)buf;
    ck_assert(p[0] == 0 && p[1] == 1 && p[2] == 5 && p[3] == 9);
    ck_assert_int_eq(MPI_Pack(a, 2, v, buf, 20, &pos, MPI_COMM_WORLD),
                     MPI_ERR_TRUNCATE);
    memset(b, -1, sizeof(b));
    pos = 4;
    ck_assert_int_eq(MPI_Unpack(buf, 16, &pos, b, 1, v, MPI_COMM_WORLD), 0);
    ck_assert(b[0] == 1 && b[4] == 5 && b[8] == 9 && b[1] == -1);
    ck_assert_int_eq(MPI_Unpack(buf, 16, &pos, b, 1, v, MPI_COMM_WORLD),
                     MPI_ERR_TRUNCATE);
    MPI_Type_free(&v);
}
END_TEST

/* ---- external32: big-endian bytes of the standard's sizes ---- */
START_TEST(test_external32)
{
    struct { int i; long l; double d; long double ld; short s; } in, out;
    MPI_Datatype t;
    int bl[5] = {1, 1, 1, 1, 1};
    MPI_Aint d[5] = {offsetof(__typeof__(in), i), offsetof(__typeof__(in), l),
                     offsetof(__typeof__(in), d),
                     offsetof(__typeof__(in), ld),
                     offsetof(__typeof__(in), s)};
    MPI_Datatype ty[5] = {MPI_INT, MPI_LONG, MPI_DOUBLE, MPI_LONG_DOUBLE,
                          MPI_SHORT};
    unsigned char buf[64];
    MPI_Aint size, pos = 0;
    static const unsigned char want[] = {
        0, 0, 1, 2,                          /* int 258 */
        0xff, 0xff, 0xff, 0xfe,              /* long -2 */
        0x3f, 0xf8, 0, 0, 0, 0, 0, 0,        /* double 1.5 */
        0xc0, 0x00, 0x40, 0, 0, 0, 0, 0,     /* long double -2.5 */
        0, 0, 0, 0, 0, 0, 0, 0,
        0x00, 0x07};                         /* short 7 */

    MPI_Type_create_struct(5, bl, d, ty, &t);
    MPI_Type_commit(&t);
    MPI_Pack_external_size("external32", 1, t, &size);
    ck_assert_int_eq(size, 4 + 4 + 8 + 16 + 2);
    memset(&in, 0, sizeof(in));
    in.i = 258;
    in.l = -2;
    in.d = 1.5;
    in.ld = -2.5L;
    in.s = 7;
    ck_assert_int_eq(MPI_Pack_external("external32", &in, 1, t, buf, 64,
                                       &pos), 0);
    ck_assert_int_eq(pos, size);
    ck_assert(memcmp(buf, want, sizeof(want)) == 0);
    memset(&out, 0, sizeof(out));
    pos = 0;
    ck_assert_int_eq(MPI_Unpack_external("external32", buf, size, &pos, &out,
                                         1, t), 0);
    ck_assert(out.i == 258 && out.l == -2 && out.d == 1.5 &&
              out.ld == -2.5L && out.s == 7);
    ck_assert_int_eq(MPI_Pack_external("native", &in, 1, t, buf, 64, &pos),
                     MPI_ERR_UNSUPPORTED_DATAREP);
    MPI_Type_free(&t);
}
END_TEST

/* ---- bad input: the right class and a message naming the problem ---- */
START_TEST(test_errors)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, p = MPI_INT;
    int bl[1] = {-1}, d[1] = {0}, pos = 0;
    char buf[8];

    ck_assert_int_eq(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT);
    ck_assert(strstr(dt_stub_last_msg, "MPI_Type_contiguous") != NULL);
    ck_assert_int_eq(MPI_Type_contiguous(1, MPI_DATATYPE_NULL, &t),
                     MPI_ERR_TYPE);
    ck_assert(strstr(dt_stub_last_msg, "MPI_DATATYPE_NULL") != NULL);
    ck_assert_int_eq(MPI_Type_indexed(1, bl, d, MPI_INT, &t), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_free(&p), MPI_ERR_TYPE);
    ck_assert(strstr(dt_stub_last_msg, "predefined") != NULL);
    ck_assert_ptr_eq(p, MPI_INT);
    ck_assert_int_eq(MPI_Type_commit(&t), MPI_ERR_TYPE);
    /* uncommitted types cannot be used for data */
    MPI_Type_contiguous(2, MPI_INT, &t);
    ck_assert_int_eq(MPI_Pack(d, 1, t, buf, 8, &pos, MPI_COMM_WORLD),
                     MPI_ERR_TYPE);
    ck_assert(strstr(dt_stub_last_msg, "not committed") != NULL);
    MPI_Type_free(&t);
    /* extents past 2^63 */
    MPI_Datatype big, huge;
    MPI_Type_create_hvector(2, 1, (MPI_Aint)1 << 62, MPI_INT, &big);
    ck_assert_int_eq(MPI_Type_create_hvector(4, 1, (MPI_Aint)1 << 62,
                                             MPI_INT, &huge), MPI_ERR_ARG);
    ck_assert(strstr(dt_stub_last_msg, "overflow") != NULL);
    ck_assert_int_eq(MPI_Type_contiguous(1 << 30, big, &huge), MPI_ERR_ARG);
    MPI_Type_free(&big);
    int c[3] = {2, 2, 2};
    ck_assert_int_eq(MPI_Type_create_subarray(1, c, c + 1, c + 2,
                                              MPI_ORDER_C, MPI_INT, &t),
                     MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_get_contents(MPI_INT, 0, 0, 0, NULL, NULL,
                                           NULL), MPI_ERR_TYPE);
    int ps[1] = {2}, gs[1] = {5}, ds[1] = {MPI_DISTRIBUTE_BLOCK}, da[1] = {2};
    ck_assert_int_eq(MPI_Type_create_darray(2, 0, 1, gs, ds, da, ps,
                                            MPI_ORDER_C, MPI_INT, &t),
                     MPI_ERR_ARG);
}
END_TEST

/* ---- large-count constructors: counts in the large-count envelope ---- */
START_TEST(test_large_counts)
{
    MPI_Datatype t, p, types[2];
    MPI_Count ni, na, nc, nt, counts[16];
    int comb, ints[16], i, a, d;
    MPI_Aint aints[4];

    MPI_Type_vector_c(3, 2, 5, MPI_INT, &t);
    MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nt, &comb);
    ck_assert(comb == MPI_COMBINER_VECTOR && ni == 0 && na == 0 && nc == 3 &&
              nt == 1);
    MPI_Type_get_contents_c(t, 0, 0, 3, 1, ints, aints, counts, types);
    ck_assert(counts[0] == 3 && counts[1] == 2 && counts[2] == 5);
    ck_assert_int_eq(t->size, 24);
    ck_assert_int_eq(MPI_Type_get_envelope(t, &i, &a, &d, &comb),
                     MPI_ERR_TYPE);
    MPI_Type_free(&t);

    MPI_Count sz[2] = {4, 5}, sub[2] = {2, 2}, st[2] = {1, 3};
    MPI_Type_create_subarray_c(2, sz, sub, st, MPI_ORDER_C, MPI_DOUBLE, &t);
    MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nt, &comb);
    ck_assert(comb == MPI_COMBINER_SUBARRAY && ni == 2 && nc == 6);
    MPI_Type_get_contents_c(t, 2, 0, 6, 1, ints, aints, counts, types);
    ck_assert(ints[0] == 2 && ints[1] == MPI_ORDER_C && counts[1] == 5 &&
              counts[5] == 3);
    ck_assert_int_eq(t->extent, 160);
    MPI_Type_free(&t);

    MPI_Count gs[1] = {10};
    int ds[1] = {MPI_DISTRIBUTE_CYCLIC}, da[1] = {2}, ps[1] = {3};
    MPI_Type_create_darray_c(3, 1, 1, gs, ds, da, ps, MPI_ORDER_C, MPI_INT,
                             &t);
    MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nt, &comb);
    ck_assert(comb == MPI_COMBINER_DARRAY && ni == 7 && nc == 1);
    ck_assert_int_eq(t->size, 4 * 4);     /* elements 2,3,8,9 */
    MPI_Type_free(&t);

    /* MPI_Get_elements over a large-count struct walks its counts */
    MPI_Count bl[2] = {2, 1}, dsp[2] = {0, 16};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct_c(2, bl, dsp, ty, &t);
    MPI_Status status;
    status.ucmpi_count = 8;
    MPI_Count el;
    MPI_Get_elements_x(&status, t, &el);
    ck_assert_int_eq(el, 2);
    MPI_Type_free(&t);

    MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &p);
    ck_assert_ptr_eq(p, MPI_DOUBLE_INT);
    MPI_Type_get_value_index(MPI_CHAR, MPI_INT, &p);
    ck_assert_ptr_eq(p, MPI_DATATYPE_NULL);

    MPI_Type_create_f90_real(10, MPI_UNDEFINED, &t);
    MPI_Type_get_envelope(t, &i, &a, &d, &comb);
    ck_assert(comb == MPI_COMBINER_F90_REAL && i == 2 && d == 0);
    ck_assert_int_eq(t->size, 8);
    MPI_Type_create_f90_real(10, MPI_UNDEFINED, &p);
    ck_assert_ptr_eq(p, t);
    ck_assert_int_eq(MPI_Type_free(&t), MPI_ERR_TYPE);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("datatype_api");
    TCase *tc = tcase_create("api");
    tcase_add_test(tc, test_envelopes);
    tcase_add_test(tc, test_elements);
    tcase_add_test(tc, test_pack_positions);
    tcase_add_test(tc, test_external32);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_large_counts);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
