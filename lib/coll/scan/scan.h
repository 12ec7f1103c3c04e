/* MPI_Scan and MPI_Exscan algorithms. */
#ifndef UCMPI_COLL_SCAN_H
#define UCMPI_COLL_SCAN_H

#include "coll/coll_util.h"

enum { UCMPI_SCAN_RECURSIVE_DOUBLING };

/* Inclusive (exclusive = 0) or exclusive prefix reduction; `mine` may be
 * rbuf (MPI_IN_PLACE).  Any op, rank order kept, any n. */
int ucmpi_scan_recdbl(ucmpi_sched_t *s, const void *mine, void *rbuf,
                      MPI_Count count, MPI_Datatype dt, MPI_Op op,
                      const ucmpi_coll_grp_t *g, int exclusive);

#endif
