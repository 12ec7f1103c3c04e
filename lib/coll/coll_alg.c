/* Algorithm tables: see coll_alg.h. */
#include "coll/coll_alg.h"

#include <stdio.h>
#include <string.h>

const ucmpi_coll_alg_t *ucmpi_coll_alg_forced(const ucmpi_coll_alg_t *tab,
                                              const char *knob)
{
    static char warned[64];
    const char *want = ucmpi_coll_knob(knob);

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

void ucmpi_coll_alg_sign(ucmpi_sched_t *s, const ucmpi_coll_alg_t *tab,
                         int id, unsigned shape)
{
    int n = 0;

    while (tab[n].name != NULL)
        n++;
    ucmpi_sched_sign(s, tab, sizeof(*tab), n, id, shape);
}
