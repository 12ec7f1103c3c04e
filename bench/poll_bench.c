/*
 * Polling patterns: programs that drive their communication from their
 * own loop (MPI_Test*, MPI_Iprobe) instead of MPI_Wait, as graph codes
 * and sparse exchanges do.  On a node with more ranks than cores the MPI
 * must give the core away inside those calls when they find nothing, or
 * the rank that would end the wait runs only when the poller's time
 * slice ends.  Each rank's neighbours are ranks +-1 and +-2 (a ring of
 * degree 4, less at 2-4 ranks); the patterns, one superstep each:
 *   testany  persistent receives from every neighbour (MPI_Startall),
 *            MPI_Isend to each, polled with MPI_Testany and MPI_Test
 *   iprobe   MPI_Isend to each neighbour, MPI_Iprobe(ANY_SOURCE) loop
 *            with MPI_Recv, sends polled with MPI_Testall
 *   nbx      sparse exchange with termination detection: MPI_Issend to
 *            2 pseudo-random targets, MPI_Iprobe + MPI_Recv, and once the
 *            sends are done MPI_Ibarrier polled with MPI_Test
 *   sparse   many-to-many: 3 pseudo-random targets a rank, every rank
 *            posts MPI_Irecv from its sources; MPI_Testsome over all
 * at 8 B, and sparse at 64 KiB too (rendezvous).  Each runs ITERS
 * supersteps (a quarter at 64 KiB) or stops after SECONDS; the row is
 * the mean time of one superstep in us (lower is better).
 * Usage: poll_bench [ITERS [SECONDS [PATTERN]]]   (default 2000 5, all)
 * bench-np: 2,4,8,16
 * bench-args: 2000 2
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXNB 4         /* ring neighbours +-1, +-2 */
#define NBX_TARGETS 2
#define SPARSE_TARGETS 3
/* A sender with no path to its receiver in a superstep may run ahead
 * (eager sends complete at once): the tag tells the supersteps apart. */
#define SPARSE_TAG(it) ((it) & 16383)

typedef struct {
    int rank, np, bytes, bad;
    int nb[MAXNB], nnb;     /* distinct neighbours */
    char *sbuf, *rbuf;      /* one slot of `bytes` per peer */
    MPI_Request rinit[MAXNB];  /* persistent receives of testany */
    long sent, got;         /* nbx: messages, checked by an allreduce */
} op_t;

/* A superstep's payload from `src`: checked by the receiver. */
static char mark(int src, int it)
{
    return (char)(src * 7 + it);
}

/* Target t of `src` at superstep `it` (nbx, sparse): pseudo-random,
 * never src itself, the same on every rank. */
static int target(const op_t *o, int src, int it, int t)
{
    unsigned h = (unsigned)src * 2654435761u ^ (unsigned)it * 40503u ^
                 (unsigned)t * 97u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    return (src + 1 + (int)(h % (unsigned)(o->np - 1))) % o->np;
}

/* Distinct targets of src at superstep it: n of them into tg. */
static int targets(const op_t *o, int src, int it, int k, int tg[])
{
    int n = 0;
    for (int t = 0; t < k; t++) {
        int d = target(o, src, it, t), dup = 0;
        for (int j = 0; j < n; j++)
            dup |= tg[j] == d;
        if (!dup)
            tg[n++] = d;
    }
    return n;
}

static void testany(op_t *o, int it)
{
    MPI_Request s[MAXNB];
    int left = o->nnb, sleft = o->nnb;

    MPI_Startall(o->nnb, o->rinit);
    for (int i = 0; i < o->nnb; i++) {
        o->sbuf[i * o->bytes] = mark(o->rank, it);
        MPI_Isend(o->sbuf + i * o->bytes, o->bytes, MPI_BYTE, o->nb[i], 1,
                  MPI_COMM_WORLD, &s[i]);
    }
    while (left > 0 || sleft > 0) {
        int idx, flag;
        MPI_Testany(o->nnb, o->rinit, &idx, &flag, MPI_STATUS_IGNORE);
        if (flag && idx != MPI_UNDEFINED) {
            o->bad += o->rbuf[idx * o->bytes] != mark(o->nb[idx], it);
            left--;
        }
        for (int i = 0; i < o->nnb; i++) {
            if (s[i] == MPI_REQUEST_NULL)
                continue;
            MPI_Test(&s[i], &flag, MPI_STATUS_IGNORE);
            sleft -= flag;
        }
    }
}

