/* MPI_Barrier algorithms. */
#ifndef UCMPI_COLL_BARRIER_H
#define UCMPI_COLL_BARRIER_H

#include "coll/coll_util.h"
#include "coll/shm/shm.h"

enum { UCMPI_BARRIER_DISSEMINATION, UCMPI_BARRIER_KNOMIAL, UCMPI_BARRIER_SHM,
       UCMPI_BARRIER_HIERARCHICAL };

/* ceil(log2 n) rounds of zero-byte messages to rank + 2^i. */
int ucmpi_barrier_dissemination(ucmpi_sched_t *s, const ucmpi_coll_grp_t *g);
/* Fan-in then fan-out over a radix-k tree rooted at member 0. */
int ucmpi_barrier_knomial(ucmpi_sched_t *s, const ucmpi_coll_grp_t *g, int k);
/* Its fan-in (in: children to parent) or fan-out (parent to children). */
int ucmpi_barrier_fan(ucmpi_sched_t *s, const ucmpi_coll_grp_t *g, int k,
                      int in);
/* One round of zero-byte messages between root and every other member. */
int ucmpi_barrier_star(ucmpi_sched_t *s, const ucmpi_coll_grp_t *g,
                       int root);
/* Node-aware: fan-in to node leaders, leaders' dissemination, fan-out. */
int ucmpi_barrier_hier(ucmpi_sched_t *s, ucmpi_comm_t *comm);
/* Intercommunicator barrier; local is comm's local intracommunicator. */
int ucmpi_barrier_inter(ucmpi_sched_t *s, ucmpi_comm_t *comm,
                        ucmpi_comm_t *local);
#endif
