/*
 * Internals of the communicator area (lib/comm*.c, group*.c, attr.c,
 * info.c, errhandler.c, topo*.c): helpers shared between those files.
 */
#ifndef UCMPI_COMM_INTERNAL_H
#define UCMPI_COMM_INTERNAL_H

#include "ucmpi.h"

/* ---- attributes (attr.c) ---- */
void ucmpi_attr_finalize(void);

/* ---- info (info.c) ---- */
MPI_Info ucmpi_info_new(void);
void ucmpi_info_destroy(MPI_Info info);
/* Copy of src with the keys keep() accepts (all when keep is NULL); NULL
 * when out of memory.  src may be MPI_INFO_NULL (empty copy). */
MPI_Info ucmpi_info_filter(MPI_Info src, bool (*keep)(const char *key));
void ucmpi_info_finalize(void);

#endif
