/*
 * Starting the ranks (environment, fork/exec, binding, stdio pipes) and
 * forwarding their output, whole lines tagged with [rank] on request.
 */
#define _GNU_SOURCE
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

extern char **environ;

/* Variables of an enclosing launcher would mislead our ranks' PMIx client. */
static int inherited(const char *e)
{
    if (!strncmp(e, "PMIX_MCA_", 9))
        return 1;
    return strncmp(e, "PMIX_", 5) != 0 && strncmp(e, "PMI_", 4) != 0 &&
           strncmp(e, "OMPI_COMM_WORLD", 15) != 0 &&
           strncmp(e, UCMPI_RT_CALLS_ENV "=", sizeof(UCMPI_RT_CALLS_ENV)) != 0;
}

static int env_replace(char **env, int n, const char *entry)
{
    size_t klen = strcspn(entry, "=") + 1;

    for (int i = 0; i < n; i++)
        if (!strncmp(env[i], entry, klen)) {
            free(env[i]);
            env[i] = strdup(entry);
            return n;
        }
    env[n] = strdup(entry);
    return n + 1;
}

char **mx_base_env(const mx_args_t *args)
{
    int total = 0, n = 0;
    char **env;

    while (environ[total] != NULL)
        total++;
    env = calloc(total + args->nenv + 3, sizeof(char *));
    if (env == NULL)
        return NULL;
    for (int i = 0; i < total; i++)
        if (inherited(environ[i]))
            env[n++] = strdup(environ[i]);
    n = env_replace(env, n, "UCMPI_LAUNCHER=mpiexec");   /* see ucmpi_rt_abort */
    /* All ranks share this node: UCX's TCP transport could only reach
     * other nodes, yet opening its interfaces costs each rank ~4 ms of CPU
     * at start-up.  Left to the user when UCX_TLS is set. */
    if (getenv("UCX_TLS") == NULL)
        n = env_replace(env, n, "UCX_TLS=^tcp");
    for (int i = 0; i < args->nenv; i++)
        n = env_replace(env, n, args->env[i]);
    env[n] = NULL;
    return env;
}

/* Adds or replaces VAR=value in a malloc'd environment; NULL if out of
 * memory (env is then still valid). */
char **mx_env_put(char **env, const char *entry)
{
    size_t klen = strcspn(entry, "=") + 1;
    char *copy = strdup(entry), **bigger;
    int n;

    if (copy == NULL)
        return NULL;
    for (n = 0; env[n] != NULL; n++)
        if (!strncmp(env[n], entry, klen)) {
            free(env[n]);
            env[n] = copy;
            return env;
        }
    bigger = realloc(env, (n + 2) * sizeof(char *));
    if (bigger == NULL) {
        free(copy);
        return NULL;
    }
    bigger[n] = copy;
    bigger[n + 1] = NULL;
    return bigger;
}

static char **env_copy(char **env)
{
    int n = 0;
    char **out;

    while (env[n] != NULL)
        n++;
    out = malloc((n + 1) * sizeof(char *));   /* setup_fork reallocs it */
    if (out == NULL)
        return NULL;
    for (int i = 0; i < n; i++)
        out[i] = strdup(env[i]);
    out[n] = NULL;
    return out;
}

static void env_free(char **env)
{
    for (int i = 0; env != NULL && env[i] != NULL; i++)
        free(env[i]);
    free(env);
}

static int runnable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The command's path as execvp would find it; NULL if there is none. */
char *mx_find_exe(const char *name)
{
    const char *path = getenv("PATH");
    char buf[4096];

    if (strchr(name, '/') != NULL)
        return runnable(name) ? strdup(name) : NULL;
    if (path == NULL)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path != '\0') {
        size_t len = strcspn(path, ":");
        snprintf(buf, sizeof(buf), "%.*s/%s", (int)(len ? len : 1), len ? path : ".", name);
        if (runnable(buf))
            return strdup(buf);
        path += len + (path[len] == ':');
    }
    return NULL;
}

/* Whether the ranks stay in mpiexec's session (see child_exec): set by
 * mx_spawn before the first fork. */
static int share_session;

static int ranks_yield(mx_job_t *job)
{
    for (char **e = job->base_env; e != NULL && *e != NULL; e++)
        if (strcmp(*e, "UCMPI_WAIT_MODE=poll") == 0)
            return 0;
    return job->np > mx_cpus_allowed();
}

/* In the child, before exec: only async-signal-safe calls. */
static void child_exec(mx_job_t *job, int rank, int in_fd, int out_fd, int err_fd,
                       char **env, const void *masks, size_t mask_size)
{
    sigset_t none;

    /* A session of its own (and so its own process group, killed as one):
     * with the kernel's autogroup scheduling, CPU time is shared between
     * sessions first, so ranks left in mpiexec's session share one slice
     * against every other session's load (hydra gives each rank a session
     * too; this is what made MPICH 1.3-2x faster at 2 ranks on a busy
     * node).  Not in the parent too: it would make us a group leader,
     * which setsid() refuses.
     * Not when ranks outnumber CPUs: a waiting rank must then hand its
     * CPU to the rank it waits for, and sched_yield() does that only
     * within one scheduling group (EEVDF yields reorder a group's own
     * tasks); in groups of their own, a yielding rank kept the CPU for
     * its whole slice, and small collectives got about a thousand times
     * slower than with the ranks left in mpiexec's session, as Open MPI
     * leaves them (docs/tuning.md); unless the ranks were told to spin
     * (UCMPI_WAIT_MODE=poll): spinners want fair slices, not handovers. */
    if (share_session || setsid() < 0)
        setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);    /* mpiexec killed hard: don't outlive it */
    dup2(in_fd, 0);
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    signal(SIGPIPE, SIG_DFL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (masks != NULL)
        mx_bind_apply(masks, mask_size, rank);
    int app = mx_app_of(&job->args, rank);
    const char *wdir = job->args.app_wdir[app];
    if (wdir != NULL && *wdir != '\0' && chdir(wdir) != 0)
        _exit(MX_EXIT_NOEXEC);
    execve(job->app_exe[app], job->args.app_argv[app], env);
    _exit(MX_EXIT_NOEXEC);
}

