/*
 * Helpers shared by the benchmarks in bench/.  Plain MPI only: the same
 * source builds against ucmpi, Open MPI and MPICH.
 *
 * Output: one machine-readable line per measurement, which
 * bench/compare.sh collects from every benchmark in bench/:
 *
 *   BENCH <name> <nranks> <bytes> <median_us> <value> <unit>
 *
 * median_us is the median over repetitions (after warm-up) of the time
 * of one operation; value is what the table compares (the time itself
 * for unit "us", or a rate such as "MB/s" or "Mmsg/s" derived from it).
 * Lines not starting with "BENCH " are free text.
 *
 * Common options (bench_parse): -m MIN_BYTES -M MAX_BYTES -r REPS
 * -w WARMUP -t SECONDS (time budget per size), -i ITERS (fixed count:
 * exactly ITERS timed calls per size, see bench_time), -x FACTOR (sizes
 * grow by FACTOR, default 2: -x 8 sweeps 8 B - 16 MiB in 8 steps) and -b
 * NAME[,NAME...] to select benchmarks; the rest are left to the program.
 */
#ifndef UCMPI_BENCH_H
#define UCMPI_BENCH_H

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    size_t min_bytes, max_bytes;
    int reps;             /* timed samples per size (median of these) */
    int warmup;           /* untimed iterations before the samples */
    double budget;        /* seconds a size may take, all samples */
    int iters;            /* > 0: timed calls per size, fixed (-i) */
    const char *select;   /* comma-separated names, NULL = all */
    int rank, size;
} bench_opts_t;

static inline size_t bench_parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    switch (*end) {
    case 'k': case 'K': v *= 1024; break;
    case 'm': case 'M': v *= 1024 * 1024; break;
    case 'g': case 'G': v *= 1024.0 * 1024 * 1024; break;
    default: break;
    }
    return (size_t)v;
}

/* Size sweep factor (-x). */
static size_t bench_size_step = 2;

static inline void bench_parse(int argc, char **argv, bench_opts_t *o,
                        size_t def_min, size_t def_max)
{
    o->min_bytes = def_min;
    o->max_bytes = def_max;
    o->reps = 15;
    o->warmup = -1;       /* -w not given: see bench_warmup */
    o->budget = 0.5;
    o->iters = 0;
    o->select = NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &o->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &o->size);
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "-m")) o->min_bytes = bench_parse_size(v);
        else if (!strcmp(k, "-M")) o->max_bytes = bench_parse_size(v);
        else if (!strcmp(k, "-r")) o->reps = atoi(v) > 0 ? atoi(v) : 1;
        else if (!strcmp(k, "-w")) o->warmup = atoi(v) >= 0 ? atoi(v) : 0;
        else if (!strcmp(k, "-t")) o->budget = atof(v);
        else if (!strcmp(k, "-i")) o->iters = atoi(v) > 0 ? atoi(v) : 0;
        else if (!strcmp(k, "-b")) o->select = v;
        else if (!strcmp(k, "-x") && atoi(v) >= 2)
            bench_size_step = (size_t)atoi(v);
    }
}

/* Is benchmark `name` selected by -b? */
static inline int bench_selected(const bench_opts_t *o, const char *name)
{
    if (!o->select)
        return 1;
    size_t n = strlen(name);
    for (const char *p = o->select; p; p = strchr(p, ',')) {
        if (*p == ',')
            p++;
        if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == '\0'))
            return 1;
    }
    return 0;
}

/* Next size of the 1, 2, 4, ... sweep (0 is followed by 1). */
static inline size_t bench_next_size(size_t s)
{
    return s ? bench_size_step * s : 1;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), bench_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Times op(arg) on every rank of comm: one call to connect and warm up,
 * one timed call to plan, more warm-up, then samples of `iters` calls
 * each (iters sized so a sample lasts ~1 ms, warm-up and samples cut to
 * fit the budget; rank 0 decides for everyone).  A sample's time is the
 * slowest rank's.  Returns the median time of one call in seconds (on
 * every rank).
 * With -i ITERS the plan is fixed instead (the same calls on every run and
 * every library, for interleaved A/B runs and callgrind; the time-budget
 * plan follows the one timed call, so a run that starts in a slow moment
 * keeps a short plan): WARMUP untimed calls, then min(REPS, ITERS)
 * samples of ITERS / samples calls each.
 */
typedef void (*bench_fn_t)(void *arg);

