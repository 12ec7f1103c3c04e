/* File pointers under MPI_THREAD_MULTIPLE.  Shared: threads of every
 * rank append records with MPI_File_write_shared at once (each record
 * lands whole, exactly once), also while rank 0 computes outside MPI.
 * Individual: threads of one rank write records through one handle's
 * individual pointer at once; each record must land whole, exactly once
 * (an unserialised pointer lets two threads write the same place). */
#include "iotest.h"

#include <pthread.h>
#include <time.h>

enum { T = 2, R = 20, K = 8 };
static int rank, size;
static MPI_File fh;

/* Checks that the first n records of K ints in all are ids 0..n-1, each
 * whole and exactly once. */
static void check_records(const int *all, int n, const char *what)
{
    char *seen = calloc((size_t)n, 1);
    for (int r = 0; r < n; r++) {
        int id = all[r * K] / K, ok = id >= 0 && id < n && !seen[id];
        for (int i = 0; i < K && ok; i++)
            ok = all[r * K + i] == id * K + i;
        MT_CHECK(ok, "%s: record %d broken (starts %d)", what, r,
                 all[r * K]);
        if (ok)
            seen[id] = 1;
    }
    free(seen);
}

enum { RI = 400 };
static MPI_File own;

static void *own_writer(void *arg)
{
    int t = (int)(intptr_t)arg, rec[K];
    for (int j = 0; j < RI; j++) {
        for (int i = 0; i < K; i++)
            rec[i] = (t * RI + j) * K + i;
        MT_CHECK_RC(MPI_File_write(own, rec, K, MPI_INT, MPI_STATUS_IGNORE));
    }
    return NULL;
}

/* Each rank's own file, written by T threads through one individual
 * file pointer. */
static void individual_pointer(void)
{
    char name[32];
    snprintf(name, sizeof(name), "own%d", rank);
    MT_CHECK_RC(MPI_File_open(MPI_COMM_SELF, io_path(name),
                              MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                              &own));
    pthread_t th[T];
    for (int t = 0; t < T; t++)
        pthread_create(&th[t], NULL, own_writer, (void *)(intptr_t)t);
    for (int t = 0; t < T; t++)
        pthread_join(th[t], NULL);
    MPI_Offset pos, bytes;
    MT_CHECK_RC(MPI_File_get_position(own, &pos));
    MT_CHECK(pos == (MPI_Offset)T * RI * K * sizeof(int),
             "individual pointer at %lld, want %lld", (long long)pos,
             (long long)T * RI * K * (long long)sizeof(int));
    MT_CHECK_RC(MPI_File_get_size(own, &bytes));
    int n = T * RI, *all = calloc((size_t)K * n, sizeof(int));
    MT_CHECK(bytes == (MPI_Offset)K * n * (MPI_Offset)sizeof(int),
             "own file holds %lld bytes", (long long)bytes);
    MT_CHECK_RC(MPI_File_read_at(own, 0, all, K * n, MPI_INT,
                                 MPI_STATUS_IGNORE));
    check_records(all, n, "individual");
    free(all);
    MPI_File_close(&own);
}

static void *writer(void *arg)
{
    int t = (int)(intptr_t)arg, rec[K];
    for (int j = 0; j < R; j++) {
        for (int i = 0; i < K; i++)
            rec[i] = ((rank * T + t) * R + j) * K + i;
        MT_CHECK_RC(MPI_File_write_shared(fh, rec, K, MPI_INT,
                                          MPI_STATUS_IGNORE));
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided < MPI_THREAD_MULTIPLE) {
        MT_CHECK(0, "provided %d", provided);
        return mt_finish();
    }
    io_dir_create();
    MT_CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("threads"),
                              MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                              &fh));
    if (rank == 0) {   /* busy outside MPI: the others must not wait */
        struct timespec ts = {0, 300 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    pthread_t th[T];
    for (int t = 0; t < T; t++)
        pthread_create(&th[t], NULL, writer, (void *)(intptr_t)t);
    for (int t = 0; t < T; t++)
        pthread_join(th[t], NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    int n = size * T * R, *all = malloc(sizeof(int) * K * n);
    MPI_Status st;
    int cnt;
    MT_CHECK_RC(MPI_File_read_at(fh, 0, all, K * n, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    MT_CHECK(cnt == K * n, "file holds %d ints, want %d", cnt, K * n);
    check_records(all, n, "shared");
    free(all);
    MPI_File_close(&fh);
    individual_pointer();
    MPI_Barrier(MPI_COMM_WORLD);
    io_dir_remove();
    return mt_finish();
}
