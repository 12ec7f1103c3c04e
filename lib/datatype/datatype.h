/* Datatypes as the data paths see them (lib/datatype/). */
#ifndef UCMPI_DATATYPE_DATATYPE_H
#define UCMPI_DATATYPE_DATATYPE_H

#include "core/base.h"

/* Public part of a datatype; lib/datatype/ adds the rest behind it. */
struct ucmpi_datatype_s {
    uint32_t magic;
    int refcount;
    int predefined;
    int committed;
    int contig;           /* count elements form one contiguous block of
                             count*size bytes starting at buf + true_lb */
    MPI_Count size;       /* bytes of data in one element */
    MPI_Aint lb, extent;
    MPI_Aint true_lb, true_extent;
    void *impl;           /* compiled representation (lib/datatype/) */
    void *attrs;          /* owned by lib/core/attr.c */
};
typedef struct ucmpi_datatype_s ucmpi_datatype_t;

/* MPI_SUCCESS or the error class, with *why a static reason string:
 * null, freed, or (when need_commit) uncommitted types. */
int ucmpi_dt_check(MPI_Datatype dt, int need_commit, const char **why);
void ucmpi_dt_retain(MPI_Datatype dt);
void ucmpi_dt_release(MPI_Datatype dt);
/* Pack/unpack bytes [offset, offset+len) of the packed stream of count
 * elements at buf; return bytes done.  Sequential calls are O(len). */
typedef struct ucmpi_dt_cursor ucmpi_dt_cursor_t;
ucmpi_dt_cursor_t *ucmpi_dt_cursor_create(MPI_Datatype dt, const void *buf,
                                          MPI_Count count);
size_t ucmpi_dt_cursor_pack(ucmpi_dt_cursor_t *c, size_t offset, void *dst,
                            size_t len);
size_t ucmpi_dt_cursor_unpack(ucmpi_dt_cursor_t *c, size_t offset,
                              const void *src, size_t len);
void ucmpi_dt_cursor_destroy(ucmpi_dt_cursor_t *c);
/* Whole-buffer convenience forms. */
size_t ucmpi_dt_pack(MPI_Datatype dt, const void *buf, MPI_Count count,
                     void *dst);
size_t ucmpi_dt_unpack(MPI_Datatype dt, void *buf, MPI_Count count,
                       const void *src, size_t len);
/* (datatype area) The one predefined type dt is made of, how many per element,
 * else MPI_DATATYPE_NULL: for reductions and accumulates on derived types. */
MPI_Datatype ucmpi_dt_basic(MPI_Datatype dt, MPI_Count *per_element);
/* (datatype area) A message of `bytes` ends inside a basic element of dt:
 * its sender's type signature does not match the receive type. */
bool ucmpi_dt_partial(MPI_Datatype dt, size_t bytes);
/* (datatype area) iov: the packed stream's contiguous runs as offsets from buf;
 * the cursor form is resumable like pack, the whole form mallocs *iov. */
typedef struct { MPI_Aint off; size_t len; } ucmpi_dt_iov_t;
size_t ucmpi_dt_cursor_iov(ucmpi_dt_cursor_t *c, size_t offset, size_t len,
                           ucmpi_dt_iov_t *iov, size_t maxn, size_t *nout);
int ucmpi_dt_iov(MPI_Datatype dt, const void *buf, MPI_Count count,
                 ucmpi_dt_iov_t **iov, size_t *n);

#endif
