/* Do send and receive buffers share bytes (MPI forbids it; ranks could hang)?
 * Each rank checks its own, flagging only a byte provably in both. */
#ifndef UCMPI_COLL_ALIAS_H
#define UCMPI_COLL_ALIAS_H

#include <stdint.h>
#include "comm/comm.h"
#include "datatype/datatype.h"

/* One side: n blocks at buf, one of count x dt, or block i counts[i] of
 * dts ? dts[i] : dt at displs[i] extents of dt (bytes with dts). */
typedef struct {
    const void *buf;
    int n;
    MPI_Count count;
    MPI_Datatype dt;
    const int *counts;
    const MPI_Count *ccounts;
    const int *displs;
    const MPI_Aint *adispls;
    const MPI_Datatype *dts;
} ucmpi_coll_side_t;

/* Bytes [lo, hi) that count elements of dt at address base may touch. */
typedef struct {
    intptr_t lo, hi;
} ucmpi_coll_span_t;

static inline ucmpi_coll_span_t ucmpi_coll_span(intptr_t base,
                                                MPI_Count count,
                                                MPI_Datatype dt)
{
    ucmpi_coll_span_t sp = {0, 0};
    intptr_t step;

    if (count <= 0 || dt->size == 0)
        return sp;    /* empty: touches nothing */
    step = (intptr_t)((count - 1) * dt->extent);
    sp.lo = base + dt->true_lb + (step < 0 ? step : 0);
    sp.hi = base + dt->true_lb + dt->true_extent + (step > 0 ? step : 0);
    return sp;
}

/* The slow part of ucmpi_coll_alias1: bounding spans overlap and a type
 * has holes, so compare the bytes the types really touch. */
int ucmpi_coll_alias_exact(const void *a, MPI_Count acount, MPI_Datatype adt,
                           const void *b, MPI_Count bcount,
                           MPI_Datatype bdt);

/* 1 when (a, acount, adt) and (b, bcount, bdt) share a byte (separate
 * buffers: two spans and two compares). */
static inline int ucmpi_coll_alias1(const void *a, MPI_Count acount,
                                    MPI_Datatype adt, const void *b,
                                    MPI_Count bcount, MPI_Datatype bdt)
{
    ucmpi_coll_span_t x = ucmpi_coll_span((intptr_t)a, acount, adt);
    ucmpi_coll_span_t y = ucmpi_coll_span((intptr_t)b, bcount, bdt);

    if (x.lo == x.hi || y.lo == y.hi || x.hi <= y.lo || y.hi <= x.lo)
        return 0;
    if (adt->contig && bdt->contig)
        return 1;
    return ucmpi_coll_alias_exact(a, acount, adt, b, bcount, bdt);
}

/* 1 when some block of s shares a byte with some block of r: O(n) when the
 * sides' bounding spans are disjoint, O(n log n) otherwise. */
int ucmpi_coll_alias(const ucmpi_coll_side_t *s, const ucmpi_coll_side_t *r);

/* MPI_ERR_BUFFER through comm's handler when the sides alias. */
int ucmpi_coll_alias_err(ucmpi_comm_t *comm, const char *fn);

static inline int ucmpi_coll_check_alias1(ucmpi_comm_t *comm, const void *a,
                                          MPI_Count acount, MPI_Datatype adt,
                                          const void *b, MPI_Count bcount,
                                          MPI_Datatype bdt, const char *fn)
{
    if (ucmpi_coll_alias1(a, acount, adt, b, bcount, bdt))
        return ucmpi_coll_alias_err(comm, fn);
    return MPI_SUCCESS;
}

static inline int ucmpi_coll_check_alias(ucmpi_comm_t *comm,
                                         const ucmpi_coll_side_t *s,
                                         const ucmpi_coll_side_t *r,
                                         const char *fn)
{
    if (ucmpi_coll_alias(s, r))
        return ucmpi_coll_alias_err(comm, fn);
    return MPI_SUCCESS;
}

#endif
