/*
 * Shared-memory segments a job's ranks left behind.  The library names its
 * segments after the creating process (/ucmpi-coll-PID-..., /ucmpi-wPID-...,
 * /ucmpi-PID-...) and unlinks them as soon as every user has mapped them;
 * a rank killed inside that window leaves the name in /dev/shm for good.
 * Once all ranks are gone, mpiexec removes the names carrying their pids.
 */
#include "mpiexec.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SHM_DIR "/dev/shm"

/* The creator's pid in a library segment name; -1 if not one of ours. */
static long segment_pid(const char *name)
{
    static const char *const prefixes[] = {"ucmpi-coll-", "ucmpi-w", "ucmpi-"};
    char *end;

    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(name, prefixes[i], n) != 0 || name[n] < '0' || name[n] > '9')
            continue;
        long pid = strtol(name + n, &end, 10);
        return *end == '-' ? pid : -1;
    }
    return -1;
}

static int is_rank_pid(const mx_job_t *job, long pid)
{
    for (int i = 0; i < job->np; i++)
        if (job->ranks[i].pid > 0 && job->ranks[i].pid == pid)
            return 1;
    return 0;
}

void mx_shm_cleanup(const mx_job_t *job)
{
    DIR *d = opendir(SHM_DIR);
    struct dirent *e;
    char path[512];

    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        long pid = segment_pid(e->d_name);
        if (pid <= 0 || !is_rank_pid(job, pid))
            continue;
        snprintf(path, sizeof(path), SHM_DIR "/%s", e->d_name);
        if (unlink(path) == 0 && job->args.verbose)
            mx_log("removed %s, left by a rank", path);
    }
    closedir(d);
}
