/*
 * The launcher's main loop and exit policy: forwards output and stdin, reaps
 * ranks, and ends the whole job at the first failure (crash, exit before
 * finalize, abort, timeout, signal to mpiexec), exiting with its code.
 */
#define _GNU_SOURCE
#include "mpiexec.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MX_GRACE 0.25             /* seconds between SIGTERM and SIGKILL */
#define MX_DRAIN 1.0              /* seconds to wait for output after the last exit */
#define MX_GIVE_UP 5.0            /* seconds after SIGKILL before leaving unkillable ranks */

static struct {
    int sigfd;
    int nalive;
    int ending;                   /* ranks were told to stop */
    int abort_seen;
    int no_init_rank;             /* first rank that exited 0 unconnected; -1: none */
    double deadline;              /* --timeout; 0: none */
    double kill_at;               /* SIGKILL the rest; 0: not scheduled */
    double give_up_at;            /* stop waiting for ranks that ignore SIGKILL */
    double drain_until;           /* after the last exit */
    char inbuf[65536];            /* our stdin on its way to rank 0 */
    size_t inlen, inoff;
    int in_eof;
} w;

double mx_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void mx_log(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (n > (int)sizeof(line) - 2)
        n = sizeof(line) - 2;
    line[n] = '\n';
    fprintf(stderr, "mpiexec: %.*s", n + 1, line);
    fflush(stderr);
}

void mx_wake(mx_job_t *job)
{
    char c = 1;
    ssize_t rc = write(job->event_pipe[1], &c, 1);   /* full pipe: already awake */
    (void)rc;
}

static void signal_groups(mx_job_t *job, int sig, int only_alive)
{
    for (int r = 0; r < job->np; r++)
        if (job->ranks[r].pid > 0 && (job->ranks[r].alive || !only_alive)) {
            pid_t g = -job->ranks[r].pid;

            /* ESRCH: the child has not made its session yet */
            if (kill(g, 0) != 0 && errno == ESRCH)
                g = job->ranks[r].pid;
            if (sig != SIGKILL)
                kill(g, SIGCONT);
            kill(g, sig);
        }
}

static void end_job(mx_job_t *job, int sig)
{
    if (w.ending) {
        signal_groups(job, SIGKILL, 1);
        return;
    }
    w.ending = 1;
    signal_groups(job, sig, 1);
    w.kill_at = mx_now() + MX_GRACE;
}

/* Logs a failure; the first one decides the exit code. */
static void report_failure(mx_job_t *job, int code, const char *fmt, va_list ap)
{
    char msg[1024];

    job->abnormal = 1;
    if (job->failed && !job->args.keep_going)
        return;                       /* the job is ending: one line is enough */
    vsnprintf(msg, sizeof(msg), fmt, ap);
    mx_log("%s", msg);
    if (job->failed)
        return;
    job->failed = 1;
    job->exit_code = code;
    job->t_failed = mx_now();
}

