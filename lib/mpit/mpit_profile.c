/* UCMPI_PROFILE=out.html: the counters run from MPI_Init; at MPI_Finalize
 * every rank's are gathered to rank 0 of MPI_COMM_WORLD, which writes
 * out.json and out.html (mpit_profile_html.c) beside it. */
#include "mpit/mpit.h"
#include "mpit/mpit_profile.h"
#include "p2p/p2p_stats.h"
#include "coll/coll_stats.h"
#include "coll/check/sched_sig.h"
#include "comm/comm.h"
#include "core/config.h"
#include "core/hooks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_LEN 32
#define COMM_ROWS 32              /* communicators per rank in the profile */
#define COMM_NAME 40

/* One communicator as one rank saw it (its context id's row). */
typedef struct {
    uint32_t ctx;
    int size;                     /* 0: unknown here */
    uint64_t msgs, bytes, calls, cbytes;
    char name[COMM_NAME];
} comm_rec_t;

/* What each rank sends to rank 0 besides its per-peer rows. */
typedef struct {
    uint64_t hist[UCMPI_P2P_SIZE_BINS];
    uint64_t calls[UCMPI_COLL_STATS_COLLS], bytes[UCMPI_COLL_STATS_COLLS];
    uint64_t nosched[UCMPI_COLL_STATS_COLLS];
    uint64_t alg[UCMPI_COLL_STATS_COLLS][UCMPI_COLL_STATS_ALGS];
    double wait_total;
    double wait_s[UCMPI_P2P_WAIT_CALLS];
    char wait_name[UCMPI_P2P_WAIT_CALLS][NAME_LEN];
    int ncomms;
    comm_rec_t comm[COMM_ROWS];
} rank_rec_t;

static int profiling;
/* Names and sizes of the communicators freed while profiling, by context
 * id (the counters outlive them). */
static struct {
    char name[COMM_NAME];
    int size;
} *ctx_names;

static void remember(const ucmpi_comm_t *c, const char *name)
{
    if (ctx_names == NULL || c->ctx >= UCMPI_P2P_STATS_CTXS)
        return;
    size_t n = strnlen(name, COMM_NAME - 1);  /* (cut long names) */

    memcpy(ctx_names[c->ctx].name, name, n);
    ctx_names[c->ctx].name[n] = '\0';
    ctx_names[c->ctx].size = c->size;
}

static void profile_comm_gone(void *arg)
{
    const ucmpi_comm_t *c = arg;

    if (profiling)
        remember(c, c->name);
}

static void profile_init(void *rc)
{
    const char *path = ucmpi_config_str("PROFILE");

    (void)rc;
    if (path == NULL || path[0] == '\0' || profiling)
        return;
    profiling = 1;
    free(ctx_names);              /* a session re-initialising */
    ctx_names = calloc(UCMPI_P2P_STATS_CTXS, sizeof(*ctx_names));
    ucmpi_mpit_counting(1);
}

static void fill(rank_rec_t *r)
{
    const ucmpi_p2p_stats_t *p = &ucmpi_p2p_stats;
    const ucmpi_coll_stats_t *c = &ucmpi_coll_stats;
    double rate = ucmpi_stats_tick_rate();

    memset(r, 0, sizeof(*r));
    memcpy(r->hist, p->size_hist, sizeof(r->hist));
    memcpy(r->calls, c->calls, sizeof(r->calls));
    memcpy(r->bytes, c->bytes, sizeof(r->bytes));
    memcpy(r->nosched, c->noschedule, sizeof(r->nosched));
    memcpy(r->alg, c->alg, sizeof(r->alg));
    r->wait_total = (double)p->wait_ticks / rate;
    for (int i = 0; i < UCMPI_P2P_WAIT_CALLS && p->wait_call[i]; i++) {
        r->wait_s[i] = (double)p->wait_call_ticks[i] / rate;
        snprintf(r->wait_name[i], NAME_LEN, "%s", p->wait_call[i]);
    }
    remember(MPI_COMM_WORLD, "MPI_COMM_WORLD");
    remember(MPI_COMM_SELF, "MPI_COMM_SELF");
    for (uint32_t x = 0; p->ctx && x < UCMPI_P2P_STATS_CTXS &&
                         r->ncomms < COMM_ROWS; x++) {
        const ucmpi_p2p_ctx_stats_t *s = &p->ctx[x];
        if (s->sent_msgs == 0 && s->coll_calls == 0)
            continue;
        comm_rec_t *c = &r->comm[r->ncomms++];
        c->ctx = x;
        c->msgs = s->sent_msgs;
        c->bytes = s->sent_bytes;
        c->calls = s->coll_calls;
        c->cbytes = s->coll_bytes;
        if (ctx_names != NULL) {
            c->size = ctx_names[x].size;
            memcpy(c->name, ctx_names[x].name, COMM_NAME);
        }
    }
}

