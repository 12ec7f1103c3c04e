/*
 * mpiexec's PMIx server: job registration and the server module (fence on
 * one node, abort, connect/finalize tracking for the exit policy).
 * Module callbacks run on PMIx's thread: they only record and wake main.
 */
#define _GNU_SOURCE
#include "mpiexec.h"

#include <pmix_server.h>
#include <pmix.h>                 /* PMIx_Error_string (not in pmix_server.h) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static mx_job_t *the_job;         /* for the module callbacks */

static mx_rank_t *rank_of(const pmix_proc_t *proc)
{
    if (proc == NULL || strcmp(proc->nspace, the_job->nspace) != 0 ||
        proc->rank >= (pmix_rank_t)the_job->np)
        return NULL;
    return &the_job->ranks[proc->rank];
}

static pmix_status_t on_connected(const pmix_proc_t *proc, void *server_object,
                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    mx_rank_t *r = rank_of(proc);

    if (r != NULL) {
        __atomic_store_n(&r->connected, 1, __ATOMIC_RELEASE);
        mx_wake(the_job);         /* a rank may have left without MPI_Init */
    }
    if (cbfunc != NULL)
        cbfunc(PMIX_SUCCESS, cbdata);
    return PMIX_SUCCESS;
}

/* Marked before the client is released, so its exit is always seen after. */
static pmix_status_t on_finalized(const pmix_proc_t *proc, void *server_object,
                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    mx_rank_t *r = rank_of(proc);

    if (r != NULL)
        __atomic_store_n(&r->finalized, 1, __ATOMIC_RELEASE);
    if (cbfunc != NULL)
        cbfunc(PMIX_SUCCESS, cbdata);
    return PMIX_SUCCESS;
}

/* Recorded before the client is released (it _exits right after), so the
 * main loop sees the abort before that rank's exit. */
static pmix_status_t on_abort(const pmix_proc_t *proc, void *server_object, int status,
                              const char msg[], pmix_proc_t procs[], size_t nprocs,
                              pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    mx_job_t *job = the_job;

    pthread_mutex_lock(&job->lock);
    if (job->abort_rank < 0) {
        job->abort_rank = rank_of(proc) != NULL ? (int)proc->rank : 0;
        job->abort_code = status;
        job->abort_msg = msg != NULL && *msg != '\0' ? strdup(msg) : NULL;
    }
    pthread_mutex_unlock(&job->lock);
    mx_wake(job);
    if (cbfunc != NULL)
        cbfunc(PMIX_SUCCESS, cbdata);
    return PMIX_SUCCESS;
}

/* One node: the server library already gathered every local contribution. */
static pmix_status_t on_fence(const pmix_proc_t procs[], size_t nprocs,
                              const pmix_info_t info[], size_t ninfo, char *data,
                              size_t ndata, pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    if (cbfunc != NULL)
        cbfunc(PMIX_SUCCESS, data, ndata, cbdata, NULL, NULL);
    return PMIX_SUCCESS;
}

/* Every rank's data is local and delivered by the fence: nothing to fetch. */
static pmix_status_t on_dmodex(const pmix_proc_t *proc, const pmix_info_t info[],
                               size_t ninfo, pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_FOUND;
}

pmix_status_t mx_dyn_spawn(const pmix_proc_t *proc, const pmix_info_t job_info[],
                           size_t ninfo, const pmix_app_t apps[], size_t napps,
                           pmix_spawn_cbfunc_t cbfunc, void *cbdata);

pmix_status_t mx_names_publish(const pmix_proc_t *proc, const pmix_info_t info[],
                               size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata);
pmix_status_t mx_names_lookup(const pmix_proc_t *proc, char **keys,
                              const pmix_info_t info[], size_t ninfo,
                              pmix_lookup_cbfunc_t cbfunc, void *cbdata);
pmix_status_t mx_names_unpublish(const pmix_proc_t *proc, char **keys,
                                 const pmix_info_t info[], size_t ninfo,
                                 pmix_op_cbfunc_t cbfunc, void *cbdata);

static pmix_server_module_t module = {
    .spawn = mx_dyn_spawn,
    .publish = mx_names_publish,
    .lookup = mx_names_lookup,
    .unpublish = mx_names_unpublish,
    .client_connected = on_connected,
    .client_finalized = on_finalized,
    .abort = on_abort,
    .fence_nb = on_fence,
    .direct_modex = on_dmodex,
};

