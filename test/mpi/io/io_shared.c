/* Shared file pointer (read/write_shared, _ordered, seek_shared,
 * get_position_shared, iwrite_shared), atomic mode, and file error
 * handlers (user handlers, MPI_FILE_NULL's handler, call_errhandler). */
#include "iotest.h"

static int rank, size;

enum { K = 16 };   /* ints per record */

static void test_shared(void)
{
    MPI_File fh;
    MPI_Status st;
    int rec[K], cnt;
    MPI_Offset pos;
    const char *p = io_path("shared");

    MT_CHECK_RC(MPI_File_open(MPI_COMM_WORLD, p,
                              MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                              &fh));
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    /* 3 records per rank in whatever order the ranks get there; each
     * record starts with its writer and sequence number */
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < K; i++)
            rec[i] = rank * 1000 + j * 100 + i;
        if (j == 1) {
            MPI_Request r;
            MT_CHECK_RC(MPI_File_iwrite_shared(fh, rec, K, MPI_INT, &r));
            MPI_Wait(&r, &st);
        } else {
            MT_CHECK_RC(MPI_File_write_shared(fh, rec, K, MPI_INT, &st));
        }
        MPI_Get_count(&st, MPI_INT, &cnt);
        MT_CHECK(cnt == K, "write_shared count %d", cnt);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_get_position_shared(fh, &pos);
    MT_CHECK(pos == 3 * K * size, "shared position %lld", pos);
    /* every record is whole and each (rank, j) appears once */
    int n = 3 * K * size, *all = malloc(sizeof(int) * n);
    char *seen = calloc((size_t)size * 3, 1);
    MT_CHECK_RC(MPI_File_read_at(fh, 0, all, n, MPI_INT, &st));
    for (int r = 0; r < 3 * size; r++) {
        int w = all[r * K] / 1000, j = all[r * K] % 1000 / 100;
        int ok = w >= 0 && w < size && j >= 0 && j < 3 && !seen[w * 3 + j];
        for (int i = 0; i < K && ok; i++)
            ok = all[r * K + i] == w * 1000 + j * 100 + i;
        MT_CHECK(ok, "record %d broken (starts %d)", r, all[r * K]);
        if (ok)
            seen[w * 3 + j] = 1;
    }
    /* ordered: rank order after the shared records */
    for (int i = 0; i < K; i++)
        rec[i] = -(rank * K + i);
    MT_CHECK_RC(MPI_File_write_ordered(fh, rec, K, MPI_INT, &st));
    MPI_File_get_position_shared(fh, &pos);
    MT_CHECK(pos == 4 * K * size, "after ordered %lld", pos);
    MT_CHECK_RC(MPI_File_seek_shared(fh, 3 * K * size, MPI_SEEK_SET));
    MT_CHECK_RC(MPI_File_read_ordered(fh, all, K, MPI_INT, &st));
    for (int i = 0; i < K; i++)
        MT_CHECK(all[i] == -(rank * K + i), "ordered [%d] = %d", i, all[i]);
    /* read_shared from the start: the records are handed out once each */
    MT_CHECK_RC(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    int got = 0, total = 0;
    for (;;) {
        MT_CHECK_RC(MPI_File_read_shared(fh, rec, K, MPI_INT, &st));
        MPI_Get_count(&st, MPI_INT, &cnt);
        if (cnt == 0)
            break;
        got++;
    }
    MPI_Allreduce(&got, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK(total == 4 * size, "read_shared handed out %d records", total);
    MT_CHECK_RC(MPI_File_seek_shared(fh, -K, MPI_SEEK_END));
    MPI_File_get_position_shared(fh, &pos);
    MT_CHECK(pos == 4 * K * size - K, "seek_shared end %lld", pos);
    int rc = MPI_File_seek_shared(fh, -1, MPI_SEEK_SET);
    MT_CHECK(io_class(rc) == MPI_ERR_ARG, "negative seek_shared: %d",
             io_class(rc));
    free(seen);
    free(all);
    MPI_File_close(&fh);
}

/* Atomic mode: overlapping writes of whole records by every rank leave
 * one rank's record, never a mix. */
static void test_atomic(void)
{
    MPI_File fh;
    enum { N = 4096 };
    int *buf = malloc(sizeof(int) * N), flag = 0;
    MT_CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("atomic"),
                              MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                              &fh));
    MT_CHECK_RC(MPI_File_set_atomicity(fh, 1));
    MPI_File_get_atomicity(fh, &flag);
    MT_CHECK(flag == 1, "atomicity %d", flag);
    for (int it = 0; it < 5; it++) {
        for (int i = 0; i < N; i++)
            buf[i] = rank;
        MPI_File_write_at(fh, 0, buf, N, MPI_INT, MPI_STATUS_IGNORE);
        MPI_File_read_at(fh, 0, buf, N, MPI_INT, MPI_STATUS_IGNORE);
        int mixed = 0;
        for (int i = 1; i < N; i++)
            mixed |= buf[i] != buf[0];
        MT_CHECK(!mixed, "atomic record mixed (iteration %d)", it);
    }
    MPI_File_set_atomicity(fh, 0);
    MPI_File_get_atomicity(fh, &flag);
    MT_CHECK(flag == 0, "atomicity %d", flag);
    free(buf);
    MPI_File_close(&fh);
}

