/*
 * The MPI-tag field of collective messages; the UCP tag's layout is in
 * lib/ucp_glue/tag.h.
 */
#ifndef UCMPI_TAG_H
#define UCMPI_TAG_H

#include "ucp_glue/tag.h"

/* The MPI-tag field of a collective message (sub-context UCMPI_CTX_COLL):
 *   [23:16]  signature (ucmpi_coll_sig): the collective, its algorithm and
 *            shape (0: unsigned, communicator management; 0xff: an abort
 *            message; 0xf0: a call whose data is 0 bytes on this rank)
 *   [15:0]   the collective's sequence number (ucmpi_comm_next_coll_tag)
 * Ranks that called different collectives, or chose different algorithms
 * for one (counts that differ between ranks), never match each other's
 * messages: they stall, and the stalled schedule's probe finds the
 * foreign signature (lib/coll/check/sched_abort.c).  The other 40 bits of the
 * UCP tag are taken (context, source rank), so the signature is a
 * checksum of 8 bits, not the whole choice; see ucmpi_coll_sig for which
 * choices it always tells apart. */
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
 * alg (< UCMPI_COLL_SIG_ALGS) and shape: v = 8 coll + alg + 16 shape
 * modulo the prime 251, mapped onto 1..252 minus 0xf0.  It tells apart
 * (a) every two (coll, alg) with shape 0, (b) every two algorithms of
 * one collective with shapes below 16, (c) every two shapes of one
 * (coll, alg) that differ by less than 251 (ring_segmented's segment
 * counts, at most 64; roots).  Other choices collide when their sums
 * meet modulo 251 (e.g. coll c with shape 1 and coll c + 2 with shape
 * 0): such ranks match each other's messages as an unsigned schedule
 * would (a truncation error, wrong data or a hang). */
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
