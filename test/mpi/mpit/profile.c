/* UCMPI_PROFILE: three known patterns (a ring, an all-to-all by sends, a
 * root-heavy gather by sends: K messages of M bytes per pair) on
 * MPI_COMM_WORLD, and K messages to itself plus 2 barriers on MPI_COMM_SELF,
 * profiled; after MPI_Finalize rank 0 checks the JSON's message and byte
 * matrices and the per-communicator rows (world, self) exactly, then opens the HTML in headless chromium and checks the rendered
 * page (both heat maps drawn, one cell per rank pair, a row per
 * communicator).  The browser part is
 * skipped, saying so, where chromium is not installed. */
#include "../mpitest.h"

#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define K 3
#define M 64

/* Expected messages from rank i to rank k. */
static uint64_t expect(int i, int k, int n)
{
    uint64_t e = 0;

    if (k == (i + 1) % n)
        e += K;                   /* ring */
    if (k != i)
        e += 1;                   /* all-to-all */
    if (k == 0 && i != 0)
        e += K;                   /* root-heavy gather */
    if (k == i)
        e += K;                   /* to itself on MPI_COMM_SELF */
    return e;
}

static void patterns(int rank, int n)
{
    char buf[M] = {0};
    MPI_Request rq[2];

    for (int j = 0; j < K; j++) {                          /* ring */
        MPI_Irecv(buf, M, MPI_CHAR, (rank + n - 1) % n, 1, MPI_COMM_WORLD,
                  &rq[0]);
        MPI_Isend(buf, M, MPI_CHAR, (rank + 1) % n, 1, MPI_COMM_WORLD,
                  &rq[1]);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    }
    for (int d = 1; d < n; d++) {                          /* all-to-all */
        MPI_Irecv(buf, M, MPI_CHAR, (rank + n - d) % n, 2, MPI_COMM_WORLD,
                  &rq[0]);
        MPI_Isend(buf, M, MPI_CHAR, (rank + d) % n, 2, MPI_COMM_WORLD,
                  &rq[1]);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    }
    for (int j = 0; j < K; j++) {                          /* self */
        MPI_Irecv(buf, M, MPI_CHAR, 0, 4, MPI_COMM_SELF, &rq[0]);
        MPI_Isend(buf, M, MPI_CHAR, 0, 4, MPI_COMM_SELF, &rq[1]);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    }
    MPI_Barrier(MPI_COMM_SELF);
    MPI_Barrier(MPI_COMM_SELF);
    for (int j = 0; j < K; j++) {                          /* gather */
        if (rank != 0)
            MPI_Send(buf, M, MPI_CHAR, 0, 3, MPI_COMM_WORLD);
        else
            for (int r = 1; r < n; r++)
                MPI_Recv(buf, M, MPI_CHAR, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    }
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char *s;
    long len;

    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    rewind(f);
    s = calloc(1, (size_t)len + 1);
    if (s && fread(s, 1, (size_t)len, f) != (size_t)len) {
        free(s);
        s = NULL;
    }
    fclose(f);
    return s;
}

/* The n x n matrix after "key":[ in the JSON. */
static int read_matrix(const char *json, const char *key, uint64_t *m, int n)
{
    char pat[32];
    const char *p;

    snprintf(pat, sizeof(pat), "\"%s\":[", key);
    if ((p = strstr(json, pat)) == NULL)
        return -1;
    p += strlen(pat);
    for (int i = 0; i < n * n; i++) {
        while (*p == '[' || *p == ',' || *p == ']' || *p == '\n')
            p++;
        char *end;
        m[i] = strtoull(p, &end, 10);
        if (end == p)
            return -1;
        p = end;
    }
    return 0;
}

/* The n numbers of "key":[...] in the per-communicator row named name. */
static int read_comm(const char *json, const char *name, const char *key,
                     uint64_t *v, int n)
{
    char pat[64];
    const char *p = strstr(json, "\"comms\":[");

    snprintf(pat, sizeof(pat), "\"name\":\"%s\"", name);
    if (p == NULL || (p = strstr(p, pat)) == NULL)
        return -1;
    snprintf(pat, sizeof(pat), "\"%s\":[", key);
    if ((p = strstr(p, pat)) == NULL)
        return -1;
    p += strlen(pat);
    for (int i = 0; i < n; i++) {
        char *end;
        v[i] = strtoull(p, &end, 10);
        if (end == p)
            return -1;
        p = end + (*end == ',');
    }
    return 0;
}

/* World: the patterns' sends (row sums of expect less the K sends on
 * MPI_COMM_SELF);
 * self: K messages and 2 collective calls per rank. */
static void check_comms(const char *json, int n)
{
    uint64_t *v = calloc((size_t)n, 8);

    MT_CHECK(read_comm(json, "MPI_COMM_WORLD", "msgs", v, n) == 0,
             "no world row");
    for (int i = 0; i < n; i++) {
        uint64_t e = 0;
        for (int k = 0; k < n; k++)
            e += expect(i, k, n);
        e -= (uint64_t)K;          /* those on MPI_COMM_SELF */
        MT_CHECK(v[i] == e, "world: rank %d sent %llu, want %llu", i,
                 (unsigned long long)v[i], (unsigned long long)e);
    }
    MT_CHECK(read_comm(json, "MPI_COMM_WORLD", "bytes", v, n) == 0,
             "world bytes");
    for (int i = 0; i < n; i++) {
        uint64_t e = 0;
        for (int k = 0; k < n; k++)
            e += expect(i, k, n) * M;
        e -= (uint64_t)K * M;          /* those on MPI_COMM_SELF */
        MT_CHECK(v[i] == e, "world: rank %d bytes %llu, want %llu", i,
                 (unsigned long long)v[i], (unsigned long long)e);
    }
    static const struct {
        const char *key;
        uint64_t want;
    } self[] = {{"msgs", K}, {"bytes", K * M}, {"coll_calls", 2}};
    for (int j = 0; j < 3; j++) {
        MT_CHECK(read_comm(json, "MPI_COMM_SELF", self[j].key, v, n) == 0,
                 "self %s", self[j].key);
        for (int i = 0; i < n; i++)
            MT_CHECK(v[i] == self[j].want, "self %s: rank %d %llu, want %llu",
                     self[j].key, i, (unsigned long long)v[i],
                     (unsigned long long)self[j].want);
    }
    free(v);
}

static int count(const char *s, const char *pat)
{
    int c = 0;
    for (const char *p = s; (p = strstr(p, pat)) != NULL; p += strlen(pat))
        c++;
    return c;
}

static void check_json(const char *path, int n)
{
    char *json = slurp(path);
    uint64_t *msgs = calloc((size_t)n * n, 8), *bytes = calloc((size_t)n * n, 8);

    MT_CHECK(json != NULL, "no %s", path);
    if (json == NULL)
        return;
    MT_CHECK(strstr(json, "\"ranks\":") != NULL && atoi(strstr(json,
             "\"ranks\":") + 8) == n, "ranks");
    MT_CHECK(read_matrix(json, "msgs", msgs, n) == 0, "msgs matrix");
    MT_CHECK(read_matrix(json, "bytes", bytes, n) == 0, "bytes matrix");
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            uint64_t e = expect(i, k, n);
            MT_CHECK(msgs[i * n + k] == e && bytes[i * n + k] == e * M,
                     "%d -> %d: %llu msgs %llu bytes, want %llu", i, k,
                     (unsigned long long)msgs[i * n + k],
                     (unsigned long long)bytes[i * n + k],
                     (unsigned long long)e);
        }
    MT_CHECK(strstr(json, "\"size_hist\":[") != NULL, "histogram");
    check_comms(json, n);
    free(json);
    free(msgs);
    free(bytes);
}