static int handler_calls, handler_code;
static MPI_File handler_file;

static void file_handler(MPI_File *fh, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_file = *fh;
}

static void test_errhandlers(void)
{
    MPI_Errhandler eh, got;
    MPI_File fh;
    int rc;
    MT_CHECK_RC(MPI_File_create_errhandler(file_handler, &eh));
    /* MPI_FILE_NULL's handler sees open failures */
    MT_CHECK_RC(MPI_File_set_errhandler(MPI_FILE_NULL, eh));
    rc = MPI_File_open(MPI_COMM_WORLD, io_path("no/such/dir"),
                       MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    MT_CHECK(handler_calls == 1 && io_class(handler_code) ==
             MPI_ERR_NO_SUCH_FILE && handler_file == MPI_FILE_NULL,
             "open failure: %d calls, code %d", handler_calls, handler_code);
    MT_CHECK(io_class(rc) == MPI_ERR_NO_SUCH_FILE, "rc class %d",
             io_class(rc));
    /* new files inherit it */
    MT_CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("eh"),
                              MPI_MODE_CREATE | MPI_MODE_WRONLY |
                              MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    MPI_File_get_errhandler(fh, &got);
    MT_CHECK(got == eh, "new file did not inherit MPI_FILE_NULL's handler");
    MPI_Errhandler_free(&got);
    int x;
    MPI_File_read_at(fh, 0, &x, 1, MPI_INT, MPI_STATUS_IGNORE);
    MT_CHECK(handler_calls == 2 && io_class(handler_code) == MPI_ERR_ACCESS &&
             handler_file == fh, "read on wronly: %d calls", handler_calls);
    MT_CHECK_RC(MPI_File_call_errhandler(fh, MPI_ERR_IO));
    MT_CHECK(handler_calls == 3 && handler_code == MPI_ERR_IO,
             "call_errhandler: %d calls", handler_calls);
    /* a comm handler cannot go on a file */
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    MPI_Errhandler ceh;
    MPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)file_handler,
                               &ceh);
    rc = MPI_File_set_errhandler(fh, ceh);
    MT_CHECK(io_class(rc) == MPI_ERR_ARG, "comm handler on a file: %d",
             io_class(rc));
    MPI_Errhandler_free(&ceh);
    MPI_File_close(&fh);
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    MPI_File_get_errhandler(MPI_FILE_NULL, &got);
    MT_CHECK(got == MPI_ERRORS_RETURN, "MPI_FILE_NULL handler not restored");
    /* an error class's message names the call and the file */
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    rc = MPI_File_delete(io_path("missing"), MPI_INFO_NULL);
    MPI_Error_string(rc, msg, &len);
    MT_CHECK(io_class(rc) == MPI_ERR_NO_SUCH_FILE && len > 0,
             "delete missing: class %d", io_class(rc));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    io_dir_create();
    test_shared();
    test_atomic();
    test_errhandlers();
    io_dir_remove();
    return mt_finish();
}
