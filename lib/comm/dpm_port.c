/* MPI_Open_port / MPI_Close_port: a port name carries what a connecting
 * process needs to reach the owner without a name service (its job, rank,
 * pid, host and UCX worker address, in hex) plus a number unique among the
 * owner's ports, which tags the connect handshake. */
#include "comm/dpm.h"
#include "comm/comm_internal.h"
#include "core/call.h"
#include "core/hooks.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PORT_PREFIX "ucmpi-port:1:"
#define PORT_ID_MAX ((1u << 20) - 1)   /* handshake tags: lib/comm/dpm_connect.c */

static uint32_t *open_ids;    /* ports opened here and not closed */
static int nopen, capopen;
static uint32_t next_id;

int ucmpi_dpm_port_open_here(uint32_t id)
{
    int found = 0;
    ucmpi_lock();
    for (int i = 0; i < nopen && !found; i++)
        found = open_ids[i] == id;
    ucmpi_unlock();
    return found;
}

static int remember(uint32_t id)
{
    int rc = 0;
    ucmpi_lock();
    if (nopen == capopen) {
        int c = capopen ? 2 * capopen : 8;
        uint32_t *n = realloc(open_ids, (size_t)c * sizeof(*n));
        if (n == NULL)
            rc = -1;
        else
            open_ids = n, capopen = c;
    }
    if (rc == 0)
        open_ids[nopen++] = id;
    ucmpi_unlock();
    return rc;
}

static int forget(uint32_t id)
{
    int found = 0;
    ucmpi_lock();
    for (int i = 0; i < nopen && !found; i++)
        if (open_ids[i] == id) {
            open_ids[i] = open_ids[--nopen];
            found = 1;
        }
    ucmpi_unlock();
    return found;
}

static void ports_finalize(void *arg)
{
    (void)arg;
    free(open_ids);
    open_ids = NULL;
    nopen = capopen = 0;
}

__attribute__((constructor)) static void dpm_port_hooks(void)
{
    ucmpi_hook_add(UCMPI_HOOK_FINALIZE_LAST, UCMPI_HOOK_ORDER_COMM,
                   ports_finalize);
}

/* The name of port id, or -1 when it does not fit MPI_MAX_PORT_NAME. */
static int port_format(uint32_t id, const ucmpi_dpm_proc_t *p, char *name)
{
    static const char hex[] = "0123456789abcdef";
    int n = snprintf(name, MPI_MAX_PORT_NAME,
                     PORT_PREFIX "%" PRIx32 ":%d:%d:%016" PRIx64 ":", id,
                     (int)p->rank, (int)p->pid, p->host);
    if (n + 2 * (size_t)p->addr_len + strlen(p->nspace) + 2 >
        MPI_MAX_PORT_NAME)
        return -1;
    for (uint32_t i = 0; i < p->addr_len; i++) {
        name[n++] = hex[p->addr[i] >> 4];
        name[n++] = hex[p->addr[i] & 15];
    }
    snprintf(name + n, MPI_MAX_PORT_NAME - (size_t)n, ":%s", p->nspace);
    return 0;
}

static int unhex(int c)
{
    return c >= '0' && c <= '9' ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int ucmpi_dpm_port_parse(const char *name, ucmpi_dpm_port_t *p, char *why,
                         size_t n)
{
    unsigned id;
    int rank, pid, used = 0;
    uint64_t host;
    size_t len = strnlen(name, MPI_MAX_PORT_NAME);
    const char *s;

    memset(p, 0, sizeof(*p));
    if (len == MPI_MAX_PORT_NAME ||
        strncmp(name, PORT_PREFIX, strlen(PORT_PREFIX)) != 0 ||
        sscanf(name + strlen(PORT_PREFIX), "%x:%d:%d:%" SCNx64 ":%n", &id,
               &rank, &pid, &host, &used) != 4 || used == 0) {
        snprintf(why, n, "\"%.40s%s\" is not a port name from MPI_Open_port",
                 name, len > 40 ? "..." : "");
        return -1;
    }
    s = name + strlen(PORT_PREFIX) + used;
    while (unhex(s[0]) >= 0 && unhex(s[1]) >= 0 &&
           p->owner.addr_len < sizeof(p->owner.addr)) {
        p->owner.addr[p->owner.addr_len++] =
            (unsigned char)(unhex(s[0]) << 4 | unhex(s[1]));
        s += 2;
    }
    if (*s != ':' || s[1] == '\0' || p->owner.addr_len == 0 || rank < 0 ||
        pid <= 0 || id == 0 || id > PORT_ID_MAX ||
        strlen(s + 1) >= sizeof(p->owner.nspace)) {
        snprintf(why, n, "port name \"%.40s...\" is damaged", name);
        return -1;
    }
    snprintf(p->owner.nspace, sizeof(p->owner.nspace), "%s", s + 1);
    p->id = id;
    p->owner.rank = rank;
    p->owner.pid = pid;
    p->owner.host = host;
    return 0;
}

int ucmpi_dpm_port_new(char *name, uint32_t *idp)
{
    ucmpi_dpm_proc_t self;
    uint32_t id;

    if (ucmpi_dpm_self(&self) != 0)
        return MPI_ERR_INTERN;
    ucmpi_lock();
    id = next_id % PORT_ID_MAX + 1;
    next_id = id;
    ucmpi_unlock();
    if (port_format(id, &self, name) != 0)
        return MPI_ERR_INTERN;
    if (remember(id) != 0)
        return MPI_ERR_NO_MEM;
    *idp = id;
    return MPI_SUCCESS;
}

void ucmpi_dpm_port_close(uint32_t id)
{
    forget(id);
}

#pragma weak MPI_Open_port = PMPI_Open_port
int PMPI_Open_port(MPI_Info info, char *port_name)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Open_port");
    int rc = ucmpi_check_initialized(fn);
    uint32_t id;

    if (rc != MPI_SUCCESS)
        return rc;
    if (port_name == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "port_name is NULL");
    if (info != MPI_INFO_NULL && !ucmpi_info_valid(info))
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_INFO, fn,
                           "info is not a valid info object");
    rc = ucmpi_dpm_port_new(port_name, &id);
    if (rc != MPI_SUCCESS)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, rc, fn, rc == MPI_ERR_NO_MEM
                           ? "out of memory"
                           : "the UCX worker address does not fit in "
                             "MPI_MAX_PORT_NAME (%d)", MPI_MAX_PORT_NAME);
    return MPI_SUCCESS;
}

#pragma weak MPI_Close_port = PMPI_Close_port
int PMPI_Close_port(const char *port_name)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Close_port");
    int rc = ucmpi_check_initialized(fn);
    ucmpi_dpm_port_t p;
    char why[128];

    if (rc != MPI_SUCCESS)
        return rc;
    if (port_name == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "port_name is NULL");
    if (ucmpi_dpm_port_parse(port_name, &p, why, sizeof(why)) != 0)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_PORT, fn, "%s", why);
    if (p.owner.pid != (int32_t)getpid() ||
        strcmp(p.owner.nspace, ucmpi_global.nspace) != 0 ||
        p.owner.rank != ucmpi_global.world_rank || !forget(p.id))
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_PORT, fn,
                           "port %s is not open in this process", port_name);
    return MPI_SUCCESS;
}
