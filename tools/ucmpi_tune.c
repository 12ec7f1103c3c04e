/* ucmpi_tune: measures every schedule algorithm of the collectives on this
 * machine, over message sizes and communicator sizes, and writes a tuning
 * file (UCMPI_TUNING_FILE, docs/tuning.md) with a rule wherever another
 * algorithm beat the built-in choice by a margin, confirmed by a second
 * measurement; prints the before/after of each decision it changed.
 *
 * Run it like any MPI program:  mpiexec -n 4 ucmpi_tune [-o FILE] ...
 * Communicators of 2..N ranks are the first k ranks of MPI_COMM_WORLD.
 * Algorithms are forced through MPI_T control variables
 * (UCMPI_<COLL>_ALGORITHM); the built-in choice is read from the
 * ucmpi_coll_alg_<coll> performance variable after a nonblocking call. */
#include "coll/coll_alg.h"

#include <mpi.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ALGS 16
#define MAX_SIZES 32
#define MAX_NS 64

typedef enum { K_VEC, K_BYTES, K_TOTAL, K_BLOCK, K_RS, K_NONE } kind_t;

/* What "bytes" means for each (the select's own measure, docs/tuning.md). */
static const struct {
    const char *name;
    kind_t kind;
} colls[] = {
    {"allreduce", K_VEC},       /* vector bytes (doubles) */
    {"bcast", K_BYTES},         /* message bytes */
    {"reduce", K_VEC},          /* vector bytes (doubles), root 0 */
    {"allgather", K_TOTAL},     /* gathered bytes (n blocks) */
    {"alltoall", K_BLOCK},      /* bytes per peer */
    {"reduce_scatter", K_RS},   /* whole vector bytes (block form) */
    {"gather", K_BLOCK},        /* bytes per rank, root 0 */
    {"scatter", K_BLOCK},       /* bytes per rank, root 0 */
};
#define NCOLLS (int)(sizeof(colls) / sizeof(colls[0]))

typedef struct {
    const char *out;
    char colls[256];
    size_t min, max;
    int factor, rounds;
    double budget, margin;
    int ns[MAX_NS], nns;
    int verbose;
} opts_t;

static int wrank, wsize;
static char *sbuf, *rbuf;

/* ---- MPI_T: force an algorithm, read which one ran ---- */

