/* The shared file pointer under MPI_THREAD_MULTIPLE: threads of every
 * rank append records with MPI_File_write_shared at once (each record
 * lands whole, exactly once), also while rank 0 computes outside MPI. */
#include "iotest.h"

#include <pthread.h>
#include <time.h>

enum { T = 2, R = 20, K = 8 };
static int rank, size;
static MPI_File fh;

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
    char *seen = calloc((size_t)n, 1);
    MPI_Status st;
    int cnt;
    MT_CHECK_RC(MPI_File_read_at(fh, 0, all, K * n, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    MT_CHECK(cnt == K * n, "file holds %d ints, want %d", cnt, K * n);
    for (int r = 0; r < n; r++) {
        int id = all[r * K] / K, ok = id >= 0 && id < n && !seen[id];
        for (int i = 0; i < K && ok; i++)
            ok = all[r * K + i] == id * K + i;
        MT_CHECK(ok, "record %d broken (starts %d)", r, all[r * K]);
        if (ok)
            seen[id] = 1;
    }
    free(seen);
    free(all);
    MPI_File_close(&fh);
    io_dir_remove();
    return mt_finish();
}
