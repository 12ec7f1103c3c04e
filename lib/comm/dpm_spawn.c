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
    int *started;             /* root: how many of each command ("soft") */
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

/* A command's reserved info keys (MPI-4.1 11.8.4), from its info or the
 * file its "file" key names (lines "key value" or "key=value", '#'
 * comments; the info's own keys win).  Strings malloc'd. */
typedef struct {
    char *wdir, *path, *host, *soft;
} app_keys_t;

static void keys_free(app_keys_t *k)
{
    free(k->wdir);
    free(k->path);
    free(k->host);
    free(k->soft);
}

static char **key_slot(app_keys_t *k, const char *key)
{
    return !strcmp(key, "wdir") ? &k->wdir : !strcmp(key, "path") ? &k->path
         : !strcmp(key, "host") ? &k->host : !strcmp(key, "soft") ? &k->soft
         : NULL;
}

static int keys_from_file(const char *file, app_keys_t *k, char *why,
                          size_t n)
{
    char line[4096];
    int lno = 0, rc = MPI_SUCCESS;
    FILE *f = fopen(file, "r");

    if (f == NULL) {
        snprintf(why, n, "info key file: cannot read %s: %s", file,
                 strerror(errno));
        return MPI_ERR_INFO_VALUE;
    }
    while (rc == MPI_SUCCESS && fgets(line, sizeof(line), f) != NULL) {
        char *key = line + strspn(line, " \t"), *val, **slot;
        lno++;
        key[strcspn(key, "#\r\n")] = '\0';
        if (*key == '\0')
            continue;
        val = key + strcspn(key, " \t=");
        if (*val != '\0')
            *val++ = '\0';
        val += strspn(val, " \t=");
        for (char *e = val + strlen(val); e > val && strchr(" \t", e[-1]);)
            *--e = '\0';
        if ((slot = key_slot(k, key)) == NULL) {
            snprintf(why, n, "info key file: %s line %d: unknown key '%s' "
                     "(wdir, path, host or soft)", file, lno, key);
            rc = MPI_ERR_INFO_KEY;
        } else {
            free(*slot);
            if ((*slot = strdup(val)) == NULL)
                rc = MPI_ERR_NO_MEM;
        }
    }
    fclose(f);
    return rc;
}

static int app_keys(MPI_Info info, app_keys_t *k, char *why, size_t n)
{
    static const char *const names[] = {"wdir", "path", "host", "soft"};
    const char *file;
    int rc = MPI_SUCCESS;

    memset(k, 0, sizeof(*k));
    if (info == MPI_INFO_NULL)
        return MPI_SUCCESS;
    if (!ucmpi_info_valid(info)) {
        snprintf(why, n, "invalid info object");
        return MPI_ERR_INFO;
    }
    if ((file = ucmpi_info_lookup(info, "file")) != NULL)
        rc = keys_from_file(file, k, why, n);
    for (int i = 0; rc == MPI_SUCCESS && i < 4; i++) {
        const char *v = ucmpi_info_lookup(info, names[i]);
        char **slot = key_slot(k, names[i]);
        if (v == NULL)
            continue;
        free(*slot);
        if ((*slot = strdup(v)) == NULL)
            rc = MPI_ERR_NO_MEM;
    }
    return rc;
}

/* "soft": comma-separated triplets a[:b[:c]]; the largest count of the set
 * up to maxprocs is started (we could always start maxprocs, but the user
 * allowed only these). */
static int soft_count(const char *soft, int maxprocs, int *count, char *why,
                      size_t n)
{
    const char *p = soft;
    int best = 0;

    while (*p != '\0') {
        long a, b, c = 1;
        char *e;
        a = strtol(p, &e, 10);
        if (e == p)
            goto bad;
        b = a;
        if (*e == ':') {
            p = e + 1;
            b = strtol(p, &e, 10);
            if (e == p)
                goto bad;
            if (*e == ':') {
                p = e + 1;
                c = strtol(p, &e, 10);
                if (e == p || c == 0)
                    goto bad;
            }
        }
        for (long v = a; c > 0 ? v <= b : v >= b; v += c)
            if (v > best && v <= maxprocs)
                best = (int)v;
        p = e + strspn(e, " ");
        if (*p == ',')
            p++;
        else if (*p != '\0')
            goto bad;
        p += strspn(p, " ");
    }
    if (best <= 0) {
        snprintf(why, n, "info key soft=\"%s\" allows no number of "
                 "processes from 1 to maxprocs %d", soft, maxprocs);
        return MPI_ERR_SPAWN;
    }
    *count = best;
    return MPI_SUCCESS;
bad:
    snprintf(why, n, "info key soft=\"%s\": not a list of triplets "
             "a[:b[:c]]", soft);
    return MPI_ERR_INFO_VALUE;
}

/* host: mpiexec runs every process on its own machine. */
static int host_here(const char *host, char *why, size_t n)
{
    if (host == NULL || *host == '\0' || strcmp(host, "localhost") == 0 ||
        strcmp(host, ucmpi_global.hostname) == 0)
        return MPI_SUCCESS;
    snprintf(why, n, "info key host=%s: mpiexec starts processes on its own "
             "machine (%s) only", host, ucmpi_global.hostname);
    return MPI_ERR_SPAWN;
}