static void set_alg(const char *coll, const char *alg)
{
    char name[96], up[64];
    int idx, count, provided;
    MPI_T_cvar_handle h;
    size_t i;

    for (i = 0; coll[i] && i < sizeof(up) - 1; i++)
        up[i] = (char)(coll[i] >= 'a' && coll[i] <= 'z' ? coll[i] - 32
                                                         : coll[i]);
    up[i] = '\0';
    snprintf(name, sizeof(name), "UCMPI_%s_ALGORITHM", up);
    /* MPI_T stays initialised only while used: it turns counting on */
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    if (MPI_T_cvar_get_index(name, &idx) != MPI_SUCCESS ||
        MPI_T_cvar_handle_alloc(idx, NULL, &h, &count) != MPI_SUCCESS ||
        MPI_T_cvar_write(h, alg) != MPI_SUCCESS) {
        fprintf(stderr, "ucmpi_tune: cannot set %s\n", name);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_T_cvar_handle_free(&h);
    MPI_T_finalize();
}

/* ---- one call of each collective ---- */

typedef struct {
    int c;                    /* index in colls */
    MPI_Comm comm;
    int n;
    size_t bytes;             /* the select's measure */
    int count;                /* elements (per rank where per rank) */
} point_t;

/* Counts for bytes, or -1 if the size does not fit n ranks. */
static int count_for(kind_t k, size_t bytes, int n)
{
    size_t c;

    switch (k) {
    case K_VEC: c = bytes / 8; break;
    case K_TOTAL: c = bytes / (size_t)n; break;
    case K_RS: c = bytes / 8 / (size_t)n; break;
    default: c = bytes; break;
    }
    return c < 1 || c > (1u << 30) ? -1 : (int)c;
}

/* The select's bytes for count (allgather and reduce_scatter round). */
static size_t bytes_for(kind_t k, int count, int n)
{
    switch (k) {
    case K_VEC: return (size_t)count * 8;
    case K_TOTAL: return (size_t)count * (size_t)n;
    case K_RS: return (size_t)count * 8 * (size_t)n;
    default: return (size_t)count;
    }
}

static int call(const point_t *p, int nonblocking)
{
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Request *q = nonblocking ? &r : NULL;
    int cnt = p->count, rc = MPI_SUCCESS;

#define CALL(blk, nb) rc = q ? (nb) : (blk)
    switch (p->c) {
    case 0:
        CALL(MPI_Allreduce(sbuf, rbuf, cnt, MPI_DOUBLE, MPI_SUM, p->comm),
             MPI_Iallreduce(sbuf, rbuf, cnt, MPI_DOUBLE, MPI_SUM, p->comm, q));
        break;
    case 1:
        CALL(MPI_Bcast(sbuf, cnt, MPI_BYTE, 0, p->comm),
             MPI_Ibcast(sbuf, cnt, MPI_BYTE, 0, p->comm, q));
        break;
    case 2:
        CALL(MPI_Reduce(sbuf, rbuf, cnt, MPI_DOUBLE, MPI_SUM, 0, p->comm),
             MPI_Ireduce(sbuf, rbuf, cnt, MPI_DOUBLE, MPI_SUM, 0, p->comm,
                         q));
        break;
    case 3:
        CALL(MPI_Allgather(sbuf, cnt, MPI_BYTE, rbuf, cnt, MPI_BYTE, p->comm),
             MPI_Iallgather(sbuf, cnt, MPI_BYTE, rbuf, cnt, MPI_BYTE, p->comm,
                            q));
        break;
    case 4:
        CALL(MPI_Alltoall(sbuf, cnt, MPI_BYTE, rbuf, cnt, MPI_BYTE, p->comm),
             MPI_Ialltoall(sbuf, cnt, MPI_BYTE, rbuf, cnt, MPI_BYTE, p->comm,
                           q));
        break;
    case 5:
        CALL(MPI_Reduce_scatter_block(sbuf, rbuf, cnt, MPI_DOUBLE, MPI_SUM,
                                      p->comm),
             MPI_Ireduce_scatter_block(sbuf, rbuf, cnt, MPI_DOUBLE, MPI_SUM,
                                       p->comm, q));
        break;
    case 6:
        CALL(MPI_Gather(sbuf, cnt, MPI_BYTE, rbuf, cnt, MPI_BYTE, 0, p->comm),
             MPI_Igather(sbuf, cnt, MPI_BYTE, rbuf, cnt, MPI_BYTE, 0, p->comm,
                         q));
        break;
    case 7:
        CALL(MPI_Scatter(sbuf, cnt, MPI_BYTE, rbuf, cnt, MPI_BYTE, 0, p->comm),
             MPI_Iscatter(sbuf, cnt, MPI_BYTE, rbuf, cnt, MPI_BYTE, 0, p->comm,
                          q));
        break;
    }
#undef CALL
    if (rc == MPI_SUCCESS && q)
        rc = MPI_Wait(q, MPI_STATUS_IGNORE);
    return rc;
}

/* Seconds per blocking call (slowest rank), with the algorithm set. */
static double measure(const point_t *p, double budget)
{
    double t0, t, tmax;
    int iters;

    call(p, 0);
    call(p, 0);
    MPI_Barrier(p->comm);
    t0 = MPI_Wtime();
    call(p, 0);
    t = MPI_Wtime() - t0;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, p->comm);
    iters = tmax > 0 ? (int)(budget / tmax) : 1000;
    iters = iters < 3 ? 3 : iters > 20000 ? 20000 : iters;
    MPI_Barrier(p->comm);
    t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++)
        call(p, 0);
    t = (MPI_Wtime() - t0) / iters;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, p->comm);
    return tmax;
}

/* Which row the built-in selection runs at p (a nonblocking call takes no
 * shm path), and whether the blocking call ran no schedule (shm); -1 if
 * unknown. */
