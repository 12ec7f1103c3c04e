/* The tunables table (lib/core/config.c), for ucmpi_info and MPI_T. */
#ifndef UCMPI_CONFIG_TABLE_H
#define UCMPI_CONFIG_TABLE_H

#include "core/base.h"

/* Entry types; UCMPI_CFG_RUNTIME marks tunables read at every use (not
 * cached at MPI_Init), which MPI_T_cvar_write may therefore change. */
enum { UCMPI_CFG_STR = 0, UCMPI_CFG_LONG = 1, UCMPI_CFG_TYPE_MASK = 0xf,
       UCMPI_CFG_RUNTIME = 0x10 };

typedef struct {
    const char *name;         /* without the UCMPI_ prefix */
    int type;                 /* UCMPI_CFG_STR/LONG | UCMPI_CFG_RUNTIME */
    const char *def;
    const char *desc;
} ucmpi_config_entry_t;

extern UCMPI_EXPORT const ucmpi_config_entry_t ucmpi_config_table[];
const ucmpi_config_entry_t *ucmpi_config_find(const char *name);
int ucmpi_config_count(void);
/* Overrides the environment and default of entry `e` from now on (MPI_T);
 * returns 0, or -1 when the value is longer than UCMPI_CFG_VALUE_MAX - 1. */
#define UCMPI_CFG_VALUE_MAX 256
int ucmpi_config_set(const ucmpi_config_entry_t *e, const char *value);

#endif
