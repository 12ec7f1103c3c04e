/*
 * Pure helpers of the runtime client (no PMIx calls), kept apart so unit
 * tests can call them: launcher detection, rank lists, node numbering.
 */
#ifndef UCMPI_RT_ENV_H
#define UCMPI_RT_ENV_H

#include <stddef.h>
#include <stdint.h>

/* 1 if the environment names a PMIx server (PMIX_NAMESPACE, PMIX_SERVER_URI*). */
int ucmpi_rt_pmix_env_present(void);

/* 1 if a multi-process launcher's environment is visible (srun, hydra,
 * Open MPI, ...); `what` gets a short description such as
 * "SLURM_STEP_ID with 4 tasks". 0 when none is. */
int ucmpi_rt_launcher_visible(char *what, size_t len);

/* Parses "0,1,5" (also ranges "2-4") into a malloc'd ascending array. */
int ucmpi_rt_parse_ranks(const char *csv, int **ranks, int *n);

/* Renumbers node identifiers into 0..num_nodes-1 in ascending id order. */
int ucmpi_rt_compact_nodes(const uint32_t *ids, int n, int *node_of, int *num_nodes);

/* UCMPI_FT=ulfm under another launcher than ucmpi's mpiexec: a keeper
 * process holds the PMIx connection so that a rank's death does not end the
 * job (runtime/rt_keeper.c). */
int ucmpi_rt_keeper_wanted(void);
void ucmpi_rt_keeper_start(void);
void ucmpi_rt_keeper_stop(void);

#endif /* UCMPI_RT_ENV_H */
