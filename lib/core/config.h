/* Tunables: one table, UCMPI_<NAME> environment variables (core/config.c). */
#ifndef UCMPI_CORE_CONFIG_H
#define UCMPI_CORE_CONFIG_H

#include "core/base.h"

/* Value of tunable `name` (no UCMPI_ prefix), the default when unset; unknown
 * names abort, since every knob must be in the table. */
UCMPI_EXPORT const char *ucmpi_config_str(const char *name);
long ucmpi_config_long(const char *name);

#endif
