/* Requests: a slab-grown free list (no malloc on the fast path); the
 * UCMPI_REQ_UCX_ROOM in front holds UCX's request (receives skip its pool). */
#include "p2p/request.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"
#include "p2p/progress.h"
#include "core/hooks.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define SLAB_REQUESTS 256
/* One pool entry: UCX's room, then the request, each on whole lines. */
#define REQ_BYTES ((sizeof(ucmpi_request_t) + 63) / 64 * 64)
#define ENTRY_BYTES (UCMPI_REQ_UCX_ROOM + REQ_BYTES)
_Static_assert(UCMPI_REQ_UCX_ROOM % 64 == 0, "room keeps requests aligned");

typedef struct slab {
    struct slab *next;
    char pad[56];
    char entries[SLAB_REQUESTS][ENTRY_BYTES];
} slab_t;

static slab_t *slabs;
ucmpi_request_t *ucmpi_request_pool;   /* free list (p2p.h peeks at it) */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

static int grow(void)
{
    slab_t *s = aligned_alloc(64, sizeof(*s));
    if (s == NULL)
        return -1;
    memset(s, 0, sizeof(*s));
    s->next = slabs;
    slabs = s;
    for (int i = 0; i < SLAB_REQUESTS; i++) {
        ucmpi_request_t *r =
            (ucmpi_request_t *)(s->entries[i] + UCMPI_REQ_UCX_ROOM);
        r->next_free = ucmpi_request_pool;
        ucmpi_request_pool = r;
    }
    return 0;
}

static inline ucmpi_request_t *pool_pop(void)
{
    ucmpi_request_t *r;

    ucmpi_p2p_mt_lock(&pool_lock, true);
    if (__builtin_expect(ucmpi_request_pool == NULL, 0) && grow() != 0) {
        ucmpi_p2p_mt_lock(&pool_lock, false);
        return NULL;
    }
    r = ucmpi_request_pool;
    ucmpi_request_pool = r->next_free;
    ucmpi_p2p_mt_lock(&pool_lock, false);
    return r;
}

static inline void pool_push(ucmpi_request_t *r)
{
    ucmpi_p2p_mt_lock(&pool_lock, true);
    r->next_free = ucmpi_request_pool;
    ucmpi_request_pool = r;
    ucmpi_p2p_mt_lock(&pool_lock, false);
}

/* A pool entry with nothing initialised (ucmpi_request_init makes it a
 * request): the fast send path only initialises one it keeps. */
ucmpi_request_t *ucmpi_request_get_raw(void)
{
    return pool_pop();
}

void ucmpi_request_put_raw(ucmpi_request_t *r)
{
    pool_push(r);
}

ucmpi_request_t *ucmpi_request_alloc(int kind, ucmpi_comm_t *comm)
{
    ucmpi_request_t *r = pool_pop();

    if (r != NULL)
        ucmpi_request_init(r, kind, comm);
    return r;
}

/* Sends UCX completed at once share this request: complete, empty status,
 * never freed (as MPICH's shared completed request). */
ucmpi_request_t ucmpi_request_send_done = {
    .magic = UCMPI_MAGIC_REQUEST,
    .kind = UCMPI_REQ_SEND,
    .complete = 1,
    .status = {MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0, 0},
    .p2p = {.world_peer = -1},
};

/* Requests UCX may still call back with (ucmpi_ucx_send_abandon): freeing
 * one keeps it out of the pool, with its type and packed copy. */
const ucmpi_request_ops_t ucmpi_request_held_ops;

void ucmpi_request_free(ucmpi_request_t *req)
{
    if (req == NULL || req == &ucmpi_request_send_done ||
        req->magic != UCMPI_MAGIC_REQUEST)
        return;
    if (req->ops == &ucmpi_request_held_ops) {
        if (req->comm != NULL)
            ucmpi_comm_release(req->comm);
        req->magic = UCMPI_MAGIC_FREED;
        return;
    }
    if (req->ops != NULL && req->ops->destroy != NULL)
        req->ops->destroy(req);
    if (req->p2p.dt != NULL && !req->p2p.dt->predefined)
        ucmpi_dt_release(req->p2p.dt);
    if (req->comm != NULL)
        ucmpi_comm_release(req->comm);
    req->magic = UCMPI_MAGIC_FREED;
    pool_push(req);
}

int ucmpi_request_wait(ucmpi_request_t *req)
{
    ucmpi_wait_loop_t l;

    ucmpi_wait_loop_init(&l);
    while (!ucmpi_request_is_complete(req)) {
        unsigned spins = ucmpi_wait_loop_turn(&l);
        if (spins % 1024 == 0 && spins != 0)
            ucmpi_p2p_check_blocking(req);
    }
    ucmpi_progress_wait_done();
    return req->status.MPI_ERROR;
}

/* MPI_Finalize, before endpoints close: persistent requests never freed drop
 * their schedule, comm and datatype references (MPICH comm/inactive_reqs). */
static void release_live(void *unused)
{
    (void)unused;
    for (slab_t *s = slabs; s != NULL; s = s->next)
        for (int i = 0; i < SLAB_REQUESTS; i++) {
            ucmpi_request_t *r =
                (ucmpi_request_t *)(s->entries[i] + UCMPI_REQ_UCX_ROOM);
            if (r->magic == UCMPI_MAGIC_REQUEST && r->persistent &&
                !r->freed_by_user &&
                (!r->active || ucmpi_request_is_complete(r)))
                ucmpi_request_free(r);
        }
}

static void pool_finalize(void *unused)
{
    (void)unused;
    while (slabs != NULL) {
        slab_t *n = slabs->next;
        free(slabs);
        slabs = n;
    }
    ucmpi_request_pool = NULL;
}

__attribute__((constructor)) static void request_hooks(void)
{
    ucmpi_hook_add(UCMPI_HOOK_FINALIZE_QUIESCE, UCMPI_HOOK_ORDER_REQUESTS,
                   release_live);
    ucmpi_hook_add(UCMPI_HOOK_FINALIZE_LAST, 0, pool_finalize);
}