static int builtin_choice(const point_t *p, int *blocking_shm)
{
    char name[80];
    uint64_t before[32], after[32], nb[64], na[64];
    int provided, idx, cnt, cntn, id = -1;
    MPI_T_pvar_session s;
    MPI_T_pvar_handle h, hn;

    set_alg(colls[p->c].name, "auto");
    snprintf(name, sizeof(name), "ucmpi_coll_alg_%s", colls[p->c].name);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_T_pvar_session_create(&s);
    if (MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &idx) !=
            MPI_SUCCESS ||
        MPI_T_pvar_handle_alloc(s, idx, NULL, &h, &cnt) != MPI_SUCCESS ||
        cnt > 32 ||
        MPI_T_pvar_get_index("ucmpi_coll_noschedule",
                             MPI_T_PVAR_CLASS_COUNTER, &idx) != MPI_SUCCESS ||
        MPI_T_pvar_handle_alloc(s, idx, NULL, &hn, &cntn) != MPI_SUCCESS ||
        cntn > 64) {
        fprintf(stderr, "ucmpi_tune: no performance variable %s\n", name);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_T_pvar_read(s, h, before);
    call(p, 1);
    MPI_T_pvar_read(s, h, after);
    for (int i = 0; i < cnt; i++)
        if (after[i] != before[i])
            id = i;
    call(p, 0);                   /* (the first may create the segment) */
    MPI_T_pvar_read(s, hn, nb);
    call(p, 0);
    MPI_T_pvar_read(s, hn, na);
    *blocking_shm = 0;
    for (int i = 0; i < cntn; i++)
        if (na[i] != nb[i])
            *blocking_shm = 1;
    MPI_T_pvar_handle_free(s, &hn);
    MPI_T_pvar_handle_free(s, &h);
    MPI_T_pvar_session_free(&s);
    MPI_T_finalize();
    /* (the last column counts the others: not a row) */
    return id == cnt - 1 ? -1 : id;
}

/* ---- options ---- */

static size_t parse_size(const char *s)
{
    char *e;
    double v = strtod(s, &e);

    if (*e == 'k' || *e == 'K')
        v *= 1024;
    else if (*e == 'm' || *e == 'M')
        v *= 1048576;
    return (size_t)v;
}

static void usage(void)
{
    if (wrank == 0)
        printf(
"usage: mpiexec -n N ucmpi_tune [options]   (N >= 2; communicators of 2..N)\n"
"  -o FILE   tuning file to write (default ucmpi-tuning.txt); load it with\n"
"            UCMPI_TUNING_FILE=FILE\n"
"  -c LIST   collectives (default all: allreduce,bcast,reduce,allgather,\n"
"            alltoall,reduce_scatter,gather,scatter)\n"
"  -m MIN -M MAX -f F   sizes MIN, MIN*F, ... MAX (default 8, 2M, 8)\n"
"  -n LIST   communicator sizes (default 2..N)\n"
"  -t SEC    time per measurement (default 0.02)\n"
"  -r R      interleaved rounds per point, best kept (default 5)\n"
"  -p PCT    margin a challenger must win by (default 10)\n"
"  -v        print every point, not only the changed ones\n"
"A longer, steadier run: -t 0.1 -r 7 -f 4 -M 16M.\n");
}

static int parse(int argc, char **argv, opts_t *o)
{
    *o = (opts_t){"ucmpi-tuning.txt", "", 8, 2 << 20, 8, 5, 0.02, 0.10,
                  {0}, 0, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-v") == 0) {
            o->verbose = 1;
            continue;
        }
        if (v == NULL || a[0] != '-' || a[2] != '\0')
            return -1;
        i++;
        switch (a[1]) {
        case 'o': o->out = v; break;
        case 'c': snprintf(o->colls, sizeof(o->colls), "%s", v); break;
        case 'm': o->min = parse_size(v); break;
        case 'M': o->max = parse_size(v); break;
        case 'f': o->factor = atoi(v); break;
        case 't': o->budget = atof(v); break;
        case 'r': o->rounds = atoi(v); break;
        case 'p': o->margin = atof(v) / 100; break;
        case 'n':
            for (char *p = (char *)v; *p && o->nns < MAX_NS;) {
                o->ns[o->nns++] = (int)strtol(p, &p, 10);
                if (*p == ',')
                    p++;
                else if (*p)
                    return -1;
            }
            break;
        default: return -1;
        }
    }
    if (o->min < 1 || o->max < o->min || o->factor < 2 || o->rounds < 1 ||
        o->budget <= 0)
        return -1;
    if (o->nns == 0)
        for (int n = 2; n <= wsize && o->nns < MAX_NS; n++)
            o->ns[o->nns++] = n;
    for (int i = 0; i < o->nns; i++)
        if (o->ns[i] < 2 || o->ns[i] > wsize)
            return -1;
    return 0;
}

