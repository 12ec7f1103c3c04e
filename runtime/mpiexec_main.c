/*
 * mpiexec (also installed as mpirun): runs one MPI job on this node.
 * Order (docs/architecture.md, PMIx facts): signals blocked, private
 * tmpdir, PMIx server, job registration, per-rank setup and fork/exec,
 * then the wait loop.
 */
#define _GNU_SOURCE
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove(path);
}

static int make_tmpdir(mx_job_t *job)
{
    const char *base = getenv("TMPDIR");

    /* PMIx puts its socket there: keep clear of the 108-byte socket path limit */
    if (base == NULL || *base == '\0' || strlen(base) > 60)
        base = "/tmp";
    snprintf(job->tmpdir, sizeof(job->tmpdir), "%s/ucmpi-mpiexec.XXXXXX", base);
    if (mkdtemp(job->tmpdir) == NULL) {          /* mode 0700 */
        mx_log("cannot create a directory in %s: %s", base, strerror(errno));
        job->tmpdir[0] = '\0';
        return -1;
    }
    return 0;
}

/* Each rank costs us 3 pipes and a PMIx socket: use all the descriptors we may. */
static void raise_fd_limit(void)
{
    struct rlimit rl;

    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

/* Reading a terminal from the background would stop us (SIGTTIN). */
static int stdin_usable(void)
{
    if (fcntl(0, F_GETFD) < 0)
        return 0;
    return !isatty(0) || tcgetpgrp(0) == getpgrp();
}

static int job_init(mx_job_t *job, int argc, char **argv, int *exit_code)
{
    if (mx_parse_args(argc, argv, &job->args, exit_code) != 0)
        return -1;
    job->t_start = mx_now();
    /* for our name service, the ranks and the jobs they spawn */
    if (job->args.nameserver != NULL)
        setenv("UCMPI_NAMESERVER", job->args.nameserver, 1);
    job->np = job->args.np;
    job->stdin_fd = -1;
    job->abort_rank = -1;
    for (int a = 0; a < job->args.napps; a++) {
        job->app_exe[a] = mx_find_exe(job->args.app_argv[a][0]);
        if (job->app_exe[a] == NULL) {
            mx_log("cannot run '%s': not found or not executable",
                   job->args.app_argv[a][0]);
            *exit_code = MX_EXIT_NOEXEC;
            return -1;
        }
    }
    job->exe = job->app_exe[0];
    job->ranks = calloc(job->np, sizeof(mx_rank_t));
    job->base_env = mx_base_env(&job->args);
    if (job->ranks == NULL || job->base_env == NULL ||
        pipe2(job->event_pipe, O_NONBLOCK | O_CLOEXEC) != 0) {
        mx_log("out of resources");
        *exit_code = 1;
        return -1;
    }
    for (int r = 0; r < job->np; r++)
        job->ranks[r].out.fd = job->ranks[r].err.fd = -1;
    pthread_mutex_init(&job->lock, NULL);
    snprintf(job->nspace, sizeof(job->nspace), "ucmpi.%d", (int)getpid());
    job->forward_stdin = stdin_usable();
    raise_fd_limit();
    return 0;
}

int main(int argc, char **argv)
{
    static mx_job_t job;
    sigset_t block;
    int rc = 1;

    /* PMIx's shared-memory store (gds ds21) creates and zeroes 8 MB of
     * segments per job and costs every client a mapping: one node and
     * short jobs are better served by the hash store (server and ranks) */
    setenv("PMIX_MCA_gds", "hash", 0);
    if (job_init(&job, argc, argv, &rc) != 0)
        return rc;
    /* PMIx's threads inherit this mask; children restore theirs before exec */
    signal(SIGPIPE, SIG_IGN);
    sigemptyset(&block);
    /* SIGUSR1: the spawning mpiexec's --timeout (mpiexec_dyn.c) */
    for (int s = 0, all[] = {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1}; s < 6; s++)
        sigaddset(&block, all[s]);
    sigprocmask(SIG_BLOCK, &block, NULL);
    if (make_tmpdir(&job) != 0)
        return 1;
    mx_calls_create(&job);
    if (job.calls != NULL) {
        char **env = mx_env_put(job.base_env, job.calls_env);
        if (env != NULL)
            job.base_env = env;
    }
    mx_dyn_init(&job);
    if (mx_pmix_start(&job) != 0) {
        nftw(job.tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        return 1;
    }
    if (mx_pmix_register_job(&job) != 0 || mx_pmix_register_clients(&job) != 0 ||
        mx_spawn(&job) != 0) {
        job.failed = job.abnormal = 1;
        job.exit_code = 1;
    }
    if (job.args.verbose)
        mx_log("%d ranks started in %.3f s", job.np, mx_now() - job.t_start);
    rc = mx_wait_job(&job);
    rc = mx_dyn_finish(&job, rc);
    mx_names_cleanup();
    mx_shm_cleanup(&job);
    mx_pmix_stop(&job);
    mx_calls_destroy(&job);
    nftw(job.tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return rc;
}