/* Untimed calls before the samples, unless -w says: 10 in fixed-count
 * runs (-i); up to 100 in time-budget runs (see bench_plan).  ucmpi's
 * shm rings are 64 calls deep and the first touch of a page costs ~15-20
 * us per process on a VM (malloc'd or shm pages alike), so with 10 the
 * samples at 16-32 KiB (2 ranks) or 512 B (8 ranks) fell partly
 * in the rings' first lap: bcast 32 KiB took 1.6 us or 8-150 us per run
 * (Open MPI 5.4), alltoall 512 B at 8 ranks ~1000 us (Open MPI 80).
 * OSU's benchmarks skip 100-200 calls for small messages. */
static inline int bench_warmup(const bench_opts_t *o)
{
    return o->warmup >= 0 ? o->warmup : o->iters > 0 ? 10 : 100;
}

/* One call's time, the slowest rank's. */
static inline double bench_one(MPI_Comm comm, bench_fn_t op, void *arg)
{
    double t = MPI_Wtime();

    op(arg);
    t = MPI_Wtime() - t;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, comm);
    return t > 1e-7 ? t : 1e-7;
}

/* The time-budget plan: warm-up calls (run here), calls per sample,
 * samples.  The warm-up count comes from one cold call, capped at a
 * quarter of the budget but at least half a second's worth: a cold
 * call costs 1-5 ms while ucmpi's rings are first touched (8 ranks,
 * alltoall 512 B: a quarter of 0.3 s gave 15 warm-up calls of the 64 of
 * the first lap, and the median read 979 us; 36 us with -t 2).  The
 * sample plan comes from a call after the warm-up, so a cold first call
 * does not shrink the samples to one call each. */
static inline void bench_plan(const bench_opts_t *o, MPI_Comm comm,
                              bench_fn_t op, void *arg, int *plan)
{
    double cap = o->budget / 4 > 0.5 ? o->budget / 4 : 0.5;
    double per = bench_one(comm, op, arg);

    plan[0] = (int)(cap / per);
    plan[0] = plan[0] > bench_warmup(o) ? bench_warmup(o) : plan[0];
    for (int i = 0; i < plan[0]; i++)
        op(arg);
    per = bench_one(comm, op, arg);
    plan[1] = (int)(1e-3 / per);
    plan[1] = plan[1] < 1 ? 1 : plan[1] > 1000 ? 1000 : plan[1];
    plan[2] = (int)(o->budget / (per * plan[1]));
    plan[2] = plan[2] < 3 ? 3 : plan[2] > o->reps ? o->reps : plan[2];
    if (o->reps < 3)
        plan[2] = o->reps;
}

static inline double bench_time(const bench_opts_t *o, MPI_Comm comm,
                         bench_fn_t op, void *arg)
{
    int plan[3];          /* warm-up calls, calls per sample, samples */
    double t, *samples;

    op(arg);
    MPI_Barrier(comm);
    if (o->iters > 0) {   /* fixed: the same on every rank */
        plan[0] = bench_warmup(o);
        plan[2] = o->reps < o->iters ? o->reps : o->iters;
        plan[1] = o->iters / plan[2];
        for (int i = 0; i < plan[0]; i++)
            op(arg);
    } else {
        bench_plan(o, comm, op, arg, plan);
    }
    samples = malloc(sizeof(double) * plan[2]);
    for (int s = 0; s < plan[2]; s++) {
        MPI_Barrier(comm);
        t = MPI_Wtime();
        for (int i = 0; i < plan[1]; i++)
            op(arg);
        samples[s] = (MPI_Wtime() - t) / plan[1];
    }
    MPI_Allreduce(MPI_IN_PLACE, samples, plan[2], MPI_DOUBLE, MPI_MAX, comm);
    t = bench_median(samples, plan[2]);
    free(samples);
    return t;
}

/* Prints one result line (rank 0 only). */
static inline void bench_report(const bench_opts_t *o, const char *name,
                         size_t bytes, double seconds, double value,
                         const char *unit)
{
    if (o->rank != 0)
        return;
    printf("BENCH %s %d %zu %.3f %.3f %s\n", name, o->size, bytes,
           seconds * 1e6, value, unit);
    fflush(stdout);
}

/* Buffer of n bytes, touched (page faults out of the timings). */
static inline void *bench_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "bench: out of memory (%zu bytes)\n", n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memset(p, 1, n ? n : 1);
    return p;
}

#endif