static int wanted(const opts_t *o, const char *name)
{
    size_t len = strlen(name);

    if (o->colls[0] == '\0')
        return 1;
    for (const char *p = o->colls; (p = strstr(p, name)) != NULL; p++)
        if ((p == o->colls || p[-1] == ',') &&
            (p[len] == '\0' || p[len] == ','))
            return 1;
    return 0;
}

/* ---- tuning one collective at one communicator size ---- */

typedef struct {
    size_t bytes;
    int def;                  /* row index of the built-in choice */
    int best;                 /* row index of the winner kept, or def */
    double t_def, t_best;
    int shm;                  /* blocking calls take shm here */
} result_t;

static int nalgs;
static int alg_ids[MAX_ALGS];
static const char *alg_names[MAX_ALGS];

static void measure_rows(const point_t *p, const int *rows, int nrows,
                         double *best, double *med, const opts_t *o)
{
    double t[MAX_ALGS][16];
    int rounds = o->rounds > 16 ? 16 : o->rounds;

    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < nrows; k++) {
            int j = rows[(k + r) % nrows];   /* each round its own order */
            set_alg(colls[p->c].name, alg_names[j]);
            t[j][r] = measure(p, o->budget);
        }
    for (int k = 0; k < nrows; k++) {
        int j = rows[k];
        double v[16];
        memcpy(v, t[j], sizeof(double) * (size_t)rounds);
        for (int a = 0; a < rounds; a++)
            for (int b = a + 1; b < rounds; b++)
                if (v[b] < v[a]) {
                    double x = v[a];
                    v[a] = v[b];
                    v[b] = x;
                }
        best[j] = v[0];
        med[j] = v[rounds / 2];
    }
}

static int tune_point(point_t *p, result_t *res, const opts_t *o)
{
    double best[MAX_ALGS], med[MAX_ALGS];
    int rows[MAX_ALGS], nrows = 0, def_id, def = -1, win;

    def_id = builtin_choice(p, &res->shm);
    for (int j = 0; j < nalgs; j++) {
        if (strcmp(alg_names[j], "shm") == 0)
            continue;
        if (alg_ids[j] == def_id)
            def = j;
        rows[nrows++] = j;
    }
    if (def < 0 || nrows < 2)
        return -1;
    measure_rows(p, rows, nrows, best, med, o);
    win = def;
    for (int k = 0; k < nrows; k++)
        if (best[rows[k]] < best[win])
            win = rows[k];
    res->def = res->best = def;
    res->t_def = res->t_best = best[def];
    if (win != def && best[win] < best[def] * (1 - o->margin)) {
        /* confirm: the two again, interleaved; both best and median */
        int pair[2] = {def, win};
        double b2[MAX_ALGS], m2[MAX_ALGS];
        measure_rows(p, pair, 2, b2, m2, o);
        if (b2[win] < b2[def] * (1 - o->margin) && m2[win] < m2[def]) {
            res->best = win;
            res->t_def = b2[def];
            res->t_best = b2[win];
        }
    }
    set_alg(colls[p->c].name, "auto");
    return 0;
}

static void print_point(const char *coll, int n, const result_t *r)
{
    int changed = r->best != r->def;

    printf("  %-15s ranks=%-3d bytes=%-9zu %-19s %9.2f us", coll, n,
           r->bytes, alg_names[r->def], r->t_def * 1e6);
    if (changed)
        printf("  -> %-19s %9.2f us (%+.0f%%)", alg_names[r->best],
               r->t_best * 1e6, (r->t_best / r->t_def - 1) * 100);
    if (r->shm)
        printf("  [blocking calls: shm first]");
    printf("\n");
}

/* Rules for the runs of consecutive sizes with the same new winner;
 * bounds halfway (geometric) between measured sizes. */
