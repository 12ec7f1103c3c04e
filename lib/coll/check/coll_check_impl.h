/* The argument check's messages: records and verdicts; fixed-width fields,
 * as ranks of one job share a byte order. */
#ifndef UCMPI_COLL_CHECK_IMPL_H
#define UCMPI_COLL_CHECK_IMPL_H

#include "coll/check/coll_check.h"
#include "comm/comm.h"

#include <stddef.h>
#include <stdint.h>

/* op field: no op, or a user op (every user op counts as equal) */
#define UCMPI_CCK_NO_OP (-2)
#define UCMPI_CCK_USER_OP (-1)
/* a signature that matches any of the same size (MPI_BYTE, MPI_PACKED) */
#define UCMPI_CCK_ANY_SIG UINT64_C(0)

/* What r tells peer p: its call and the data to and from p; first: the
 * signature's first basic type (ucmpi_dt_predefined index, -1 none). */
typedef struct {
    uint32_t coll;            /* collective id (sched_sig.c) */
    uint32_t invalid;         /* its arguments fail a local check */
    int32_t root;             /* -1: not rooted */
    int32_t op;               /* predefined op id, or UCMPI_CCK_*_OP */
    uint64_t sbytes, ssig;    /* what r sends p */
    uint64_t rbytes, rsig;    /* what r expects from p */
    int32_t sfirst, rfirst;
} ucmpi_cck_rec_t;

/* Kinds of disagreement, the worst first (the one every rank reports). */
enum {
    UCMPI_CCK_V_OK = 0,
    UCMPI_CCK_V_COLL = 1,       /* different collectives: MPI_ERR_OTHER */
    UCMPI_CCK_V_ROOT = 2,       /* MPI_ERR_ROOT */
    UCMPI_CCK_V_OP = 3,         /* MPI_ERR_OP */
    UCMPI_CCK_V_SIZE = 4,       /* bytes differ: MPI_ERR_TRUNCATE */
    UCMPI_CCK_V_TYPE = 5        /* same bytes, other types: MPI_ERR_TYPE */
};

/* A disagreement of ranks a and b (SIZE, TYPE: a sends, b receives) with
 * the values each passed. */
typedef struct {
    int32_t kind;             /* UCMPI_CCK_*; OK: none seen */
    int32_t a, b;
    int32_t pad;
    int64_t va, vb;
    int64_t bytes;
} ucmpi_cck_verdict_t;

/* This rank's records for its n peers (out[p], out[me] unused) from its
 * arguments a; comm is valid. */
void ucmpi_cck_fill(ucmpi_comm_t *comm, const ucmpi_coll_check_args_t *a,
                    const char *fn, ucmpi_cck_rec_t *out);
/* The worst disagreement between this rank's records (mine[p]: what it
 * told p) and what its peers told it (theirs[p]); n ranks, me this one. */
void ucmpi_cck_judge(const ucmpi_cck_rec_t *mine,
                     const ucmpi_cck_rec_t *theirs, int n, int me,
                     ucmpi_cck_verdict_t *v);
/* *v becomes c where c is worse (the smaller kind, then ranks). */
void ucmpi_cck_worse(ucmpi_cck_verdict_t *v, const ucmpi_cck_verdict_t *c);
/* The verdict's error class and message (for any rank: no local data). */
int ucmpi_cck_class(const ucmpi_cck_verdict_t *v);
void ucmpi_cck_why(const ucmpi_cck_verdict_t *v, char *buf, size_t n);

#endif
