/*
 * ucmpi runtime client: process bootstrap over PMIx (or a singleton job).
 * No MPI semantics here.  All functions return 0 on success, -1 on failure
 * after printing one line "ucmpi: <what failed>: <why>" to stderr.
 */
#ifndef UCMPI_RT_H
#define UCMPI_RT_H

#include <stddef.h>

typedef struct {
    int rank, size;           /* in the job (MPI_COMM_WORLD) */
    int local_rank, local_size;
    int *local_peers;         /* malloc'd: job ranks on this node, ascending */
    int *node_of;             /* malloc'd [size]: node index of each rank */
    int num_nodes;
    int appnum;
    int universe_size;
    int singleton;            /* 1: no launcher, a one-process job */
    char hostname[256];
    char nspace[256];         /* the job's name, unique on the machine (PMIx
                                 namespace; singleton: from host and pid) */
    int oversubscribed;       /* more ranks on this node than online CPUs:
                                 waiting loops should yield or block */
} ucmpi_rt_info_t;

/* Connects to the PMIx server (or becomes a singleton when none is there and
 * no launcher is visible; refuses to start, with advice, when a launcher's
 * environment is visible but no PMIx server answers). */
int ucmpi_rt_init(ucmpi_rt_info_t *info);

/* Key/value exchange (modex): put, commit, then fence, then get. */
int ucmpi_rt_put(const char *key, const void *data, size_t len);
int ucmpi_rt_commit(void);
/* Collective over the job. While waiting it calls progress() repeatedly
 * (may be NULL) so the caller's network keeps moving; progress() returning
 * nonzero gives the fence up (a peer died) and makes this return 1.
 * collect_data=1 makes committed values visible to ucmpi_rt_get. */
int ucmpi_rt_fence(int collect_data, int (*progress)(void));
/* *data is a malloc'd copy the caller frees. */
int ucmpi_rt_get(int rank, const char *key, void **data, size_t *len);

/* Process failures the launcher reports (PMIx process-termination events:
 * mpiexec sends them when the job goes on after a failure): fn(rank) runs on
 * the runtime's own thread for each rank of this job that terminated, so it
 * may only record.  fn NULL: stop.  Nothing happens for a singleton. */
int ucmpi_rt_on_proc_failed(void (*fn)(int rank));
/* One command of a spawn: argv[0] is the command; env: extra "VAR=value"
 * for the new processes; wdir, path (where to look for cmd), host: NULL
 * for the launcher's choice. */
typedef struct {
    const char *cmd;
    char *const *argv;
    int maxprocs;
    char *const *env;
    const char *wdir, *path, *host;
} ucmpi_rt_app_t;
/* Starts a new job of napps commands through the launcher; its namespace
 * into nspace.  -1 with the reason in why (nothing printed). */
int ucmpi_rt_spawn(const ucmpi_rt_app_t *apps, int napps, char *nspace,
                   size_t len, char *why, size_t wlen);

/* Names through the launcher (rt_names.c); -1 with the reason in why.
 * publish: *dup is 1 when the name is taken. */
int ucmpi_rt_publish(const char *key, const char *value, int *dup, char *why,
                     size_t wlen);
int ucmpi_rt_lookup(const char *key, char *value, size_t len, char *why,
                    size_t wlen);
int ucmpi_rt_unpublish(const char *key, char *why, size_t wlen);
/* A ucmpi_nameserver was named (UCMPI_NAMESERVER): names work even
 * without a launcher. */
int ucmpi_rt_has_nameserver(void);

/* Ends the whole job with `code`; `msg` is printed by the launcher. */
void ucmpi_rt_abort(int code, const char *msg) __attribute__((noreturn));

int ucmpi_rt_finalize(void);

/* Frees info's malloc'd arrays (local_peers, node_of); call any time after init. */
void ucmpi_rt_info_free(ucmpi_rt_info_t *info);

#endif /* UCMPI_RT_H */
