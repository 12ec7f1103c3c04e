/* MPI_Init / MPI_Finalize and the process-level queries; the order of start-up
 * and shutdown: docs/architecture.md, "core: init and finalize". */
#include "comm/comm.h"
#include "core/failure.h"
#include "p2p/progress_api.h"
#include "core/config.h"
#include "core/call.h"
#include "core/hooks.h"
#include "ucmpi_rt.h"
#include "ucp_glue/ucx.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

ucmpi_global_t ucmpi_global;
static ucmpi_rt_info_t rt;
static pthread_t main_thread;
static pthread_mutex_t big_lock;

int ucmpi_comm_init_predefined(void);
void ucmpi_progress_init(void);
int ucmpi_progress_publish(void);
void ucmpi_error_finalize(void);
int ucmpi_failure_init(void);
void ucmpi_failure_finalize(void);

void ucmpi_lock(void)
{
    if (ucmpi_global.thread_level == MPI_THREAD_MULTIPLE)
        pthread_mutex_lock(&big_lock);
}

void ucmpi_unlock(void)
{
    if (ucmpi_global.thread_level == MPI_THREAD_MULTIPLE)
        pthread_mutex_unlock(&big_lock);
}

void ucmpi_abort(int code, const char *msg)
{
    ucmpi_rt_abort(code, msg);
}

static void init_lock(void)
{
    pthread_mutexattr_t a;

    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&big_lock, &a);
    pthread_mutexattr_destroy(&a);
}

/* node_of grows to proc_cap: other jobs' processes get theirs when they
 * are added (-1 until then: not on this node). */
static int extend_node_map(void)
{
    long extra = ucmpi_config_long("DPM_PEERS");
    int cap = rt.size + (int)(extra < 0 ? 0 : extra > (1 << 20) ? 1 << 20
                                                                 : extra);
    int *n = realloc(rt.node_of, (size_t)cap * sizeof(int));

    if (n == NULL)
        return -1;
    for (int r = rt.size; r < cap; r++)
        n[r] = -1;
    rt.node_of = n;
    ucmpi_global.proc_cap = cap;
    return 0;
}

static void copy_runtime_info(void)
{
    if (extend_node_map() != 0)
        ucmpi_rt_abort(1, "ucmpi: out of memory at start-up");
    ucmpi_global.world_rank = rt.rank;
    ucmpi_global.world_size = rt.size;
    ucmpi_global.local_rank = rt.local_rank;
    ucmpi_global.local_size = rt.local_size;
    ucmpi_global.local_peers = rt.local_peers;
    ucmpi_global.node_of = rt.node_of;
    ucmpi_global.num_nodes = rt.num_nodes;
    ucmpi_global.singleton = rt.singleton;
    ucmpi_global.appnum = rt.appnum;
    ucmpi_global.universe_size = rt.universe_size;
    ucmpi_global.nspace = rt.nspace;
    ucmpi_global.hostname = rt.hostname;
}

#define UCX_ADDR_KEY "ucmpi.ucx.addr"

static int publish_ucx_address(const void *addr, size_t len)
{
    return ucmpi_rt_put(UCX_ADDR_KEY, addr, len);
}

/* A local lookup after the start-up fence. */
static int lookup_ucx_address(int r, void **addr, size_t *len)
{
    return ucmpi_rt_get(r, UCX_ADDR_KEY, addr, len);
}

static int start_ucx(void)
{
    static const int modes[] = {
        [MPI_THREAD_SINGLE] = UCMPI_UCX_THREAD_SINGLE,
        [MPI_THREAD_FUNNELED] = UCMPI_UCX_THREAD_SINGLE,
        [MPI_THREAD_SERIALIZED] = UCMPI_UCX_THREAD_SERIALIZED,
        [MPI_THREAD_MULTIPLE] = UCMPI_UCX_THREAD_MULTI,
    };
    ucmpi_ucx_params_t p = {
        .thread_mode = modes[ucmpi_global.thread_level],
        .world_size = ucmpi_global.world_size,
        .world_rank = ucmpi_global.world_rank,
        .proc_cap = ucmpi_global.proc_cap,
        .node_of = ucmpi_global.node_of,
        .wakeup = strcmp(ucmpi_config_str("WAIT_MODE"), "block") == 0,
        .hugepage_min = ucmpi_config_long("P2P_HUGEPAGE_MIN"),
        .hugepage_reuse = ucmpi_config_long("P2P_HUGEPAGE_REUSE"),
        .publish = publish_ucx_address,
        .lookup = lookup_ucx_address,
        .peer_failed = ucmpi_peer_failed,
        .lock = ucmpi_lock,
        .unlock = ucmpi_unlock,
        .progress = ucmpi_progress,
        .errors = {
            [UCMPI_UCX_E_TRUNCATE] = MPI_ERR_TRUNCATE,
            [UCMPI_UCX_E_NO_MEM] = MPI_ERR_NO_MEM,
            [UCMPI_UCX_E_PEER] = MPI_ERR_PROC_FAILED,
            [UCMPI_UCX_E_OTHER] = MPI_ERR_OTHER,
            [UCMPI_UCX_E_INTERN] = MPI_ERR_INTERN,
        },
    };
    int rc = 0;

    if (ucmpi_ucx_init(&p) != 0)
        return -1;
    ucmpi_hooks_run(UCMPI_HOOK_INIT, &rc);   /* e.g. p2p's active messages */
    return rc;
}

