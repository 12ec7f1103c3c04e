/*
 * mpiexec's spawn (PMIx server module's spawn): a spawned job is run by a
 * nested mpiexec, a child of this one, so stdio, exit and crash reports,
 * --timeout and its own PMIx namespace ("ucmpi.<its pid>") come from the
 * same code as the first job's.  The new processes learn how to reach
 * their parent from the environment the spawning process put in the app.
 */
#define _GNU_SOURCE
#include "mpiexec.h"

#include <pmix_server.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_NESTED 256

static struct {
    pid_t pid;
    int done, wstatus;
} nested[MAX_NESTED];
static int nnested;
static pthread_mutex_t nested_lock = PTHREAD_MUTEX_INITIALIZER;
static const mx_job_t *job_of_spawns;

extern char **environ;

void mx_dyn_init(const mx_job_t *job)
{
    job_of_spawns = job;
}

/* The main loop reaped pid: 1 if it was a nested mpiexec. */
int mx_dyn_reaped(pid_t pid, int wstatus)
{
    int found = 0;
    pthread_mutex_lock(&nested_lock);
    for (int i = 0; i < nnested && !found; i++)
        if (nested[i].pid == pid) {
            nested[i].done = 1;
            nested[i].wstatus = wstatus;
            found = 1;
        }
    pthread_mutex_unlock(&nested_lock);
    return found;
}

static const char *info_string(const pmix_info_t *info, size_t n,
                               const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (PMIX_CHECK_KEY(&info[i], key) &&
            info[i].value.type == PMIX_STRING)
            return info[i].value.data.string;
    return NULL;
}

/* The command as the nested mpiexec will find it: relative to the working
 * directory, else in `path` (the info key), else in PATH. */
static int command_found(const pmix_app_t *a, const char *path)
{
    char buf[8192];
    const char *cwd = a->cwd != NULL && *a->cwd ? a->cwd : ".";

    if (strchr(a->cmd, '/') != NULL) {
        if (a->cmd[0] == '/')
            snprintf(buf, sizeof(buf), "%s", a->cmd);
        else
            snprintf(buf, sizeof(buf), "%s/%s", cwd, a->cmd);
        return access(buf, X_OK) == 0;
    }
    if (path != NULL) {
        snprintf(buf, sizeof(buf), "%s/%s", path, a->cmd);
        if (access(buf, X_OK) == 0)
            return 1;
    }
    char *exe = mx_find_exe(a->cmd);
    free(exe);
    return exe != NULL;
}

static int host_ok(const char *host)
{
    char me[256];
    if (host == NULL || *host == '\0' || strcmp(host, "localhost") == 0)
        return 1;
    return gethostname(me, sizeof(me)) == 0 && strcmp(host, me) == 0;
}

/* mpiexec [--timeout T] [--disable-auto-cleanup] -x ENV... -n N cmd args
 * [: -n N cmd args]: the environment of every app (the spawning library
 * gives each the same).  The spawned job inherits the first job's deadline
 * and its failure policy. */
static char **nested_argv(const pmix_app_t apps[], size_t napps)
{
    size_t n = 5;
    for (size_t i = 0; i < napps; i++) {
        n += 6;
        for (char **e = apps[i].env; e && *e; e++)
            n += 2;
        for (char **v = apps[i].argv; v && *v; v++)
            n++;
    }
    char **av = calloc(n + 1, sizeof(char *)), tbuf[32];
    size_t k = 0;
    if (av == NULL)
        return NULL;
    av[k++] = strdup("/proc/self/exe");
    if (job_of_spawns != NULL && job_of_spawns->args.timeout > 0) {
        /* a backstop: at our deadline we tell it (mx_dyn_timeout) */
        double left = job_of_spawns->t_start + job_of_spawns->args.timeout -
                      mx_now() + 5;
        snprintf(tbuf, sizeof(tbuf), "%.3f", left > 1 ? left : 1);
        av[k++] = strdup("--timeout");
        av[k++] = strdup(tbuf);
    }
    if (job_of_spawns != NULL && job_of_spawns->args.keep_going)
        av[k++] = strdup("--disable-auto-cleanup");
    for (size_t i = 0; i < napps; i++)
        for (char **e = apps[i].env; e && *e; e++) {
            av[k++] = strdup("-x");
            av[k++] = strdup(*e);
        }
    for (size_t i = 0; i < napps; i++) {
        if (i > 0)
            av[k++] = strdup(":");
        snprintf(tbuf, sizeof(tbuf), "%d", apps[i].maxprocs);
        av[k++] = strdup("-n");
        av[k++] = strdup(tbuf);
        if (apps[i].cwd != NULL && *apps[i].cwd != '\0') {
            av[k++] = strdup("--wdir");
            av[k++] = strdup(apps[i].cwd);
        }
        av[k++] = strdup(apps[i].cmd);
        for (char **v = apps[i].argv; v && *v && v[1]; v++)
            av[k++] = strdup(v[1]);
    }
    return av;
}