/* The JSON file beside the HTML one: out.html -> out.json. */
static char *json_path(const char *html)
{
    size_t n = strlen(html);
    char *j = malloc(n + 6);

    if (j == NULL)
        return NULL;
    memcpy(j, html, n + 1);
    if (n > 5 && strcmp(html + n - 5, ".html") == 0)
        j[n - 5] = '\0';
    strcat(j, ".json");
    return j;
}

static void write_matrix(FILE *f, const char *key, const uint64_t *m, int n)
{
    fprintf(f, "\"%s\":[", key);
    for (int i = 0; i < n; i++) {
        fprintf(f, "%s[", i ? "," : "");
        for (int k = 0; k < n; k++)
            fprintf(f, "%s%llu", k ? "," : "",
                    (unsigned long long)m[(size_t)i * (size_t)n + (size_t)k]);
        fprintf(f, "]");
    }
    fprintf(f, "],\n");
}

static void write_per_rank(FILE *f, const rank_rec_t *all, int n, size_t off)
{
    fprintf(f, "[");
    for (int r = 0; r < n; r++)
        fprintf(f, "%s%llu", r ? "," : "",
                *(const unsigned long long *)((const char *)&all[r] + off));
    fprintf(f, "]");
}

static void write_colls(FILE *f, const rank_rec_t *all, int n)
{
    int first = 1;

    fprintf(f, "\"collectives\":[");
    for (int c = 0; c < UCMPI_COLL_STATS_COLLS; c++) {
        uint64_t calls = 0;
        for (int r = 0; r < n; r++)
            calls += all[r].calls[c];
        if (calls == 0)
            continue;
        fprintf(f, "%s\n{\"name\":\"%s\",\"calls\":", first ? "" : ",",
                c == 0 ? "communicator management"
                       : ucmpi_coll_sig_coll_name((unsigned)c));
        first = 0;
        write_per_rank(f, all, n, offsetof(rank_rec_t, calls) +
                                      (size_t)c * sizeof(uint64_t));
        fprintf(f, ",\"bytes\":");
        write_per_rank(f, all, n, offsetof(rank_rec_t, bytes) +
                                      (size_t)c * sizeof(uint64_t));
        fprintf(f, ",\"noschedule\":");
        write_per_rank(f, all, n, offsetof(rank_rec_t, nosched) +
                                      (size_t)c * sizeof(uint64_t));
        fprintf(f, ",\"algorithms\":[");
        int afirst = 1;
        for (int a = 0; a < UCMPI_COLL_STATS_ALGS; a++) {
            uint64_t runs = 0;
            for (int r = 0; r < n; r++)
                runs += all[r].alg[c][a];
            if (runs == 0)
                continue;
            const char *nm = ucmpi_coll_stats_alg_name((unsigned)c, a);
            fprintf(f, "%s{\"id\":%d,\"name\":\"%s\",\"runs\":%llu}",
                    afirst ? "" : ",", a,
                    nm ? nm : a == UCMPI_COLL_STATS_ALGS - 1 ? "other" : "?",
                    (unsigned long long)runs);
            afirst = 0;
        }
        fprintf(f, "]}");
    }
    fprintf(f, "],\n");
}