/* Brings the library instance up: runtime, UCX, modex, predefined
 * communicators.  Shared by the world model (MPI_Init) and sessions. */
int ucmpi_instance_up(int required)
{
    if (required < MPI_THREAD_SINGLE)
        required = MPI_THREAD_SINGLE;
    ucmpi_global.thread_level =
        required > MPI_THREAD_MULTIPLE ? MPI_THREAD_MULTIPLE : required;
    main_thread = pthread_self();
    init_lock();
    if (ucmpi_rt_init(&rt) != 0)
        exit(1);
    copy_runtime_info();
    if (start_ucx() != 0 ||
        ucmpi_failure_init() != 0 || ucmpi_progress_publish() != 0 ||
        ucmpi_rt_commit() != 0 || ucmpi_rt_fence(1, NULL) != 0)
        ucmpi_rt_abort(1, "ucmpi: start-up failed");
    if (ucmpi_comm_init_predefined() != 0)
        ucmpi_rt_abort(1, "ucmpi: out of memory at start-up");
    ucmpi_progress_init();
    ucmpi_global.active = 1;
    return MPI_SUCCESS;
}

static int do_init(const char *name, int required, int *provided)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    ucmpi_rt_enter(fn);
    if (ucmpi_global.initialized || ucmpi_global.finalized) {
        fprintf(stderr, "ucmpi: %s: MPI is already %s\n", fn,
                ucmpi_global.finalized ? "finalized" : "initialized");
        exit(1);
    }
    if (!ucmpi_global.active)     /* else a session brought it up */
        ucmpi_instance_up(required);
    ucmpi_global.initialized = 1;
    ucmpi_hooks_run(UCMPI_HOOK_WORLD_UP, NULL);
    if (provided != NULL)
        *provided = ucmpi_global.thread_level;
    return MPI_SUCCESS;
}

#pragma weak MPI_Init = PMPI_Init
int PMPI_Init(int *argc, char ***argv)
{
    return do_init("MPI_Init", MPI_THREAD_SINGLE, NULL);
}

#pragma weak MPI_Init_thread = PMPI_Init_thread
int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    return do_init("MPI_Init_thread", required, provided);
}

/* The finalize fence gives up once a rank is known dead (mpiexec
 * --disable-auto-cleanup), which would otherwise keep the survivors in it. */
static int progress_unless_peer_died(void)
{
    static unsigned turn;

    ucmpi_progress();
    if (++turn % 256 != 0)
        return 0;
    for (int r = 0; r < ucmpi_global.world_size; r++)
        if (r != ucmpi_global.world_rank && ucmpi_peer_failed(r))
            return 1;
    return 0;
}

/* Takes the instance down (collective over the job, as MPI_Finalize). */
static int hook_done;

/* MPI_COMM_SELF's and MPI_COMM_WORLD's attributes go first, once. */
static void run_finalize_hook(void)
{
    if (!hook_done)
        ucmpi_hooks_run(UCMPI_HOOK_FINALIZE_FIRST, NULL);
    hook_done = 1;
}