/* A raw pseudo-terminal: the rank's C library then flushes stdout at each
 * line, so a crash loses at most a partial line (as under Open MPI). */
static int open_pty(int *master, int *slave)
{
    struct termios t;
    char name[128];

    *master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (*master < 0)
        return -1;
    if (grantpt(*master) != 0 || unlockpt(*master) != 0 ||
        ptsname_r(*master, name, sizeof(name)) != 0 ||
        (*slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0) {
        close(*master);
        return -1;
    }
    if (tcgetattr(*slave, &t) == 0) {
        cfmakeraw(&t);                    /* no \r\n translation, no echo */
        tcsetattr(*slave, TCSANOW, &t);
    }
    return 0;
}

static int open_stream(mx_stream_t *s, int dest, int *child_end)
{
    int p[2];

    if (!(dest == 1 && open_pty(&p[0], &p[1]) == 0) && pipe2(p, O_CLOEXEC) != 0)
        return -1;
    s->fd = p[0];
    s->dest = dest;
    s->len = 0;
    *child_end = p[1];
    return 0;
}

static int spawn_one(mx_job_t *job, int rank, int devnull, const void *masks, size_t mask_size)
{
    mx_rank_t *r = &job->ranks[rank];
    int in_fd = devnull, in_pipe[2] = {-1, -1}, out_end, err_end;
    char **env = env_copy(job->base_env);
    pid_t pid;

    if (env == NULL || mx_pmix_setup_rank(job, rank, &env) != 0)
        goto err_env;
    if (open_stream(&r->out, 1, &out_end) != 0 || open_stream(&r->err, 2, &err_end) != 0) {
        mx_log("cannot create pipes: %s", strerror(errno));
        goto err_env;
    }
    if (rank == 0 && job->forward_stdin) {
        if (pipe2(in_pipe, O_CLOEXEC) != 0)
            goto err_env;
        in_fd = in_pipe[0];
    }
    pid = fork();
    if (pid == 0)
        child_exec(job, rank, in_fd, out_end, err_end, env, masks, mask_size);
    close(out_end);
    close(err_end);
    if (in_pipe[0] >= 0) {
        close(in_pipe[0]);
        job->stdin_fd = in_pipe[1];
        fcntl(in_pipe[1], F_SETFL, O_NONBLOCK);
    }
    env_free(env);
    if (pid < 0) {
        mx_log("fork failed: %s", strerror(errno));
        return -1;
    }
    r->pid = pid;
    r->alive = 1;
    return 0;

err_env:
    env_free(env);
    return -1;
}

/* Starts all ranks; job->stdin_fd becomes the pipe to rank 0's stdin, or -1. */
int mx_spawn(mx_job_t *job)
{
    void *masks = NULL;
    size_t mask_size = 0;
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC), rc = 0;

    if (devnull < 0 || mx_bind_plan(&job->args, job->topology, &masks, &mask_size) != 0) {
        mx_log("cannot prepare the launch");
        return -1;
    }
    share_session = ranks_yield(job);
    for (int r = 0; r < job->np && rc == 0; r++)
        rc = spawn_one(job, r, devnull, masks, mask_size);
    free(masks);
    close(devnull);
    return rc;
}

static void write_all(int fd, const char *p, size_t n)
{
    static int broken[3];     /* our stdout/stderr reader went away */

    while (n > 0 && !broken[fd]) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            broken[fd] = 1;
            return;
        }
        p += w;
        n -= w;
    }
}

static void emit_line(int rank, int dest, const char *p, size_t n)
{
    char tag[24];
    int t = snprintf(tag, sizeof(tag), "[%d] ", rank);

    write_all(dest, tag, t);
    write_all(dest, p, n);
}

/* Tagged output: whole lines only, the rest waits in s->buf. */
static void forward_tagged(int rank, mx_stream_t *s, const char *data, size_t n)
{
    while (n > 0) {
        const char *nl = memchr(data, '\n', n);
        size_t take = nl != NULL ? (size_t)(nl - data) + 1 : n;
        if (take > sizeof(s->buf) - s->len)
            take = sizeof(s->buf) - s->len;
        memcpy(s->buf + s->len, data, take);
        s->len += take;
        data += take;
        n -= take;
        if (s->buf[s->len - 1] == '\n' || s->len == sizeof(s->buf)) {
            emit_line(rank, s->dest, s->buf, s->len);
            s->len = 0;
        }
    }
}

/* Reads what is there; returns 0, or -1 at EOF (the stream is closed). */
int mx_stream_read(mx_job_t *job, int rank, mx_stream_t *s)
{
    char data[65536];
    ssize_t n = read(s->fd, data, sizeof(data));

    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return 0;
    if (n <= 0) {                         /* a pty's EOF is EIO */
        mx_stream_flush(job, rank, s);
        close(s->fd);
        s->fd = -1;
        return -1;
    }
    if (job->args.tag_output)
        forward_tagged(rank, s, data, n);
    else
        write_all(s->dest, data, n);
    return 0;
}

void mx_stream_flush(mx_job_t *job, int rank, mx_stream_t *s)
{
    if (s->len > 0)
        emit_line(rank, s->dest, s->buf, s->len);
    s->len = 0;
}
