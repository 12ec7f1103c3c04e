/* UCP context and worker: created at MPI_Init, address published through the
 * runtime modex, destroyed at MPI_Finalize after the endpoints closed. */
#include "glue.h"
#include "ucx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>

ucmpi_ucx_t ucmpi_ucx;
ucmpi_ucx_params_t ucmpi_ucx_params;

static int check_runtime_version(void)
{
    unsigned major, minor, release;

    ucp_get_version(&major, &minor, &release);
    if (major > 1 || (major == 1 && minor >= 13))
        return 0;
    fprintf(stderr, "ucmpi: UCX %u.%u.%u is too old: ucmpi needs UCX >= 1.13\n",
            major, minor, release);
    return -1;
}

static ucs_thread_mode_t thread_mode(int mode)
{
    switch (mode) {
    case UCMPI_UCX_THREAD_MULTI:
        return UCS_THREAD_MODE_MULTI;
    case UCMPI_UCX_THREAD_SERIALIZED:
        return UCS_THREAD_MODE_SERIALIZED;
    default:
        return UCS_THREAD_MODE_SINGLE;
    }
}

/* With sysv and posix shm, UCX gives posix an atomic lane and polls 2 FIFOs a
 * progress call: unless the user chose transports, drop posix if SysV works. */
static void drop_posix_shm(ucp_config_t *config)
{
    const char *tls = getenv("UCX_TLS");
    int id;

    if (tls != NULL && strcmp(tls, "^tcp") != 0)
        return;
    id = shmget(IPC_PRIVATE, 4 << 20, IPC_CREAT | 0600);
    if (id < 0)
        return;                   /* no SysV segments here: keep posix */
    shmctl(id, IPC_RMID, NULL);
    ucp_config_modify(config, "TLS", tls != NULL ? "^tcp,posix" : "^posix");
}

static int create_context(int mode)
{
    ucp_params_t params = {0};
    ucp_config_t *config;
    ucs_status_t st;

    ucmpi_ucx_hugepage_init();
    st = ucp_config_read(NULL, NULL, &config);
    if (st != UCS_OK)
        goto err;
    drop_posix_shm(config);
    params.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED |
                        UCP_PARAM_FIELD_ESTIMATED_NUM_EPS;
    params.features = UCP_FEATURE_TAG | UCP_FEATURE_RMA | UCP_FEATURE_AMO32 |
                      UCP_FEATURE_AMO64 | UCP_FEATURE_AM;
    /* wakeup (an event fd to block on) rules out transports without
     * events, shared memory among them: only for UCMPI_WAIT_MODE=block */
    if (ucmpi_ucx_params.wakeup)
        params.features |= UCP_FEATURE_WAKEUP;
    params.mt_workers_shared = mode == UCMPI_UCX_THREAD_MULTI;
    params.estimated_num_eps = (size_t)ucmpi_ucx_params.world_size;
    st = ucp_init(&params, config, &ucmpi_ucx.context);
    ucp_config_release(config);
    if (st == UCS_OK) {
        ucp_context_attr_t a = {.field_mask = UCP_ATTR_FIELD_REQUEST_SIZE};
        st = ucp_context_query(ucmpi_ucx.context, &a);
        if (st == UCS_OK && a.request_size > 0) {
            ucmpi_ucx.req_size = a.request_size;
            return 0;
        }
        ucp_cleanup(ucmpi_ucx.context);
        st = st == UCS_OK ? UCS_ERR_UNSUPPORTED : st;
    }
err:
    fprintf(stderr, "ucmpi: UCX initialisation failed: %s\n",
            ucs_status_string(st));
    return -1;
}

static int create_worker(int mode)
{
    ucp_worker_params_t wp = {0};
    ucs_status_t st;

    wp.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
    wp.thread_mode = thread_mode(mode);
    st = ucp_worker_create(ucmpi_ucx.context, &wp, &ucmpi_ucx.worker);
    if (st != UCS_OK) {
        fprintf(stderr, "ucmpi: UCX worker creation failed: %s\n",
                ucs_status_string(st));
        return -1;
    }
    ucmpi_ucx.multi_thread = mode == UCMPI_UCX_THREAD_MULTI;
    ucmpi_ucx.own_ok = !ucmpi_ucx.multi_thread &&
                       ucmpi_ucx.req_size <= UCMPI_UCX_REQ_ROOM;
    return 0;
}