/* Time blocked per call name (the union over ranks), per rank. */
static void write_waits(FILE *f, const rank_rec_t *all, int n)
{
    fprintf(f, "\"wait_s\":[");
    for (int r = 0; r < n; r++)
        fprintf(f, "%s%.6f", r ? "," : "", all[r].wait_total);
    fprintf(f, "],\n\"wait_calls\":[");
    int first = 1;
    for (int r0 = 0; r0 < n; r0++)
        for (int i = 0; i < UCMPI_P2P_WAIT_CALLS; i++) {
            const char *nm = all[r0].wait_name[i];
            int seen = nm[0] == '\0';
            /* first appearance only */
            for (int r = 0; r <= r0 && !seen; r++)
                for (int k = 0; k < (r < r0 ? UCMPI_P2P_WAIT_CALLS : i); k++)
                    if (strcmp(all[r].wait_name[k], nm) == 0)
                        seen = 1;
            if (seen)
                continue;
            fprintf(f, "%s\n{\"call\":\"%s\",\"s\":[", first ? "" : ",", nm);
            first = 0;
            for (int r = 0; r < n; r++) {
                double s = 0;
                for (int k = 0; k < UCMPI_P2P_WAIT_CALLS; k++)
                    if (strcmp(all[r].wait_name[k], nm) == 0)
                        s = all[r].wait_s[k];
                fprintf(f, "%s%.6f", r ? "," : "", s);
            }
            fprintf(f, "]}");
        }
    fprintf(f, "],\n");
}

/* One row per context id any rank used, each counter per world rank. */
static void write_comms(FILE *f, const rank_rec_t *all, int n)
{
    static const struct {
        const char *key;
        size_t off;
    } cols[] = {{"msgs", offsetof(comm_rec_t, msgs)},
                {"bytes", offsetof(comm_rec_t, bytes)},
                {"coll_calls", offsetof(comm_rec_t, calls)},
                {"coll_bytes", offsetof(comm_rec_t, cbytes)}};
    int first = 1, nids = 0;
    uint32_t *ids = malloc(sizeof(uint32_t) * (size_t)n * COMM_ROWS + 1);

    /* the context ids any rank reported, ascending, once each */
    for (int r = 0; ids && r < n; r++)
        for (int i = 0; i < all[r].ncomms; i++) {
            uint32_t x = all[r].comm[i].ctx;
            int k = nids;
            for (; k > 0 && ids[k - 1] > x; k--)
                ids[k] = ids[k - 1];
            if (k > 0 && ids[k - 1] == x) {
                memmove(&ids[k], &ids[k + 1], sizeof(*ids) * (size_t)(nids - k));
                continue;
            }
            ids[k] = x;
            nids++;
        }
    fprintf(f, "\"comms\":[");
    for (int j = 0; j < nids; j++) {
        uint32_t x = ids[j];
        const comm_rec_t *seen = NULL;
        int size = 0;
        for (int r = 0; r < n; r++)
            for (int i = 0; i < all[r].ncomms; i++)
                if (all[r].comm[i].ctx == x) {
                    if (seen == NULL || (!seen->name[0] && all[r].comm[i].name[0]))
                        seen = &all[r].comm[i];
                    if (all[r].comm[i].size > size)
                        size = all[r].comm[i].size;
                }
        if (seen == NULL)
            continue;
        fprintf(f, "%s\n{\"ctx\":%u,\"name\":\"", first ? "" : ",", x);
        for (const char *p = seen->name; *p; p++) {  /* a JSON string */
            if (*p == '"' || *p == '\\')
                fputc('\\', f);
            fputc((unsigned char)*p < 32 ? '?' : *p, f);
        }
        fprintf(f, "\",\"size\":%d", size);
        first = 0;
        for (size_t k = 0; k < sizeof(cols) / sizeof(cols[0]); k++) {
            fprintf(f, ",\"%s\":[", cols[k].key);
            for (int r = 0; r < n; r++) {
                unsigned long long v = 0;
                for (int i = 0; i < all[r].ncomms; i++)
                    if (all[r].comm[i].ctx == x)
                        v = *(const uint64_t *)((const char *)&all[r].comm[i] +
                                                cols[k].off);
                fprintf(f, "%s%llu", r ? "," : "", v);
            }
            fprintf(f, "]");
        }
        fprintf(f, "}");
    }
    fprintf(f, "],\n");
    free(ids);
}

