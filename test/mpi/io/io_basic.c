/* MPI-IO core: open/close/delete and access modes, sizes, explicit
 * offsets, the individual file pointer, collective and nonblocking forms,
 * large-count forms, statuses, info, group. */
#include "iotest.h"

#include <sys/stat.h>

static int rank, size;

static void test_open_modes(void)
{
    MPI_File fh;
    const char *p = io_path("modes");
    int rc, amode;

    /* opening a missing file without CREATE fails on every rank */
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    MT_CHECK(io_class(rc) == MPI_ERR_NO_SUCH_FILE, "class %d", io_class(rc));
    MT_CHECK(fh == MPI_FILE_NULL, "fh not null after failure");
    /* bad access modes */
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_WRONLY,
                       MPI_INFO_NULL, &fh);
    MT_CHECK(io_class(rc) == MPI_ERR_AMODE, "two modes: class %d",
             io_class(rc));
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    MT_CHECK(io_class(rc) == MPI_ERR_AMODE, "no mode: class %d", io_class(rc));
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY | MPI_MODE_CREATE,
                       MPI_INFO_NULL, &fh);
    MT_CHECK(io_class(rc) == MPI_ERR_AMODE, "rdonly+create: class %d",
             io_class(rc));
    /* create, then EXCL fails everywhere */
    amode = MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR;
    rc = MPI_File_open(MPI_COMM_WORLD, p, amode, MPI_INFO_NULL, &fh);
    MT_CHECK_RC(rc);
    int got = 0;
    MPI_File_get_amode(fh, &got);
    MT_CHECK(got == amode, "amode %#x != %#x", got, amode);
    MPI_Group g, wg;
    int cmp;
    MPI_File_get_group(fh, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &cmp);
    MT_CHECK(cmp == MPI_IDENT, "group compare %d", cmp);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    MT_CHECK_RC(MPI_File_close(&fh));
    MT_CHECK(fh == MPI_FILE_NULL, "close did not null fh");
    rc = MPI_File_open(MPI_COMM_WORLD, p, amode, MPI_INFO_NULL, &fh);
    MT_CHECK(io_class(rc) == MPI_ERR_FILE_EXISTS, "excl: class %d",
             io_class(rc));
    /* writing a read-only file, reading a write-only one */
    MT_CHECK_RC(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY,
                              MPI_INFO_NULL, &fh));
    int x = 1;
    rc = MPI_File_write_at(fh, 0, &x, 1, MPI_INT, MPI_STATUS_IGNORE);
    MT_CHECK(io_class(rc) == MPI_ERR_READ_ONLY, "write rdonly: class %d",
             io_class(rc));
    MPI_File_close(&fh);
    MT_CHECK_RC(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_WRONLY,
                              MPI_INFO_NULL, &fh));
    rc = MPI_File_read_at(fh, 0, &x, 1, MPI_INT, MPI_STATUS_IGNORE);
    MT_CHECK(io_class(rc) == MPI_ERR_ACCESS, "read wronly: class %d",
             io_class(rc));
    MPI_File_close(&fh);
    /* a closed handle */
    rc = MPI_File_get_amode(fh, &got);
    MT_CHECK(io_class(rc) == MPI_ERR_FILE, "null fh: class %d", io_class(rc));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MT_CHECK_RC(MPI_File_delete(p, MPI_INFO_NULL));
        rc = MPI_File_delete(p, MPI_INFO_NULL);
        MT_CHECK(io_class(rc) == MPI_ERR_NO_SUCH_FILE, "delete: class %d",
                 io_class(rc));
    }
    /* DELETE_ON_CLOSE removes it */
    MT_CHECK_RC(MPI_File_open(MPI_COMM_WORLD, p,
                              MPI_MODE_CREATE | MPI_MODE_WRONLY |
                              MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    MPI_File_close(&fh);
    struct stat sb;
    MT_CHECK(stat(p, &sb) != 0, "file still there after DELETE_ON_CLOSE");
}

/* Each rank writes blocks at explicit offsets; everyone reads them all. */
static void test_explicit(void)
{
    MPI_File fh;
    MPI_Status st;
    enum { N = 1000 };
    int buf[N], in[N], cnt;
    const char *p = io_path("explicit");

    MT_CHECK_RC(MPI_File_open(MPI_COMM_WORLD, p,
                              MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                              &fh));
    for (int i = 0; i < N; i++)
        buf[i] = rank * N + i;
    MPI_Offset off = (MPI_Offset)rank * N * sizeof(int);
    MT_CHECK_RC(MPI_File_write_at_all(fh, off, buf, N, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    MT_CHECK(cnt == N, "write count %d", cnt);
    MPI_Offset sz;
    MPI_File_get_size(fh, &sz);
    MT_CHECK(sz == (MPI_Offset)size * N * (MPI_Offset)sizeof(int),
             "size %lld", sz);
    for (int r = 0; r < size; r++) {
        memset(in, 0, sizeof(in));
        MT_CHECK_RC(MPI_File_read_at(fh, (MPI_Offset)r * N * sizeof(int), in,
                                     N, MPI_INT, &st));
        MPI_Get_count(&st, MPI_INT, &cnt);
        MT_CHECK(cnt == N, "read count %d", cnt);
        for (int i = 0; i < N; i++)
            if (in[i] != r * N + i) {
                MT_CHECK(0, "block %d [%d] = %d", r, i, in[i]);
                break;
            }
    }
    /* reading past the end gives a short count */
    MT_CHECK_RC(MPI_File_read_at(fh, sz - 2 * (MPI_Offset)sizeof(int), in, 10,
                                 MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    MT_CHECK(cnt == 2, "count at eof %d", cnt);
    MT_CHECK_RC(MPI_File_read_at(fh, sz + 100, in, 10, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    MT_CHECK(cnt == 0, "count past eof %d", cnt);
    /* large-count form and MPI_Get_count_c */
    MPI_Count cc;
    MT_CHECK_RC(MPI_File_read_at_c(fh, off, in, (MPI_Count)N, MPI_INT, &st));
    MPI_Get_count_c(&st, MPI_INT, &cc);
    MT_CHECK(cc == N && in[N - 1] == buf[N - 1], "read_at_c %lld", cc);
    /* set_size truncates, preallocate grows */
    MT_CHECK_RC(MPI_File_set_size(fh, 100));
    MPI_File_get_size(fh, &sz);
    MT_CHECK(sz == 100, "after set_size %lld", sz);
    MT_CHECK_RC(MPI_File_preallocate(fh, 4096));
    MPI_File_get_size(fh, &sz);
    MT_CHECK(sz == 4096, "after preallocate %lld", sz);
    MT_CHECK_RC(MPI_File_preallocate(fh, 10));
    MPI_File_get_size(fh, &sz);
    MT_CHECK(sz == 4096, "preallocate shrank to %lld", sz);
    MT_CHECK_RC(MPI_File_sync(fh));
    MPI_File_close(&fh);
}

/* The individual file pointer: sequential writes, seek, collective. */
static void test_pointer(void)
{
    MPI_File fh;
    MPI_Status st;
    MPI_Offset pos;
    const char *p = io_path("pointer");
    char name[64];
    snprintf(name, sizeof(name), "pointer");
    (void)name;
    MT_CHECK_RC(MPI_File_open(MPI_COMM_WORLD, p,
                              MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                              &fh));
    /* each rank in its own region of 64 doubles */
    double d[64], e[64];
    for (int i = 0; i < 64; i++)
        d[i] = rank + i / 100.0;
    MT_CHECK_RC(MPI_File_seek(fh, (MPI_Offset)rank * sizeof(d), MPI_SEEK_SET));
    MT_CHECK_RC(MPI_File_write(fh, d, 32, MPI_DOUBLE, &st));
    MT_CHECK_RC(MPI_File_write_all(fh, d + 32, 32, MPI_DOUBLE, &st));
    MPI_File_get_position(fh, &pos);
    MT_CHECK(pos == (MPI_Offset)(rank + 1) * (MPI_Offset)sizeof(d),
             "position %lld", pos);
    MT_CHECK_RC(MPI_File_seek(fh, -(MPI_Offset)sizeof(d), MPI_SEEK_CUR));
    MT_CHECK_RC(MPI_File_read_all(fh, e, 64, MPI_DOUBLE, &st));
    MT_CHECK(memcmp(d, e, sizeof(d)) == 0, "read back differs");
    MPI_Offset bo;
    MPI_File_get_byte_offset(fh, 10, &bo);
    MT_CHECK(bo == 10, "byte offset %lld", bo);
    /* seek relative to the end, and a negative position is an error */
    MT_CHECK_RC(MPI_File_seek(fh, -8, MPI_SEEK_END));
    MPI_File_get_position(fh, &pos);
    MT_CHECK(pos == (MPI_Offset)size * (MPI_Offset)sizeof(d) - 8,
             "end position %lld", pos);
    int rc = MPI_File_seek(fh, -1, MPI_SEEK_SET);
    MT_CHECK(io_class(rc) == MPI_ERR_ARG, "negative seek: class %d",
             io_class(rc));
    /* nonblocking forms complete with a status */
    MPI_Request rq[2];
    double one = -1, two = 0;
    MT_CHECK_RC(MPI_File_iwrite_at(fh, (MPI_Offset)rank * sizeof(d), &one, 1,
                                   MPI_DOUBLE, &rq[0]));
    MT_CHECK_RC(MPI_Wait(&rq[0], &st));
    int cnt;
    MPI_Get_count(&st, MPI_DOUBLE, &cnt);
    MT_CHECK(cnt == 1, "iwrite_at count %d", cnt);
    MT_CHECK_RC(MPI_File_seek(fh, (MPI_Offset)rank * sizeof(d), MPI_SEEK_SET));
    MT_CHECK_RC(MPI_File_iread(fh, &two, 1, MPI_DOUBLE, &rq[1]));
    MT_CHECK_RC(MPI_Waitall(1, &rq[1], MPI_STATUSES_IGNORE));
    MT_CHECK(two == -1, "iread got %g", two);
    MPI_File_get_position(fh, &pos);
    MT_CHECK(pos == (MPI_Offset)rank * (MPI_Offset)sizeof(d) + 8,
             "after iread %lld", pos);
    MT_CHECK_RC(MPI_File_iread_at_all(fh, (MPI_Offset)rank * sizeof(d) + 8,
                                      &two, 1, MPI_DOUBLE, &rq[0]));
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    MT_CHECK(two == d[1], "iread_at_all got %g", two);
    /* split collective */
    MT_CHECK_RC(MPI_File_read_at_all_begin(fh, (MPI_Offset)rank * sizeof(d),
                                           e, 64, MPI_DOUBLE));
    MT_CHECK_RC(MPI_File_read_at_all_end(fh, e, &st));
    MPI_Get_count(&st, MPI_DOUBLE, &cnt);
    MT_CHECK(cnt == 64 && e[0] == -1 && e[63] == d[63], "split read %d", cnt);
    rc = MPI_File_read_all_end(fh, e, &st);
    MT_CHECK(rc != MPI_SUCCESS, "end without begin succeeded");
    MPI_File_close(&fh);
}

static void test_info(void)
{
    MPI_File fh;
    MPI_Info info, used;
    char v[64];
    int flag;
    MPI_Info_create(&info);
    MPI_Info_set(info, "access_style", "read_mostly");
    MT_CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("info"),
                              MPI_MODE_CREATE | MPI_MODE_RDWR |
                              MPI_MODE_DELETE_ON_CLOSE, info, &fh));
    MPI_Info_free(&info);
    MT_CHECK_RC(MPI_File_get_info(fh, &used));
    MPI_Info_get(used, "access_style", sizeof(v) - 1, v, &flag);
    MT_CHECK(flag && strcmp(v, "read_mostly") == 0, "hint lost");
    MPI_Info_free(&used);
    /* the file's default error handler is MPI_ERRORS_RETURN */
    MPI_Errhandler eh;
    MPI_File_get_errhandler(fh, &eh);
    MT_CHECK(eh == MPI_ERRORS_RETURN, "default handler not ERRORS_RETURN");
    MPI_Errhandler_free(&eh);
    MPI_Fint f = MPI_File_c2f(fh);
    MT_CHECK(MPI_File_f2c(f) == fh, "c2f/f2c round trip");
    MT_CHECK(MPI_File_c2f(MPI_FILE_NULL) == 0, "c2f(null) not 0");
    MPI_File_close(&fh);
}

/* APPEND starts both pointers at the end; only rank 0 writes. */
static void test_append(void)
{
    MPI_File fh;
    const char *p = io_path("append");
    int v = 7, w = 0;
    MPI_Offset pos;
    MT_CHECK_RC(MPI_File_open(MPI_COMM_WORLD, p,
                              MPI_MODE_CREATE | MPI_MODE_WRONLY,
                              MPI_INFO_NULL, &fh));
    if (rank == 0)
        MPI_File_write(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    MT_CHECK_RC(MPI_File_open(MPI_COMM_WORLD, p,
                              MPI_MODE_RDWR | MPI_MODE_APPEND,
                              MPI_INFO_NULL, &fh));
    MPI_File_get_position(fh, &pos);
    MT_CHECK(pos == (MPI_Offset)sizeof(int), "append position %lld", pos);
    MPI_File_get_position_shared(fh, &pos);
    MT_CHECK(pos == (MPI_Offset)sizeof(int), "append shared %lld", pos);
    MPI_File_read_at(fh, 0, &w, 1, MPI_INT, MPI_STATUS_IGNORE);
    MT_CHECK(w == 7, "read %d", w);
    MPI_File_close(&fh);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    io_dir_create();
    test_open_modes();
    test_explicit();
    test_pointer();
    test_info();
    test_append();
    /* a file left open is closed by MPI_Finalize (no crash, no hang) */
    MPI_File left;
    MT_CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("left-open"),
                              MPI_MODE_CREATE | MPI_MODE_RDWR |
                              MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                              &left));
    MPI_File_write_at(left, rank, "x", 1, MPI_CHAR, MPI_STATUS_IGNORE);
    io_dir_remove();
    return mt_finish();
}
