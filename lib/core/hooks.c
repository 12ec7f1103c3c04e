/* The hook lists of hooks.h: small fixed arrays, sorted by order on insert. */
#include "core/hooks.h"

#include <stdio.h>
#include <stdlib.h>

#define MAX_HOOKS 8

typedef struct {
    ucmpi_hook_fn_t fn;
    int order;
} hook_t;

static hook_t lists[UCMPI_HOOK_KINDS][MAX_HOOKS];
static int counts[UCMPI_HOOK_KINDS];

void ucmpi_hook_add(ucmpi_hook_kind_t kind, int order, ucmpi_hook_fn_t fn)
{
    hook_t *l = lists[kind];
    int n = counts[kind], i;

    if (n == MAX_HOOKS) {         /* a build error, not a run-time one */
        fprintf(stderr, "ucmpi: too many hooks of kind %d\n", (int)kind);
        abort();
    }
    for (i = n; i > 0 && l[i - 1].order > order; i--)
        l[i] = l[i - 1];
    l[i] = (hook_t){fn, order};
    counts[kind] = n + 1;
}

void ucmpi_hooks_run(ucmpi_hook_kind_t kind, void *arg)
{
    for (int i = 0; i < counts[kind]; i++)
        lists[kind][i].fn(arg);
}
