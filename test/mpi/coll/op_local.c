/*
 * MPI_Reduce_local and user ops: predefined ops over derived types made
 * of one basic type (contiguous, strided vector, indexed, struct, resized,
 * vectors of MINLOC pairs), user ops (non-commutative order, the datatype
 * handle they receive, MPI_Op_create_c), MPI_Op_commutative and
 * MPI_Op_free.  Every rank runs the same local checks.
 */
#include "../mpitest.h"

#include <string.h>

/* 2x2 integer matrices, inout = in * inout (not commutative). */
static void matmul(void *vin, void *vio, int *len, MPI_Datatype *dt)
{
    const int *a = vin;
    int *b = vio;
    for (int k = 0; k < *len; k++, a += 4, b += 4) {
        int r[4] = { a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                     a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3] };
        memcpy(b, r, sizeof(r));
    }
}

static MPI_Datatype seen_dt;
static void record_dt(void *vin, void *vio, int *len, MPI_Datatype *dt)
{
    seen_dt = *dt;
}

static void sum_long_c(void *vin, void *vio, MPI_Count *len, MPI_Datatype *dt)
{
    for (MPI_Count i = 0; i < *len; i++)
        ((long *)vio)[i] += ((long *)vin)[i];
}

static void test_derived(void)
{
    MPI_Datatype vec, contig, idx, st, res, pairs;
    double in[40], io[40];

    /* strided vector: 5 blocks of 2 doubles, stride 4 */
    MPI_Type_vector(5, 2, 4, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    for (int i = 0; i < 40; i++) {
        in[i] = i;
        io[i] = 100 + i;
    }
    MT_CHECK_RC(MPI_Reduce_local(in, io, 2, vec, MPI_SUM));
    /* extent of vec = (4*4+2) doubles = 18; two elements cover 0..35 */
    for (int i = 0; i < 40; i++) {
        int in_type = i < 36 && (i % 18) < 18 && ((i % 18) % 4) < 2;
        double want = in_type ? 100 + 2.0 * i : 100 + i;
        MT_CHECK(io[i] == want, "vector SUM: io[%d] = %g, want %g", i, io[i],
                 want);
    }

    /* contiguous: the in-place fast path */
    MPI_Type_contiguous(7, MPI_DOUBLE, &contig);
    MPI_Type_commit(&contig);
    for (int i = 0; i < 40; i++) {
        in[i] = i % 5;
        io[i] = 3;
    }
    MT_CHECK_RC(MPI_Reduce_local(in, io, 3, contig, MPI_MAX));
    for (int i = 0; i < 40; i++) {
        double want = i < 21 ? (i % 5 > 3 ? i % 5 : 3) : 3;
        MT_CHECK(io[i] == want, "contig MAX: io[%d] = %g", i, io[i]);
    }

    /* indexed ints with PROD */
    int bl[3] = { 1, 3, 2 }, dsp[3] = { 0, 4, 10 }, ii[16], iio[16];
    MPI_Type_indexed(3, bl, dsp, MPI_INT, &idx);
    MPI_Type_commit(&idx);
    for (int i = 0; i < 16; i++) {
        ii[i] = i + 1;
        iio[i] = 2;
    }
    MT_CHECK_RC(MPI_Reduce_local(ii, iio, 1, idx, MPI_PROD));
    for (int i = 0; i < 16; i++) {
        int in_type = i == 0 || (i >= 4 && i < 7) || (i >= 10 && i < 12);
        MT_CHECK(iio[i] == (in_type ? 2 * (i + 1) : 2), "indexed PROD [%d]",
                 i);
    }

    /* struct of two doubles with a gap, resized to 4 doubles */
    int sbl[2] = { 1, 1 };
    MPI_Aint sdisp[2] = { 0, 2 * sizeof(double) };
    MPI_Datatype stypes[2] = { MPI_DOUBLE, MPI_DOUBLE };
    MPI_Type_create_struct(2, sbl, sdisp, stypes, &st);
    MPI_Type_create_resized(st, 0, 4 * sizeof(double), &res);
    MPI_Type_commit(&res);
    for (int i = 0; i < 40; i++) {
        in[i] = 1;
        io[i] = i;
    }
    MT_CHECK_RC(MPI_Reduce_local(in, io, 10, res, MPI_SUM));
    for (int i = 0; i < 40; i++)
        MT_CHECK(io[i] == (i % 4 == 0 || i % 4 == 2 ? i + 1 : i),
                 "struct SUM [%d] = %g", i, io[i]);

    /* vector of DOUBLE_INT pairs with MINLOC (padded pairs) */
    struct { double v; int i; } p_in[8], p_io[8];
    MPI_Type_vector(2, 2, 4, MPI_DOUBLE_INT, &pairs);
    MPI_Type_commit(&pairs);
    for (int k = 0; k < 8; k++) {
        p_in[k].v = k % 3;
        p_in[k].i = 10 + k;
        p_io[k].v = 1;
        p_io[k].i = 5 + k;
    }
    MT_CHECK_RC(MPI_Reduce_local(p_in, p_io, 1, pairs, MPI_MINLOC));
    for (int k = 0; k < 8; k++) {
        int in_type = k % 4 < 2;
        double v = k % 3;
        double wv = in_type && v < 1 ? v : 1;
        int wi = !in_type ? 5 + k : v < 1 ? 10 + k : v > 1 ? 5 + k : 5 + k;
        MT_CHECK(p_io[k].v == wv && p_io[k].i == wi,
                 "pair MINLOC [%d] = (%g, %d), want (%g, %d)", k, p_io[k].v,
                 p_io[k].i, wv, wi);
    }

    MPI_Type_free(&pairs);
    MPI_Type_free(&res);
    MPI_Type_free(&st);
    MPI_Type_free(&idx);
    MPI_Type_free(&contig);
    MPI_Type_free(&vec);
}

static void test_user_ops(void)
{
    MPI_Op op, rec, opc;
    int commute = -1;
    int a[8] = { 1, 2, 3, 4, 0, 1, 1, 0 }, b[8] = { 0, 1, 1, 0, 1, 2, 3, 4 };

    MT_CHECK_RC(MPI_Op_create(matmul, 0, &op));
    MT_CHECK_RC(MPI_Op_commutative(op, &commute));
    MT_CHECK(commute == 0, "matmul commute = %d", commute);
    MT_CHECK_RC(MPI_Op_commutative(MPI_SUM, &commute));
    MT_CHECK(commute == 1, "MPI_SUM commute = %d", commute);

    /* count is in 2x2 matrices: a contiguous type of 4 ints */
    MPI_Datatype mat;
    MPI_Type_contiguous(4, MPI_INT, &mat);
    MPI_Type_commit(&mat);
    MT_CHECK_RC(MPI_Reduce_local(a, b, 2, mat, op));
    /* a0 * b0 = [[1,2],[3,4]] * [[0,1],[1,0]] = [[2,1],[4,3]];
     * a1 * b1 = [[0,1],[1,0]] * [[1,2],[3,4]] = [[3,4],[1,2]] */
    int want[8] = { 2, 1, 4, 3, 3, 4, 1, 2 };
    MT_CHECK(!memcmp(b, want, sizeof(want)), "matmul order: %d %d %d %d",
             b[0], b[1], b[2], b[3]);

    MT_CHECK_RC(MPI_Op_create(record_dt, 1, &rec));
    MT_CHECK_RC(MPI_Reduce_local(a, b, 1, mat, rec));
    MT_CHECK(seen_dt == mat, "user fn got another datatype handle");

    long la[3] = { 1, 2, 3 }, lb[3] = { 10, 20, 30 };
    MT_CHECK_RC(MPI_Op_create_c(sum_long_c, 1, &opc));
    MT_CHECK_RC(MPI_Reduce_local_c(la, lb, 3, MPI_LONG, opc));
    MT_CHECK(lb[0] == 11 && lb[2] == 33, "Op_create_c: %ld %ld", lb[0],
             lb[2]);

    MT_CHECK_RC(MPI_Op_free(&op));
    MT_CHECK(op == MPI_OP_NULL, "Op_free did not reset the handle");
    MT_CHECK_RC(MPI_Op_free(&rec));
    MT_CHECK_RC(MPI_Op_free(&opc));
    MPI_Type_free(&mat);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int x[4] = { 1, 2, 3, 4 }, y[4] = { 10, 20, 30, 40 };
    MT_CHECK_RC(MPI_Reduce_local(x, y, 4, MPI_INT, MPI_SUM));
    MT_CHECK(y[0] == 11 && y[3] == 44, "SUM: %d %d", y[0], y[3]);
    MT_CHECK_RC(MPI_Reduce_local(x, y, 0, MPI_INT, MPI_SUM));
    test_derived();
    test_user_ops();
    return mt_finish();
}
