/* Shared collective helpers: see coll_util.h. */
#include "coll/coll_util.h"
#include "coll/check/coll_check.h"
#include "core/config.h"

#include <stdio.h>
#include <string.h>

/* The environment is read once per knob: getenv and the tunable table
 * lookup cost more than a small collective. */
#define KNOB_MEMO 32
static struct {
    const char *knob;
    const char *value;
} knob_memo[KNOB_MEMO];
static int knob_count;

const char *ucmpi_coll_knob(const char *knob)
{
    int n = __atomic_load_n(&knob_count, __ATOMIC_ACQUIRE);
    const char *v;

    for (int i = 0; i < n; i++)
        if (knob_memo[i].knob == knob)
            return __atomic_load_n(&knob_memo[i].value, __ATOMIC_ACQUIRE);
    v = ucmpi_config_str(knob);
    ucmpi_lock();
    n = knob_count;
    if (n < KNOB_MEMO) {
        knob_memo[n].knob = knob;
        knob_memo[n].value = v;
        __atomic_store_n(&knob_count, n + 1, __ATOMIC_RELEASE);
    }
    ucmpi_unlock();
    return v;
}

unsigned ucmpi_coll_knob_generation;

/* (coll_check.h; here because the unit tests link the entry points) */
int ucmpi_coll_check_state = -1;

void ucmpi_coll_knob_refresh(void)
{
    ucmpi_lock();
    __atomic_add_fetch(&ucmpi_coll_knob_generation, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < knob_count; i++)
        __atomic_store_n(&knob_memo[i].value,
                         ucmpi_config_str(knob_memo[i].knob),
                         __ATOMIC_RELEASE);
    ucmpi_unlock();
}

int ucmpi_coll_run(ucmpi_comm_t *comm, ucmpi_sched_t *s, int build_rc,
                   int mode, MPI_Request *req)
{
    ucmpi_request_t *r;
    int rc = build_rc;

    if (rc != MPI_SUCCESS) {
        ucmpi_sched_free(s);
        return ucmpi_coll_err(comm, rc, "cannot build the schedule");
    }
    if (mode == UCMPI_COLL_BLOCKING) {
        rc = ucmpi_sched_run_blocking(s);
        const char *why = rc != MPI_SUCCESS ? ucmpi_sched_abort_why() : NULL;
        if (why != NULL)
            return ucmpi_coll_err(comm, rc, "%s", why);
        if (rc != MPI_SUCCESS)
            return ucmpi_coll_err(comm, rc, "%s",
                                  ucmpi_sched_plain_why(rc));
        return MPI_SUCCESS;
    }
    rc = ucmpi_sched_start(s, mode == UCMPI_COLL_PERSISTENT, &r);
    if (rc != MPI_SUCCESS) {
        ucmpi_sched_free(s);
        return ucmpi_coll_err(comm, rc, "cannot start the schedule");
    }
    *req = r;
    return MPI_SUCCESS;
}

ucmpi_sched_t *ucmpi_coll_cached(ucmpi_comm_t *comm, int mode,
                                 const ucmpi_sched_key_t *key)
{
    if (mode == UCMPI_COLL_PERSISTENT)
        return NULL;              /* a persistent request owns its schedule */
    return ucmpi_sched_cache_get(comm, key);
}

int ucmpi_coll_run_new(ucmpi_comm_t *comm, ucmpi_sched_t *s, int build_rc,
                       int mode, MPI_Request *req,
                       const ucmpi_sched_key_t *key)
{
    if (build_rc == MPI_SUCCESS && mode != UCMPI_COLL_PERSISTENT &&
        key != NULL)
        ucmpi_sched_cache_put(comm, key, s);
    return ucmpi_coll_run(comm, s, build_rc, mode, req);
}

int ucmpi_coll_check_comm(MPI_Comm comm)
{
    const char *fn = ucmpi_call_name();   /* read once: every call */
    int rc = ucmpi_check_initialized(fn);

    if (rc != MPI_SUCCESS)
        return rc;
    rc = ucmpi_check_comm(comm, fn);
    if (rc == MPI_SUCCESS && __builtin_expect(comm->revoked, 0))
        return ucmpi_err_comm(comm, MPI_ERR_REVOKED, fn, "the communicator "
                              "was revoked (MPIX_Comm_revoke)");
    if (rc == MPI_SUCCESS) {
        comm->coll.fn = fn;       /* signs the schedules it builds */
        comm->coll.root = 0;      /* (ucmpi_coll_check_root sets it) */
    }
    return rc;
}

