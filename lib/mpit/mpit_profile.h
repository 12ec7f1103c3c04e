/* The profile picture (UCMPI_PROFILE): mpit_profile.c gathers and writes
 * the JSON; mpit_profile_html.c wraps it in a self-contained page. */
#ifndef UCMPI_MPIT_PROFILE_H
#define UCMPI_MPIT_PROFILE_H

#include <stdio.h>

/* Writes the HTML page at path embedding the JSON read from json; 0 or -1. */
int ucmpi_mpit_profile_html(const char *path, FILE *json);

#endif
