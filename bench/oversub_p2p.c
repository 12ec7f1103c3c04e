/*
 * Point-to-point patterns for oversubscribed runs (more ranks than cores):
 * how long one iteration takes when a rank that waits must hand its core
 * to the rank it waits for.  Patterns, each at 8 B (eager) and 64 KiB
 * (rendezvous):
 *   ring   MPI_Sendrecv to the right neighbour, from the left one
 *   pairs  ping-pong between ranks 2k and 2k+1 (blocking Send/Recv)
 *   halo   1-D periodic halo: Irecv+Isend both neighbours, Waitall
 * Each pattern runs ITERS iterations (a quarter at 64 KiB) or stops after
 * SECONDS (an MPI that busy-polls can take seconds per thousand); the row
 * is the mean time of one iteration, in us (lower is better).
 * Usage: oversub_p2p [ITERS [SECONDS]]     (default 2000 5)
 * bench-np: 4,8
 * bench-args: 2000 2
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int rank, np, bytes, bad;
    char *sbuf[2], *rbuf[2];
} op_t;

static void ring(op_t *o, int it)
{
    int right = (o->rank + 1) % o->np, left = (o->rank + o->np - 1) % o->np;

    o->sbuf[0][0] = (char)(o->rank + it);
    MPI_Sendrecv(o->sbuf[0], o->bytes, MPI_BYTE, right, 1, o->rbuf[0],
                 o->bytes, MPI_BYTE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    o->bad += o->rbuf[0][0] != (char)(left + it);
}

static void pairs(op_t *o, int it)
{
    int peer = o->rank ^ 1;

    if (peer >= o->np)
        return;                   /* odd rank count: the last one idles */
    o->sbuf[0][0] = (char)(o->rank + it);
    if (o->rank % 2 == 0) {
        MPI_Send(o->sbuf[0], o->bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD);
        MPI_Recv(o->rbuf[0], o->bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(o->rbuf[0], o->bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        MPI_Send(o->sbuf[0], o->bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD);
    }
    o->bad += o->rbuf[0][0] != (char)(peer + it);
}

static void halo(op_t *o, int it)
{
    int nb[2] = { (o->rank + o->np - 1) % o->np, (o->rank + 1) % o->np };
    MPI_Request r[4];
    MPI_Status st[4];             /* not IGNORE: gcc warns on MPICH's */

    for (int d = 0; d < 2; d++) {
        MPI_Irecv(o->rbuf[d], o->bytes, MPI_BYTE, nb[d], 3 + (1 - d),
                  MPI_COMM_WORLD, &r[d]);
        o->sbuf[d][0] = (char)(o->rank + it);
    }
    for (int d = 0; d < 2; d++)
        MPI_Isend(o->sbuf[d], o->bytes, MPI_BYTE, nb[d], 3 + d,
                  MPI_COMM_WORLD, &r[2 + d]);
    MPI_Waitall(4, r, st);
    for (int d = 0; d < 2; d++)
        o->bad += o->rbuf[d][0] != (char)(nb[d] + it);
}

/* Runs `fn` up to iters times or until rank 0 has seen `limit` seconds
 * pass (checked every 50 iterations, told to all by a 1-int bcast);
 * returns the mean seconds per iteration. */
static double run(op_t *o, void (*fn)(op_t *, int), int iters, double limit)
{
    int it = 0, stop = 0;
    double t;

    fn(o, -1);                    /* warm-up: connections, rendezvous */
    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    while (it < iters && !stop) {
        fn(o, it++);
        if (it % 50 == 0) {
            stop = o->rank == 0 && MPI_Wtime() - t > limit;
            MPI_Bcast(&stop, 1, MPI_INT, 0, MPI_COMM_WORLD);
        }
    }
    t = MPI_Wtime() - t;
    MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return t / it;
}

int main(int argc, char **argv)
{
    static const struct { const char *name; void (*fn)(op_t *, int); } pat[] = {
        { "ring", ring }, { "pairs", pairs }, { "halo", halo },
    };
    static const int sizes[] = { 8, 65536 };
    int iters = argc > 1 ? atoi(argv[1]) : 2000;
    double limit = argc > 2 ? atof(argv[2]) : 5.0, t0;
    op_t o = { 0 };

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &o.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &o.np);
    for (int d = 0; d < 2; d++) {
        o.sbuf[d] = calloc(1, sizes[1]);
        o.rbuf[d] = calloc(1, sizes[1]);
    }
    t0 = MPI_Wtime();
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        o.bytes = sizes[s];
        for (size_t p = 0; p < sizeof(pat) / sizeof(pat[0]); p++) {
            int n = s == 0 ? iters : (iters + 3) / 4;
            double us = run(&o, pat[p].fn, n, limit) * 1e6;
            if (o.rank == 0)
                printf("BENCH oversub_%s %d %d %.3f %.3f us\n", pat[p].name,
                       o.np, o.bytes, us, us);
        }
    }
    MPI_Allreduce(MPI_IN_PLACE, &o.bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (o.rank == 0) {
        printf("oversub_p2p: %d ranks, %.3f s inside MPI_Init..Finalize\n",
               o.np, MPI_Wtime() - t0);
        if (o.bad)
            printf("oversub_p2p: %d wrong results\n", o.bad);
    }
    for (int d = 0; d < 2; d++) {
        free(o.sbuf[d]);
        free(o.rbuf[d]);
    }
    MPI_Finalize();
    return o.bad != 0;
}
