/* The tunables table (lib/config.c), for ucmpi_info and MPI_T. */
#ifndef UCMPI_CONFIG_TABLE_H
#define UCMPI_CONFIG_TABLE_H

#include "ucmpi.h"

enum { UCMPI_CFG_STR, UCMPI_CFG_LONG };

typedef struct {
    const char *name;         /* without the UCMPI_ prefix */
    int type;
    const char *def;
    const char *desc;
} ucmpi_config_entry_t;

extern const ucmpi_config_entry_t ucmpi_config_table[];
const ucmpi_config_entry_t *ucmpi_config_find(const char *name);

#endif
