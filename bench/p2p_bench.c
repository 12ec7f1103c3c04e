/*
 * Point-to-point benchmarks between two ranks:
 *   latency  ping-pong, half the round trip           (0 B - 4 MiB, us)
 *            the median of short samples, as ucx_perftest reports it
 *            (see lat_time; -l 0: the 1 ms samples of bench_time)
 *   bw       window of 64 sends, one ack per window    (1 B - 4 MiB, MB/s)
 *   bibw     both ranks send a window at once          (1 B - 4 MiB, MB/s)
 *   msgrate  window of 128 small sends                 (1 - 1024 B, Mmsg/s)
 * Usage: p2p_bench [-b latency,bw,bibw,msgrate] [-m MIN] [-M MAX] [-r REPS]
 *        [-w WARMUP] [-t SECONDS_PER_SIZE] [-i ITERS]   (see bench.h)
 *        [-l ROUND_TRIPS_PER_LATENCY_SAMPLE] (default 32)
 */
#include "bench.h"

#define BW_WINDOW 64
#define RATE_WINDOW 128
#define TAG 7
#define LAT_BATCH 32          /* round trips per latency sample */
#define LAT_MAX_SAMPLES 100000

typedef struct {
    MPI_Comm comm;
    int rank;             /* 0 or 1 */
    char *sbuf, *rbuf;
    int bytes, window;
    MPI_Request reqs[2 * RATE_WINDOW];
} p2p_t;

