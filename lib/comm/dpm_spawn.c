/* MPI_Comm_spawn(_multiple) and MPI_Comm_get_parent: the root opens a port,
 * asks the launcher for the new job with the port's name in its environment
 * (UCMPI_DPM_PARENT), and accepts; the new job's MPI_Init connects to it. */
#include "comm/dpm.h"
#include "comm/comm_internal.h"
#include "core/call.h"
#include "core/hooks.h"
#include "ucmpi_rt.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARENT_ENV "UCMPI_DPM_PARENT"

static ucmpi_comm_t *parent_comm;

/* ---- the spawned side ---- */

static void world_up(void *arg)
{
    const char *port = getenv(PARENT_ENV);
    ucmpi_comm_t *bridge = NULL;
    char why[256] = "";
    int conv = 0, rc = MPI_SUCCESS;

    (void)arg;
    if (port == NULL || *port == '\0')
        return;
    if (ucmpi_global.world_rank == 0)
        rc = ucmpi_dpm_root_connect(port, &bridge, &conv, why, sizeof(why));
    int jrc = ucmpi_dpm_join(MPI_COMM_WORLD, 0, bridge, conv, 1, rc,
                             &parent_comm);
    if (bridge != NULL)
        ucmpi_comm_release(bridge);
    if (jrc != MPI_SUCCESS) {
        char msg[400];
        snprintf(msg, sizeof(msg), "ucmpi: MPI_Init: a spawned process "
                 "cannot reach its parent: %s", why[0] ? why
                 : "exchange with the parent failed");
        ucmpi_abort(1, msg);
    }
    snprintf(parent_comm->name, sizeof(parent_comm->name), "MPI_COMM_PARENT");
}

static void comm_gone(void *arg)
{
    if (arg == parent_comm)
        parent_comm = NULL;
}

__attribute__((constructor)) static void dpm_spawn_hooks(void)
{
    ucmpi_hook_add(UCMPI_HOOK_WORLD_UP, UCMPI_HOOK_ORDER_COMM, world_up);
    ucmpi_hook_add(UCMPI_HOOK_COMM_DESTROY, UCMPI_HOOK_ORDER_COMM, comm_gone);
}

#pragma weak MPI_Comm_get_parent = PMPI_Comm_get_parent
int PMPI_Comm_get_parent(MPI_Comm *parent)
{
    const char *fn = "MPI_Comm_get_parent";
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (parent == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "parent is NULL");
    *parent = parent_comm != NULL ? parent_comm : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

/* ---- the spawning side ---- */

typedef struct {
    int count;
    char **cmds;
    char ***argvs;            /* MPI_ARGVS_NULL: NULL */
    const int *maxprocs;
    const MPI_Info *infos;
} spawn_args_t;

/* The spawned job's launcher (a nested mpiexec, "ucmpi.<pid>") is gone:
 * its processes will not connect. */
static int job_gone(void *arg)
{
    int pid = *(int *)arg;
    char path[64], state = 0;
    FILE *f;

    if (pid <= 0)
        return 0;
    if (kill(pid, 0) != 0 && errno == ESRCH)
        return 1;
    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    if ((f = fopen(path, "r")) == NULL)
        return 1;
    if (fscanf(f, "%*d (%*[^)]) %c", &state) != 1)
        state = 0;
    fclose(f);
    return state == 'Z';
}

/* Reserved info keys; "soft" lets us start fewer, we start all or none. */
static int app_from_info(MPI_Info info, ucmpi_rt_app_t *a, char *why,
                         size_t n)
{
    if (info == MPI_INFO_NULL)
        return MPI_SUCCESS;
    if (!ucmpi_info_valid(info)) {
        snprintf(why, n, "invalid info object");
        return MPI_ERR_INFO;
    }
    a->wdir = ucmpi_info_lookup(info, "wdir");
    a->path = ucmpi_info_lookup(info, "path");
    a->host = ucmpi_info_lookup(info, "host");
    return MPI_SUCCESS;
}

static int check_root_args(const spawn_args_t *s, char *why, size_t n)
{
    if (s->count <= 0) {
        snprintf(why, n, "count %d is not positive", s->count);
        return MPI_ERR_ARG;
    }
    for (int i = 0; i < s->count; i++) {
        if (s->cmds[i] == NULL || s->cmds[i][0] == '\0') {
            snprintf(why, n, "command %d is NULL or empty", i);
            return MPI_ERR_ARG;
        }
        if (s->maxprocs[i] <= 0) {
            snprintf(why, n, "maxprocs %d (command %s) is not positive",
                     s->maxprocs[i], s->cmds[i]);
            return MPI_ERR_ARG;
        }
    }
    if (ucmpi_global.singleton) {
        snprintf(why, n, "no launcher: a process started without mpiexec "
                 "cannot spawn (run it under ucmpi's mpiexec)");
        return MPI_ERR_SPAWN;
    }
    return MPI_SUCCESS;
}

/* argv for the runtime: the command first, then the user's arguments. */
static char **full_argv(const char *cmd, char **argv)
{
    int n = 0;
    while (argv != NULL && argv[n] != NULL)
        n++;
    char **v = calloc((size_t)n + 2, sizeof(char *));
    if (v == NULL)
        return NULL;
    v[0] = (char *)cmd;
    for (int i = 0; i < n; i++)
        v[i + 1] = argv[i];
    return v;
}

/* Root: the launcher starts the job, whose root then connects to our port. */
static int root_spawn(const spawn_args_t *s, ucmpi_comm_t **bridge, int *conv,
                      char *why, size_t n)
{
    char port[MPI_MAX_PORT_NAME], env0[MPI_MAX_PORT_NAME + 32], ns[256];
    char *env[2] = {env0, NULL};
    ucmpi_rt_app_t *apps = calloc((size_t)s->count, sizeof(*apps));
    uint32_t id = 0;
    int rc = check_root_args(s, why, n), pid = 0;

    if (apps == NULL)
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS && (rc = ucmpi_dpm_port_new(port, &id)) != 0)
        snprintf(why, n, "cannot open a port for the new processes");
    snprintf(env0, sizeof(env0), PARENT_ENV "=%s", port);
    for (int i = 0; rc == MPI_SUCCESS && i < s->count; i++) {
        apps[i].cmd = s->cmds[i];
        apps[i].maxprocs = s->maxprocs[i];
        apps[i].env = env;
        apps[i].argv = full_argv(s->cmds[i], s->argvs ? s->argvs[i] : NULL);
        if (apps[i].argv == NULL)
            rc = MPI_ERR_NO_MEM;
        else
            rc = app_from_info(s->infos ? s->infos[i] : MPI_INFO_NULL,
                               &apps[i], why, n);
    }
    if (rc == MPI_SUCCESS &&
        ucmpi_rt_spawn(apps, s->count, ns, sizeof(ns), why, n) != 0)
        rc = MPI_ERR_SPAWN;
    for (int i = 0; apps != NULL && i < s->count; i++)
        free((void *)apps[i].argv);
    free(apps);
    if (rc == MPI_SUCCESS) {
        sscanf(ns, "ucmpi.%d", &pid);
        rc = ucmpi_dpm_root_accept(port, bridge, conv, why, n, job_gone,
                                   &pid);
        if (rc == MPI_ERR_PROC_FAILED) {
            snprintf(why, n, "the new processes ended before connecting "
                     "(see mpiexec's report)");
            rc = MPI_ERR_SPAWN;
        }
    }
    if (id != 0)
        ucmpi_dpm_port_close(id);
    return rc;
}