/* The reserved keys of command i into a, and how many to start. */
static int app_from_info(MPI_Info info, int maxprocs, ucmpi_rt_app_t *a,
                         app_keys_t *k, char *why, size_t n)
{
    int rc = app_keys(info, k, why, n);

    a->maxprocs = maxprocs;
    if (rc == MPI_SUCCESS && k->soft != NULL)
        rc = soft_count(k->soft, maxprocs, &a->maxprocs, why, n);
    if (rc == MPI_SUCCESS)
        rc = host_here(k->host, why, n);
    a->wdir = k->wdir;
    a->path = k->path;
    a->host = k->host;
    return rc;
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
static int root_spawn(spawn_args_t *s, ucmpi_comm_t **bridge, int *conv,
                      char *why, size_t n)
{
    char port[MPI_MAX_PORT_NAME], env0[MPI_MAX_PORT_NAME + 32], ns[256];
    char *env[2] = {env0, NULL};
    ucmpi_rt_app_t *apps = calloc((size_t)s->count, sizeof(*apps));
    app_keys_t *keys = calloc((size_t)s->count, sizeof(*keys));
    uint32_t id = 0;
    int rc = check_root_args(s, why, n), pid = 0;

    if (apps == NULL || keys == NULL)
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS && (rc = ucmpi_dpm_port_new(port, &id)) != 0)
        snprintf(why, n, "cannot open a port for the new processes");
    snprintf(env0, sizeof(env0), PARENT_ENV "=%s", port);
    for (int i = 0; rc == MPI_SUCCESS && i < s->count; i++) {
        apps[i].cmd = s->cmds[i];
        apps[i].env = env;
        apps[i].argv = full_argv(s->cmds[i], s->argvs ? s->argvs[i] : NULL);
        if (apps[i].argv == NULL)
            rc = MPI_ERR_NO_MEM;
        else
            rc = app_from_info(s->infos ? s->infos[i] : MPI_INFO_NULL,
                               s->maxprocs[i], &apps[i], &keys[i], why, n);
        s->started[i] = apps[i].maxprocs;
    }
    if (rc == MPI_SUCCESS &&
        ucmpi_rt_spawn(apps, s->count, ns, sizeof(ns), why, n) != 0)
        rc = MPI_ERR_SPAWN;
    for (int i = 0; apps != NULL && keys != NULL && i < s->count; i++) {
        free((void *)apps[i].argv);
        keys_free(&keys[i]);
    }
    free(apps);
    free(keys);
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

/* One code per process asked for: the root knows which commands started
 * fewer ("soft"); the others, the new group's size. */
static void fill_errcodes(const spawn_args_t *s, int is_root, int jrc,
                          int remote_size, int *errcodes)
{
    int k = 0;

    if (!is_root) {
        for (int i = 0; jrc == MPI_SUCCESS && i < remote_size; i++)
            errcodes[i] = MPI_SUCCESS;
        return;
    }
    for (int i = 0; i < s->count && s->maxprocs[i] > 0; i++)
        for (int j = 0; j < s->maxprocs[i]; j++)
            errcodes[k++] = jrc != MPI_SUCCESS ? jrc
                            : s->started != NULL && j >= s->started[i]
                            ? MPI_ERR_SPAWN : MPI_SUCCESS;
}

static int spawn(const char *fn, spawn_args_t *s, int root,
                 MPI_Comm comm, MPI_Comm *intercomm, int *errcodes)
{
    char why[512] = "";
    ucmpi_comm_t *bridge = NULL;
    int conv = 0, rc = ucmpi_check_intra(comm);

    if (rc != MPI_SUCCESS)
        return rc;
    if (intercomm == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "intercomm is NULL");
    if (root < 0 || root >= comm->size)
        return ucmpi_err_comm(comm, MPI_ERR_ROOT, fn,
                              "root %d is not in [0, %d)", root, comm->size);
    *intercomm = MPI_COMM_NULL;
    if (comm->rank == root) {
        s->started = s->count > 0 ? calloc((size_t)s->count, sizeof(int))
                                  : NULL;
        rc = s->started == NULL && s->count > 0
                 ? MPI_ERR_NO_MEM : root_spawn(s, &bridge, &conv, why,
                                               sizeof(why));
    }
    int jrc = ucmpi_dpm_join(comm, root, bridge, conv, 0, rc, intercomm);
    if (bridge != NULL)
        ucmpi_comm_release(bridge);
    if (errcodes != MPI_ERRCODES_IGNORE)
        fill_errcodes(s, comm->rank == root, jrc, jrc == MPI_SUCCESS
                      ? (*intercomm)->remote_size : 0, errcodes);
    free(s->started);
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
    spawn_args_t s = {1, &cmd, argvs, &maxprocs, &info, NULL};
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
                      array_of_maxprocs, array_of_info, NULL};
    return spawn(fn, &s, root, comm, intercomm, array_of_errcodes);
}
