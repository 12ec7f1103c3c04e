/*
 * Fault tolerance under a PMIx server that ends the job when a client's
 * connection drops (Slurm's PMIx plugin kills the whole step on the server's
 * PMIX_ERR_LOST_CONNECTION event): with UCMPI_FT=ulfm, a rank started by
 * another launcher than ucmpi's mpiexec forks a keeper right after PMIx_Init,
 * a process that holds only the PMIx connection open and sleeps.  When the
 * rank dies the connection stays, the step goes on (srun -K0), and the
 * survivors learn of the failure from the library's own detection (UCX peer
 * errors, the pid check).  MPI_Finalize ends the keeper after PMIx_Finalize;
 * a keeper of a dead rank ends with the step.  docs/architecture.md, "Fault
 * tolerance (ULFM)".
 */
#include "rt_env.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t keeper;

/* In the child of a threaded process: async-signal-safe calls only.  Keeps
 * the sockets (the PMIx connection; nothing else is open this early but
 * PMIx's own pipes), closes the rest, sleeps until killed. */
static void keep(void)
{
    long max = sysconf(_SC_OPEN_MAX);
    struct stat st;

    for (int fd = 0; fd < (max > 0 && max < 65536 ? max : 1024); fd++)
        if (fstat(fd, &st) == 0 && !S_ISSOCK(st.st_mode))
            close(fd);
    for (;;)
        pause();
}

int ucmpi_rt_keeper_wanted(void)
{
    const char *ft = getenv("UCMPI_FT");

    return ft != NULL && (!strcmp(ft, "ulfm") || !strcmp(ft, "1")) &&
           getenv("UCMPI_LAUNCHER") == NULL;   /* our mpiexec needs none */
}

void ucmpi_rt_keeper_start(void)
{
    pid_t p = fork();

    if (p == 0)
        keep();
    keeper = p > 0 ? p : 0;
}

void ucmpi_rt_keeper_stop(void)
{
    if (keeper <= 0)
        return;
    kill(keeper, SIGKILL);
    while (waitpid(keeper, NULL, 0) < 0 && errno == EINTR)
        ;
    keeper = 0;
}
