/*
 * ucmpi runtime client over PMIx: rank, size, locality, modex, fence, abort.
 * Without a PMIx server in the environment the process is a singleton job;
 * with another launcher's environment but no PMIx server it refuses to start.
 */
#include "ucmpi_rt.h"
#include "rt_calls.h"
#include "rt_env.h"

#include <pmix.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RT_HOST_KEY "ucmpi.rt.host"
#define RT_LAUNCHER_ENV "UCMPI_LAUNCHER"   /* set by our mpiexec for its ranks */

/* one key/value stored by a singleton (no PMIx server to hold it) */
typedef struct rt_kv {
    struct rt_kv *next;
    char *key;
    void *data;
    size_t len;
} rt_kv_t;

static struct {
    int active;           /* between init and finalize */
    int singleton;
    pmix_proc_t me;
    rt_kv_t *kv;          /* singleton's own key/values */
} rt;

static void rt_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void rt_err(const char *fmt, ...)
{
    char line[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    fprintf(stderr, "ucmpi: %s\n", line);
}

/* Any PMIx integer value as a long; -1 when it is no integer. */
static long value_to_long(const pmix_value_t *v)
{
    switch (v->type) {
    case PMIX_UINT8:  return v->data.uint8;
    case PMIX_UINT16: return v->data.uint16;
    case PMIX_UINT32: return v->data.uint32;
    case PMIX_UINT64: return (long)v->data.uint64;
    case PMIX_INT8:   return v->data.int8;
    case PMIX_INT16:  return v->data.int16;
    case PMIX_INT32:  return v->data.int32;
    case PMIX_INT64:  return (long)v->data.int64;
    case PMIX_INT:    return v->data.integer;
    case PMIX_UINT:   return v->data.uint;
    case PMIX_SIZE:   return (long)v->data.size;
    case PMIX_PROC_RANK: return v->data.rank;
    default:          return -1;
    }
}

/* Looks up `key` of `rank` (PMIX_RANK_WILDCARD for job data) in the local
 * store only (never asks the server, so a missing key cannot hang). */
static pmix_status_t get_local(pmix_rank_t rank, const char *key, pmix_value_t **val)
{
    pmix_proc_t proc;
    pmix_info_t info;
    bool yes = true;
    pmix_status_t rc;

    PMIX_LOAD_PROCID(&proc, rt.me.nspace, rank);
    PMIX_INFO_LOAD(&info, PMIX_OPTIONAL, &yes, PMIX_BOOL);
    rc = PMIx_Get(&proc, key, &info, 1, val);
    PMIX_INFO_DESTRUCT(&info);
    return rc;
}

/* Modex data of `rank` (committed before a fence that completed).  A
 * server with the hash store (our mpiexec) keeps it and answers on request;
 * one with the shared-memory store finds it locally.  PMIX_IMMEDIATE: a key
 * nobody put fails at once instead of being waited for. */
static pmix_status_t get_modex(pmix_rank_t rank, const char *key, pmix_value_t **val)
{
    pmix_proc_t proc;
    pmix_info_t info[2];
    bool yes = true;
    int secs = 30;
    pmix_status_t rc;

    PMIX_LOAD_PROCID(&proc, rt.me.nspace, rank);
    PMIX_INFO_LOAD(&info[0], PMIX_IMMEDIATE, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &secs, PMIX_INT);
    rc = PMIx_Get(&proc, key, info, 2, val);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    return rc;
}

static long get_long(pmix_rank_t rank, const char *key, long dflt)
{
    pmix_value_t *v;
    long out = dflt;

    if (get_local(rank, key, &v) == PMIX_SUCCESS) {
        long x = value_to_long(v);
        if (x >= 0)
            out = x;
        PMIX_VALUE_RELEASE(v);
    }
    return out;
}

/* Host name of `rank` from PMIx job data or, failing that, the modex. */
static char *get_hostname(pmix_rank_t rank, int from_modex)
{
    pmix_value_t *v;
    char *out = NULL;

    if (from_modex) {                      /* published by ucmpi_rt_put: bytes */
        void *data;
        size_t len;
        if (ucmpi_rt_get(rank, RT_HOST_KEY, &data, &len) != 0)
            return NULL;
        out = strndup(data, len);
        free(data);
        return out;
    }
    if (get_local(rank, PMIX_HOSTNAME, &v) != PMIX_SUCCESS)
        return NULL;
    if (v->type == PMIX_STRING && v->data.string != NULL)
        out = strdup(v->data.string);
    PMIX_VALUE_RELEASE(v);
    return out;
}

/* Node ids from host names: a rank's id is the first rank on the same host. */
static int node_ids_from_hosts(uint32_t *ids, int size, int from_modex)
{
    char **names = calloc(size, sizeof(char *));
    int rc = 0;

    if (names == NULL)
        return -1;
    for (int r = 0; r < size && rc == 0; r++) {
        names[r] = get_hostname(r, from_modex);
        if (names[r] == NULL) {
            rc = -1;
            break;
        }
        ids[r] = r;
        for (int q = 0; q < r; q++)
            if (ids[q] == (uint32_t)q && strcmp(names[q], names[r]) == 0) {
                ids[r] = q;
                break;
            }
    }
    for (int r = 0; r < size; r++)
        free(names[r]);
    free(names);
    return rc;
}

/* Fills info->node_of/num_nodes: PMIX_NODEID, else PMIX_HOSTNAME, else a
 * modex round of host names (works under any PMIx server). */
static int query_nodes(ucmpi_rt_info_t *info)
{
    uint32_t *ids = malloc(info->size * sizeof(uint32_t));
    /* test hook: skip the first sources to exercise the fallbacks */
    const char *skip = getenv("UCMPI_RT_TEST_NODE_SOURCE");
    int have = skip == NULL || strcmp(skip, "nodeid") == 0, rc = -1;

    if (ids == NULL)
        goto out;
    /* all ranks on this node (any mpiexec job): spare N lookups per rank,
     * each a round trip to PMIx's thread (slow when oversubscribed) */
    if (skip == NULL && get_long(PMIX_RANK_WILDCARD, PMIX_LOCAL_SIZE, -1) == info->size) {
        memset(ids, 0, info->size * sizeof(uint32_t));
        goto compact;
    }
    for (int r = 0; r < info->size && have; r++) {
        long id = get_long(r, PMIX_NODEID, -1);
        have = id >= 0;
        ids[r] = (uint32_t)id;
    }
    if (!have && ((skip != NULL && strcmp(skip, "hostname") != 0) ||
                  node_ids_from_hosts(ids, info->size, 0) != 0)) {
        if (ucmpi_rt_put(RT_HOST_KEY, info->hostname, strlen(info->hostname) + 1) != 0 ||
            ucmpi_rt_commit() != 0 || ucmpi_rt_fence(1, NULL) != 0)
            goto out;
        if (node_ids_from_hosts(ids, info->size, 1) != 0) {
            rt_err("PMIx: cannot learn which node each rank runs on");
            goto out;
        }
    }
compact:
    rc = ucmpi_rt_compact_nodes(ids, info->size, info->node_of, &info->num_nodes);
out:
    free(ids);
    return rc;
}

/* Local peers from PMIX_LOCAL_PEERS, else from the node map. */
static int query_local(ucmpi_rt_info_t *info)
{
    pmix_value_t *v;
    int n = -1, mine = info->node_of[info->rank];

    if (get_local(PMIX_RANK_WILDCARD, PMIX_LOCAL_PEERS, &v) == PMIX_SUCCESS) {
        if (v->type != PMIX_STRING ||
            ucmpi_rt_parse_ranks(v->data.string, &info->local_peers, &n) != 0)
            n = -1;
        PMIX_VALUE_RELEASE(v);
    }
    if (n < 0) {
        info->local_peers = malloc(info->size * sizeof(int));
        if (info->local_peers == NULL)
            return -1;
        n = 0;
        for (int r = 0; r < info->size; r++)
            if (info->node_of[r] == mine)
                info->local_peers[n++] = r;
    }
    info->local_size = (int)get_long(PMIX_RANK_WILDCARD, PMIX_LOCAL_SIZE, n);
    info->local_rank = -1;
    for (int i = 0; i < n; i++)
        if (info->local_peers[i] == info->rank)
            info->local_rank = i;
    info->local_rank = (int)get_long(info->rank, PMIX_LOCAL_RANK, info->local_rank);
    if (info->local_size != n || info->local_rank < 0) {
        rt_err("PMIx: inconsistent local info (local size %d, %d peers, local rank %d)",
               info->local_size, n, info->local_rank);
        return -1;
    }
    return 0;
}

static int init_singleton(ucmpi_rt_info_t *info)
{
    info->local_peers = malloc(sizeof(int));
    info->node_of = malloc(sizeof(int));
    if (info->local_peers == NULL || info->node_of == NULL) {
        rt_err("singleton init: out of memory");
        return -1;
    }
    info->rank = 0;
    info->size = 1;
    info->local_rank = 0;
    info->local_size = 1;
    info->local_peers[0] = 0;
    info->node_of[0] = 0;
    info->num_nodes = 1;
    info->appnum = 0;
    info->universe_size = 1;
    info->singleton = 1;
    rt.singleton = 1;
    rt.active = 1;
    return 0;
}

static int init_pmix(ucmpi_rt_info_t *info)
{
    pmix_status_t rc = PMIx_Init(&rt.me, NULL, 0);

    if (rc != PMIX_SUCCESS) {
        rt_err("PMIx_Init failed: %s", PMIx_Error_string(rc));
        return -1;
    }
    rt.active = 1;
    if (ucmpi_rt_keeper_wanted())
        ucmpi_rt_keeper_start();
    info->rank = (int)rt.me.rank;
    ucmpi_rt_calls_map(info->rank);
    info->size = (int)get_long(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, -1);
    if (info->size <= 0 || info->rank >= info->size) {
        rt_err("PMIx: no valid job size (%d) for rank %d", info->size, info->rank);
        goto err_inactive;
    }
    info->appnum = (int)get_long(info->rank, PMIX_APPNUM, 0);
    info->universe_size = (int)get_long(PMIX_RANK_WILDCARD, PMIX_UNIV_SIZE, info->size);
    info->node_of = malloc(info->size * sizeof(int));
    if (info->node_of == NULL) {
        rt_err("PMIx init: out of memory");
        goto err_inactive;
    }
    if (query_nodes(info) != 0 || query_local(info) != 0)
        goto err_free;
    return 0;

err_free:
    free(info->node_of);
    free(info->local_peers);
    info->node_of = info->local_peers = NULL;
err_inactive:
    /* no PMIx_Finalize: exiting unfinalized tells the launcher to end the job
     * instead of leaving the other ranks waiting for us in a fence */
    rt.active = 0;
    return -1;
}

static void set_oversubscribed(ucmpi_rt_info_t *info)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    info->oversubscribed = cpus > 0 && info->local_size > cpus;
}

