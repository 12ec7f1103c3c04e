/* Per-communicator collective state: the cached node layout and the
 * cache of built schedules. */
#include "coll/coll.h"
#include "coll/sched.h"
#include "core/config.h"
#include "core/hooks.h"

#include <stdlib.h>
#include <string.h>

typedef struct sched_cache sched_cache_t;

void ucmpi_coll_shm_free(void *shm);
static void cache_destroy(sched_cache_t *c);

/* Testing knob COLL_FAKE_NODES: "K" puts world rank w on node w / K,
 * "cK" on node w % K (ranks of a node not contiguous); 0: the real map. */
static int fake_nodes(int *cyclic)
{
    static int k = -1, cyc;
    const char *v;

    if (k < 0) {
        v = ucmpi_config_str("COLL_FAKE_NODES");
        cyc = v != NULL && v[0] == 'c';
        k = v == NULL ? 0 : atoi(v + cyc);
        if (k < 0)
            k = 0;
    }
    *cyclic = cyc;
    return k;
}

static int node_of_rank(const ucmpi_comm_t *c, int r)
{
    int w = ucmpi_group_world(c->group, r), cyclic;
    int k = fake_nodes(&cyclic);

    if (k > 0)
        return cyclic ? w % k : w / k;
    if (ucmpi_global.node_of == NULL)
        return 0;
    return ucmpi_global.node_of[w];
}

static void layout_free(ucmpi_coll_layout_t *l)
{
    if (l == NULL)
        return;
    free(l->node_first);
    free(l->members);
    free(l->leaders);
    free(l);
}

static ucmpi_coll_layout_t *layout_build(ucmpi_comm_t *c)
{
    int n = c->size;
    ucmpi_coll_layout_t *l = calloc(1, sizeof(*l));
    int *node = malloc(n * sizeof(int));   /* node index (dense) per rank */
    int *ids = malloc(n * sizeof(int));    /* global node id per dense idx */

    if (l == NULL || node == NULL || ids == NULL)
        goto err_free;
    /* dense node numbers in order of each node's lowest rank */
    for (int r = 0; r < n; r++) {
        int id = node_of_rank(c, r), k;
        for (k = 0; k < l->nnodes && ids[k] != id; k++)
            ;
        if (k == l->nnodes)
            ids[l->nnodes++] = id;
        node[r] = k;
    }
    l->node_first = calloc(l->nnodes + 1, sizeof(int));
    l->members = malloc(n * sizeof(int));
    l->leaders = malloc(l->nnodes * sizeof(int));
    if (!l->node_first || !l->members || !l->leaders)
        goto err_free;
    for (int r = 0; r < n; r++)
        l->node_first[node[r] + 1]++;
    for (int k = 0; k < l->nnodes; k++)
        l->node_first[k + 1] += l->node_first[k];
    l->contiguous = 1;
    /* place ranks in order; `ids` is reused as the fill cursor */
    for (int k = 0; k < l->nnodes; k++)
        ids[k] = l->node_first[k];
    for (int r = 0; r < n; r++) {
        int k = node[r];
        if (r == c->rank) {
            l->my_node = k;
            l->my_index = ids[k] - l->node_first[k];
        }
        if (r > 0 && k != node[r - 1] && ids[k] != l->node_first[k])
            l->contiguous = 0;        /* node k resumes after a gap */
        l->members[ids[k]++] = r;
    }
    for (int k = 0; k < l->nnodes; k++)
        l->leaders[k] = l->members[l->node_first[k]];
    free(node);
    free(ids);
    return l;

err_free:
    free(node);
    free(ids);
    layout_free(l);
    return NULL;
}

const ucmpi_coll_layout_t *ucmpi_coll_layout(ucmpi_comm_t *c)
{
    ucmpi_coll_state_t *st = &c->coll;

    if (st->layout == NULL)
        st->layout = layout_build(c);
    return st->layout;
}

void **ucmpi_coll_shm_slot(ucmpi_comm_t *c)
{
    return &c->coll.shm;
}

void ucmpi_coll_comm_destroy(ucmpi_comm_t *c)
{
    ucmpi_coll_state_t *st = &c->coll;

    if (st->shm != NULL)
        ucmpi_coll_shm_free(st->shm);
    layout_free(st->layout);
    cache_destroy(st->cache);
    *st = (ucmpi_coll_state_t){0};
}

static void comm_destroy_hook(void *comm)
{
    ucmpi_coll_comm_destroy(comm);
}

/* A waiting loop's check of a collective request for dead peers. */
static void peer_check_hook(void *req)
{
    if (((ucmpi_request_t *)req)->kind == UCMPI_REQ_COLL)
        ucmpi_sched_check_peers(req);
}

__attribute__((constructor)) static void coll_comm_hooks(void)
{
    ucmpi_hook_add(UCMPI_HOOK_COMM_DESTROY, UCMPI_HOOK_ORDER_COLL,
                   comm_destroy_hook);
    ucmpi_hook_add(UCMPI_HOOK_PEER_CHECK, 0, peer_check_hook);
}

