/* Algorithm tables: see coll_alg.h. */
#include "coll/coll_alg.h"
#include "coll/check/check.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

int ucmpi_coll_alg_listing;
static struct {
    const char *knob;
    const ucmpi_coll_alg_t *tab;
} listed[32];
static int nlisted;

static void list_table(const ucmpi_coll_alg_t *tab, const char *knob)
{
    for (int i = 0; i < nlisted; i++)
        if (strcmp(listed[i].knob, knob) == 0)
            return;
    if (nlisted < (int)(sizeof(listed) / sizeof(listed[0])))
        listed[nlisted++] = (typeof(listed[0])){knob, tab};
}

int ucmpi_coll_alg_rows(const char *coll, int *ids, const char **names,
                        int max)
{
    size_t len = strlen(coll);
    int n = 0;

    for (int i = 0; i < nlisted; i++) {
        const char *k = listed[i].knob;
        if (strncasecmp(k, coll, len) != 0 ||
            strcmp(k + len, "_ALGORITHM") != 0)
            continue;
        for (const ucmpi_coll_alg_t *t = listed[i].tab; t->name && n < max;
             t++) {
            ids[n] = t->id;
            names[n++] = t->name;
        }
    }
    return n;
}

const ucmpi_coll_alg_t *ucmpi_coll_alg_forced(const ucmpi_coll_alg_t *tab,
                                              const char *knob)
{
    static char warned[64];
    const char *want = ucmpi_coll_knob(knob);

    if (__builtin_expect(ucmpi_coll_alg_listing, 0))
        list_table(tab, knob);

    if (want == NULL || want[0] == '\0' || strcmp(want, "auto") == 0)
        return NULL;
    for (const ucmpi_coll_alg_t *t = tab; t->name; t++)
        if (strcmp(t->name, want) == 0)
            return t;
    if (strncmp(warned, knob, sizeof(warned) - 1) != 0) {
        fprintf(stderr, "ucmpi: UCMPI_%s=%s is not an algorithm; using "
                "automatic selection\n", knob, want);
        snprintf(warned, sizeof(warned), "%s", knob);
    }
    return NULL;
}

const ucmpi_coll_alg_t *ucmpi_coll_alg_by_id(const ucmpi_coll_alg_t *tab,
                                             int id)
{
    for (const ucmpi_coll_alg_t *t = tab; t->name; t++)
        if (t->id == id)
            return t;
    return tab;
}

void ucmpi_coll_alg_name_run(ucmpi_sched_t *s, const ucmpi_coll_alg_t *tab,
                             int id)
{
    int n = 0;

    while (tab[n].name != NULL)
        n++;
    ucmpi_sched_name_run(s, tab, sizeof(*tab), n, id);
}

void ucmpi_coll_alg_sign(ucmpi_sched_t *s, const ucmpi_coll_alg_t *tab,
                         int id, unsigned shape)
{
    int n = 0;

    while (tab[n].name != NULL)
        n++;
    ucmpi_sched_sign(s, tab, sizeof(*tab), n, id, shape);
}
