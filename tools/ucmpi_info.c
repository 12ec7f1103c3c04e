/*
 * ucmpi_info: version, UCX version and transports, build options, every
 * tunable (name, current value, default, description) and the collectives'
 * selection thresholds.
 */
#include "config.h"
#include "core/config_table.h"
#include "coll/coll_tune.h"
#include "core/config.h"
#include "p2p/pt2pt.h"
#include "ucp_glue/ucx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_tunables(void)
{
    printf("\nTunables (environment UCMPI_<NAME>; also MPI_T control "
           "variables of the same name, which MPI_T_cvar_write can change "
           "at run time where marked [runtime]):\n");
    for (const ucmpi_config_entry_t *e = ucmpi_config_table; e->name; e++) {
        printf("  UCMPI_%-28s = %-10s (default \"%s\")%s\n      %s\n",
               e->name, ucmpi_config_str(e->name), e->def,
               e->type & UCMPI_CFG_RUNTIME ? " [runtime]" : "", e->desc);
    }
}

static void print_thresholds(void)
{
    printf("\nCollective selection thresholds (lib/coll/coll_tune.c; how "
           "each was measured: docs/tuning.md):\n");
    for (const ucmpi_coll_thr_t *t = ucmpi_coll_thr; t->name; t++)
        printf("  %-32s = %-10zu %s\n", t->name, t->value, t->desc);
}

int main(int argc, char **argv)
{
    int all = argc > 1 && strcmp(argv[1], "--all") == 0;

    printf("ucmpi %s (MPI %d.%d)\n", UCMPI_VERSION, MPI_VERSION, MPI_SUBVERSION);
    printf("UCX: built with %s, running %s\n", UCMPI_BUILD_UCX_VERSION,
           ucmpi_ucx_version());
    printf("Build: CC=%s CFLAGS=%s\n", UCMPI_BUILD_CC, UCMPI_BUILD_CFLAGS);
    printf("Bindings: %s\n", UCMPI_BUILD_BINDINGS);
    printf("Tag layout: %d-bit MPI tags (MPI_TAG_UB %d), up to %d ranks per "
           "communicator\n", 24, UCMPI_TAG_MAX, 1 << 21);
    printf("\nUCX transports available here:\n");
    fflush(stdout);
    ucmpi_ucx_print_transports(all);
    print_tunables();
    print_thresholds();
    return 0;
}