int ucmpi_rt_init(ucmpi_rt_info_t *info)
{
    char what[128];
    int rc;

    if (rt.active) {
        rt_err("runtime initialised twice");
        return -1;
    }
    memset(info, 0, sizeof(*info));
    if (gethostname(info->hostname, sizeof(info->hostname) - 1) != 0)
        strcpy(info->hostname, "localhost");
    if (ucmpi_rt_pmix_env_present()) {
        rc = init_pmix(info);
    } else if (ucmpi_rt_launcher_visible(what, sizeof(what))) {
        rt_err("started by %s but no PMIx server answers: "
               "run with `srun --mpi=pmix` or ucmpi's mpiexec", what);
        return -1;
    } else {
        rc = init_singleton(info);
    }
    if (rc == 0 && info->singleton)
        snprintf(info->nspace, sizeof(info->nspace), "singleton.%s.%d",
                 info->hostname, (int)getpid());
    else if (rc == 0)
        snprintf(info->nspace, sizeof(info->nspace), "%s", rt.me.nspace);
    if (rc == 0)
        set_oversubscribed(info);
    return rc;
}

void ucmpi_rt_info_free(ucmpi_rt_info_t *info)
{
    free(info->local_peers);
    free(info->node_of);
    info->local_peers = info->node_of = NULL;
}

