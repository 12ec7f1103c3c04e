/*
 * Request objects come from a free list grown in slabs: no malloc on the
 * fast path.  Slabs are kept until MPI_Finalize.
 */
#include "ucmpi.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define SLAB_REQUESTS 256

typedef struct slab {
    struct slab *next;
    ucmpi_request_t reqs[SLAB_REQUESTS];
} slab_t;

static slab_t *slabs;
static ucmpi_request_t *free_list;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

static int grow(void)
{
    slab_t *s = calloc(1, sizeof(*s));
    if (s == NULL)
        return -1;
    s->next = slabs;
    slabs = s;
    for (int i = 0; i < SLAB_REQUESTS; i++) {
        s->reqs[i].next_free = free_list;
        free_list = &s->reqs[i];
    }
    return 0;
}

static void pool_lock_take(void)
{
    if (ucmpi_global.thread_level == MPI_THREAD_MULTIPLE)
        pthread_mutex_lock(&pool_lock);
}

static void pool_lock_drop(void)
{
    if (ucmpi_global.thread_level == MPI_THREAD_MULTIPLE)
        pthread_mutex_unlock(&pool_lock);
}

ucmpi_request_t *ucmpi_request_alloc(int kind, ucmpi_comm_t *comm)
{
    ucmpi_request_t *r;

    pool_lock_take();
    if (free_list == NULL && grow() != 0) {
        pool_lock_drop();
        return NULL;
    }
    r = free_list;
    free_list = r->next_free;
    pool_lock_drop();
    memset(r, 0, sizeof(*r));
    r->magic = UCMPI_MAGIC_REQUEST;
    r->kind = (uint8_t)kind;
    r->status.MPI_SOURCE = MPI_ANY_SOURCE;
    r->status.MPI_TAG = MPI_ANY_TAG;
    r->p2p.world_peer = -1;
    if (comm != NULL) {
        r->comm = comm;
        ucmpi_comm_retain(comm);
    }
    return r;
}

void ucmpi_request_free(ucmpi_request_t *req)
{
    if (req == NULL || req->magic != UCMPI_MAGIC_REQUEST)
        return;
    if (req->ops != NULL && req->ops->destroy != NULL)
        req->ops->destroy(req);
    if (req->p2p.dt != NULL)
        ucmpi_dt_release(req->p2p.dt);
    if (req->comm != NULL)
        ucmpi_comm_release(req->comm);
    req->magic = UCMPI_MAGIC_FREED;
    pool_lock_take();
    req->next_free = free_list;
    free_list = req;
    pool_lock_drop();
}

int ucmpi_request_wait(ucmpi_request_t *req)
{
    unsigned spins = 0;

    while (!ucmpi_request_is_complete(req)) {
        if (ucmpi_progress() != 0) {
            spins = 0;
            continue;
        }
        ucmpi_progress_idle(++spins);
        if (spins % 1024 == 0)
            ucmpi_request_check_peer(req);
    }
    ucmpi_rt_wait_done();
    return req->status.MPI_ERROR;
}

void ucmpi_request_pool_finalize(void)
{
    while (slabs != NULL) {
        slab_t *n = slabs->next;
        free(slabs);
        slabs = n;
    }
    free_list = NULL;
}