/* A failure that ends the job. */
static void fail(mx_job_t *job, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(mx_job_t *job, int code, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    report_failure(job, code, fmt, ap);
    va_end(ap);
    end_job(job, SIGTERM);
}

/* A rank failed.  With --disable-auto-cleanup the others go on (talking to
 * it gives them MPI_ERR_PROC_FAILED); without it, as fail(). */
static void rank_failed(mx_job_t *job, int rank, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void rank_failed(mx_job_t *job, int rank, int code, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    report_failure(job, code, fmt, ap);
    va_end(ap);
    if (!job->args.keep_going)
        end_job(job, SIGTERM);
    else
        mx_pmix_notify_failed(job, rank);   /* the survivors learn it at once */
}

static void check_abort(mx_job_t *job)
{
    int rank, code;
    char *msg;

    if (w.abort_seen)
        return;
    pthread_mutex_lock(&job->lock);
    rank = job->abort_rank;
    code = job->abort_code;
    msg = job->abort_msg;
    pthread_mutex_unlock(&job->lock);
    if (rank < 0)
        return;
    w.abort_seen = 1;
    if (msg != NULL)
        fail(job, code, "rank %d aborted the job with code %d: %s", rank, code, msg);
    else
        fail(job, code, "rank %d aborted the job with code %d", rank, code);
}

static int others_running(mx_job_t *job, int rank)
{
    for (int r = 0; r < job->np; r++)
        if (r != rank && job->ranks[r].alive &&
            !__atomic_load_n(&job->ranks[r].finalized, __ATOMIC_ACQUIRE))
            return 1;
    return 0;
}

static int any_connected(mx_job_t *job)
{
    for (int r = 0; r < job->np; r++)
        if (__atomic_load_n(&job->ranks[r].connected, __ATOMIC_ACQUIRE))
            return 1;
    return 0;
}

static int aborted_by(mx_job_t *job, int rank)
{
    int who;

    pthread_mutex_lock(&job->lock);
    who = job->abort_rank;
    pthread_mutex_unlock(&job->lock);
    return who == rank;
}

static int first_connected(mx_job_t *job)
{
    for (int r = 0; r < job->np; r++)
        if (__atomic_load_n(&job->ranks[r].connected, __ATOMIC_ACQUIRE))
            return r;
    return -1;
}

/* A rank ended without ever calling MPI_Init (exit 0, never connected)
 * while others use MPI: their MPI_Init cannot complete without it, so the
 * job fails as soon as both are known, whichever came first. */
static void check_no_init(mx_job_t *job)
{
    int e = w.no_init_rank, c;

    if (e < 0 || w.ending || (c = first_connected(job)) < 0)
        return;
    fail(job, 1, "rank %d (pid %d) exited with code 0 without calling MPI_Init: "
         "rank %d and the others cannot complete MPI_Init without it", e,
         (int)job->ranks[e].pid, c);
}

static const char *sig_name(int sig)
{
    const char *abbrev = sigabbrev_np(sig);
    return abbrev != NULL ? abbrev : "?";
}

static void rank_exited(mx_job_t *job, int rank, int st)
{
    mx_rank_t *r = &job->ranks[rank];
    int fin = __atomic_load_n(&r->finalized, __ATOMIC_ACQUIRE);
    int connected = __atomic_load_n(&r->connected, __ATOMIC_ACQUIRE), code;

    r->alive = 0;
    r->wstatus = st;
    w.nalive--;
    if (aborted_by(job, rank))
        check_abort(job);             /* it exits right after its abort */
    if (WIFSIGNALED(st)) {
        int sig = WTERMSIG(st);
        if (!w.ending)
            rank_failed(job, rank, 128 + sig, "rank %d (pid %d) was killed by signal %d (SIG%s)", rank,
                 (int)r->pid, sig, sig_name(sig));
        return;
    }
    code = WEXITSTATUS(st);
    if (job->args.verbose)
        mx_log("rank %d exited with code %d%s", rank, code, fin ? "" : " (not finalized)");
    if (w.ending)
        return;
    if (code != 0 && fin) {           /* finalized: the others may finish */
        mx_log("rank %d exited with code %d after finalizing", rank, code);
        if (!job->failed && job->exit_code == 0)
            job->exit_code = code;
    } else if (code != 0) {
        rank_failed(job, rank, code, "rank %d (pid %d) exited with code %d%s", rank, (int)r->pid, code,
             connected ? " before finalizing" : "");
    } else if (!connected) {
        if (w.no_init_rank < 0)
            w.no_init_rank = rank;
        check_no_init(job);
    } else if (!fin && any_connected(job) && others_running(job, rank)) {
        rank_failed(job, rank, 1, "rank %d (pid %d) exited with code 0 without finalizing while "
             "other ranks still run", rank, (int)r->pid);
    }
}

/* --disable-auto-cleanup: a rank stopped (SIGSTOP) or continued.  A rank
 * stopped for args.ft_stopped seconds is declared failed (see stop_deadline). */
static void rank_stopped(mx_job_t *job, pid_t pid, int stopped)
{
    for (int r = 0; r < job->np; r++)
        if (job->ranks[r].pid == pid && job->ranks[r].alive)
            job->ranks[r].stopped_at = stopped ? mx_now() : 0;
}

/* The first stopped rank's deadline (0: none). */
static double stop_deadline(mx_job_t *job, int *rank)
{
    double next = 0;

    for (int r = 0; r < job->np; r++) {
        double t = job->ranks[r].stopped_at + job->args.ft_stopped;
        if (job->ranks[r].alive && job->ranks[r].stopped_at > 0 &&
            (next == 0 || t < next)) {
            next = t;
            *rank = r;
        }
    }
    return next;
}

/* A rank stopped too long fails: SIGKILL makes that true (a rank declared
 * failed must not come back when continued), and its exit, reaped as any
 * other, tells the survivors. */
static void check_stopped(mx_job_t *job, double now)
{
    int r = -1;
    double t;

    while (!w.ending && (t = stop_deadline(job, &r)) > 0 && now >= t) {
        mx_rank_t *k = &job->ranks[r];
        mx_log("rank %d (pid %d) stopped for %g s: declared failed", r,
               (int)k->pid, job->args.ft_stopped);
        k->stopped_at = 0;
        kill(k->pid, SIGKILL);
    }
}

static void reap(mx_job_t *job)
{
    int st, flags = WNOHANG;
    pid_t pid;

    if (job->args.keep_going && job->args.ft_stopped > 0)
        flags |= WUNTRACED | WCONTINUED;
    while ((pid = waitpid(-1, &st, flags)) > 0)
        if (WIFSTOPPED(st) || WIFCONTINUED(st))
            rank_stopped(job, pid, WIFSTOPPED(st));
        else
            for (int r = 0; r < job->np && !mx_dyn_reaped(pid, st); r++)
                if (job->ranks[r].pid == pid && job->ranks[r].alive) {
                    rank_exited(job, r, st);
                    break;
                }
}

static void still_running(mx_job_t *job, char *out, size_t len)
{
    size_t n = 0;

    out[0] = '\0';
    for (int r = 0; r < job->np && n + 16 < len; r++)
        if (job->ranks[r].alive)
            n += snprintf(out + n, len - n, "%s%d", n ? "," : "", r);
    if (n == 0)
        snprintf(out, len, "none");
}

static void on_timeout(mx_job_t *job, const char *why);

static void on_signal(mx_job_t *job)
{
    struct signalfd_siginfo si;

    while (read(w.sigfd, &si, sizeof(si)) == sizeof(si)) {
        int sig = (int)si.ssi_signo;
        if (sig == SIGCHLD)
            continue;                 /* reaped below */
        if (sig == SIGUSR1) {         /* the spawning job's --timeout */
            if (w.nalive > 0)
                on_timeout(job, "the spawning job's timeout");
            continue;
        }
        if (!job->failed) {
            mx_log("received SIG%s: ending the job", sig_name(sig));
            job->failed = 1;
            job->exit_code = 128 + sig;
            job->t_failed = mx_now();
        }
        job->abnormal = 1;
        end_job(job, sig);            /* forwarded; a second one kills */
    }
    reap(job);
}

/* why: NULL for our own --timeout.  Spawned jobs report theirs too. */
static void on_timeout(mx_job_t *job, const char *why)
{
    char list[512];

    still_running(job, list, sizeof(list));
    w.deadline = 0;
    if (why == NULL)
        fail(job, MX_EXIT_TIMEOUT, "timeout after %g s: ending the job (ranks still running: %s)",
             job->args.timeout, list);
    else
        fail(job, MX_EXIT_TIMEOUT, "%s: ending the job (ranks still running: %s)", why,
             list);
    mx_calls_report(job);     /* the ranks only get SIGTERM: their slots still hold */
    mx_dyn_timeout();
}

/* Our stdin -> rank 0, never blocking the loop. */
static void forward_stdin(mx_job_t *job, int readable, int writable)
{
    if (readable && w.inlen == 0) {
        ssize_t n = read(0, w.inbuf, sizeof(w.inbuf));
        if (n <= 0 && !(n < 0 && errno == EINTR))
            w.in_eof = 1;
        w.inlen = n > 0 ? n : 0;
        w.inoff = 0;
    }
    if (w.inlen > 0 && (writable || readable)) {
        ssize_t n = write(job->stdin_fd, w.inbuf + w.inoff, w.inlen);
        if (n > 0) {
            w.inoff += n;
            w.inlen -= n;
        } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
            w.in_eof = 1;             /* rank 0 closed its stdin */
            w.inlen = 0;
        }
    }
    if (w.in_eof && w.inlen == 0) {
        close(job->stdin_fd);
        job->stdin_fd = -1;
    }
}

static int open_streams(mx_job_t *job)
{
    int n = 0;
    for (int r = 0; r < job->np; r++)
        n += (job->ranks[r].out.fd >= 0) + (job->ranks[r].err.fd >= 0);
    return n;
}

static void close_streams(mx_job_t *job)
{
    for (int r = 0; r < job->np; r++) {
        mx_stream_t *s[2] = {&job->ranks[r].out, &job->ranks[r].err};
        for (int i = 0; i < 2; i++)
            if (s[i]->fd >= 0) {
                mx_stream_flush(job, r, s[i]);
                close(s[i]->fd);
                s[i]->fd = -1;
            }
    }
}

/* Poll set: signals, PMIx wake-ups, 2 streams per rank, stdin in and out. */
static int fill_poll(mx_job_t *job, struct pollfd *pfd, int *owner)
{
    int n = 0;

    pfd[n++] = (struct pollfd){.fd = w.sigfd, .events = POLLIN};
    pfd[n++] = (struct pollfd){.fd = job->event_pipe[0], .events = POLLIN};
    for (int r = 0; r < job->np; r++) {
        if (job->ranks[r].out.fd >= 0) {
            owner[n] = 2 * r;
            pfd[n++] = (struct pollfd){.fd = job->ranks[r].out.fd, .events = POLLIN};
        }
        if (job->ranks[r].err.fd >= 0) {
            owner[n] = 2 * r + 1;
            pfd[n++] = (struct pollfd){.fd = job->ranks[r].err.fd, .events = POLLIN};
        }
    }
    if (job->stdin_fd >= 0) {
        owner[n] = -1;
        pfd[n++] = (struct pollfd){.fd = w.inlen ? job->stdin_fd : 0,
                                   .events = w.inlen ? POLLOUT : POLLIN};
    }
    return n;
}

static int poll_timeout_ms(mx_job_t *job, double now)
{
    double next = 0;
    int r;
    double t[5] = {w.deadline, w.kill_at, w.drain_until, w.give_up_at,
                   stop_deadline(job, &r)};

    for (int i = 0; i < 5; i++)
        if (t[i] > 0 && (next == 0 || t[i] < next))
            next = t[i];
    if (next == 0)
        return -1;
    return next <= now ? 0 : (int)((next - now) * 1000) + 1;
}

static void handle_poll(mx_job_t *job, struct pollfd *pfd, int *owner, int n)
{
    char drain[64];

    if (pfd[1].revents & POLLIN)
        while (read(job->event_pipe[0], drain, sizeof(drain)) > 0)
            ;
    /* exits first: a rank that died makes its peers abort, and the report
     * must name the cause, not the peers' reaction */
    reap(job);
    check_abort(job);
    check_no_init(job);           /* a rank connected after another left */
    if (pfd[0].revents & POLLIN)
        on_signal(job);
    for (int i = 2; i < n; i++) {
        if (pfd[i].revents == 0)
            continue;
        if (owner[i] < 0) {
            forward_stdin(job, pfd[i].fd == 0, pfd[i].fd != 0);
        } else {
            mx_rank_t *r = &job->ranks[owner[i] / 2];
            mx_stream_read(job, owner[i] / 2, owner[i] % 2 ? &r->err : &r->out);
        }
    }
}

static void handle_deadlines(mx_job_t *job, double now)
{
    check_stopped(job, now);
    if (w.deadline > 0 && now >= w.deadline && w.nalive > 0)
        on_timeout(job, NULL);
    if (w.kill_at > 0 && now >= w.kill_at) {
        w.kill_at = 0;
        w.give_up_at = now + MX_GIVE_UP;
        signal_groups(job, SIGKILL, 1);
    }
    if (w.give_up_at > 0 && w.nalive == 0)
        w.give_up_at = 0;
    if (w.give_up_at > 0 && now >= w.give_up_at) {
        char list[512];
        still_running(job, list, sizeof(list));
        mx_log("ranks %s survive SIGKILL (stuck in the kernel?): leaving them", list);
        w.nalive = 0;                     /* the drain below ends the loop */
        w.give_up_at = 0;
    }
    if (w.nalive == 0 && w.drain_until == 0) {
        signal_groups(job, SIGKILL, 0);   /* leftovers in the ranks' groups */
        w.drain_until = now + MX_DRAIN;
        if (job->stdin_fd >= 0) {
            close(job->stdin_fd);
            job->stdin_fd = -1;
        }
    }
    if (w.drain_until > 0 && now >= w.drain_until)
        close_streams(job);
}

int mx_wait_job(mx_job_t *job)
{
    struct pollfd *pfd = calloc(2 * job->np + 3, sizeof(struct pollfd));
    int *owner = calloc(2 * job->np + 3, sizeof(int));
    sigset_t sigs;

    sigemptyset(&sigs);
    for (int s = 0, all[] = {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1}; s < 6; s++)
        sigaddset(&sigs, all[s]);
    w.sigfd = signalfd(-1, &sigs, SFD_NONBLOCK | SFD_CLOEXEC);
    if (pfd == NULL || owner == NULL || w.sigfd < 0) {
        mx_log("cannot watch the job: %s", strerror(errno));
        job->failed = 1;
        job->exit_code = 1;
    }
    w.no_init_rank = -1;
    for (int r = 0; r < job->np; r++)
        w.nalive += job->ranks[r].alive;
    if (job->args.timeout > 0)
        w.deadline = job->t_start + job->args.timeout;
    if (job->failed)
        end_job(job, SIGTERM);
    reap(job);                        /* exits before the signalfd existed */
    while (w.nalive > 0 || open_streams(job) > 0) {
        int n = fill_poll(job, pfd, owner);
        if (poll(pfd, n, poll_timeout_ms(job, mx_now())) < 0 && errno != EINTR)
            break;
        handle_poll(job, pfd, owner, n);
        handle_deadlines(job, mx_now());
    }
    if (job->args.verbose && job->failed)
        mx_log("job ended %.3f s after the failure", mx_now() - job->t_failed);
    close(w.sigfd);
    free(pfd);
    free(owner);
    return job->exit_code;
}
