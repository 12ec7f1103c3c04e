/* File views: interleaved blocks through vector filetypes, subarray and
 * darray views of a global 2-D array, noncontiguous memory types, etypes
 * other than bytes, get_view/get_byte_offset/seek in a view, and the
 * error cases of set_view. */
#include "iotest.h"

static int rank, size;

static int check_ints(const int *v, int n, int (*want)(int), const char *what)
{
    for (int i = 0; i < n; i++)
        if (v[i] != want(i)) {
            MT_CHECK(0, "%s[%d] = %d, want %d", what, i, v[i], want(i));
            return 0;
        }
    return 1;
}

/* Rank r owns blocks r, r+size, ... of B ints: a vector filetype. */
enum { B = 3, NBLK = 50 };
static int whole(int i) { return i; }

static void test_interleaved(void)
{
    MPI_File fh;
    MPI_Datatype ft, ft2;
    MPI_Status st;
    int mine[B * NBLK], cnt;
    const char *p = io_path("interleaved");

    MPI_Type_vector(NBLK, B, B * size, MPI_INT, &ft);
    MPI_Type_commit(&ft);
    for (int k = 0; k < NBLK; k++)
        for (int j = 0; j < B; j++)
            mine[k * B + j] = (k * size + rank) * B + j;
    MT_CHECK_RC(MPI_File_open(MPI_COMM_WORLD, p,
                              MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                              &fh));
    MT_CHECK_RC(MPI_File_set_view(fh, (MPI_Offset)rank * B * sizeof(int),
                                  MPI_INT, ft, "native", MPI_INFO_NULL));
    /* in two halves through the individual pointer */
    MT_CHECK_RC(MPI_File_write_all(fh, mine, B * NBLK / 2, MPI_INT, &st));
    MT_CHECK_RC(MPI_File_write_all(fh, mine + B * NBLK / 2,
                                   B * NBLK - B * NBLK / 2, MPI_INT, &st));
    MPI_Offset pos;
    MPI_File_get_position(fh, &pos);
    MT_CHECK(pos == B * NBLK, "position %lld etypes", pos);
    /* byte offset of etype B (the start of this rank's second block) */
    MPI_Offset bo;
    MPI_File_get_byte_offset(fh, B, &bo);
    MT_CHECK(bo == (MPI_Offset)(size + rank) * B * (MPI_Offset)sizeof(int),
             "byte offset %lld", bo);
    /* get_view hands back what was set */
    MPI_Offset disp;
    MPI_Datatype et, ftv;
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_File_get_view(fh, &disp, &et, &ftv, rep);
    MT_CHECK(disp == (MPI_Offset)rank * B * (MPI_Offset)sizeof(int) &&
             et == MPI_INT && strcmp(rep, "native") == 0, "get_view");
    int ni, na, nd, comb;
    MPI_Type_get_envelope(ftv, &ni, &na, &nd, &comb);
    MT_CHECK(comb == MPI_COMBINER_DUP || comb == MPI_COMBINER_VECTOR,
             "filetype combiner %d", comb);
    MPI_Type_free(&ftv);
    /* the whole file, read contiguously by everyone */
    MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    int n = B * NBLK * size, *all = malloc(sizeof(int) * (size_t)n);
    MT_CHECK_RC(MPI_File_read_at_all(fh, 0, all, n, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    MT_CHECK(cnt == n, "count %d", cnt);
    check_ints(all, n, whole, "interleaved file");
    /* read back through the view of the next rank, into a strided
     * memory type (every other int) */
    int peer = (rank + 1) % size;
    MPI_File_set_view(fh, (MPI_Offset)peer * B * sizeof(int), MPI_INT, ft,
                      "native", MPI_INFO_NULL);
    MPI_Type_vector(B * NBLK, 1, 2, MPI_INT, &ft2);
    MPI_Type_commit(&ft2);
    int *sparse = calloc(2 * B * NBLK, sizeof(int));
    MT_CHECK_RC(MPI_File_read_at(fh, 0, sparse, 1, ft2, &st));
    MPI_Get_elements(&st, MPI_INT, &cnt);
    MT_CHECK(cnt == B * NBLK, "elements %d", cnt);
    for (int k = 0; k < B * NBLK; k++) {
        int want = ((k / B) * size + peer) * B + k % B;
        if (sparse[2 * k] != want || sparse[2 * k + 1] != 0) {
            MT_CHECK(0, "sparse[%d] = %d, want %d", 2 * k, sparse[2 * k],
                     want);
            break;
        }
    }
    /* seek in etypes of the view; EOF of the view */
    MPI_File_seek(fh, 2, MPI_SEEK_SET);
    int x;
    MPI_File_read(fh, &x, 1, MPI_INT, &st);
    MT_CHECK(x == peer * B + 2, "after seek %d", x);
    MPI_File_seek(fh, 0, MPI_SEEK_END);
    MPI_File_get_position(fh, &pos);
    /* the filetype's extent ends after its last block, so the next tile's
     * first block (holding the next rank's data) is in the file too */
    MT_CHECK(pos == B * NBLK + (peer < size - 1 ? B : 0), "view eof %lld",
             pos);
    /* a read past the end through the strided view (sieved) stops there */
    int *big = calloc(2 * B * NBLK, sizeof(int));
    MT_CHECK_RC(MPI_File_read_at(fh, 0, big, 2 * B * NBLK, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    MT_CHECK(cnt == pos, "count at view eof %d", cnt);
    for (int k = 0; k < cnt; k++) {
        int t = k / (B * NBLK), kk = k % (B * NBLK);
        int want = peer * B + t * ((NBLK - 1) * size + 1) * B +
                   kk / B * size * B + kk % B;
        if (big[k] != want) {
            MT_CHECK(0, "past-eof read [%d] = %d, want %d", k, big[k], want);
            break;
        }
    }
    free(big);
    free(sparse);
    free(all);
    MPI_Type_free(&ft2);
    MPI_Type_free(&ft);
    MPI_File_close(&fh);
}

/* A G x G global array of ints, value = row * G + col, written through
 * subarray views (a 1-D or 2-D process grid) and read back through darray
 * views with cyclic distribution. */
enum { G = 24 };
static int cell(int i) { return i; }

static void test_subarray_darray(void)
{
    MPI_File fh;
    MPI_Datatype sub, dar, mem;
    int dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2];
    MPI_Comm cart;
    const char *p = io_path("array");

    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Cart_coords(cart, rank, 2, coords);
    int gs[2] = {G, G}, ls[2], st0[2];
    for (int d = 0; d < 2; d++) {
        int q = G / dims[d], r = G % dims[d];
        ls[d] = q + (coords[d] < r);
        st0[d] = coords[d] * q + (coords[d] < r ? coords[d] : r);
    }
    MPI_Type_create_subarray(2, gs, ls, st0, MPI_ORDER_C, MPI_INT, &sub);
    MPI_Type_commit(&sub);
    /* local block with a halo of 1 in memory: a subarray memory type */
    int hs[2] = {ls[0] + 2, ls[1] + 2}, one[2] = {1, 1};
    int *local = calloc((size_t)hs[0] * hs[1], sizeof(int));
    for (int i = 0; i < ls[0]; i++)
        for (int j = 0; j < ls[1]; j++)
            local[(i + 1) * hs[1] + j + 1] = (st0[0] + i) * G + st0[1] + j;
    MPI_Type_create_subarray(2, hs, ls, one, MPI_ORDER_C, MPI_INT, &mem);
    MPI_Type_commit(&mem);
    MT_CHECK_RC(MPI_File_open(MPI_COMM_WORLD, p,
                              MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                              &fh));
    MT_CHECK_RC(MPI_File_set_view(fh, 0, MPI_INT, sub, "native",
                                  MPI_INFO_NULL));
    MT_CHECK_RC(MPI_File_write_all(fh, local, 1, mem, MPI_STATUS_IGNORE));
    /* whole array via the default view */
    MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    int *all = malloc(sizeof(int) * G * G);
    MT_CHECK_RC(MPI_File_read_at_all(fh, 0, all, G * G, MPI_INT,
                                     MPI_STATUS_IGNORE));
    check_ints(all, G * G, cell, "array file");
    /* darray, cyclic(2) x block over the same grid */
    int distribs[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK};
    int dargs[2] = {2, MPI_DISTRIBUTE_DFLT_DARG};
    MPI_Type_create_darray(size, rank, 2, gs, distribs, dargs, dims,
                           MPI_ORDER_C, MPI_INT, &dar);
    MPI_Type_commit(&dar);
    MPI_Count dsz;
    MPI_Type_size_c(dar, &dsz);
    int n = (int)(dsz / sizeof(int)), *got = malloc(sizeof(int) * (n + 1));
    MT_CHECK_RC(MPI_File_set_view(fh, 0, MPI_INT, dar, "native",
                                  MPI_INFO_NULL));
    MT_CHECK_RC(MPI_File_read_all(fh, got, n, MPI_INT, MPI_STATUS_IGNORE));
    /* the same elements, as the datatype engine unpacks them from memory */
    int *want = malloc(sizeof(int) * (n + 1)), pos = 0;
    MPI_Pack(all, 1, dar, want, n * (int)sizeof(int), &pos, MPI_COMM_SELF);
    MT_CHECK(memcmp(got, want, sizeof(int) * n) == 0, "darray view data");
    long sum = 0, total = 0;
    for (int i = 0; i < n; i++)
        sum += got[i];
    MPI_Allreduce(&sum, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK(total == (long)G * G * (G * G - 1) / 2, "darray sum %ld", total);
    free(want);
    free(got);
    free(all);
    free(local);
    MPI_Type_free(&dar);
    MPI_Type_free(&mem);
    MPI_Type_free(&sub);
    MPI_Comm_free(&cart);
    MPI_File_close(&fh);
}

static void test_view_errors(void)
{
    MPI_File fh;
    MPI_Datatype odd, unc;
    int rc;
    MT_CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("viewerr"),
                              MPI_MODE_CREATE | MPI_MODE_RDWR |
                              MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    /* external32 only where its sizes are the native ones */
    MPI_Aint xs;
    MPI_Pack_external_size("external32", 1, MPI_LONG, &xs);
    rc = MPI_File_set_view(fh, 0, MPI_LONG, MPI_LONG, "external32",
                           MPI_INFO_NULL);
    if (xs != (MPI_Aint)sizeof(long))
        MT_CHECK(io_class(rc) == MPI_ERR_UNSUPPORTED_DATAREP,
                 "external32 long: class %d", io_class(rc));
    else
        MT_CHECK_RC(rc);
    rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "bogus", MPI_INFO_NULL);
    MT_CHECK(io_class(rc) == MPI_ERR_UNSUPPORTED_DATAREP, "bogus: class %d",
             io_class(rc));
    MPI_Type_contiguous(3, MPI_CHAR, &odd);
    MPI_Type_commit(&odd);
    rc = MPI_File_set_view(fh, 0, MPI_INT, odd, "native", MPI_INFO_NULL);
    MT_CHECK(io_class(rc) == MPI_ERR_TYPE, "filetype not of etypes: %d",
             io_class(rc));
    MPI_Type_contiguous(2, MPI_INT, &unc);
    rc = MPI_File_set_view(fh, 0, MPI_INT, unc, "native", MPI_INFO_NULL);
    MT_CHECK(io_class(rc) == MPI_ERR_TYPE, "uncommitted: %d", io_class(rc));
    rc = MPI_File_set_view(fh, -5, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    MT_CHECK(io_class(rc) == MPI_ERR_ARG, "negative disp: %d", io_class(rc));
    /* a write of 3 bytes under an int etype */
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    char c[3] = {0};
    rc = MPI_File_write_at(fh, 0, c, 3, MPI_CHAR, MPI_STATUS_IGNORE);
    MT_CHECK(io_class(rc) == MPI_ERR_TYPE, "partial etype: %d", io_class(rc));
    /* decreasing displacements; a view failing on one rank fails on all */
    int bl[2] = {1, 1}, dp[2] = {3, 0};
    MPI_Datatype dec;
    MPI_Type_indexed(2, bl, dp, MPI_INT, &dec);
    MPI_Type_commit(&dec);
    rc = MPI_File_set_view(fh, 0, MPI_INT, rank == size - 1 ? dec : MPI_INT,
                           "native", MPI_INFO_NULL);
    MT_CHECK(rc != MPI_SUCCESS, "set_view failing elsewhere succeeded");
    if (rank == size - 1)
        MT_CHECK(io_class(rc) == MPI_ERR_IO, "decreasing: %d", io_class(rc));
    MPI_Type_free(&dec);
    MPI_Type_free(&odd);
    MPI_Type_free(&unc);
    MPI_File_close(&fh);
}

/* external32: big-endian ints in the file, native ones in memory */
static void test_external32(void)
{
    MPI_File fh;
    MPI_Datatype ft;
    int v[4], w[4] = {0};
    unsigned char raw[16];
    char rep[MPI_MAX_DATAREP_STRING];
    const char *p = io_path("ext32");
    for (int i = 0; i < 4; i++)
        v[i] = 0x01020300 + rank * 4 + i;
    MPI_Type_vector(4, 1, size, MPI_INT, &ft);
    MPI_Type_commit(&ft);
    MT_CHECK_RC(MPI_File_open(MPI_COMM_WORLD, p,
                              MPI_MODE_CREATE | MPI_MODE_RDWR |
                              MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    MT_CHECK_RC(MPI_File_set_view(fh, (MPI_Offset)rank * sizeof(int),
                                  MPI_INT, ft, "external32", MPI_INFO_NULL));
    MT_CHECK_RC(MPI_File_write_all(fh, v, 4, MPI_INT, MPI_STATUS_IGNORE));
    MPI_Offset disp;
    MPI_Datatype et, ftv;
    MPI_File_get_view(fh, &disp, &et, &ftv, rep);
    MT_CHECK(strcmp(rep, "external32") == 0, "datarep %s", rep);
    MPI_Type_free(&ftv);
    MT_CHECK_RC(MPI_File_read_at_all(fh, 0, w, 4, MPI_INT,
                                     MPI_STATUS_IGNORE));
    MT_CHECK(memcmp(v, w, sizeof(v)) == 0, "external32 round trip");
    MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    MT_CHECK_RC(MPI_File_read_at(fh, (MPI_Offset)rank * sizeof(int), raw, 4,
                                 MPI_BYTE, MPI_STATUS_IGNORE));
    MT_CHECK(raw[0] == 1 && raw[1] == 2 && raw[2] == 3 && raw[3] == rank * 4,
             "not big-endian: %02x %02x %02x %02x", raw[0], raw[1], raw[2],
             raw[3]);
    MPI_Type_free(&ft);
    MPI_File_close(&fh);
}

/* A rank whose filetype is empty takes part in collectives with count 0;
 * MPI_DISPLACEMENT_CURRENT on a sequential file is the shared pointer. */
static void test_empty_and_sequential(void)
{
    MPI_File fh;
    MPI_Datatype ft;
    int one = 1, d0 = rank, v = 100 + rank, hdr = 42, x = -1;
    const char *p = io_path("seq");
    MPI_Type_create_indexed_block(rank == 0 && size > 1 ? 0 : 1, 1, &d0,
                                  MPI_INT, &ft);
    MPI_Datatype fr;
    MPI_Type_create_resized(ft, 0, (MPI_Aint)(size * sizeof(int)), &fr);
    MPI_Type_commit(&fr);
    MT_CHECK_RC(MPI_File_open(MPI_COMM_WORLD, p,
                              MPI_MODE_CREATE | MPI_MODE_WRONLY,
                              MPI_INFO_NULL, &fh));
    MT_CHECK_RC(MPI_File_write_at_all(fh, 0, &hdr, rank == 0, MPI_INT,
                                      MPI_STATUS_IGNORE));
    MT_CHECK_RC(MPI_File_set_view(fh, sizeof(int), MPI_INT, fr, "native",
                                  MPI_INFO_NULL));
    MT_CHECK_RC(MPI_File_write_all(fh, &v, rank == 0 && size > 1 ? 0 : one,
                                   MPI_INT, MPI_STATUS_IGNORE));
    MPI_File_close(&fh);
    MT_CHECK_RC(MPI_File_open(MPI_COMM_WORLD, p,
                              MPI_MODE_RDONLY | MPI_MODE_SEQUENTIAL |
                              MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    int rc = MPI_File_read_at(fh, 0, &x, 1, MPI_INT, MPI_STATUS_IGNORE);
    MT_CHECK(io_class(rc) == MPI_ERR_UNSUPPORTED_OPERATION,
             "explicit offset on sequential: %d", io_class(rc));
    if (rank == 0)
        MPI_File_read_shared(fh, &x, 1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT,
                                  MPI_INT, "native", MPI_INFO_NULL));
    MPI_Offset disp;
    MPI_Datatype et, ftv;
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_File_get_view(fh, &disp, &et, &ftv, rep);
    MT_CHECK(disp == sizeof(int), "DISPLACEMENT_CURRENT gave %lld", disp);
    MT_CHECK_RC(MPI_File_read_ordered(fh, &x, 1, MPI_INT, MPI_STATUS_IGNORE));
    if (size == 1 || rank > 0)
        MT_CHECK(x == 100 + rank, "ordered read %d", x);
    MPI_File_close(&fh);
    MPI_Type_free(&fr);
    MPI_Type_free(&ft);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    io_dir_create();
    test_interleaved();
    test_subarray_darray();
    test_view_errors();
    test_empty_and_sequential();
    test_external32();
    io_dir_remove();
    return mt_finish();
}
