/*
 * The launcher's side of the call slots (runtime/rt_calls.h): a file of one
 * slot per rank in the job's private directory, which the ranks map, and
 * the --timeout report of what each rank was doing, one line per rank (or
 * per run of ranks doing the same): "rank 3: in MPI_Recv".
 */
#define _GNU_SOURCE
#include "mpiexec.h"
#include "rt_calls.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Creates the slots file; sets job->calls_env ("UCMPI_CALL_SLOTS=path").
 * Without it the report just says less: failures are not fatal. */
void mx_calls_create(mx_job_t *job)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t len = ((size_t)job->np * sizeof(ucmpi_rt_slot_t) + page - 1) / page * page;
    char path[512];
    void *p;
    int fd;

    snprintf(path, sizeof(path), "%s/calls", job->tmpdir);
    fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    p = ftruncate(fd, (off_t)len) == 0 ? mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0)
                                       : MAP_FAILED;
    close(fd);
    if (p == MAP_FAILED) {
        unlink(path);
        return;
    }
    job->calls = p;
    job->calls_len = len;
    snprintf(job->calls_env, sizeof(job->calls_env), "%s=%s", UCMPI_RT_CALLS_ENV, path);
}

void mx_calls_destroy(mx_job_t *job)
{
    if (job->calls != NULL)
        munmap((void *)job->calls, job->calls_len);
    job->calls = NULL;
}

/* A consistent copy of the slot's name (the rank may rewrite it). */
static int read_slot(const ucmpi_rt_slot_t *s, char *call, size_t len)
{
    int waiting = 0;

    for (int tries = 0; tries < 100; tries++) {
        uint32_t seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
        waiting = __atomic_load_n(&s->waiting, __ATOMIC_ACQUIRE);
        memcpy(call, s->call, len < sizeof(s->call) ? len : sizeof(s->call));
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (!(seq & 1) && seq == __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE))
            break;
    }
    call[len - 1] = '\0';
    for (char *c = call; *c != '\0'; c++)
        if (*c < 0x20 || *c > 0x7e)
            *c = '?';
    if (call[0] == '\0')
        snprintf(call, len, "an MPI call");
    return waiting;
}

enum { MX_STATE_LEN = 96 };

/* One rank's state, "in MPI_Recv" style; *pending when it may still turn
 * out to be waiting (its slot is looked at again). */
static void describe(const mx_job_t *job, int rank, char *out, int *pending)
{
    const mx_rank_t *r = &job->ranks[rank];
    char call[sizeof(((ucmpi_rt_slot_t *)0)->call)];
    const char *sig;

    *pending = 0;
    if (!r->alive) {
        sig = sigabbrev_np(WIFSIGNALED(r->wstatus) ? WTERMSIG(r->wstatus) : 0);
        if (WIFSIGNALED(r->wstatus))
            snprintf(out, MX_STATE_LEN, "killed by signal %d (SIG%s)", WTERMSIG(r->wstatus),
                     sig != NULL ? sig : "?");
        else
            snprintf(out, MX_STATE_LEN, "exited %d", WEXITSTATUS(r->wstatus));
    } else if (__atomic_load_n(&r->finalized, __ATOMIC_ACQUIRE)) {
        snprintf(out, MX_STATE_LEN, "not in an MPI call (after MPI_Finalize)");
    } else if (!__atomic_load_n(&r->connected, __ATOMIC_ACQUIRE)) {
        snprintf(out, MX_STATE_LEN, "not in an MPI call (MPI_Init not reached)");
    } else if (job->calls == NULL) {
        snprintf(out, MX_STATE_LEN, "running (no call information)");
    } else if (read_slot(&job->calls[rank], call, sizeof(call))) {
        snprintf(out, MX_STATE_LEN, "in %s", call);
    } else {
        snprintf(out, MX_STATE_LEN, "not in an MPI call");
        *pending = 1;
    }
}

/* A blocked rank leaves its wait now and then (a nested wait ends, a lock
 * is retried): ranks not seen waiting get two more looks, 1 ms apart. */
static void describe_all(const mx_job_t *job, char *states)
{
    struct timespec ms = {0, 1000000};
    int *pending = calloc(job->np, sizeof(int)), left = 0, p;

    for (int r = 0; r < job->np; r++) {
        describe(job, r, states + (size_t)r * MX_STATE_LEN, &p);
        if (pending != NULL)
            left += pending[r] = p;
    }
    for (int look = 0; look < 2 && left > 0; look++) {
        nanosleep(&ms, NULL);
        for (int r = 0; r < job->np; r++)
            if (pending[r]) {
                describe(job, r, states + (size_t)r * MX_STATE_LEN, &p);
                left -= !p;
                pending[r] = p;
            }
    }
    free(pending);
}

/* One line per run of consecutive ranks in the same state. */
void mx_calls_report(const mx_job_t *job)
{
    char *states = malloc((size_t)job->np * MX_STATE_LEN);
    int first = 0;

    if (states == NULL || job->np <= 0) {
        free(states);
        return;
    }
    describe_all(job, states);
    for (int r = 1; r <= job->np; r++) {
        const char *cur = states + (size_t)first * MX_STATE_LEN;
        if (r < job->np && strcmp(states + (size_t)r * MX_STATE_LEN, cur) == 0)
            continue;
        if (first == r - 1)
            mx_log("rank %d: %s", first, cur);
        else
            mx_log("ranks %d-%d: %s", first, r - 1, cur);
        first = r;
    }
    free(states);
}
