/*
 * Send with one datatype, receive with another of the same signature,
 * small (bounce buffer) and large (streamed) messages, between ring
 * neighbours: vector -> contiguous, struct -> indexed, subarray ->
 * vector of resized, plus partial receives (Get_count, Get_elements).
 */
#include "../mpitest.h"

#include <string.h>

static int rank, size;

/* Sends `n` elements of stype from sbuf to the right neighbour while
 * receiving `m` elements of rtype from the left one. */
static void exchange(const void *sbuf, int n, MPI_Datatype stype, void *rbuf,
                     int m, MPI_Datatype rtype, MPI_Status *st)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MT_CHECK_RC(MPI_Sendrecv(sbuf, n, stype, right, 5, rbuf, m, rtype, left,
                             5, MPI_COMM_WORLD, st));
}

/* strided doubles in, contiguous doubles out, sizes across the
 * bounce-buffer limit */
static void vector_to_contig(int n)
{
    MPI_Datatype v;
    double *src = malloc(sizeof(double) * 3 * (size_t)n);
    double *dst = malloc(sizeof(double) * (size_t)n);
    int left = (rank + size - 1) % size, cnt;
    MPI_Status st;

    for (int i = 0; i < 3 * n; i++)
        src[i] = rank * 1e7 + i;
    MPI_Type_vector(n, 1, 3, MPI_DOUBLE, &v);
    MPI_Type_commit(&v);
    memset(dst, 0, sizeof(double) * (size_t)n);
    exchange(src, 1, v, dst, n, MPI_DOUBLE, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &cnt);
    MT_CHECK(cnt == n, "n=%d: count %d", n, cnt);
    for (int i = 0; i < n; i++)
        if (dst[i] != left * 1e7 + 3 * i) {
            MT_CHECK(0, "n=%d: dst[%d] = %g, want %g", n, i, dst[i],
                     left * 1e7 + 3 * i);
            break;
        }
    /* and back: contiguous in, strided out (every third slot written) */
    for (int i = 0; i < 3 * n; i++)
        src[i] = -1;
    for (int i = 0; i < n; i++)
        dst[i] = rank * 1e7 + i;
    exchange(dst, n, MPI_DOUBLE, src, 1, v, &st);
    MPI_Get_count(&st, v, &cnt);
    MT_CHECK(cnt == 1, "n=%d: vector count %d", n, cnt);
    for (int i = 0; i < 3 * n; i++) {
        double want = i % 3 ? -1 : left * 1e7 + i / 3;
        if (src[i] != want) {
            MT_CHECK(0, "n=%d: strided[%d] = %g, want %g", n, i, src[i],
                     want);
            break;
        }
    }
    MPI_Type_free(&v);
    free(src);
    free(dst);
}

/* struct {int; double; char} (aligned, extent 24) sent, received as a
 * packed 13-byte record walked backwards: same signature, other layout */
typedef struct { int i; double d; char c; } rec_t;

static void struct_to_other(int n)
{
    MPI_Datatype s, p, back;
    int bl[3] = {1, 1, 1};
    MPI_Aint d[3] = {offsetof(rec_t, i), offsetof(rec_t, d),
                     offsetof(rec_t, c)};
    MPI_Aint pd[3] = {0, 4, 12};
    MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    rec_t *src = malloc(sizeof(rec_t) * (size_t)n);
    char *dst = calloc((size_t)n, 13);
    int left = (rank + size - 1) % size, el;
    MPI_Status st;

    MPI_Type_create_struct(3, bl, d, ty, &s);
    MPI_Type_commit(&s);
    MPI_Type_create_struct(3, bl, pd, ty, &back);
    MPI_Type_create_resized(back, 0, 13, &p); /* no alignment padding */
    MPI_Type_free(&back);
    MPI_Type_vector(n, 1, -1, p, &back);      /* element k at -13 k */
    MPI_Type_commit(&back);
    for (int k = 0; k < n; k++)
        src[k] = (rec_t){rank * 1000 + k, rank + k * 0.5, (char)(k & 0x7f)};
    exchange(src, n, s, dst + 13 * (n - 1), 1, back, &st);
    MPI_Get_elements(&st, back, &el);
    MT_CHECK(el == 3 * n, "n=%d: elements %d", n, el);
    for (int k = 0; k < n; k++) {
        const char *e = dst + 13 * (n - 1 - k);
        int i;
        double dv;
        memcpy(&i, e, 4);
        memcpy(&dv, e + 4, 8);
        if (i != left * 1000 + k || dv != left + k * 0.5 ||
            e[12] != (char)(k & 0x7f)) {
            MT_CHECK(0, "n=%d: element %d = {%d, %g, %d}", n, k, i, dv,
                     e[12]);
            break;
        }
    }
    MPI_Type_free(&back);
    MPI_Type_free(&p);
    MPI_Type_free(&s);
    free(dst);
    free(src);
}