static int singleton_put(const char *key, const void *data, size_t len)
{
    rt_kv_t *kv;

    for (kv = rt.kv; kv != NULL; kv = kv->next)
        if (strcmp(kv->key, key) == 0)
            break;
    if (kv == NULL) {
        kv = calloc(1, sizeof(*kv));
        if (kv == NULL || (kv->key = strdup(key)) == NULL) {
            free(kv);
            return -1;
        }
        kv->next = rt.kv;
        rt.kv = kv;
    }
    free(kv->data);
    kv->data = malloc(len ? len : 1);
    if (kv->data == NULL)
        return -1;
    memcpy(kv->data, data, len);
    kv->len = len;
    return 0;
}

int ucmpi_rt_put(const char *key, const void *data, size_t len)
{
    pmix_value_t val;
    pmix_status_t rc;

    if (!rt.active) {
        rt_err("put of '%s' outside init/finalize", key);
        return -1;
    }
    if (rt.singleton) {
        if (singleton_put(key, data, len) != 0) {
            rt_err("put of '%s': out of memory", key);
            return -1;
        }
        return 0;
    }
    val.type = PMIX_BYTE_OBJECT;
    val.data.bo.bytes = (char *)data;
    val.data.bo.size = len;
    rc = PMIx_Put(PMIX_GLOBAL, key, &val);   /* copies the value */
    if (rc != PMIX_SUCCESS) {
        rt_err("PMIx_Put of '%s' failed: %s", key, PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

int ucmpi_rt_commit(void)
{
    pmix_status_t rc;

    if (!rt.active || rt.singleton)
        return rt.active ? 0 : -1;
    rc = PMIx_Commit();
    if (rc != PMIX_SUCCESS) {
        rt_err("PMIx_Commit failed: %s", PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

/* One fence in flight; its completion comes on PMIx's thread.  It lives on
 * the heap: a waiter that gives up (a peer died) leaves it to fence_done. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;                 /* 0: pending, 1: ok, 2 + |status|: failed */
    int abandoned;            /* the waiter left: fence_done frees it */
} rt_fence_t;

static void fence_free(rt_fence_t *f)
{
    pthread_cond_destroy(&f->cond);
    pthread_mutex_destroy(&f->lock);
    free(f);
}

static void fence_done(pmix_status_t status, void *cbdata)
{
    rt_fence_t *f = cbdata;
    int abandoned;

    pthread_mutex_lock(&f->lock);
    __atomic_store_n(&f->done, status == PMIX_SUCCESS ? 1 : 2 + (status < 0 ? -status : status),
                     __ATOMIC_RELEASE);
    pthread_cond_signal(&f->cond);
    abandoned = f->abandoned;
    pthread_mutex_unlock(&f->lock);   /* the waiter takes the lock before leaving */
    if (abandoned)
        fence_free(f);
}

/* Backs off from spinning so oversubscribed ranks leave the cores to others. */
static void fence_pause(unsigned long iter)
{
    struct timespec ts = {0, 50000};

    if (iter < 64)
        return;
    if (iter < 1024)
        sched_yield();
    else
        nanosleep(&ts, NULL);
}

/* Without a network to keep moving (MPI_Init) the caller sleeps until PMIx
 * wakes it: ranks that are done leave the cores to those still starting.
 * Returns 0 when the fence completed, 1 when progress() gave up on it. */
static int fence_wait(rt_fence_t *f, int (*progress)(void))
{
    int gave_up = 0;

    ucmpi_rt_waiting();           /* the caller named the MPI call */
    if (progress == NULL) {
        pthread_mutex_lock(&f->lock);
        while (!f->done)
            pthread_cond_wait(&f->cond, &f->lock);
        pthread_mutex_unlock(&f->lock);
    } else {
        for (unsigned long i = 0; !__atomic_load_n(&f->done, __ATOMIC_ACQUIRE); i++) {
            if (progress() != 0) {
                gave_up = 1;
                break;
            }
            ucmpi_rt_waiting();
            fence_pause(i);
        }
        pthread_mutex_lock(&f->lock);     /* fence_done has let go of f */
        gave_up = gave_up && !f->done;
        f->abandoned = gave_up;
        pthread_mutex_unlock(&f->lock);
    }
    ucmpi_rt_wait_done();
    return gave_up;
}

int ucmpi_rt_fence(int collect_data, int (*progress)(void))
{
    rt_fence_t *f;
    pmix_proc_t all;
    pmix_info_t info;
    bool collect = collect_data != 0;
    pmix_status_t rc;
    int done;

    if (!rt.active || rt.singleton)
        return rt.active ? 0 : -1;
    f = calloc(1, sizeof(*f));
    if (f == NULL) {
        rt_err("%s", "out of memory for a fence");
        return -1;
    }
    pthread_mutex_init(&f->lock, NULL);
    pthread_cond_init(&f->cond, NULL);
    PMIX_LOAD_PROCID(&all, rt.me.nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    rc = PMIx_Fence_nb(&all, 1, &info, 1, fence_done, f);
    PMIX_INFO_DESTRUCT(&info);
    if (rc == PMIX_OPERATION_SUCCEEDED) {
        f->done = 1;
    } else if (rc != PMIX_SUCCESS) {
        fence_free(f);
        rt_err("PMIx_Fence_nb failed: %s", PMIx_Error_string(rc));
        return -1;
    }
    if (fence_wait(f, progress))
        return 1;                 /* f is fence_done's now */
    done = f->done;
    fence_free(f);
    if (done != 1) {
        rt_err("PMIx fence failed: %s", PMIx_Error_string(-(done - 2)));
        return -1;
    }
    return 0;
}

static int singleton_get(int rank, const char *key, void **data, size_t *len)
{
    for (rt_kv_t *kv = rt.kv; kv != NULL; kv = kv->next)
        if (rank == 0 && strcmp(kv->key, key) == 0) {
            *data = malloc(kv->len ? kv->len : 1);
            if (*data == NULL)
                return -1;
            memcpy(*data, kv->data, kv->len);
            *len = kv->len;
            return 0;
        }
    rt_err("get of '%s' from rank %d: no such key", key, rank);
    return -1;
}

int ucmpi_rt_get(int rank, const char *key, void **data, size_t *len)
{
    pmix_value_t *v;
    pmix_status_t rc;
    void *copy;

    if (!rt.active) {
        rt_err("get of '%s' outside init/finalize", key);
        return -1;
    }
    if (rt.singleton)
        return singleton_get(rank, key, data, len);
    rc = get_modex((pmix_rank_t)rank, key, &v);
    if (rc != PMIX_SUCCESS) {
        rt_err("PMIx_Get of '%s' from rank %d failed: %s", key, rank, PMIx_Error_string(rc));
        return -1;
    }
    if (v->type != PMIX_BYTE_OBJECT) {
        rt_err("PMIx_Get of '%s' from rank %d: unexpected type %s", key, rank,
               PMIx_Data_type_string(v->type));
        PMIX_VALUE_RELEASE(v);
        return -1;
    }
    copy = malloc(v->data.bo.size ? v->data.bo.size : 1);
    if (copy == NULL) {
        PMIX_VALUE_RELEASE(v);
        rt_err("get of '%s': out of memory", key);
        return -1;
    }
    memcpy(copy, v->data.bo.bytes, v->data.bo.size);
    *data = copy;
    *len = v->data.bo.size;
    PMIX_VALUE_RELEASE(v);
    return 0;
}

void ucmpi_rt_abort(int code, const char *msg)
{
    fflush(stdout);
    fflush(stderr);
    /* our mpiexec prints msg in its report; other launchers (srun) do not */
    if (msg != NULL && *msg != '\0' && (!rt.active || rt.singleton || !getenv(RT_LAUNCHER_ENV)))
        fprintf(stderr, "%s\n", msg);
    if (rt.active && !rt.singleton)
        PMIx_Abort(code, msg, NULL, 0);   /* the launcher ends the job */
    _exit(code);
}

/* ---- process failures (the launcher's termination events) ---- */

static void (*failed_fn)(int rank);
static size_t failed_ref;
static int failed_registered;

/* PMIx's thread: the affected process of a termination event of this job. */
static void on_proc_event(size_t id, pmix_status_t status, const pmix_proc_t *source,
                          pmix_info_t info[], size_t ninfo, pmix_info_t results[],
                          size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc,
                          void *cbdata)
{
    void (*fn)(int) = __atomic_load_n(&failed_fn, __ATOMIC_ACQUIRE);

    for (size_t i = 0; i < ninfo && fn != NULL; i++) {
        const pmix_proc_t *p;
        if (!PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC) ||
            info[i].value.type != PMIX_PROC || (p = info[i].value.data.proc) == NULL)
            continue;
        if (PMIX_CHECK_NSPACE(p->nspace, rt.me.nspace) && p->rank != PMIX_RANK_WILDCARD)
            fn((int)p->rank);
    }
    if (cbfunc != NULL)
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

int ucmpi_rt_on_proc_failed(void (*fn)(int rank))
{
    pmix_status_t codes[] = {PMIX_EVENT_PROC_TERMINATED, PMIX_ERR_PROC_ABORTED};
    pmix_status_t rc;

    __atomic_store_n(&failed_fn, fn, __ATOMIC_RELEASE);
    if (!rt.active || rt.singleton)
        return 0;
    if (fn == NULL && failed_registered) {
        PMIx_Deregister_event_handler(failed_ref, NULL, NULL);
        failed_registered = 0;
    } else if (fn != NULL && !failed_registered) {
        /* without a callback the registration blocks and returns the reference */
        rc = PMIx_Register_event_handler(codes, 2, NULL, 0, on_proc_event, NULL, NULL);
        if (rc < 0) {
            rt_err("PMIx_Register_event_handler failed: %s", PMIx_Error_string(rc));
            return -1;
        }
        failed_ref = (size_t)rc;
        failed_registered = 1;
    }
    return 0;
}

int ucmpi_rt_finalize(void)
{
    pmix_status_t rc = PMIX_SUCCESS;

    if (!rt.active)
        return -1;
    (void)ucmpi_rt_on_proc_failed(NULL);
    if (!rt.singleton)
        rc = PMIx_Finalize(NULL, 0);
    while (rt.kv != NULL) {
        rt_kv_t *next = rt.kv->next;
        free(rt.kv->key);
        free(rt.kv->data);
        free(rt.kv);
        rt.kv = next;
    }
    ucmpi_rt_keeper_stop();       /* finalized: the connection may go */
    rt.active = rt.singleton = 0;
    ucmpi_rt_calls_unmap();
    if (rc != PMIX_SUCCESS) {
        rt_err("PMIx_Finalize failed: %s", PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}
