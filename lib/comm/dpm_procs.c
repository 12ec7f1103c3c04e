/* The process table of dynamic processes: another job's process gets a world
 * rank past the job's own at first sight (connect, accept, spawn), so groups,
 * endpoints and failure checks treat it as any other peer. */
#include "comm/dpm.h"
#include "core/failure.h"
#include "core/hooks.h"
#include "ucp_glue/ucx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A slot is free (never used, or its process was let go), live, being
 * closed, or retired (its process was declared failed: the failure order
 * keeps its world rank, which must not name another process). */
enum { SLOT_FREE, SLOT_LIVE, SLOT_CLOSING, SLOT_RETIRED };

typedef struct {
    char nspace[UCMPI_DPM_NSPACE_MAX];
    int rank;
    uint64_t host;
    int state;
    int refs;                 /* groups that name it */
    int fresh;                /* handed out since the last pin: a group is
                               * about to name it, keep it at refs 0 */
} known_t;

static known_t *known;        /* [proc_cap - world_size] */
static int nknown;            /* slots ever used */

uint64_t ucmpi_dpm_host_hash(const char *host)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);   /* FNV-1a */
    for (; *host; host++)
        h = (h ^ (unsigned char)*host) * UINT64_C(0x100000001b3);
    return h;
}

int ucmpi_dpm_self(ucmpi_dpm_proc_t *p)
{
    void *addr = NULL;
    size_t len = 0;

    memset(p, 0, sizeof(*p));
    snprintf(p->nspace, sizeof(p->nspace), "%s", ucmpi_global.nspace);
    p->rank = ucmpi_global.world_rank;
    p->pid = (int32_t)getpid();
    p->host = ucmpi_dpm_host_hash(ucmpi_global.hostname);
    if (ucmpi_ucx_address(&addr, &len) != 0)
        return -1;
    if (len > sizeof(p->addr)) {
        free(addr);
        return -1;
    }
    memcpy(p->addr, addr, len);
    p->addr_len = (uint32_t)len;
    free(addr);
    return 0;
}

/* Node of another job's process: ours when on this host (shared memory
 * reaches it), else one per host name. */
static int node_id(uint64_t host)
{
    if (host == ucmpi_dpm_host_hash(ucmpi_global.hostname))
        return ucmpi_global.node_of[ucmpi_global.world_rank];
    return -2 - (int)(host & 0x3fffffff);
}

static int lookup(const ucmpi_dpm_proc_t *p)
{
    for (int i = 0; i < nknown; i++)
        if (known[i].state == SLOT_LIVE && known[i].rank == p->rank &&
            strncmp(known[i].nspace, p->nspace, sizeof(p->nspace)) == 0)
            return ucmpi_global.world_size + i;
    return -1;
}

/* A free slot's index, else a new one's; -1 when the table is full. */
static int free_slot(void)
{
    int cap = ucmpi_global.proc_cap - ucmpi_global.world_size;

    for (int i = 0; i < nknown; i++)
        if (known[i].state == SLOT_FREE)
            return i;
    return nknown < cap ? nknown : -1;
}

static int add_new(const ucmpi_dpm_proc_t *p)
{
    int cap = ucmpi_global.proc_cap - ucmpi_global.world_size;

    if (p->addr_len > sizeof(p->addr))
        return -1;
    if (known == NULL && (known = calloc((size_t)cap, sizeof(*known))) == NULL)
        return -1;
    int i = free_slot(), r = ucmpi_global.world_size + i;
    if (i < 0)
        return -1;
    /* the node and pid first: the endpoint's error mode depends on them */
    ucmpi_global.node_of[r] = node_id(p->host);
    if (p->host == ucmpi_dpm_host_hash(ucmpi_global.hostname))
        ucmpi_peer_set_pid(r, p->pid);
    if (ucmpi_ucx_peer_add(r, p->addr, p->addr_len) != 0)
        return -1;
    known_t *k = &known[i];
    memcpy(k->nspace, p->nspace, sizeof(p->nspace));
    k->nspace[sizeof(p->nspace) - 1] = '\0';
    k->rank = p->rank;
    k->host = p->host;
    k->state = SLOT_LIVE;
    k->refs = 0;
    k->fresh = 1;
    if (i == nknown)
        nknown++;
    return r;
}

static int find_or_add(const ucmpi_dpm_proc_t *p)
{
    ucmpi_lock();
    int r = lookup(p);
    if (r >= 0)
        known[r - ucmpi_global.world_size].fresh = 1;
    else
        r = add_new(p);
    ucmpi_unlock();
    return r;
}

int ucmpi_dpm_proc_add(const ucmpi_dpm_proc_t *p)
{
    if (strncmp(p->nspace, ucmpi_global.nspace, sizeof(p->nspace)) == 0)
        return p->rank >= 0 && p->rank < ucmpi_global.world_size ? p->rank
                                                                 : -1;
    int r = find_or_add(p);
    if (r < 0) {              /* full: let go of processes nobody names */
        ucmpi_dpm_sweep();
        r = find_or_add(p);
    }
    return r;
}

