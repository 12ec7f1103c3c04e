/* Performance variables: the table (mpit_pvar_table.c) and how a value is
 * read from the lower layers' counters. */
#ifndef UCMPI_MPIT_PVAR_H
#define UCMPI_MPIT_PVAR_H

#include "mpit/mpit.h"

#include <stdint.h>

/* Category indices (mpit.c's table). */
enum { UCMPI_MPIT_CAT_P2P, UCMPI_MPIT_CAT_COLL, UCMPI_MPIT_CAT_RMA };

/* Where the elements come from. */
enum {
    UCMPI_PVAR_ARRAY,             /* src[i * stride], i < n */
    UCMPI_PVAR_PEER,              /* field of each bound rank's peer record */
    UCMPI_PVAR_PEER_SUM,          /* field summed over every peer */
    UCMPI_PVAR_POSTED_LEVEL,      /* posted minus ended receives */
};

typedef struct {
    char name[64];
    const char *desc;
    int cls;                      /* MPI_T_PVAR_CLASS_* */
    int cat;                      /* UCMPI_MPIT_CAT_* */
    int bind;                     /* MPI_T_BIND_NO_OBJECT or _MPI_COMM */
    int continuous, readonly;
    int kind;                     /* UCMPI_PVAR_* */
    int n;                        /* elements when not bound */
    const uint64_t *src;
    int stride;
    int field;                    /* offset in ucmpi_p2p_peer_stats_t */
} ucmpi_mpit_pvar_t;

void ucmpi_mpit_pvar_table_init(void);
int ucmpi_mpit_pvar_count(void);
const ucmpi_mpit_pvar_t *ucmpi_mpit_pvar(int i);
/* The raw (since MPI_Init) values of v's n elements; peers: the world ranks
 * of a bound variable's elements. */
void ucmpi_mpit_pvar_raw(const ucmpi_mpit_pvar_t *v, const int *peers, int n,
                         uint64_t *out);

#endif
