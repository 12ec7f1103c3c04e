/*
 * Collective latency over all ranks, 8 B - 64 MiB (us, slowest rank):
 *   allreduce       MPI_SUM of doubles, size = vector bytes
 *   bcast           bytes from rank 0, size = message bytes
 *   allgather       size = gathered bytes per rank (size/np from each)
 *   alltoall        size = bytes sent per rank (size/np to each peer)
 *   reduce_scatter  MPI_SUM of doubles, size = whole vector bytes
 *                   (size/np of it left on each rank)
 *   reduce          MPI_SUM of doubles to rank 0, size = vector bytes
 *                   (only with -b reduce: not in the default set)
 * Sizes that leave less than one element per rank are skipped.
 * Usage: coll_bench [-b allreduce,bcast,...] [-m MIN] [-M MAX] [-r REPS]
 *        [-w WARMUP] [-t SECONDS_PER_SIZE] [-i ITERS]   (see bench.h)
 */
#include "bench.h"

typedef struct {
    char *sbuf, *rbuf;
    int count;            /* elements: whole vector or per rank, see above */
    int *counts;          /* reduce_scatter recvcounts */
    int np;
} coll_t;

static void do_allreduce(void *arg)
{
    coll_t *c = arg;
    MPI_Allreduce(c->sbuf, c->rbuf, c->count, MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
}

static void do_bcast(void *arg)
{
    coll_t *c = arg;
    MPI_Bcast(c->sbuf, c->count, MPI_BYTE, 0, MPI_COMM_WORLD);
}

static void do_allgather(void *arg)
{
    coll_t *c = arg;
    MPI_Allgather(c->sbuf, c->count, MPI_BYTE, c->rbuf, c->count, MPI_BYTE,
                  MPI_COMM_WORLD);
}

static void do_alltoall(void *arg)
{
    coll_t *c = arg;
    MPI_Alltoall(c->sbuf, c->count, MPI_BYTE, c->rbuf, c->count, MPI_BYTE,
                 MPI_COMM_WORLD);
}

static void do_reduce_scatter(void *arg)
{
    coll_t *c = arg;
    MPI_Reduce_scatter(c->sbuf, c->rbuf, c->counts, MPI_DOUBLE, MPI_SUM,
                       MPI_COMM_WORLD);
}

static void do_reduce(void *arg)
{
    coll_t *c = arg;
    MPI_Reduce(c->sbuf, c->rbuf, c->count, MPI_DOUBLE, MPI_SUM, 0,
               MPI_COMM_WORLD);
}

static const struct {
    const char *name;
    bench_fn_t fn;
    int elem;             /* element size */
    int per_rank;         /* count is size / np (else size) */
    int opt_in;           /* only when named in -b */
} colls[] = {
    { "allreduce", do_allreduce, 8, 0, 0 },
    { "bcast", do_bcast, 1, 0, 0 },
    { "allgather", do_allgather, 1, 1, 0 },
    { "alltoall", do_alltoall, 1, 1, 0 },
    { "reduce_scatter", do_reduce_scatter, 8, 1, 0 },
    { "reduce", do_reduce, 8, 0, 1 },
};

int main(int argc, char **argv)
{
    bench_opts_t o;
    coll_t c = { 0 };

    MPI_Init(&argc, &argv);
    bench_parse(argc, argv, &o, 8, 64 << 20);
    c.np = o.size;
    c.sbuf = bench_alloc(o.max_bytes);
    c.rbuf = bench_alloc(o.max_bytes);
    c.counts = malloc(sizeof(int) * o.size);
    for (size_t k = 0; k < sizeof(colls) / sizeof(colls[0]); k++) {
        if (!bench_selected(&o, colls[k].name) ||
            (colls[k].opt_in && o.select == NULL))
            continue;
        for (size_t s = o.min_bytes; s <= o.max_bytes;
             s = bench_next_size(s)) {
            size_t n = s / colls[k].elem / (colls[k].per_rank ? c.np : 1);
            if (n < 1 || n > (size_t)1 << 30)
                continue;
            c.count = (int)n;
            for (int r = 0; r < c.np; r++)
                c.counts[r] = c.count;
            double t = bench_time(&o, MPI_COMM_WORLD, colls[k].fn, &c);
            bench_report(&o, colls[k].name, s, t, t * 1e6, "us");
        }
    }
    free(c.counts);
    free(c.rbuf);
    free(c.sbuf);
    MPI_Finalize();
    return 0;
}