int mx_pmix_start(mx_job_t *job)
{
    static pmix_topology_t topo = {.source = "hwloc"};
    pmix_info_t info[3];
    size_t ninfo = 2;
    pmix_status_t rc;

    the_job = job;
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, job->tmpdir, PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, job->tmpdir, PMIX_STRING);
    job->topology = mx_topology_load();
    if (job->topology != NULL) {
        /* by reference: PMIX_INFO_LOAD would hand the server a copy that
         * PMIX_INFO_DESTRUCT then frees under it; ours outlives the server */
        topo.topology = job->topology;
        PMIX_INFO_CONSTRUCT(&info[2]);
        PMIX_LOAD_KEY(info[2].key, PMIX_TOPOLOGY2);
        info[2].value.type = PMIX_TOPO;
        info[2].value.data.topo = &topo;
        ninfo = 3;
    }
    rc = PMIx_server_init(&module, info, ninfo);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    if (rc != PMIX_SUCCESS) {
        mx_log("PMIx_server_init failed: %s", PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

static int ok(pmix_status_t rc)
{
    return rc == PMIX_SUCCESS || rc == PMIX_OPERATION_SUCCEEDED;
}

/* Per-rank data; PMIX_RANK must come first. */
static void load_proc_data(pmix_info_t *out, int rank, const char *host)
{
    pmix_data_array_t *arr;
    pmix_info_t *pi;
    pmix_rank_t r = rank;
    uint16_t lr = rank;
    uint32_t zero = 0, app = (uint32_t)mx_app_of(&the_job->args, rank);

    PMIX_DATA_ARRAY_CREATE(arr, 6, PMIX_INFO);
    pi = arr->array;
    PMIX_INFO_LOAD(&pi[0], PMIX_RANK, &r, PMIX_PROC_RANK);
    PMIX_INFO_LOAD(&pi[1], PMIX_LOCAL_RANK, &lr, PMIX_UINT16);
    PMIX_INFO_LOAD(&pi[2], PMIX_NODE_RANK, &lr, PMIX_UINT16);
    PMIX_INFO_LOAD(&pi[3], PMIX_NODEID, &zero, PMIX_UINT32);
    PMIX_INFO_LOAD(&pi[4], PMIX_HOSTNAME, host, PMIX_STRING);
    PMIX_INFO_LOAD(&pi[5], PMIX_APPNUM, &app, PMIX_UINT32);
    PMIX_INFO_LOAD(out, PMIX_PROC_DATA, arr, PMIX_DATA_ARRAY);
    PMIX_DATA_ARRAY_FREE(arr);
}

static char *rank_list(int np)
{
    char *s = malloc((size_t)np * 8 + 1), *p = s;

    if (s == NULL)
        return NULL;
    *p = '\0';
    for (int r = 0; r < np; r++)
        p += sprintf(p, r ? ",%d" : "%d", r);
    return s;
}

int mx_pmix_register_job(mx_job_t *job)
{
    enum { NJOB = 12 };
    uint32_t np = job->np, one = 1, napps = (uint32_t)job->args.napps;
    int cpus = mx_cpus_allowed();
    uint32_t univ = job->args.universe > 0 ? (uint32_t)job->args.universe
                    : np > (uint32_t)cpus ? np : (uint32_t)cpus;
    pmix_rank_t leader = 0;
    char host[256], *peers = rank_list(job->np), *nodemap = NULL, *procmap = NULL;
    size_t ninfo = NJOB + job->np;
    pmix_info_t *info;
    pmix_status_t rc;

    if (gethostname(host, sizeof(host)) != 0)
        strcpy(host, "localhost");
    if (peers == NULL || PMIx_generate_regex(host, &nodemap) != PMIX_SUCCESS ||
        PMIx_generate_ppn(peers, &procmap) != PMIX_SUCCESS) {
        mx_log("cannot build the PMIx node/process maps");
        free(peers);
        return -1;
    }
    PMIX_INFO_CREATE(info, ninfo);
    PMIX_INFO_LOAD(&info[0], PMIX_JOBID, job->nspace, PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_JOB_SIZE, &np, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[2], PMIX_UNIV_SIZE, &univ, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[3], PMIX_MAX_PROCS, &np, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[4], PMIX_LOCAL_SIZE, &np, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[5], PMIX_NODE_SIZE, &np, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[6], PMIX_LOCAL_PEERS, peers, PMIX_STRING);
    PMIX_INFO_LOAD(&info[7], PMIX_LOCALLDR, &leader, PMIX_PROC_RANK);
    PMIX_INFO_LOAD(&info[8], PMIX_NUM_NODES, &one, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[9], PMIX_JOB_NUM_APPS, &napps, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[10], PMIX_NODE_MAP, nodemap, PMIX_REGEX);
    PMIX_INFO_LOAD(&info[11], PMIX_PROC_MAP, procmap, PMIX_REGEX);
    for (int r = 0; r < job->np; r++)
        load_proc_data(&info[NJOB + r], r, host);
    rc = PMIx_server_register_nspace(job->nspace, job->np, info, ninfo, NULL, NULL);
    PMIX_INFO_FREE(info, ninfo);
    free(peers);
    free(nodemap);
    free(procmap);
    if (!ok(rc)) {
        mx_log("PMIx_server_register_nspace failed: %s", PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

/* Registrations in flight, answered on PMIx's thread. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t done;
    int pending;
    pmix_status_t status;
} reg = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, PMIX_SUCCESS};

static void registered(pmix_status_t status, void *cbdata)
{
    pthread_mutex_lock(&reg.lock);
    if (!ok(status) && ok(reg.status))
        reg.status = status;
    if (--reg.pending == 0)
        pthread_cond_signal(&reg.done);
    pthread_mutex_unlock(&reg.lock);
}

/* All ranks at once, before any is started: one wait instead of a round
 * trip to PMIx's thread per rank while started ranks compete for the CPU. */
int mx_pmix_register_clients(mx_job_t *job)
{
    pmix_proc_t proc;
    pmix_status_t rc = PMIX_SUCCESS;

    reg.pending = 1;              /* ours: no early zero */
    for (int r = 0; r < job->np && ok(rc); r++) {
        PMIX_LOAD_PROCID(&proc, job->nspace, r);
        pthread_mutex_lock(&reg.lock);
        reg.pending++;
        pthread_mutex_unlock(&reg.lock);
        rc = PMIx_server_register_client(&proc, getuid(), getgid(), NULL, registered, NULL);
        if (rc != PMIX_SUCCESS)      /* no callback will come */
            registered(rc == PMIX_OPERATION_SUCCEEDED ? PMIX_SUCCESS : rc, NULL);
    }
    registered(PMIX_SUCCESS, NULL);
    pthread_mutex_lock(&reg.lock);
    while (reg.pending > 0)
        pthread_cond_wait(&reg.done, &reg.lock);
    rc = reg.status;
    pthread_mutex_unlock(&reg.lock);
    if (!ok(rc)) {
        mx_log("PMIx_server_register_client failed: %s", PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

/* Adds the PMIx client variables of a registered rank to *env. */
int mx_pmix_setup_rank(mx_job_t *job, int rank, char ***env)
{
    pmix_proc_t proc;
    pmix_status_t rc;

    PMIX_LOAD_PROCID(&proc, job->nspace, rank);
    rc = PMIx_server_setup_fork(&proc, env);
    if (rc != PMIX_SUCCESS) {
        mx_log("PMIx_server_setup_fork(%d) failed: %s", rank, PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

static void notified(pmix_status_t status, void *cbdata)
{
    pmix_info_t *info = cbdata;

    PMIX_INFO_FREE(info, 1);
}

/* --disable-auto-cleanup: tells every rank of the job that `rank` terminated
 * (a PMIx process-termination event naming it), so survivors learn of the
 * failure without waiting on it (ucmpi_rt_on_proc_failed). */
void mx_pmix_notify_failed(mx_job_t *job, int rank)
{
    pmix_proc_t proc;
    pmix_info_t *info;
    pmix_status_t rc;

    PMIX_LOAD_PROCID(&proc, job->nspace, rank);
    PMIX_INFO_CREATE(info, 1);
    PMIX_INFO_LOAD(&info[0], PMIX_EVENT_AFFECTED_PROC, &proc, PMIX_PROC);
    rc = PMIx_Notify_event(PMIX_EVENT_PROC_TERMINATED, &proc, PMIX_RANGE_NAMESPACE,
                           info, 1, notified, info);
    if (rc != PMIX_SUCCESS) {     /* no callback will come */
        PMIX_INFO_FREE(info, 1);
        if (rc != PMIX_OPERATION_SUCCEEDED)
            mx_log("cannot tell the ranks that rank %d failed: %s", rank,
                   PMIx_Error_string(rc));
    }
}

/* After an abnormal end PMIx_server_finalize may crash: leave it to exit. */
void mx_pmix_stop(mx_job_t *job)
{
    if (job->abnormal)
        return;
    PMIx_server_deregister_nspace(job->nspace, NULL, NULL);
    PMIx_server_finalize();
    mx_topology_free(job->topology);
    job->topology = NULL;
}