void ucmpi_instance_down(void)
{
    run_finalize_hook();
    ucmpi_finalize_orphans();     /* before endpoints close */
    ucmpi_fin_end();              /* (its barrier answered stalled peers) */
    /* requests, windows and protocol state after the barrier: nobody
     * uses them any more */
    ucmpi_hooks_run(UCMPI_HOOK_FINALIZE_QUIESCE, NULL);
    ucmpi_ucx_close_eps();
    if (ucmpi_rt_fence(0, progress_unless_peer_died) == 1)
        ucmpi_finalize_drop_unexpected();
    ucmpi_fin_drop();
    ucmpi_global.active = 0;
    ucmpi_hooks_run(UCMPI_HOOK_FINALIZE_DETACH, NULL);
    ucmpi_ucx_finalize();
    ucmpi_rt_finalize();
    ucmpi_hooks_run(UCMPI_HOOK_FINALIZE_LAST, NULL);
    ucmpi_failure_finalize();
    ucmpi_error_finalize();
    free(rt.local_peers);
    free(rt.node_of);
    rt.local_peers = rt.node_of = NULL;
}

#pragma weak MPI_Finalize = PMPI_Finalize
int PMPI_Finalize(void)
{
    if (!ucmpi_global.initialized || ucmpi_global.finalized) {
        fprintf(stderr, "ucmpi: MPI_Finalize called %s\n",
                ucmpi_global.finalized ? "twice" : "before MPI_Init");
        exit(1);
    }
    /* delete callbacks on MPI_COMM_SELF still see MPI_Finalized false */
    if (ucmpi_sessions_open() == 0)
        run_finalize_hook();
    ucmpi_global.finalized = 1;
    if (ucmpi_sessions_open() == 0)   /* else the last session ends it */
        ucmpi_instance_down();
    return MPI_SUCCESS;
}

#pragma weak MPI_Initialized = PMPI_Initialized
int PMPI_Initialized(int *flag)
{
    *flag = ucmpi_global.initialized;
    return MPI_SUCCESS;
}

#pragma weak MPI_Finalized = PMPI_Finalized
int PMPI_Finalized(int *flag)
{
    *flag = ucmpi_global.finalized;
    return MPI_SUCCESS;
}

#pragma weak MPI_Query_thread = PMPI_Query_thread
int PMPI_Query_thread(int *provided)
{
    int rc = ucmpi_check_initialized("MPI_Query_thread");
    if (rc == MPI_SUCCESS)
        *provided = ucmpi_global.thread_level;
    return rc;
}

#pragma weak MPI_Is_thread_main = PMPI_Is_thread_main
int PMPI_Is_thread_main(int *flag)
{
    int rc = ucmpi_check_initialized("MPI_Is_thread_main");
    if (rc == MPI_SUCCESS)
        *flag = pthread_equal(pthread_self(), main_thread) != 0;
    return rc;
}

#pragma weak MPI_Abort = PMPI_Abort
int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    char msg[128];

    snprintf(msg, sizeof(msg), "MPI_Abort called by rank %d with code %d",
             ucmpi_global.world_rank, errorcode);
    if (!ucmpi_global.initialized || ucmpi_global.finalized) {
        fprintf(stderr, "ucmpi: %s\n", msg);
        exit(errorcode);
    }
    ucmpi_rt_abort(errorcode, msg);
}

#pragma weak MPI_Wtime = PMPI_Wtime
double PMPI_Wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#pragma weak MPI_Wtick = PMPI_Wtick
double PMPI_Wtick(void)
{
    struct timespec ts;
    clock_getres(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#pragma weak MPI_Get_processor_name = PMPI_Get_processor_name
int PMPI_Get_processor_name(char *name, int *resultlen)
{
    if (name == NULL || resultlen == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG,
                           "MPI_Get_processor_name", "name or resultlen is NULL");
    if (gethostname(name, MPI_MAX_PROCESSOR_NAME) != 0)
        strcpy(name, "localhost");
    name[MPI_MAX_PROCESSOR_NAME - 1] = '\0';
    *resultlen = (int)strlen(name);
    return MPI_SUCCESS;
}

#pragma weak MPI_Get_version = PMPI_Get_version
int PMPI_Get_version(int *version, int *subversion)
{
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

#pragma weak MPI_Get_library_version = PMPI_Get_library_version
int PMPI_Get_library_version(char *version, int *resultlen)
{
    snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
             "ucmpi %s (MPI %d.%d) on UCX %s", UCMPI_VERSION, MPI_VERSION,
             MPI_SUBVERSION, ucmpi_ucx_version());
    *resultlen = (int)strlen(version);
    return MPI_SUCCESS;
}

/* ucmpi collects no profile: every level is accepted and has no effect, as
 * the standard asks of an implementation without profiling support. */
#pragma weak MPI_Pcontrol = PMPI_Pcontrol
int PMPI_Pcontrol(const int level, ...)
{
    return MPI_SUCCESS;
}