static void pingpong(void *arg)
{
    p2p_t *p = arg;
    if (p->rank == 0) {
        MPI_Send(p->sbuf, p->bytes, MPI_BYTE, 1, TAG, p->comm);
        MPI_Recv(p->rbuf, p->bytes, MPI_BYTE, 1, TAG, p->comm,
                 MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(p->rbuf, p->bytes, MPI_BYTE, 0, TAG, p->comm,
                 MPI_STATUS_IGNORE);
        MPI_Send(p->sbuf, p->bytes, MPI_BYTE, 0, TAG, p->comm);
    }
}

/* Rank 0 streams a window to rank 1, which acknowledges it. */
static void window(void *arg)
{
    p2p_t *p = arg;
    if (p->rank == 0) {
        for (int i = 0; i < p->window; i++)
            MPI_Isend(p->sbuf, p->bytes, MPI_BYTE, 1, TAG, p->comm,
                      &p->reqs[i]);
        MPI_Waitall(p->window, p->reqs, MPI_STATUSES_IGNORE);
        MPI_Recv(NULL, 0, MPI_BYTE, 1, TAG + 1, p->comm, MPI_STATUS_IGNORE);
    } else {
        for (int i = 0; i < p->window; i++)
            MPI_Irecv(p->rbuf, p->bytes, MPI_BYTE, 0, TAG, p->comm,
                      &p->reqs[i]);
        MPI_Waitall(p->window, p->reqs, MPI_STATUSES_IGNORE);
        MPI_Send(NULL, 0, MPI_BYTE, 0, TAG + 1, p->comm);
    }
}

/* Both ranks stream a window to each other at once. */
static void biwindow(void *arg)
{
    p2p_t *p = arg;
    int peer = 1 - p->rank;
    for (int i = 0; i < p->window; i++)
        MPI_Irecv(p->rbuf, p->bytes, MPI_BYTE, peer, TAG, p->comm,
                  &p->reqs[i]);
    for (int i = 0; i < p->window; i++)
        MPI_Isend(p->sbuf, p->bytes, MPI_BYTE, peer, TAG, p->comm,
                  &p->reqs[p->window + i]);
    MPI_Waitall(2 * p->window, p->reqs, MPI_STATUSES_IGNORE);
}

/*
 * Half round trip as ucx_perftest's tag_lat reports it (its "typical"
 * latency is the median of per-round-trip times): the median over many
 * samples of `batch` round trips (a few us each), timed by rank 0.  The
 * mean of a 1 ms sample (bench_time) carries every preemption and
 * interrupt of that millisecond: on a shared machine one 10 us stall adds
 * 5% to a 0.1 us latency, and such runs swung +-10%.  One MPI_Wtime per
 * batch costs < 1% of an 8 B latency.  Samples fill the time budget.
 */
static double lat_time(const bench_opts_t *o, p2p_t *p, int batch)
{
    int plan[3];              /* warm-up round trips, samples, batch */
    double t, per, *v;

    pingpong(p);              /* connect */
    MPI_Barrier(p->comm);
    t = MPI_Wtime();
    for (int i = 0; i < 10; i++)
        pingpong(p);
    per = (MPI_Wtime() - t) / 10;
    if (p->rank == 0) {
        per = per > 1e-8 ? per : 1e-8;
        /* samples of at most ~1 ms for large messages */
        plan[2] = per * batch > 1e-3 ? (int)(1e-3 / per) : batch;
        plan[2] = plan[2] < 1 ? 1 : plan[2];
        plan[0] = (int)(o->budget / 5 / per);
        plan[0] = plan[0] < 10 ? 10 : plan[0] > 20000 ? 20000 : plan[0];
        plan[1] = (int)(o->budget * 0.8 / (per * plan[2]));
        plan[1] = plan[1] < 3 ? 3 : plan[1] > LAT_MAX_SAMPLES ? LAT_MAX_SAMPLES
                                                            : plan[1];
    }
    MPI_Bcast(plan, 3, MPI_INT, 0, p->comm);
    for (int i = 0; i < plan[0]; i++)
        pingpong(p);
    v = malloc(sizeof(double) * (size_t)plan[1]);
    if (v == NULL)
        MPI_Abort(p->comm, 2);
    for (int s = 0; s < plan[1]; s++) {
        t = MPI_Wtime();
        for (int i = 0; i < plan[2]; i++)
            pingpong(p);
        v[s] = (MPI_Wtime() - t) / plan[2];
    }
    t = bench_median(v, plan[1]);
    free(v);
    MPI_Bcast(&t, 1, MPI_DOUBLE, 0, p->comm);
    return t;
}

static void run(const bench_opts_t *o, p2p_t *p, const char *name,
                size_t first, size_t last, int lat_batch)
{
    if (!bench_selected(o, name))
        return;
    first = first > o->min_bytes ? first : o->min_bytes;
    last = last < o->max_bytes ? last : o->max_bytes;
    for (size_t s = first; s <= last; s = bench_next_size(s)) {
        p->bytes = (int)s;
        if (!strcmp(name, "latency")) {
            double t = (lat_batch > 0 ? lat_time(o, p, lat_batch)
                                      : bench_time(o, p->comm, pingpong, p)) / 2;
            bench_report(o, name, s, t, t * 1e6, "us");
        } else if (!strcmp(name, "bw") || !strcmp(name, "bibw")) {
            int bi = !strcmp(name, "bibw");
            p->window = BW_WINDOW;
            double t = bench_time(o, p->comm, bi ? biwindow : window, p);
            double mbs = (double)s * BW_WINDOW * (bi ? 2 : 1) / t / 1e6;
            bench_report(o, name, s, t / BW_WINDOW, mbs, "MB/s");
        } else {
            p->window = RATE_WINDOW;
            double t = bench_time(o, p->comm, window, p);
            bench_report(o, name, s, t / RATE_WINDOW,
                         RATE_WINDOW / t / 1e6, "Mmsg/s");
        }
    }
}

int main(int argc, char **argv)
{
    bench_opts_t o;
    p2p_t p = { 0 };
    int lat_batch = LAT_BATCH;

    MPI_Init(&argc, &argv);
    bench_parse(argc, argv, &o, 0, 4 << 20);
    for (int i = 1; i + 1 < argc; i += 2)
        if (!strcmp(argv[i], "-l"))
            lat_batch = atoi(argv[i + 1]);
    if (o.size != 2) {
        if (o.rank == 0)
            fprintf(stderr, "p2p_bench: run with 2 ranks\n");
        MPI_Finalize();
        return 1;
    }
    p.comm = MPI_COMM_WORLD;
    p.rank = o.rank;
    p.sbuf = bench_alloc(o.max_bytes);
    p.rbuf = bench_alloc(o.max_bytes);
    run(&o, &p, "latency", 0, 4 << 20, lat_batch);
    run(&o, &p, "bw", 1, 4 << 20, lat_batch);
    run(&o, &p, "bibw", 1, 4 << 20, lat_batch);
    run(&o, &p, "msgrate", 1, 1024, lat_batch);
    free(p.rbuf);
    free(p.sbuf);
    MPI_Finalize();
    return 0;
}
