/*
 * The MPI-tag field of collective messages; the UCP tag's layout is in
 * lib/ucp_glue/tag.h.
 */
#ifndef UCMPI_TAG_H
#define UCMPI_TAG_H

#include "ucp_glue/tag.h"

/* The MPI-tag field of a collective message (sub-context UCMPI_CTX_COLL):
 *   [23:16]  signature (ucmpi_coll_sig; 0: unsigned, communicator
 *            management; 0xff: abort message; 0xf0: 0 bytes on this rank)
 *   [15:0]   sequence number (ucmpi_comm_next_coll_tag)
 * Ranks in different collectives or algorithms never match each other's
 * messages: they stall, and the stall probe finds the foreign signature
 * (lib/coll/check/sched_abort.c).  8 bits make it a checksum. */
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

/* The signature of collective coll (< UCMPI_COLL_SIG_COLLS), algorithm
 * alg (< UCMPI_COLL_SIG_ALGS) and shape: 8 coll + alg + 16 shape modulo
 * 251, mapped onto 1..252 minus 0xf0.  It tells apart every two (coll,
 * alg) of shape 0, two algorithms of one collective with shapes below 16,
 * and two shapes of one (coll, alg) less than 251 apart; other choices
 * may collide (then they match as unsigned schedules would). */
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