static void free_strv(char **v)
{
    for (char **p = v; p && *p; p++)
        free(*p);
    free(v);
}

/* PATH with the app's `path` first, for the nested mpiexec's search. */
static char **nested_env(const char *path)
{
    size_t n = 0;
    while (environ[n] != NULL)
        n++;
    char **env = calloc(n + 2, sizeof(char *));
    size_t k = 0;
    for (size_t i = 0; env != NULL && i < n; i++) {
        if (path != NULL && strncmp(environ[i], "PATH=", 5) == 0)
            continue;
        env[k++] = strdup(environ[i]);
    }
    if (env != NULL && path != NULL) {
        const char *old = getenv("PATH");
        if (asprintf(&env[k], "PATH=%s%s%s", path, old ? ":" : "",
                     old ? old : "") < 0)
            env[k] = NULL;
    }
    return env;
}

pmix_status_t mx_dyn_spawn(const pmix_proc_t *proc, const pmix_info_t job_info[],
                           size_t ninfo, const pmix_app_t apps[], size_t napps,
                           pmix_spawn_cbfunc_t cbfunc, void *cbdata)
{
    const char *path = NULL, *cwd = NULL;
    char **av, **env, ns[PMIX_MAX_NSLEN + 1];
    sigset_t none;
    pid_t pid;

    if (napps == 0 || napps > MX_MAX_APPS || nnested >= MAX_NESTED)
        return PMIX_ERR_BAD_PARAM;
    for (size_t i = 0; i < napps; i++) {
        const char *p = info_string(apps[i].info, apps[i].ninfo, "ucmpi.path");
        if (apps[i].maxprocs <= 0 || apps[i].cmd == NULL)
            return PMIX_ERR_BAD_PARAM;
        if (!host_ok(info_string(apps[i].info, apps[i].ninfo, PMIX_HOST)))
            return PMIX_ERR_NOT_SUPPORTED;
        if (!command_found(&apps[i], p))
            return PMIX_ERR_NOT_FOUND;
        /* one working directory and path for the nested mpiexec */
        if (i == 0 || path == NULL)
            path = p;
        if (i == 0)
            cwd = apps[i].cwd;
    }
    av = nested_argv(apps, napps);
    env = nested_env(path);
    if (av == NULL || env == NULL) {
        free_strv(av);
        free_strv(env);
        return PMIX_ERR_NOMEM;
    }
    sigemptyset(&none);
    pthread_mutex_lock(&nested_lock);
    pid = fork();
    if (pid == 0) {
        /* only async-signal-safe calls until exec */
        sigprocmask(SIG_SETMASK, &none, NULL);
        setpgid(0, 0);
        if (cwd != NULL && *cwd != '\0' && chdir(cwd) != 0)
            _exit(MX_EXIT_NOEXEC);
        execve("/proc/self/exe", av, env);
        _exit(MX_EXIT_NOEXEC);
    }
    if (pid > 0)
        nested[nnested++].pid = pid;
    pthread_mutex_unlock(&nested_lock);
    free_strv(av);
    free_strv(env);
    if (pid < 0)
        return PMIX_ERR_OUT_OF_RESOURCE;
    snprintf(ns, sizeof(ns), "ucmpi.%d", (int)pid);
    if (cbfunc != NULL)
        cbfunc(PMIX_SUCCESS, ns, cbdata);
    return PMIX_SUCCESS;
}

void mx_dyn_timeout(void)
{
    pthread_mutex_lock(&nested_lock);
    for (int i = 0; i < nnested; i++)
        if (!nested[i].done)
            kill(nested[i].pid, SIGUSR1);
    pthread_mutex_unlock(&nested_lock);
}

/* After the first job ended: a failed job takes its spawned jobs down
 * (SIGTERM: each nested mpiexec ends its ranks); a finished one waits for
 * them.  A spawned job's failure makes mpiexec's exit code if it had none. */
int mx_dyn_finish(const mx_job_t *job, int rc)
{
    for (int i = 0; i < nnested; i++) {
        int st = 0;
        if (!nested[i].done && rc != 0)
            kill(nested[i].pid, SIGTERM);
        if (!nested[i].done) {
            while (waitpid(nested[i].pid, &st, 0) < 0 && errno == EINTR)
                ;
            nested[i].wstatus = st;
            nested[i].done = 1;
        }
        st = nested[i].wstatus;
        int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        if (code != 0 && rc == 0) {
            mx_log("spawned job ucmpi.%d ended with code %d", (int)nested[i].pid,
                   code);
            rc = code;
        }
    }
    (void)job;
    return rc;
}