/* Schedule cache: a collective called again with the same arguments
 * (training loops, benchmarks, solvers) reruns the schedule built first. */
#define CACHE_SLOTS 8
#define CACHE_MAX_COUNTS 64           /* reduce_scatter recvcounts */
#define CACHE_MAX_BYTES (256 * 1024)  /* big schedules gain nothing */

typedef struct {
    ucmpi_sched_key_t key;        /* key.counts points to counts[] */
    ucmpi_sched_t *s;
    unsigned stamp;               /* last use, for eviction */
    int counts[CACHE_MAX_COUNTS];
} slot_t;

struct sched_cache {
    slot_t slot[CACHE_SLOTS];
    unsigned clock;
};

static int key_equal(const ucmpi_sched_key_t *a, const ucmpi_sched_key_t *b)
{
    return a->coll == b->coll && a->alg == b->alg && a->root == b->root &&
           a->sbuf == b->sbuf && a->rbuf == b->rbuf &&
           a->scount == b->scount && a->rcount == b->rcount &&
           a->sdt == b->sdt && a->rdt == b->rdt && a->op == b->op &&
           a->ncounts == b->ncounts &&
           (a->ncounts == 0 ||
            memcmp(a->counts, b->counts, sizeof(int) * a->ncounts) == 0);
}

/* A cached key holds its types and op: a freed type's address can come back
 * as another type and hit the stale schedule (MPICH coll/bcast, dtpools). */
static void key_hold(const ucmpi_sched_key_t *k, int hold)
{
    MPI_Datatype dts[2] = {k->sdt, k->rdt};

    for (int i = 0; i < 2; i++) {
        if (dts[i] == NULL || dts[i] == MPI_DATATYPE_NULL ||
            (i == 1 && dts[1] == dts[0]))
            continue;
        if (hold)
            ucmpi_dt_retain(dts[i]);
        else
            ucmpi_dt_release(dts[i]);
    }
    if (k->op != NULL && k->op != MPI_OP_NULL) {
        if (hold)
            ucmpi_op_retain(k->op);
        else
            ucmpi_op_release(k->op);
    }
}

ucmpi_sched_t *ucmpi_sched_cache_get(ucmpi_comm_t *comm,
                                     const ucmpi_sched_key_t *key)
{
    sched_cache_t *c = comm->coll.cache;

    if (c == NULL)
        return NULL;
    for (int i = 0; i < CACHE_SLOTS; i++) {
        slot_t *sl = &c->slot[i];
        if (sl->s != NULL && key_equal(&sl->key, key) &&
            !ucmpi_sched_busy(sl->s)) {
            sl->stamp = ++c->clock;
            ucmpi_sched_renew_tags(sl->s);
            return sl->s;
        }
    }
    return NULL;
}

static void slot_clear(slot_t *sl)
{
    ucmpi_sched_set_cache(sl->s, NULL);
    ucmpi_sched_destroy(sl->s);
    sl->s = NULL;
    key_hold(&sl->key, 0);
}

/* An empty slot, else the least recently used idle one (emptied). */
static slot_t *free_slot(sched_cache_t *c)
{
    slot_t *best = NULL;

    for (int i = 0; i < CACHE_SLOTS; i++) {
        slot_t *sl = &c->slot[i];
        if (sl->s == NULL)
            return sl;
        if (!ucmpi_sched_busy(sl->s) &&
            (best == NULL || sl->stamp < best->stamp))
            best = sl;
    }
    if (best != NULL)
        slot_clear(best);
    return best;
}

void ucmpi_sched_cache_put(ucmpi_comm_t *comm, const ucmpi_sched_key_t *key,
                           ucmpi_sched_t *s)
{
    ucmpi_coll_state_t *st;
    sched_cache_t *cache;
    slot_t *sl;

    if (key->ncounts > CACHE_MAX_COUNTS ||
        ucmpi_sched_footprint(s) > CACHE_MAX_BYTES)
        return;
    st = &comm->coll;
    if (st->cache == NULL && (st->cache = calloc(1, sizeof(*cache))) == NULL)
        return;
    cache = st->cache;
    sl = free_slot(cache);
    if (sl == NULL)
        return;                   /* every slot in flight */
    sl->key = *key;
    key_hold(&sl->key, 1);
    if (key->ncounts > 0)
        memcpy(sl->counts, key->counts, sizeof(int) * key->ncounts);
    sl->key.counts = sl->counts;
    sl->s = s;
    sl->stamp = ++cache->clock;
    ucmpi_sched_set_cache(s, sl);
}

static void cache_destroy(sched_cache_t *c)
{
    if (c == NULL)
        return;
    for (int i = 0; i < CACHE_SLOTS; i++)
        if (c->slot[i].s != NULL)
            slot_clear(&c->slot[i]);
    free(c);
}
