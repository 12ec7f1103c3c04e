/*
 * mpiexec: single-node launcher hosting a PMIx server.  Shared state of the
 * launcher's parts (args, pmix server, spawn/stdio, binding, wait policy).
 * It is a program of its own, so its internal names use the short mx_ prefix.
 */
#ifndef UCMPI_MPIEXEC_H
#define UCMPI_MPIEXEC_H

#include <pthread.h>
#include "rt_calls.h"
#include <stddef.h>
#include <sys/types.h>

enum { MX_BIND_AUTO, MX_BIND_NONE, MX_BIND_CORE };
#define MX_MAX_APPS 64

/* exit codes of mpiexec itself (others come from the ranks) */
enum { MX_EXIT_USAGE = 2, MX_EXIT_TIMEOUT = 124, MX_EXIT_NOEXEC = 127 };

typedef struct {
    int np;
    int bind;                 /* MX_BIND_* */
    int tag_output;
    int verbose;
    int keep_going;           /* --disable-auto-cleanup: a failed rank ends only itself */
    double ft_stopped;        /* --ft-stop-timeout: keep_going declares a rank
                                 stopped this long failed (0: never) */
    double timeout;           /* seconds; 0: none */
    int universe;             /* MPI_UNIVERSE_SIZE; 0: max(np, CPUs) */
    const char *nameserver;   /* --nameserver host:port; NULL: none */
    char **env;               /* "VAR=val" to set in every rank */
    int nenv;
    char **argv;              /* the command to run, NULL-terminated */
    /* MPMD (`-n 1 ./a : -n 2 ./b`): each app's ranks and command; app 0's
     * command is argv; np is the sum */
    int napps;
    int app_np[MX_MAX_APPS];
    char **app_argv[MX_MAX_APPS];
    const char *app_wdir[MX_MAX_APPS];   /* --wdir: the ranks' directory */
} mx_args_t;

/* buffered output of one rank's stdout or stderr */
typedef struct {
    int fd;                   /* read end of the pipe; -1 after EOF */
    int dest;                 /* 1 or 2 */
    size_t len;
    char buf[4096];           /* partial line waiting for its end (--tag-output) */
} mx_stream_t;

typedef struct {
    pid_t pid;                /* also the rank's process group */
    int alive;
    int wstatus;
    int connected;            /* PMIx_Init done (set by the PMIx thread) */
    int finalized;            /* PMIx_Finalize done (set by the PMIx thread) */
    double stopped_at;        /* mx_now() when it stopped (SIGSTOP); 0: running */
    mx_stream_t out, err;
} mx_rank_t;

typedef struct {
    mx_args_t args;
    int np;
    mx_rank_t *ranks;
    char nspace[256];
    char tmpdir[256];
    char *exe;                /* resolved path of args.argv[0] */
    char *app_exe[MX_MAX_APPS];   /* of each app's command (app 0: exe) */
    char **base_env;          /* environment every rank starts from */
    void *topology;           /* hwloc, shared with the PMIx server; may be NULL */
    const ucmpi_rt_slot_t *calls;   /* what each rank blocks in; NULL: unknown */
    size_t calls_len;
    char calls_env[600];      /* UCMPI_CALL_SLOTS=path, for the ranks */
    int forward_stdin;        /* our stdin goes to rank 0 (else /dev/null) */
    int stdin_fd;             /* write end to rank 0's stdin; -1: none */
    int event_pipe[2];        /* PMIx thread -> main loop wake-up */

    /* set once by the PMIx thread, read by the main loop */
    pthread_mutex_t lock;
    int abort_rank;           /* -1: nobody called abort */
    int abort_code;
    char *abort_msg;

    /* end of job */
    int failed;               /* a failure was reported: exit_code is final */
    int exit_code;
    int abnormal;             /* skip PMIx server finalize (docs/architecture.md) */
    double t_start, t_failed; /* for --verbose timings */
} mx_job_t;

/* The app (MPMD command) rank r runs. */
static inline int mx_app_of(const mx_args_t *a, int r)
{
    int k = 0;
    while (k + 1 < a->napps && r >= a->app_np[k])
        r -= a->app_np[k++];
    return k;
}

/* mpiexec_args.c: 0 to run the job; 1 to exit at once with *exit_code
 * (--help, --version, usage errors). */
int mx_parse_args(int argc, char **argv, mx_args_t *args, int *exit_code);
void mx_args_free(mx_args_t *args);

/* mpiexec_pmix.c */
int mx_pmix_start(mx_job_t *job);
int mx_pmix_register_job(mx_job_t *job);
int mx_pmix_register_clients(mx_job_t *job);
int mx_pmix_setup_rank(mx_job_t *job, int rank, char ***env);
void mx_pmix_stop(mx_job_t *job);

/* mpiexec_dyn.c: jobs spawned by the ranks (MPI_Comm_spawn) */
void mx_dyn_init(const mx_job_t *job);
int mx_dyn_reaped(pid_t pid, int wstatus);
int mx_dyn_finish(const mx_job_t *job, int rc);
/* Our --timeout expired: each running spawned job reports and ends too. */
void mx_dyn_timeout(void);
/* mpiexec_names.c: names the ranks published and left (at the end) */
void mx_names_cleanup(void);

/* mpiexec_spawn.c */
char **mx_base_env(const mx_args_t *args);
char **mx_env_put(char **env, const char *entry);
char *mx_find_exe(const char *name);
int mx_spawn(mx_job_t *job);
int mx_stream_read(mx_job_t *job, int rank, mx_stream_t *s);
void mx_stream_flush(mx_job_t *job, int rank, mx_stream_t *s);

/* mpiexec_bind.c: the node's topology (once), per-rank CPU masks or none
 * (then *masks is NULL) */
void *mx_topology_load(void);
void mx_topology_free(void *topo);
int mx_bind_plan(const mx_args_t *args, void *topology, void **masks, size_t *mask_size);
int mx_bind_apply(const void *masks, size_t mask_size, int rank);
/* CPUs this process may run on (a plain system call: safe after fork) */
int mx_cpus_allowed(void);

/* mpiexec_calls.c: the ranks' call slots and the --timeout report */
void mx_calls_create(mx_job_t *job);
void mx_calls_report(const mx_job_t *job);
void mx_calls_destroy(mx_job_t *job);

/* mpiexec_shm.c: once the ranks are gone, remove the shared-memory
 * segment names they left (a rank killed between creating and unlinking) */
void mx_shm_cleanup(const mx_job_t *job);
/* Every rank learns that `rank` terminated (a PMIx event; jobs that go on). */
void mx_pmix_notify_failed(mx_job_t *job, int rank);

/* mpiexec_wait.c */
int mx_wait_job(mx_job_t *job);
void mx_wake(mx_job_t *job);

void mx_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
double mx_now(void);

#endif /* UCMPI_MPIEXEC_H */
