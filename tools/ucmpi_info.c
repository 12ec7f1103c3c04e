/*
 * ucmpi_info: version, UCX version and transports, build options, every
 * tunable (name, current value, default, description) and the collectives'
 * selection thresholds; with --pvars the MPI_T performance variables.
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

static const char *pvar_class(int c)
{
    static const char *const names[] = {
        "STATE", "LEVEL", "SIZE", "PERCENTAGE", "HIGHWATERMARK",
        "LOWWATERMARK", "COUNTER", "AGGREGATE", "TIMER", "GENERIC"};
    static const int classes[] = {
        MPI_T_PVAR_CLASS_STATE, MPI_T_PVAR_CLASS_LEVEL,
        MPI_T_PVAR_CLASS_SIZE, MPI_T_PVAR_CLASS_PERCENTAGE,
        MPI_T_PVAR_CLASS_HIGHWATERMARK, MPI_T_PVAR_CLASS_LOWWATERMARK,
        MPI_T_PVAR_CLASS_COUNTER, MPI_T_PVAR_CLASS_AGGREGATE,
        MPI_T_PVAR_CLASS_TIMER, MPI_T_PVAR_CLASS_GENERIC};
    for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
        if (classes[i] == c)
            return names[i];
    return "?";
}

/* The MPI_T performance variables, by category (no MPI_Init needed). */
static int print_pvars(void)
{
    int provided, ncat = 0;

    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
        return 1;
    printf("MPI_T performance variables (MPI_T_pvar_*; bound ones take an "
           "MPI_Comm and give one value per rank):\n");
    MPI_T_category_get_num(&ncat);
    for (int c = 0; c < ncat; c++) {
        char cname[64];
        int len = sizeof(cname), np = 0, ids[128];

        MPI_T_category_get_info(c, cname, &len, NULL, NULL, NULL, &np, NULL);
        if (np > 128)
            np = 128;
        MPI_T_category_get_pvars(c, np, ids);
        printf("\n[%s]\n", cname);
        for (int k = 0; k < np; k++) {
            char name[64], desc[1024];
            int nl = sizeof(name), dl = sizeof(desc), cls, bind, ro, cont;

            MPI_T_pvar_get_info(ids[k], name, &nl, NULL, &cls, NULL, NULL,
                                desc, &dl, &bind, &ro, &cont, NULL);
            printf("  %-26s %-13s %s%s%s\n      %s\n", name, pvar_class(cls),
                   bind == MPI_T_BIND_MPI_COMM ? "per comm rank, " : "",
                   cont ? "continuous" : "startable",
                   ro ? ", read-only" : "", desc);
        }
    }
    MPI_T_finalize();
    return 0;
}

int main(int argc, char **argv)
{
    int all = argc > 1 && strcmp(argv[1], "--all") == 0;

    if (argc > 1 && strcmp(argv[1], "--pvars") == 0)
        return print_pvars();
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