int ucmpi_coll_check_req(ucmpi_comm_t *comm, int mode, MPI_Request *req)
{
    if (mode != UCMPI_COLL_BLOCKING && req == NULL)
        return ucmpi_coll_err(comm, MPI_ERR_REQUEST,
                              "request argument is NULL");
    return MPI_SUCCESS;
}

int ucmpi_coll_check_op(ucmpi_comm_t *comm, MPI_Op op, MPI_Datatype dt)
{
    const char *why = NULL;
    int rc = ucmpi_op_check(op, dt, &why);

    if (rc != MPI_SUCCESS)
        return ucmpi_coll_err(comm, rc, "op: %s", why ? why : "invalid");
    return MPI_SUCCESS;
}

int ucmpi_coll_check_root(ucmpi_comm_t *comm, int root)
{
    if (comm->is_inter) {
        if (root == MPI_ROOT || root == MPI_PROC_NULL ||
            (root >= 0 && root < comm->remote_size))
            return MPI_SUCCESS;
    } else if (root >= 0 && root < comm->size) {
        comm->coll.root = root;   /* names the shm size records */
        return MPI_SUCCESS;
    }
    return ucmpi_coll_err(comm, MPI_ERR_ROOT,
                          "root %d out of range for a communicator of %d",
                          root, comm->is_inter ? comm->remote_size
                                               : comm->size);
}

void *ucmpi_coll_tmpbuf(ucmpi_sched_t *s, MPI_Count count, MPI_Datatype dt)
{
    MPI_Aint ext = dt->extent > dt->true_extent ? dt->extent
                                                : dt->true_extent;
    char *p;

    if (ext < 0)
        ext = -ext;
    p = ucmpi_sched_alloc(s, (size_t)(count > 0 ? count : 1) * (size_t)ext);
    return p ? p - dt->true_lb : NULL;
}

int ucmpi_coll_pof2_floor(int n)
{
    int p = 1;

    while (p * 2 <= n)
        p *= 2;
    return p;
}

int ucmpi_coll_knomial_parent(int vrank, int size, int k)
{
    if (vrank == 0)
        return -1;
    for (long m = 1; m < size; m *= k)
        if ((vrank / m) % k != 0)
            return (int)(vrank - ((vrank / m) % k) * m);
    return -1;
}

int ucmpi_coll_knomial_children(int vrank, int size, int k, int *children,
                                int max)
{
    int n = 0;

    for (long m = 1; m < size; m *= k) {
        if (vrank != 0 && (vrank / m) % k != 0)
            break;                  /* digits above belong to the parent */
        for (int d = 1; d < k; d++) {
            long c = vrank + d * m;
            if (c >= size)
                break;
            if (n < max)
                children[n] = (int)c;
            n++;
        }
    }
    return n < max ? n : max;
}

int ucmpi_coll_knomial_subtree_end(int vrank, int size, int k)
{
    long m = 1;

    if (vrank == 0)
        return size;
    while ((vrank / m) % k == 0)
        m *= k;
    return vrank + m < size ? (int)(vrank + m) : size;
}

int ucmpi_coll_rd_newrank(int rank, int rem)
{
    if (rank < 2 * rem)
        return rank % 2 ? rank / 2 : -1;
    return rank - rem;
}

int ucmpi_coll_rd_oldrank(int newrank, int rem)
{
    return newrank < rem ? 2 * newrank + 1 : newrank + rem;
}

int ucmpi_coll_rd_first(int newrank, int rem)
{
    return newrank < rem ? 2 * newrank : newrank + rem;
}

void ucmpi_coll_block(MPI_Count count, int n, int i, MPI_Count *off,
                      MPI_Count *cnt)
{
    MPI_Count q = count / n, r = count % n;

    *cnt = q + (i < r);
    *off = i * q + (i < r ? i : r);
}

