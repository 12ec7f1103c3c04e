/* The tuning file (UCMPI_TUNING_FILE, written by ucmpi_tune): rules that
 * pick a collective's algorithm by communicator size and bytes, and
 * threshold values by name; the built-in table stays the fallback.  Format
 * and the meaning of "bytes" per collective: docs/tuning.md. */
#include "coll/coll_alg.h"
#include "coll/coll_tune.h"
#include "core/config.h"
#include "core/config_table.h"
#include "core/hooks.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RULES 512
#define NAME_MAX_ 48

typedef struct {
    char knob[NAME_MAX_];     /* ALLREDUCE_ALGORITHM: the collective's */
    char alg[NAME_MAX_];
    int nlo, nhi;             /* communicator sizes, inclusive */
    size_t blo, bhi;          /* bytes, inclusive */
    int line;
    int warned;               /* an unknown algorithm was reported */
} rule_t;

static rule_t rules[MAX_RULES];
int ucmpi_coll_tune_nrules;
static const char *tune_path;

/* Row `name` of tab if it builds a schedule (the shm rows are chosen
 * before the rules, by the shm thresholds). */
static const ucmpi_coll_alg_t *row_named(const ucmpi_coll_alg_t *tab,
                                         const char *name)
{
    for (const ucmpi_coll_alg_t *t = tab; t->name; t++)
        if (strcmp(t->name, name) == 0 && t->build != NULL &&
            strcmp(t->name, "shm") != 0)
            return t;
    return NULL;
}

const ucmpi_coll_alg_t *ucmpi_coll_tuned_find(const ucmpi_coll_alg_t *tab,
                                              const char *knob, int n,
                                              size_t bytes)
{
    for (int i = 0; i < ucmpi_coll_tune_nrules; i++) {
        rule_t *r = &rules[i];
        const ucmpi_coll_alg_t *row;

        if (n < r->nlo || n > r->nhi || bytes < r->blo || bytes > r->bhi ||
            strcmp(r->knob, knob) != 0)
            continue;
        if ((row = row_named(tab, r->alg)) != NULL)
            return row;
        if (!r->warned && ucmpi_global.world_rank == 0)
            fprintf(stderr, "ucmpi: %s line %d: %s is not a schedule "
                    "algorithm of UCMPI_%s; rule ignored\n", tune_path,
                    r->line, r->alg, knob);
        r->warned = 1;
    }
    return NULL;
}

/* ---- parsing ---- */

typedef struct {
    int line;
    char why[160];
} perr_t;

static int fail(perr_t *e, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(e->why, sizeof(e->why), fmt, ap);
    va_end(ap);
    return -1;
}

/* A size: digits with an optional K, M or G (powers of 1024). */
static int parse_size(const char *s, size_t *out)
{
    char *end;
    unsigned long long v;

    if (!isdigit((unsigned char)s[0]))
        return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno != 0)
        return -1;
    switch (toupper((unsigned char)*end)) {
    case 'G': v <<= 10; /* fall through */
    case 'M': v <<= 10; /* fall through */
    case 'K': v <<= 10; end++; break;
    default: break;
    }
    if (*end != '\0')
        return -1;
    *out = (size_t)v;
    return 0;
}

/* "A" (exactly A), "A-B" or "A-" (A and up). */
static int parse_range(const char *s, size_t *lo, size_t *hi)
{
    char buf[64];
    char *dash;

    if (strlen(s) >= sizeof(buf))
        return -1;
    strcpy(buf, s);
    if ((dash = strchr(buf, '-')) == NULL) {
        if (parse_size(buf, lo) != 0)
            return -1;
        *hi = *lo;
        return 0;
    }
    *dash = '\0';
    if (parse_size(buf, lo) != 0)
        return -1;
    if (dash[1] == '\0') {
        *hi = SIZE_MAX;
        return 0;
    }
    return parse_size(dash + 1, hi) != 0 || *hi < *lo ? -1 : 0;
}

/* rule COLL [ranks=R] [bytes=R] algorithm=NAME */
static int parse_rule(char **w, int nw, rule_t *r, perr_t *e)
{
    size_t lo, hi;
    char up[NAME_MAX_];
    size_t k;

    if (nw < 2)
        return fail(e, "a rule names its collective");
    for (k = 0; w[1][k] && k < NAME_MAX_ - 1; k++)
        up[k] = (char)toupper((unsigned char)w[1][k]);
    up[k] = '\0';
    if (snprintf(r->knob, sizeof(r->knob), "%s_ALGORITHM", up) >=
            (int)sizeof(r->knob) ||
        ucmpi_config_find(r->knob) == NULL)
        return fail(e, "%s is not a collective with a choice of algorithms",
                    w[1]);
    r->nlo = 1;
    r->nhi = 1 << 30;
    r->blo = 0;
    r->bhi = SIZE_MAX;
    r->alg[0] = '\0';
    for (int i = 2; i < nw; i++) {
        char *eq = strchr(w[i], '=');
        if (eq == NULL)
            return fail(e, "%s: expected key=value", w[i]);
        *eq = '\0';
        if (strcmp(w[i], "ranks") == 0) {
            if (parse_range(eq + 1, &lo, &hi) != 0 || lo < 1 ||
                lo > (1u << 30))
                return fail(e, "ranks=%s: expected N, N-M or N-", eq + 1);
            r->nlo = (int)lo;
            r->nhi = hi > (1u << 30) ? 1 << 30 : (int)hi;
        } else if (strcmp(w[i], "bytes") == 0) {
            if (parse_range(eq + 1, &r->blo, &r->bhi) != 0)
                return fail(e, "bytes=%s: expected N, N-M or N- (K, M, G "
                            "suffixes)", eq + 1);
        } else if (strcmp(w[i], "algorithm") == 0) {
            if (eq[1] == '\0' || strlen(eq + 1) >= sizeof(r->alg))
                return fail(e, "algorithm= needs a name");
            strcpy(r->alg, eq + 1);
        } else {
            return fail(e, "unknown key %s (ranks, bytes, algorithm)", w[i]);
        }
    }
    if (r->alg[0] == '\0')
        return fail(e, "a rule needs algorithm=NAME");
    if (strcmp(r->alg, "shm") == 0)
        return fail(e, "shm is chosen before the rules (set its threshold "
                    "instead)");
    return 0;
}