/* Receives what Iprobe found (tag: the superstep's parity, since a
 * neighbour can be one superstep ahead). */
static int probe_recv(op_t *o, int it)
{
    MPI_Status st;
    int flag;

    MPI_Iprobe(MPI_ANY_SOURCE, it & 1, MPI_COMM_WORLD, &flag, &st);
    if (!flag)
        return 0;
    MPI_Recv(o->rbuf, o->bytes, MPI_BYTE, st.MPI_SOURCE, it & 1,
             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    o->bad += o->rbuf[0] != mark(st.MPI_SOURCE, it);
    return 1;
}

static void iprobe(op_t *o, int it)
{
    MPI_Request s[MAXNB];
    MPI_Status st[MAXNB];         /* not IGNORE: gcc warns on MPICH's */
    int left = o->nnb, sdone = 0;

    for (int i = 0; i < o->nnb; i++) {
        o->sbuf[i * o->bytes] = mark(o->rank, it);
        MPI_Isend(o->sbuf + i * o->bytes, o->bytes, MPI_BYTE, o->nb[i],
                  it & 1, MPI_COMM_WORLD, &s[i]);
    }
    while (left > 0 || !sdone) {
        left -= probe_recv(o, it);
        if (!sdone)
            MPI_Testall(o->nnb, s, &sdone, st);
    }
}

static void nbx(op_t *o, int it)
{
    MPI_Request s[NBX_TARGETS], bar = MPI_REQUEST_NULL;
    MPI_Status st[NBX_TARGETS];
    int tg[NBX_TARGETS], n = targets(o, o->rank, it, NBX_TARGETS, tg);
    int done = 0;

    for (int i = 0; i < n; i++) {
        o->sbuf[i * o->bytes] = mark(o->rank, it);
        MPI_Issend(o->sbuf + i * o->bytes, o->bytes, MPI_BYTE, tg[i],
                   it & 1, MPI_COMM_WORLD, &s[i]);
    }
    o->sent += n;
    while (!done) {
        o->got += probe_recv(o, it);
        if (bar == MPI_REQUEST_NULL) {
            int sdone;
            MPI_Testall(n, s, &sdone, st);
            if (sdone)
                MPI_Ibarrier(MPI_COMM_WORLD, &bar);
        } else {
            MPI_Test(&bar, &done, MPI_STATUS_IGNORE);
        }
    }
}

static void sparse(op_t *o, int it)
{
    int np = o->np, tg[SPARSE_TARGETS], nr = 0, ns, out;
    MPI_Request *r = malloc(sizeof(*r) * (size_t)(np + SPARSE_TARGETS));
    int *src = malloc(sizeof(int) * (size_t)np);
    int *idx = malloc(sizeof(int) * (size_t)(np + SPARSE_TARGETS));
    MPI_Status *st = malloc(sizeof(*st) * (size_t)(np + SPARSE_TARGETS));

    for (int s = 0; s < np; s++) {
        int n = targets(o, s, it, SPARSE_TARGETS, tg);
        for (int t = 0; t < n && s != o->rank; t++) {
            if (tg[t] != o->rank)
                continue;
            src[nr] = s;
            MPI_Irecv(o->rbuf + (size_t)s * o->bytes, o->bytes, MPI_BYTE, s,
                      SPARSE_TAG(it), MPI_COMM_WORLD, &r[nr++]);
        }
    }
    ns = targets(o, o->rank, it, SPARSE_TARGETS, tg);
    for (int t = 0; t < ns; t++) {
        o->sbuf[t * o->bytes] = mark(o->rank, it);
        MPI_Isend(o->sbuf + t * o->bytes, o->bytes, MPI_BYTE, tg[t],
                  SPARSE_TAG(it), MPI_COMM_WORLD, &r[nr + t]);
    }
    for (int left = nr + ns; left > 0; left -= out) {
        MPI_Testsome(nr + ns, r, &out, idx, st);
        if (out == MPI_UNDEFINED)
            break;
        for (int k = 0; k < out; k++)
            if (idx[k] < nr)
                o->bad += o->rbuf[(size_t)src[idx[k]] * o->bytes] !=
                          mark(src[idx[k]], it);
    }
    free(st);
    free(idx);
    free(src);
    free(r);
}

/* Runs `fn` up to iters times or until rank 0 has seen `limit` seconds
 * pass (checked every 50 supersteps, told to all by a 1-int bcast);
 * returns the mean seconds per superstep. */
static double run(op_t *o, void (*fn)(op_t *, int), int iters, double limit)
{
    int it = 0, stop = 0;
    double t;

    fn(o, 1000001);               /* warm-up: connections, rendezvous */
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
    /* no rank starts the next pattern (the same tags) while another
     * still polls for this one's last messages */
    MPI_Barrier(MPI_COMM_WORLD);
    return t / it;
}

static void neighbours(op_t *o)
{
    static const int off[MAXNB] = {1, -1, 2, -2};

    o->nnb = 0;
    for (int i = 0; i < MAXNB; i++) {
        int p = ((o->rank + off[i]) % o->np + o->np) % o->np, dup = p == o->rank;
        for (int j = 0; j < o->nnb; j++)
            dup |= o->nb[j] == p;
        if (!dup)
            o->nb[o->nnb++] = p;
    }
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*fn)(op_t *, int);
        int bytes;
    } pat[] = {
        {"testany", testany, 8}, {"iprobe", iprobe, 8}, {"nbx", nbx, 8},
        {"sparse", sparse, 8}, {"sparse", sparse, 65536},
    };
    int iters = argc > 1 ? atoi(argv[1]) : 2000;
    double limit = argc > 2 ? atof(argv[2]) : 5.0, t0;
    op_t o = {0};
    long cnt[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &o.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &o.np);
    if (o.np < 2) {
        if (o.rank == 0)
            printf("poll_bench: needs 2 or more ranks\n");
        MPI_Finalize();
        return 0;
    }
    neighbours(&o);
    size_t slots = (size_t)(o.np > MAXNB ? o.np : MAXNB);
    o.sbuf = calloc(slots, 65536);
    o.rbuf = calloc(slots, 65536);
    t0 = MPI_Wtime();
    for (size_t p = 0; p < sizeof(pat) / sizeof(pat[0]); p++) {
        if (argc > 3 && strcmp(argv[3], pat[p].name) != 0)
            continue;
        o.bytes = pat[p].bytes;
        for (int i = 0; i < o.nnb; i++)
            MPI_Recv_init(o.rbuf + i * o.bytes, o.bytes, MPI_BYTE, o.nb[i], 1,
                          MPI_COMM_WORLD, &o.rinit[i]);
        int n = o.bytes <= 64 ? iters : (iters + 3) / 4;
        double us = run(&o, pat[p].fn, n, limit) * 1e6;
        for (int i = 0; i < o.nnb; i++)
            MPI_Request_free(&o.rinit[i]);
        int bad = o.bad;
        MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (o.rank == 0 && bad != 0)
            printf("poll_bench: wrong results after %s %d B\n", pat[p].name,
                   o.bytes);
        if (o.rank == 0)
            printf("BENCH poll_%s %d %d %.3f %.3f us\n", pat[p].name, o.np,
                   o.bytes, us, us);
    }
    cnt[0] = o.sent;
    cnt[1] = o.got;
    MPI_Allreduce(MPI_IN_PLACE, cnt, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    o.bad += o.rank == 0 && cnt[0] != cnt[1];
    MPI_Allreduce(MPI_IN_PLACE, &o.bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (o.rank == 0) {
        printf("poll_bench: %d ranks, %.3f s inside MPI_Init..Finalize\n",
               o.np, MPI_Wtime() - t0);
        if (o.bad)
            printf("poll_bench: %d wrong results\n", o.bad);
    }
    free(o.sbuf);
    free(o.rbuf);
    MPI_Finalize();
    return o.bad != 0;
}