static int write_json(FILE *f, const rank_rec_t *all, const uint64_t *msgs,
                      const uint64_t *bytes, int n)
{
    fprintf(f, "{\"ranks\":%d,\n", n);
    write_matrix(f, "msgs", msgs, n);
    write_matrix(f, "bytes", bytes, n);
    write_waits(f, all, n);
    write_colls(f, all, n);
    write_comms(f, all, n);
    fprintf(f, "\"size_hist\":[");
    for (int b = 0; b < UCMPI_P2P_SIZE_BINS; b++) {
        uint64_t t = 0;
        for (int r = 0; r < n; r++)
            t += all[r].hist[b];
        fprintf(f, "%s%llu", b ? "," : "", (unsigned long long)t);
    }
    fprintf(f, "]}\n");
    return ferror(f) ? -1 : 0;
}

/* Rank 0: out.json, then out.html embedding it. */
static void write_files(const char *html, const rank_rec_t *all,
                        const uint64_t *msgs, const uint64_t *bytes, int n)
{
    char *jp = json_path(html);
    FILE *f = jp ? fopen(jp, "w+") : NULL;

    if (f == NULL || write_json(f, all, msgs, bytes, n) != 0) {
        fprintf(stderr, "ucmpi: UCMPI_PROFILE: cannot write %s\n",
                jp ? jp : html);
        if (f)
            fclose(f);
        free(jp);
        return;
    }
    rewind(f);
    if (ucmpi_mpit_profile_html(html, f) != 0)
        fprintf(stderr, "ucmpi: UCMPI_PROFILE: cannot write %s\n", html);
    fclose(f);
    free(jp);
}

/* Gathers to rank 0 of MPI_COMM_WORLD while every layer still runs. */
static void profile_finalize(void *unused)
{
    int rank, n;
    rank_rec_t mine, *all = NULL;
    uint64_t *rows = NULL, *msgs = NULL;

    (void)unused;
    if (!profiling)
        return;
    profiling = 0;
    ucmpi_mpit_counting(0);       /* the gather is not the program's */
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &n);
    fill(&mine);
    uint64_t *row = calloc(2 * (size_t)n, sizeof(uint64_t));
    if (rank == 0) {
        all = calloc((size_t)n, sizeof(*all));
        rows = calloc(2 * (size_t)n * (size_t)n, sizeof(uint64_t));
        msgs = calloc((size_t)n * (size_t)n, sizeof(uint64_t));
    }
    int ok = row != NULL && (rank != 0 || (all && rows && msgs));
    for (int k = 0; row && k < n && (unsigned)k < ucmpi_p2p_stats.npeers;
         k++) {
        row[k] = ucmpi_p2p_stats.peer[k].sent_msgs;
        row[n + k] = ucmpi_p2p_stats.peer[k].sent_bytes;
    }
    /* everyone takes part even when short of memory: no rank waits */
    PMPI_Gather(ok ? &mine : NULL, ok ? (int)sizeof(mine) : 0, MPI_BYTE, all,
                (int)sizeof(mine), MPI_BYTE, 0, MPI_COMM_WORLD);
    PMPI_Gather(row, ok ? 2 * n : 0, MPI_UINT64_T, rows, 2 * n, MPI_UINT64_T,
                0, MPI_COMM_WORLD);
    if (rank == 0 && ok) {
        uint64_t *bytes = msgs == NULL ? NULL : calloc((size_t)n * n, 8);
        for (int r = 0; bytes && r < n; r++)
            for (int k = 0; k < n; k++) {
                msgs[(size_t)r * n + k] = rows[(size_t)r * 2 * n + k];
                bytes[(size_t)r * n + k] = rows[(size_t)r * 2 * n + n + k];
            }
        if (bytes)
            write_files(ucmpi_config_str("PROFILE"), all, msgs, bytes, n);
        free(bytes);
    }
    free(row);
    free(ctx_names);
    ctx_names = NULL;
    free(all);
    free(rows);
    free(msgs);
}

__attribute__((constructor)) static void profile_hooks(void)
{
    ucmpi_hook_add(UCMPI_HOOK_INIT, 10, profile_init);
    ucmpi_hook_add(UCMPI_HOOK_FINALIZE_FIRST, 0, profile_finalize);
    ucmpi_hook_add(UCMPI_HOOK_COMM_DESTROY, 0, profile_comm_gone);
}