static int publish_address(void)
{
    ucp_address_t *addr;
    size_t len;
    ucs_status_t st = ucp_worker_get_address(ucmpi_ucx.worker, &addr, &len);
    int rc;

    if (st != UCS_OK) {
        fprintf(stderr, "ucmpi: cannot get the UCX worker address: %s\n",
                ucs_status_string(st));
        return -1;
    }
    rc = ucmpi_ucx_params.publish(addr, len);
    ucp_worker_release_address(ucmpi_ucx.worker, addr);
    return rc;
}

int ucmpi_ucx_init(const ucmpi_ucx_params_t *params)
{
    ucmpi_ucx_params = *params;
    if (ucmpi_ucx_params.proc_cap < params->world_size)
        ucmpi_ucx_params.proc_cap = params->world_size;
    if (check_runtime_version() != 0 ||
        create_context(params->thread_mode) != 0)
        return -1;
    if (create_worker(params->thread_mode) != 0)
        goto err_context;
    ucmpi_ucx.eps = calloc((size_t)ucmpi_ucx_params.proc_cap,
                           sizeof(ucp_ep_h));
    if (ucmpi_ucx.eps == NULL)
        goto err_worker;
    if (publish_address() != 0)
        goto err_eps;
    return 0;
err_eps:
    free(ucmpi_ucx.eps);
err_worker:
    ucp_worker_destroy(ucmpi_ucx.worker);
err_context:
    ucp_cleanup(ucmpi_ucx.context);
    return -1;
}

int ucmpi_ucx_address(void **addr, size_t *len)
{
    ucp_address_t *a;
    size_t n;

    if (ucp_worker_get_address(ucmpi_ucx.worker, &a, &n) != UCS_OK)
        return -1;
    *addr = malloc(n);
    if (*addr != NULL)
        memcpy(*addr, a, n);
    *len = n;
    ucp_worker_release_address(ucmpi_ucx.worker, a);
    return *addr != NULL ? 0 : -1;
}

ucmpi_ucx_stats_t ucmpi_ucx_stats;

int ucmpi_ucx_progress(void)
{
    ucmpi_ucx_stats.progress++;
    return (int)ucp_worker_progress(ucmpi_ucx.worker);
}

int ucmpi_ucx_efd(void)
{
    int fd = -1;
    if (ucp_worker_get_efd(ucmpi_ucx.worker, &fd) != UCS_OK)
        return -1;
    return fd;
}

/* 0 when armed (safe to block on the fd), 1 when events are pending. */
int ucmpi_ucx_arm(void)
{
    return ucp_worker_arm(ucmpi_ucx.worker) == UCS_OK ? 0 : 1;
}

void ucmpi_ucx_finalize(void)
{
    free(ucmpi_ucx.eps);
    ucmpi_ucx.eps = NULL;
    for (int r = 0; ucmpi_ucx.addrs != NULL && r < ucmpi_ucx_params.proc_cap;
         r++)
        free(ucmpi_ucx.addrs[r]);
    free(ucmpi_ucx.addrs);
    free(ucmpi_ucx.addr_lens);
    ucmpi_ucx.addrs = NULL;
    ucmpi_ucx.addr_lens = NULL;
    ucp_worker_destroy(ucmpi_ucx.worker);
    ucp_cleanup(ucmpi_ucx.context);
}

const char *ucmpi_ucx_version(void)
{
    return ucp_get_version_string();
}

/* For ucmpi_info: the transports and devices a UCP context would use. */
void ucmpi_ucx_print_transports(int verbose)
{
    ucp_params_t params = {0};
    ucp_context_h ctx;
    ucp_config_t *config;

    if (ucp_config_read(NULL, NULL, &config) != UCS_OK)
        return;
    drop_posix_shm(config);       /* show what MPI_Init would use */
    params.field_mask = UCP_PARAM_FIELD_FEATURES;
    params.features = UCP_FEATURE_TAG | UCP_FEATURE_RMA | UCP_FEATURE_AMO64 |
                      UCP_FEATURE_AM;
    if (ucp_init(&params, config, &ctx) == UCS_OK) {
        ucp_context_print_info(ctx, stdout);
        ucp_cleanup(ctx);
    }
    if (verbose)
        ucp_config_print(config, stdout, "UCX configuration",
                         UCS_CONFIG_PRINT_CONFIG | UCS_CONFIG_PRINT_DOC);
    ucp_config_release(config);
}