/* threshold NAME VALUE, into vals (applied once the whole file parsed). */
static int parse_threshold(char **w, int nw, size_t *vals, char *set,
                           perr_t *e)
{
    size_t v;

    if (nw != 3)
        return fail(e, "expected: threshold NAME VALUE");
    for (int i = 0; i < UCMPI_THR_NUM; i++)
        if (strcmp(ucmpi_coll_thr[i].name, w[1]) == 0) {
            if (parse_size(w[2], &v) != 0)
                return fail(e, "%s: %s is not a size", w[1], w[2]);
            vals[i] = v;
            set[i] = 1;
            return 0;
        }
    return fail(e, "%s is not a threshold (ucmpi_info lists them)", w[1]);
}

/* Splits line into at most max words; returns their number. */
static int split(char *line, char **w, int max)
{
    int n = 0;
    char *p = strchr(line, '#');

    if (p != NULL)
        *p = '\0';
    for (p = strtok(line, " \t\r\n"); p != NULL && n < max;
         p = strtok(NULL, " \t\r\n"))
        w[n++] = p;
    return p != NULL ? max + 1 : n;
}

static int parse_file(FILE *f, size_t *vals, char *set, int *nrules,
                      perr_t *e)
{
    char line[512];
    char *w[8];
    int header = 0, nw;

    *nrules = 0;
    for (e->line = 1; fgets(line, sizeof(line), f) != NULL; e->line++) {
        if (strchr(line, '\n') == NULL && !feof(f))
            return fail(e, "line too long");
        if ((nw = split(line, w, 8)) == 0)
            continue;
        if (nw > 8)
            return fail(e, "too many words");
        if (!header) {
            if (nw != 2 || strcmp(w[0], "ucmpi-tuning") != 0 ||
                strcmp(w[1], "1") != 0)
                return fail(e, "the file must start with \"ucmpi-tuning 1\"");
            header = 1;
        } else if (strcmp(w[0], "rule") == 0) {
            if (*nrules == MAX_RULES)
                return fail(e, "more than %d rules", MAX_RULES);
            rules[*nrules].line = e->line;
            if (parse_rule(w, nw, &rules[*nrules], e) != 0)
                return -1;
            (*nrules)++;
        } else if (strcmp(w[0], "threshold") == 0) {
            if (parse_threshold(w, nw, vals, set, e) != 0)
                return -1;
        } else {
            return fail(e, "unknown entry %s (rule, threshold)", w[0]);
        }
    }
    if (ferror(f))
        return fail(e, "read error");
    if (!header) {
        e->line = 0;
        return fail(e, "empty (no \"ucmpi-tuning 1\" line)");
    }
    return 0;
}

/* All or nothing: a file with any error changes no decision. */
static void tune_load(void *arg)
{
    const char *path = ucmpi_config_str("TUNING_FILE");
    size_t vals[UCMPI_THR_NUM];
    char set[UCMPI_THR_NUM] = {0};
    perr_t e = {0, ""};
    int n = 0, rc;
    FILE *f;

    (void)arg;
    ucmpi_coll_tune_nrules = 0;
    if (path == NULL || path[0] == '\0')
        return;
    tune_path = path;
    if ((f = fopen(path, "r")) == NULL) {
        rc = fail(&e, "%s", strerror(errno));
    } else {
        rc = parse_file(f, vals, set, &n, &e);
        fclose(f);
    }
    if (rc != 0) {
        char at[32] = "";
        if (e.line > 0)
            snprintf(at, sizeof(at), " line %d", e.line);
        if (ucmpi_global.world_rank == 0)
            fprintf(stderr, "ucmpi: UCMPI_TUNING_FILE=%s%s: %s; using the "
                    "built-in selection\n", path, at, e.why);
        return;
    }
    for (int i = 0; i < UCMPI_THR_NUM; i++)
        if (set[i])
            ucmpi_coll_thr[i].value = vals[i];
    ucmpi_coll_tune_nrules = n;
}

__attribute__((constructor)) static void tune_file_register(void)
{
    ucmpi_hook_add(UCMPI_HOOK_INIT, 0, tune_load);
}