void ucmpi_dpm_pin(const ucmpi_group_t *g, int delta)
{
    int ws = ucmpi_global.world_size;

    ucmpi_lock();
    for (int i = 0; known != NULL && i < g->size; i++) {
        int w = ucmpi_group_world(g, i);
        if (w < ws || w >= ws + nknown)
            continue;
        known[w - ws].refs += delta;
        if (delta > 0)
            known[w - ws].fresh = 0;
    }
    ucmpi_unlock();
}

/* A live process that no group names and that is not being handed out:
 * its world rank, marked closing; -1 if none. */
static int take_unused(void)
{
    int r = -1;

    ucmpi_lock();
    for (int i = 0; r < 0 && i < nknown; i++)
        if (known[i].state == SLOT_LIVE && known[i].refs <= 0 &&
            !known[i].fresh) {
            known[i].state = SLOT_CLOSING;
            r = ucmpi_global.world_size + i;
        }
    ucmpi_unlock();
    return r;
}

void ucmpi_dpm_sweep(void)
{
    int r;

    while (known != NULL && (r = take_unused()) >= 0) {
        ucmpi_ucx_peer_remove(r, 0);
        int retired = ucmpi_peer_forget(r);
        ucmpi_lock();
        ucmpi_global.node_of[r] = -1;
        known[r - ucmpi_global.world_size].state =
            retired ? SLOT_RETIRED : SLOT_FREE;
        ucmpi_unlock();
    }
}

/* At finalize: the table goes with the endpoints. */
static void procs_finalize(void *arg)
{
    (void)arg;
    free(known);
    known = NULL;
    nknown = 0;
}

__attribute__((constructor)) static void dpm_procs_hooks(void)
{
    ucmpi_hook_add(UCMPI_HOOK_FINALIZE_LAST, UCMPI_HOOK_ORDER_COMM,
                   procs_finalize);
}

int ucmpi_dpm_ident(int world, ucmpi_dpm_ident_t *id)
{
    memset(id, 0, sizeof(*id));
    if (world >= 0 && world < ucmpi_global.world_size) {
        snprintf(id->nspace, sizeof(id->nspace), "%s", ucmpi_global.nspace);
        id->rank = world;
        return 0;
    }
    int rc = -1;
    ucmpi_lock();
    if (world >= ucmpi_global.world_size &&
        world < ucmpi_global.world_size + nknown &&
        known[world - ucmpi_global.world_size].state == SLOT_LIVE) {
        memcpy(id->nspace, known[world - ucmpi_global.world_size].nspace,
               sizeof(id->nspace));
        id->rank = known[world - ucmpi_global.world_size].rank;
        rc = 0;
    }
    ucmpi_unlock();
    return rc;
}

int ucmpi_dpm_resolve(const ucmpi_dpm_ident_t *id)
{
    ucmpi_dpm_proc_t p;

    if (strncmp(id->nspace, ucmpi_global.nspace, sizeof(id->nspace)) == 0)
        return id->rank >= 0 && id->rank < ucmpi_global.world_size ? id->rank
                                                                   : -1;
    memcpy(p.nspace, id->nspace, sizeof(p.nspace));
    p.rank = id->rank;
    ucmpi_lock();
    int r = lookup(&p);
    ucmpi_unlock();
    return r;
}

int ucmpi_dpm_ident_cmp(int a, int b)
{
    ucmpi_dpm_ident_t x, y;
    if (a == b || ucmpi_dpm_ident(a, &x) != 0 || ucmpi_dpm_ident(b, &y) != 0)
        return a < b ? -1 : a > b;
    int c = strncmp(x.nspace, y.nspace, sizeof(x.nspace));
    return c != 0 ? c : x.rank < y.rank ? -1 : x.rank > y.rank;
}

/* Host of world rank r as a hash: of its name for other jobs' processes,
 * ours on this node, else a name made from the node (one job's view). */
static uint64_t host_of(int r)
{
    char name[64];
    if (r >= ucmpi_global.world_size)
        return known[r - ucmpi_global.world_size].host;
    if (ucmpi_global.node_of[r] == ucmpi_global.node_of[ucmpi_global.world_rank])
        return ucmpi_dpm_host_hash(ucmpi_global.hostname);
    snprintf(name, sizeof(name), "%s#node%d", ucmpi_global.nspace,
             ucmpi_global.node_of[r]);
    return ucmpi_dpm_host_hash(name);
}

int ucmpi_dpm_describe(int world, ucmpi_dpm_proc_t *p)
{
    ucmpi_dpm_ident_t id;
    void *addr = NULL;
    size_t len = 0;

    memset(p, 0, sizeof(*p));
    if (ucmpi_dpm_ident(world, &id) != 0 ||
        ucmpi_ucx_peer_address(world, &addr, &len) != 0)
        return -1;
    if (len > sizeof(p->addr)) {
        free(addr);
        return -1;
    }
    memcpy(p->nspace, id.nspace, sizeof(p->nspace));
    p->rank = id.rank;
    p->pid = ucmpi_peer_pid(world);
    ucmpi_lock();
    p->host = host_of(world);
    ucmpi_unlock();
    memcpy(p->addr, addr, len);
    p->addr_len = (uint32_t)len;
    free(addr);
    return 0;
}