/* Bounded: a segment is a round waiting for the left neighbour (a turn
 * oversubscribed); 64 keep all but 1/64 of the gain (docs/tuning.md). */
MPI_Count ucmpi_coll_ring_segs(MPI_Count maxc, MPI_Aint extent,
                               long seg_bytes, int *nseg)
{
    MPI_Count segc = 1, least;

    if (extent > 0 && seg_bytes > extent)
        segc = seg_bytes / extent;
    least = (maxc + UCMPI_COLL_RING_MAX_SEGS - 1) / UCMPI_COLL_RING_MAX_SEGS;
    if (segc < least)
        segc = least;
    if (segc > maxc)
        segc = maxc > 0 ? maxc : 1;
    *nseg = (int)((maxc + segc - 1) / segc);
    if (*nseg < 1)
        *nseg = 1;
    return segc;
}

typedef struct {
    ucmpi_comm_t *comm;
    uint32_t seq;
} abort_arg_t;

static int abort_again(void *arg)
{
    abort_arg_t *a = arg;

    ucmpi_sched_abort_peers(a->comm, a->seq);
    return MPI_SUCCESS;
}

int ucmpi_coll_skip_abort(ucmpi_comm_t *comm, int rc, int mode,
                          MPI_Request *req)
{
    abort_arg_t *a;
    ucmpi_sched_t *s;

    if (mode != UCMPI_COLL_BLOCKING && req != NULL)
        *req = MPI_REQUEST_NULL;
    /* persistent: each start of the request it hands back tells the
     * others again (their requests keep the number of the init) */
    if (mode == UCMPI_COLL_PERSISTENT && req != NULL &&
        (s = ucmpi_sched_create(comm)) != NULL) {
        if ((a = ucmpi_sched_alloc(s, sizeof(*a))) == NULL) {
            ucmpi_sched_free(s);
            return rc;
        }
        a->comm = comm;
        a->seq = comm->coll_seq - 1;
        return ucmpi_coll_persist_failed(s, ucmpi_sched_call(s, abort_again, a),
                                         req, rc);
    }
    ucmpi_sched_abort_peers(comm, comm->coll_seq);
    (void)ucmpi_comm_next_coll_tag(comm);
    return rc;
}

int ucmpi_coll_persist_failed(ucmpi_sched_t *s, int build_rc,
                              MPI_Request *req, int err)
{
    ucmpi_request_t *r;

    *req = MPI_REQUEST_NULL;
    if (build_rc != MPI_SUCCESS || ucmpi_sched_start(s, 1, &r) !=
                                       MPI_SUCCESS) {
        ucmpi_sched_free(s);      /* its tags are taken: still in step */
        return err;
    }
    ucmpi_sched_fail(s, err);
    *req = r;
    return err;
}

int ucmpi_coll_serve(ucmpi_sched_t *s, int build_rc, int mode,
                     MPI_Request *req, int err)
{
    if (mode == UCMPI_COLL_PERSISTENT)
        return ucmpi_coll_persist_failed(s, build_rc, req, err);
    ucmpi_coll_release(s, build_rc);
    return err;
}

char *ucmpi_coll_bytes_in(ucmpi_sched_t *s, void *buf, MPI_Count count,
                          MPI_Datatype dt, int pack_in, size_t *nbytes)
{
    char *tmp;

    *nbytes = (size_t)(count * dt->size);
    if (dt->contig)
        return (char *)buf + dt->true_lb;
    tmp = ucmpi_sched_alloc(s, *nbytes);
    if (tmp != NULL && pack_in &&
        (ucmpi_sched_copy(s, buf, count, dt, tmp, (MPI_Count)*nbytes,
                          MPI_BYTE) != MPI_SUCCESS ||
         ucmpi_sched_fence(s) != MPI_SUCCESS))
        return NULL;
    return tmp;
}

int ucmpi_coll_bytes_out(ucmpi_sched_t *s, const char *bytes, void *buf,
                         MPI_Count count, MPI_Datatype dt)
{
    int rc;

    if (dt->contig)
        return MPI_SUCCESS;
    rc = ucmpi_sched_fence(s);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_copy(s, bytes, count * dt->size, MPI_BYTE, buf,
                              count, dt);
    return rc;
}
