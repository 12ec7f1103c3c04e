/*
 * Point-to-point benchmarks between two ranks:
 *   latency  ping-pong, half the round trip           (0 B - 4 MiB, us)
 *   bw       window of 64 sends, one ack per window    (1 B - 4 MiB, MB/s)
 *   bibw     both ranks send a window at once          (1 B - 4 MiB, MB/s)
 *   msgrate  window of 128 small sends                 (1 - 1024 B, Mmsg/s)
 * Usage: p2p_bench [-b latency,bw,bibw,msgrate] [-m MIN] [-M MAX] [-r REPS]
 *        [-w WARMUP] [-t SECONDS_PER_SIZE]      (see bench.h)
 */
#include "bench.h"

#define BW_WINDOW 64
#define RATE_WINDOW 128
#define TAG 7

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

static void run(const bench_opts_t *o, p2p_t *p, const char *name,
                size_t first, size_t last)
{
    if (!bench_selected(o, name))
        return;
    first = first > o->min_bytes ? first : o->min_bytes;
    last = last < o->max_bytes ? last : o->max_bytes;
    for (size_t s = first; s <= last; s = bench_next_size(s)) {
        p->bytes = (int)s;
        if (!strcmp(name, "latency")) {
            double t = bench_time(o, p->comm, pingpong, p) / 2;
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

    MPI_Init(&argc, &argv);
    bench_parse(argc, argv, &o, 0, 4 << 20);
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
    run(&o, &p, "latency", 0, 4 << 20);
    run(&o, &p, "bw", 1, 4 << 20);
    run(&o, &p, "bibw", 1, 4 << 20);
    run(&o, &p, "msgrate", 1, 1024);
    free(p.rbuf);
    free(p.sbuf);
    MPI_Finalize();
    return 0;
}