/* a 2-D subarray (column block of a matrix) into a resized-vector of the
 * transposed layout: both are rows*cols doubles */
static void subarray_to_vector(int rows, int cols)
{
    int N = rows + 3, M = cols + 5;
    int sizes[2] = {N, M}, sub[2] = {rows, cols}, start[2] = {2, 3};
    double *a = malloc(sizeof(double) * (size_t)(N * M));
    double *b = calloc((size_t)(rows * cols * 2), sizeof(double));
    MPI_Datatype sa, col, row;
    int left = (rank + size - 1) % size;
    MPI_Status st;

    for (int i = 0; i < N * M; i++)
        a[i] = rank * 1e6 + i;
    MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE,
                             &sa);
    MPI_Type_commit(&sa);
    /* receiver: each row of the block lands in every other slot */
    MPI_Type_vector(cols, 1, 2, MPI_DOUBLE, &col);
    MPI_Type_create_resized(col, 0, (MPI_Aint)sizeof(double) * 2 * cols,
                            &row);
    MPI_Type_commit(&row);
    exchange(a, 1, sa, b, rows, row, &st);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            double want = left * 1e6 + (r + 2) * M + (c + 3);
            if (b[r * 2 * cols + 2 * c] != want) {
                MT_CHECK(0, "%dx%d: b[%d][%d] = %g want %g", rows, cols, r,
                         c, b[r * 2 * cols + 2 * c], want);
                r = rows;
                break;
            }
        }
    MPI_Type_free(&sa);
    MPI_Type_free(&col);
    MPI_Type_free(&row);
    free(a);
    free(b);
}

/* fewer elements than the receive count: count/elements of the part */
static void partial(void)
{
    MPI_Datatype pair;
    int bl[2] = {1, 1};
    MPI_Aint d[2] = {0, 8};
    MPI_Datatype ty[2] = {MPI_DOUBLE, MPI_INT};
    double buf[64];
    MPI_Status st;
    int cnt, el;

    MPI_Type_create_struct(2, bl, d, ty, &pair);   /* 12 bytes, extent 16 */
    MPI_Type_commit(&pair);
    for (int i = 0; i < 64; i++)
        buf[i] = i;
    /* 3 pairs and a lone double: 3 * 12 + 8 bytes */
    exchange(buf, 3 * 12 + 8, MPI_BYTE, buf + 32, 10, pair, &st);
    MPI_Get_count(&st, pair, &cnt);
    MPI_Get_elements(&st, pair, &el);
    MT_CHECK(cnt == MPI_UNDEFINED, "count of 3.5 pairs = %d", cnt);
    MT_CHECK(el == 7, "elements of 3.5 pairs = %d", el);
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    MT_CHECK(cnt == 44, "bytes %d", cnt);
    MPI_Type_free(&pair);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int sizes[] = {1, 7, 100, 4000, 50000, 300000};
    for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        vector_to_contig(sizes[i]);
    struct_to_other(1);
    struct_to_other(33);
    struct_to_other(20000);
    subarray_to_vector(3, 4);
    subarray_to_vector(200, 150);
    partial();
    return mt_finish();
}
