/* The MPI-tag field of collective messages (UCP tag: lib/ucp_glue/tag.h). */
#ifndef UCMPI_TAG_H
#define UCMPI_TAG_H

#include "ucp_glue/tag.h"

/* [23:16] signature, [15:0] sequence number; why and how: docs/architecture.md,
 * "lib/p2p internals". */
#define UCMPI_COLL_SEQ_BITS 16
#define UCMPI_COLL_SEQ_MASK UCMPI_TAG_FIELD(UCMPI_COLL_SEQ_BITS)
#define UCMPI_COLL_SIG_BITS 8
#define UCMPI_COLL_SIG_ABORT 0xffu
/* An empty collective (this rank's data is 0 bytes: ucmpi_coll_run_empty),
 * which ucmpi_coll_sig never makes. */
#define UCMPI_COLL_SIG_EMPTY 0xf0u
/* Collective ids (lib/coll/check/sched_sig.c) and algorithm ids it takes. */
#define UCMPI_COLL_SIG_COLLS 31
#define UCMPI_COLL_SIG_ALGS 8
#define UCMPI_COLL_SIG_MOD 251u

/* 8 coll + alg + 16 shape modulo 251, onto 1..252 minus 0xf0: which choices
 * it tells apart is in docs/architecture.md, "lib/p2p internals". */
static inline unsigned ucmpi_coll_sig(unsigned coll, unsigned alg,
                                      unsigned shape)
{
    unsigned v = (8u * coll + alg % UCMPI_COLL_SIG_ALGS +
                  16u * (shape % UCMPI_COLL_SIG_MOD)) % UCMPI_COLL_SIG_MOD;

    return v + 1 + (v + 1 >= UCMPI_COLL_SIG_EMPTY);
}

static inline int ucmpi_coll_tag(int seq, unsigned sig)
{
    return (int)(((unsigned)seq & UCMPI_COLL_SEQ_MASK) |
                 (sig << UCMPI_COLL_SEQ_BITS));
}

static inline unsigned ucmpi_coll_tag_sig(uint64_t t)
{
    return (unsigned)(t >> UCMPI_COLL_SEQ_BITS) &
           UCMPI_TAG_FIELD(UCMPI_COLL_SIG_BITS);
}

#endif