static int spawn(const char *fn, const spawn_args_t *s, int root,
                 MPI_Comm comm, MPI_Comm *intercomm, int *errcodes)
{
    char why[512] = "";
    ucmpi_comm_t *bridge = NULL;
    int conv = 0, rc = ucmpi_check_intra(comm), total = 0;

    if (rc != MPI_SUCCESS)
        return rc;
    if (intercomm == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "intercomm is NULL");
    if (root < 0 || root >= comm->size)
        return ucmpi_err_comm(comm, MPI_ERR_ROOT, fn,
                              "root %d is not in [0, %d)", root, comm->size);
    *intercomm = MPI_COMM_NULL;
    if (comm->rank == root) {
        rc = root_spawn(s, &bridge, &conv, why, sizeof(why));
        for (int i = 0; i < s->count && s->maxprocs[i] > 0; i++)
            total += s->maxprocs[i];
    }
    int jrc = ucmpi_dpm_join(comm, root, bridge, conv, 0, rc, intercomm);
    if (bridge != NULL)
        ucmpi_comm_release(bridge);
    if (errcodes != MPI_ERRCODES_IGNORE) {
        if (jrc == MPI_SUCCESS)
            total = (*intercomm)->remote_size;
        for (int i = 0; i < total; i++)
            errcodes[i] = jrc;
    }
    if (jrc == MPI_SUCCESS)
        return MPI_SUCCESS;
    if (comm->rank == root && rc != MPI_SUCCESS)
        return ucmpi_err_comm(comm, rc, fn, "%s", why[0] ? why
                              : "the new processes could not be started");
    return ucmpi_err_comm(comm, jrc == MPI_ERR_PROC_FAILED ? MPI_ERR_SPAWN
                          : jrc, fn, comm->rank == root
                          ? "exchange with the new processes failed"
                          : "the root could not start the new processes "
                            "(see its report)");
}

#pragma weak MPI_Comm_spawn = PMPI_Comm_spawn
int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs,
                    MPI_Info info, int root, MPI_Comm comm,
                    MPI_Comm *intercomm, int array_of_errcodes[])
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Comm_spawn");
    char *cmd = (char *)command;
    char **argvs[1] = {argv};
    spawn_args_t s = {1, &cmd, argvs, &maxprocs, &info};
    return spawn(fn, &s, root, comm, intercomm, array_of_errcodes);
}

#pragma weak MPI_Comm_spawn_multiple = PMPI_Comm_spawn_multiple
int PMPI_Comm_spawn_multiple(int count, char *array_of_commands[],
                             char **array_of_argv[],
                             const int array_of_maxprocs[],
                             const MPI_Info array_of_info[], int root,
                             MPI_Comm comm, MPI_Comm *intercomm,
                             int array_of_errcodes[])
{
    UCMPI_CALL_SCOPE const char *fn =
        ucmpi_call_open("MPI_Comm_spawn_multiple");
    spawn_args_t s = {count, array_of_commands, array_of_argv,
                      array_of_maxprocs, array_of_info};
    return spawn(fn, &s, root, comm, intercomm, array_of_errcodes);
}