static int write_rules(FILE *f, const char *coll, int n, const result_t *r,
                       int nr, int factor)
{
    int rules = 0;

    for (int i = 0; i < nr;) {
        int j = i;
        if (r[i].best == r[i].def) {
            i++;
            continue;
        }
        while (j + 1 < nr && r[j + 1].best == r[i].best &&
               r[j + 1].best != r[j + 1].def)
            j++;
        size_t lo = i == 0 ? 0 : (size_t)sqrt((double)r[i - 1].bytes *
                                               (double)r[i].bytes) + 1;
        size_t hi = j + 1 < nr ? (size_t)sqrt((double)r[j].bytes *
                                              (double)r[j + 1].bytes)
                               : (size_t)((double)r[j].bytes *
                                          sqrt((double)factor));
        if (f != NULL)
            fprintf(f, "rule %s ranks=%d bytes=%zu-%zu algorithm=%s\n", coll,
                    n, lo, hi, alg_names[r[i].best]);
        rules++;
        i = j + 1;
    }
    return rules;
}

int main(int argc, char **argv)
{
    opts_t o;
    FILE *f = NULL;
    int changed = 0, points = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (parse(argc, argv, &o) != 0 || wsize < 2) {
        usage();
        if (wsize < 2 && wrank == 0)
            fprintf(stderr, "ucmpi_tune: run it through mpiexec -n N, N >= "
                    "2\n");
        MPI_Finalize();
        return 2;
    }
    size_t buf = o.max * (size_t)wsize + 64;
    sbuf = calloc(buf, 1);
    rbuf = calloc(buf, 1);
    if (wrank == 0) {
        if ((f = fopen(o.out, "w")) == NULL) {
            perror(o.out);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        fprintf(f, "ucmpi-tuning 1\n# written by ucmpi_tune at %d ranks "
                "(communicators of", wsize);
        for (int i = 0; i < o.nns; i++)
            fprintf(f, " %d", o.ns[i]);
        fprintf(f, "); sizes %zu..%zu x%d; %.0f%% margin\n", o.min, o.max,
                o.factor, o.margin * 100);
        printf("ucmpi_tune: %d ranks; built-in choice -> measured winner "
               "(best of %d rounds, slowest rank)\n", wsize, o.rounds);
    }
    for (int c = 0; c < NCOLLS; c++) {
        if (!wanted(&o, colls[c].name))
            continue;
        for (int ni = 0; ni < o.nns; ni++) {
            int n = o.ns[ni];
            MPI_Comm comm;
            result_t res[MAX_SIZES];
            int nr = 0;
            MPI_Comm_split(MPI_COMM_WORLD, wrank < n ? 0 : MPI_UNDEFINED,
                           wrank, &comm);
            if (comm != MPI_COMM_NULL) {
                int seen = 0;
                for (size_t s = o.min; s <= o.max && nr < MAX_SIZES;
                     s *= (size_t)o.factor) {
                    point_t p = {c, comm, n, 0, 0};
                    if ((p.count = count_for(colls[c].kind, s, n)) < 0)
                        continue;
                    p.bytes = bytes_for(colls[c].kind, p.count, n);
                    if (!seen) {
                        /* every member: its select lists its table */
                        ucmpi_coll_alg_listing = 1;
                        call(&p, 1);
                        ucmpi_coll_alg_listing = 0;
                        seen = 1;
                        nalgs = ucmpi_coll_alg_rows(colls[c].name, alg_ids,
                                                    alg_names, MAX_ALGS);
                    }
                    res[nr].bytes = p.bytes;
                    if (tune_point(&p, &res[nr], &o) != 0)
                        continue;
                    points++;
                    if (wrank == 0 && (o.verbose ||
                                       res[nr].best != res[nr].def))
                        print_point(colls[c].name, n, &res[nr]);
                    changed += res[nr].best != res[nr].def;
                    nr++;
                }
                if (wrank == 0)
                    write_rules(f, colls[c].name, n, res, nr, o.factor);
                MPI_Comm_free(&comm);
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    if (wrank == 0) {
        fclose(f);
        printf("ucmpi_tune: %d of %d decisions changed; wrote %s\n"
               "use it: UCMPI_TUNING_FILE=%s mpiexec ...\n", changed, points,
               o.out, o.out);
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
