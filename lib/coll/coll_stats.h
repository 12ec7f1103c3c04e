/* Collective counters that lib/mpit reads (MPI_T performance variables,
 * events, the profile): plain per-process increments, no atomics. */
#ifndef UCMPI_COLL_STATS_H
#define UCMPI_COLL_STATS_H

#include <stddef.h>
#include <stdint.h>

struct ucmpi_comm_s;

/* Collective ids are the signature's (check/sched_sig.c: 1.. in the order
 * of its table, 0: communicator management); algorithm ids the rows' ids
 * of each collective's table, the last column for others (intercomms). */
#define UCMPI_COLL_STATS_COLLS 32
#define UCMPI_COLL_STATS_ALGS 16

typedef struct {
    int on;                   /* count the calls (MPI_T or the profile) */
    uint64_t runs;            /* schedule runs, all collectives */
    uint64_t calls[UCMPI_COLL_STATS_COLLS];        /* entry-point calls */
    /* blocking calls that ran no message schedule: the on-node shm path
     * (or nothing to move) */
    uint64_t noschedule[UCMPI_COLL_STATS_COLLS];
    uint64_t alg[UCMPI_COLL_STATS_COLLS][UCMPI_COLL_STATS_ALGS];  /* runs */
    uint64_t bytes[UCMPI_COLL_STATS_COLLS];   /* this rank's receive bytes */
    /* each collective's algorithm table once seen (rows start {int id;
     * const char *name}), for the names */
    const void *tab[UCMPI_COLL_STATS_COLLS];
    size_t row[UCMPI_COLL_STATS_COLLS];
    int nrows[UCMPI_COLL_STATS_COLLS];
    /* set by lib/mpit while someone listens: a schedule of collective coll
     * starts with algorithm alg (name: NULL if unknown) */
    void (*on_alg)(struct ucmpi_comm_s *c, unsigned coll, int alg,
                   const char *name);
} ucmpi_coll_stats_t;

extern ucmpi_coll_stats_t ucmpi_coll_stats __attribute__((visibility("hidden")));

/* A run of schedule s begins (sched.c). */
struct ucmpi_sched;
void ucmpi_coll_count_run(struct ucmpi_sched *s);

/* Name of algorithm alg of collective coll once its table was seen. */
const char *ucmpi_coll_stats_alg_name(unsigned coll, int alg);


#endif
