/* The collective part of a schedule's signature (lib/p2p/tag.h) and its
 * decoding for mismatch messages. */
#ifndef UCMPI_COLL_SCHED_SIG_H
#define UCMPI_COLL_SCHED_SIG_H

#include "coll/check/sched_abort.h"

/* The collective an MPI call's name belongs to ("MPI_Iallgather_init_c"
 * -> Allgather), 1..; 0 when it is not a collective. */
unsigned ucmpi_coll_sig_id(const char *fn);
/* The id of the collective c's last collective entry point named
 * (c->coll.fn, set by ucmpi_coll_check_comm). */
unsigned ucmpi_coll_sig_comm_id(ucmpi_comm_t *c);
/* "Bcast" for Bcast's id; "another call" for 0. */
const char *ucmpi_coll_sig_coll_name(unsigned id);
/* The name of the algorithm of nm's table (nm->coll's) that signs with
 * sig at the smallest shape (below 64), or NULL. */
const char *ucmpi_coll_sig_alg_name(const ucmpi_coll_names_t *nm,
                                    unsigned sig);
/* The collective whose algorithms sign with sig at the smallest shape
 * (below 64), or 0: a guess where signatures collide (lib/p2p/tag.h). */
unsigned ucmpi_coll_sig_coll_of(unsigned sig);

#endif
