/*
 * One-sided benchmarks, rank 0 accessing rank 1's window inside one
 * passive-target epoch (MPI_Win_lock_all), completion by MPI_Win_flush:
 *   put_lat   put + flush                        (0 B - 4 MiB, us)
 *   get_lat   get + flush                        (0 B - 4 MiB, us)
 *   put_bw    64 puts, one flush                  (1 B - 4 MiB, MB/s)
 *   get_bw    64 gets, one flush                  (1 B - 4 MiB, MB/s)
 *   acc_rate  128 MPI_Accumulate(SUM) of 8-byte doubles, one flush
 *                                                 (8 B, Mops/s)
 *   fop_rate  128 MPI_Fetch_and_op(SUM) of 8-byte longs, one flush
 *                                                 (8 B, Mops/s)
 *   fop_lat   one MPI_Fetch_and_op + flush        (8 B, us)
 * Rank 1 only waits in the benchmark's barriers (which progress).
 * Usage: rma_bench [-b NAMES] [-m MIN] [-M MAX] [-r REPS] [-w WARMUP]
 *        [-t SECONDS_PER_SIZE]                      (see bench.h)
 * bench-np: 2
 */
#include "bench.h"

#define BW_WINDOW 64
#define RATE_WINDOW 128

typedef struct {
    MPI_Win win;
    int rank;
    char *buf;
    int bytes, window;
    const char *name;
} rma_t;

static void op(void *arg)
{
    rma_t *r = arg;
    long one = 1, old[RATE_WINDOW];   /* live until the flush */
    double done = 1.0;
    if (r->rank != 0)
        return;
    const char *n = r->name;
    if (!strcmp(n, "put_lat") || !strcmp(n, "put_bw")) {
        for (int i = 0; i < r->window; i++)
            MPI_Put(r->buf, r->bytes, MPI_BYTE, 1, 0, r->bytes, MPI_BYTE,
                    r->win);
    } else if (!strcmp(n, "get_lat") || !strcmp(n, "get_bw")) {
        for (int i = 0; i < r->window; i++)
            MPI_Get(r->buf, r->bytes, MPI_BYTE, 1, 0, r->bytes, MPI_BYTE,
                    r->win);
    } else if (!strcmp(n, "acc_rate")) {
        for (int i = 0; i < r->window; i++)
            MPI_Accumulate(&done, 1, MPI_DOUBLE, 1, 0, 1, MPI_DOUBLE, MPI_SUM,
                           r->win);
    } else {
        for (int i = 0; i < r->window; i++)
            MPI_Fetch_and_op(&one, &old[i], MPI_LONG, 1, 8, MPI_SUM, r->win);
    }
    MPI_Win_flush(1, r->win);
}

static void run(const bench_opts_t *o, MPI_Comm comm, rma_t *r,
                const char *name, size_t first, size_t last)
{
    if (!bench_selected(o, name))
        return;
    first = first > o->min_bytes ? first : o->min_bytes;
    last = last < o->max_bytes ? last : o->max_bytes;
    r->name = name;
    for (size_t s = first; s <= last; s = bench_next_size(s)) {
        int lat = strstr(name, "_lat") != NULL;
        int bw = strstr(name, "_bw") != NULL;
        r->bytes = (int)s;
        r->window = lat ? 1 : bw ? BW_WINDOW : RATE_WINDOW;
        double t = bench_time(o, comm, op, r);
        if (lat)
            bench_report(o, name, s, t, t * 1e6, "us");
        else if (bw)
            bench_report(o, name, s, t / r->window,
                         (double)s * r->window / t / 1e6, "MB/s");
        else
            bench_report(o, name, s, t / r->window, r->window / t / 1e6,
                         "Mops/s");
    }
}

int main(int argc, char **argv)
{
    bench_opts_t o;
    rma_t r = {0};
    int wrank;
    MPI_Comm comm;

    MPI_Init(&argc, &argv);
    bench_parse(argc, argv, &o, 0, 4 << 20);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    if (o.size < 2) {
        if (wrank == 0)
            fprintf(stderr, "rma_bench: needs 2 ranks\n");
        MPI_Finalize();
        return 1;
    }
    MPI_Comm_split(MPI_COMM_WORLD, wrank < 2 ? 0 : MPI_UNDEFINED, wrank,
                   &comm);
    if (comm != MPI_COMM_NULL) {
        void *base;
        o.size = 2;
        MPI_Comm_rank(comm, &r.rank);
        r.buf = bench_alloc(o.max_bytes > 64 ? o.max_bytes : 64);
        MPI_Win_allocate((MPI_Aint)(o.max_bytes > 64 ? o.max_bytes : 64), 1,
                         MPI_INFO_NULL, comm, &base, &r.win);
        memset(base, 0, o.max_bytes > 64 ? o.max_bytes : 64);
        MPI_Barrier(comm);
        if (r.rank == 0)
            MPI_Win_lock_all(0, r.win);
        run(&o, comm, &r, "put_lat", 0, 4 << 20);
        run(&o, comm, &r, "get_lat", 0, 4 << 20);
        run(&o, comm, &r, "put_bw", 1, 4 << 20);
        run(&o, comm, &r, "get_bw", 1, 4 << 20);
        run(&o, comm, &r, "acc_rate", 8, 8);
        run(&o, comm, &r, "fop_rate", 8, 8);
        run(&o, comm, &r, "fop_lat", 8, 8);
        if (r.rank == 0)
            MPI_Win_unlock_all(r.win);
        MPI_Win_free(&r.win);
        free(r.buf);
        MPI_Comm_free(&comm);
    }
    MPI_Finalize();
    return 0;
}