static void check_page(const char *html, int n)
{
    char cmd[512], out[256];

    if (system("command -v chromium >/dev/null 2>&1") != 0) {
        printf("SKIP: chromium is not installed: the rendered page is not "
               "checked (scripts/setup.sh installs it)\n");
        return;
    }
    snprintf(out, sizeof(out), "%s.dom", html);
    snprintf(cmd, sizeof(cmd), "chromium --headless --no-sandbox "
             "--disable-gpu --virtual-time-budget=5000 --dump-dom "
             "'file://%s' > '%s' 2>/dev/null", html, out);
    MT_CHECK(system(cmd) == 0, "%s", cmd);
    char *dom = slurp(out);
    MT_CHECK(dom != NULL, "no DOM dump");
    if (dom == NULL)
        return;
    MT_CHECK(strstr(dom, "data-rendered=\"1\"") != NULL,
             "the page's script did not finish");
    MT_CHECK(count(dom, "class=\"cell\"") == 2 * n * n, "%d cells, want %d",
             count(dom, "class=\"cell\""), 2 * n * n);
    MT_CHECK(count(dom, "class=\"bar\"") >= n, "wait bars");
    MT_CHECK(count(dom, "class=\"comm\"") == 2, "%d communicator rows, want 2 "
             "(world, self)", count(dom, "class=\"comm\""));
    free(dom);
    unlink(out);
}

int main(int argc, char **argv)
{
    char html[256], json[256];
    int rank, n;

    /* only rank 0's name is used (it writes the files) */
    snprintf(html, sizeof(html), "%s/ucmpi_profile_test_%ld.html",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid());
    snprintf(json, sizeof(json), "%.*s.json", (int)strlen(html) - 5, html);
    setenv("UCMPI_PROFILE", html, 1);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    patterns(rank, n);
    MPI_Finalize();
    if (rank == 0) {
        check_json(json, n);
        if (mt_errors == 0)
            check_page(html, n);
        if (mt_errors == 0) {
            unlink(json);
            unlink(html);
        } else {
            fprintf(stderr, "kept %s and %s\n", json, html);
        }
    }
    return mt_errors ? 1 : 0;
}
