/* Building a schedule: steps in rounds, scratch memory, freeing (run by
 * sched.c, signed by check/sched_sig.c). */
#include "coll/sched_impl.h"
#include "p2p/tag.h"

#include <stdlib.h>
#include <string.h>

/* A zeroed schedule of comm with its inline arrays, no tag yet. */
static ucmpi_sched_t *alloc_bare(ucmpi_comm_t *comm)
{
    /* everything but the inline arrays and arena starts zeroed */
    ucmpi_sched_t *s = malloc(sizeof(*s));

    if (s == NULL)
        return NULL;
    memset(s, 0, offsetof(ucmpi_sched_t, inl_steps));
    s->steps = s->inl_steps;
    s->cap = SCHED_INLINE_STEPS;
    s->ends = s->inl_ends;
    s->rcap = SCHED_INLINE_ROUNDS;
    s->rq = s->inl_rq;
    s->rq_cap = SCHED_INLINE_STEPS;
    s->comm = comm;
    return s;
}

ucmpi_sched_t *ucmpi_sched_create(ucmpi_comm_t *comm)
{
    ucmpi_sched_t *s = alloc_bare(comm);

    if (s == NULL)
        return NULL;
    s->seq = comm->coll_seq;
    s->tag = ucmpi_comm_next_coll_tag(comm);
    if (ucmpi_sched_hook != NULL)
        ucmpi_sched_hook->create(s);
    return s;
}

ucmpi_comm_t *ucmpi_sched_comm(const ucmpi_sched_t *s)
{
    return s->comm;
}

uint32_t ucmpi_sched_seq(const ucmpi_sched_t *s)
{
    return s->seq;
}

int ucmpi_sched_set_comm(ucmpi_sched_t *s, ucmpi_comm_t *comm)
{
    if (comm == s->comm) {
        s->cur_alt = 0;
        return MPI_SUCCESS;
    }
    if (s->alt_comm == NULL) {
        s->alt_comm = comm;
        s->alt_seq = comm->coll_seq;
        s->alt_tag = ucmpi_coll_tag(ucmpi_comm_next_coll_tag(comm), s->sig);
    } else if (s->alt_comm != comm) {
        return MPI_ERR_INTERN;    /* one extra comm is all we need */
    }
    s->cur_alt = 1;
    return MPI_SUCCESS;
}

void ucmpi_sched_renew_tags(ucmpi_sched_t *s)
{
    s->seq = s->comm->coll_seq;
    s->tag = ucmpi_coll_tag(ucmpi_comm_next_coll_tag(s->comm), s->sig);
    if (s->alt_comm != NULL) {
        s->alt_seq = s->alt_comm->coll_seq;
        s->alt_tag = ucmpi_coll_tag(ucmpi_comm_next_coll_tag(s->alt_comm),
                                    s->sig);
    }
}

/* Steps hold references: the user may free a datatype or op while a
 * nonblocking or persistent collective using it is pending. */
static MPI_Datatype hold_dt(MPI_Datatype dt)
{
    ucmpi_dt_retain(dt);
    return dt;
}

/* Doubles *cap elements of arr, copying them out of the inline array inl
 * on the first growth; NULL when out of memory. */
static void *grow(void *arr, const void *inl, int *cap, size_t elem)
{
    void *n = arr == inl ? malloc(2 * (size_t)*cap * elem)
                         : realloc(arr, 2 * (size_t)*cap * elem);

    if (n != NULL && arr == inl)
        memcpy(n, inl, (size_t)*cap * elem);
    if (n != NULL)
        *cap *= 2;
    return n;
}

static step_t *add_step(ucmpi_sched_t *s, int kind)
{
    if (s->nsteps == s->cap) {
        step_t *n = grow(s->steps, s->inl_steps, &s->cap, sizeof(*n));
        if (n == NULL)
            return NULL;
        s->steps = n;
    }
    step_t *st = &s->steps[s->nsteps++];
    memset(st, 0, sizeof(*st));
    st->kind = (uint8_t)kind;
    st->alt = (uint8_t)s->cur_alt;
    return st;
}

/* A send (from buf) or receive (into buf); countp: a _dyn one. */
static int add_xfer(ucmpi_sched_t *s, int kind, const void *buf,
                    MPI_Count count, MPI_Datatype dt, int peer,
                    const MPI_Count *countp, int exact)
{
    step_t *st = add_step(s, kind);

    if (st == NULL)
        return MPI_ERR_NO_MEM;
    if (kind == STEP_SEND)
        st->src = buf;
    else
        st->dst = (void *)buf;
    st->count = count;
    st->dt = hold_dt(dt);
    st->peer = peer;
    st->countp = countp;
    st->exact = (uint8_t)exact;
    return MPI_SUCCESS;
}

int ucmpi_sched_send(ucmpi_sched_t *s, const void *buf, MPI_Count count,
                     MPI_Datatype dt, int peer)
{
    return add_xfer(s, STEP_SEND, buf, count, dt, peer, NULL, 0);
}

int ucmpi_sched_recv(ucmpi_sched_t *s, void *buf, MPI_Count count,
                     MPI_Datatype dt, int peer)
{
    return add_xfer(s, STEP_RECV, buf, count, dt, peer, NULL, 0);
}

int ucmpi_sched_reduce(ucmpi_sched_t *s, const void *in, void *inout,
                       MPI_Count count, MPI_Datatype dt, MPI_Op op)
{
    if (count == 0)
        return MPI_SUCCESS;
    step_t *st = add_step(s, STEP_REDUCE);
    if (st == NULL)
        return MPI_ERR_NO_MEM;
    st->src = in;
    st->dst = inout;
    st->count = count;
    st->dt = hold_dt(dt);
    st->op = op;
    ucmpi_op_retain(op);
    return MPI_SUCCESS;
}

int ucmpi_sched_copy(ucmpi_sched_t *s, const void *src, MPI_Count scount,
                     MPI_Datatype sdt, void *dst, MPI_Count rcount,
                     MPI_Datatype rdt)
{
    if (scount == 0 || rcount == 0)
        return MPI_SUCCESS;
    step_t *st = add_step(s, STEP_COPY);
    if (st == NULL)
        return MPI_ERR_NO_MEM;
    st->src = src;
    st->count = scount;
    st->dt = hold_dt(sdt);
    st->dst = dst;
    st->rcount = rcount;
    st->rdt = hold_dt(rdt);
    return MPI_SUCCESS;
}

int ucmpi_sched_send_dyn(ucmpi_sched_t *s, void *const *bufp,
                         const MPI_Count *countp, MPI_Datatype dt, int peer)
{
    return add_xfer(s, STEP_SEND, bufp, 0, dt, peer, countp, 0);
}

int ucmpi_sched_recv_exact(ucmpi_sched_t *s, void *buf, MPI_Count count,
                           MPI_Datatype dt, int peer)
{
    return add_xfer(s, STEP_RECV, buf, count, dt, peer, NULL, 1);
}

void ucmpi_sched_poison(ucmpi_sched_t *s)
{
    s->poisoned = 1;
    if (ucmpi_sched_hook != NULL)
        ucmpi_sched_hook->failed(s);
}

void ucmpi_sched_fail(ucmpi_sched_t *s, int err)
{
    s->fail_err = err;
    if (ucmpi_sched_hook != NULL)
        ucmpi_sched_hook->failed(s);
}

int ucmpi_sched_recv_dyn(ucmpi_sched_t *s, void *const *bufp,
                         const MPI_Count *countp, MPI_Datatype dt, int peer)
{
    return add_xfer(s, STEP_RECV, bufp, 0, dt, peer, countp, 0);
}

int ucmpi_sched_call(ucmpi_sched_t *s, int (*fn)(void *arg), void *arg)
{
    step_t *st = add_step(s, STEP_CALL);

    if (st == NULL)
        return MPI_ERR_NO_MEM;
    st->fn = fn;
    st->dst = arg;
    st->dt = hold_dt(MPI_BYTE);   /* released like every step's */
    return MPI_SUCCESS;
}

int ucmpi_sched_fence(ucmpi_sched_t *s)
{
    int last = s->nrounds ? s->ends[s->nrounds - 1] : 0;

    if (s->nsteps == last)
        return MPI_SUCCESS;       /* empty round */
    if (s->nrounds == s->rcap) {
        int *n = grow(s->ends, s->inl_ends, &s->rcap, sizeof(*n));
        if (n == NULL)
            return MPI_ERR_NO_MEM;
        s->ends = n;
    }
    s->ends[s->nrounds++] = s->nsteps;
    return MPI_SUCCESS;
}

void *ucmpi_sched_alloc(ucmpi_sched_t *s, size_t bytes)
{
    size_t r = (bytes + 15) & ~(size_t)15;
    scratch_t *b;

    if (r <= SCHED_ARENA_BYTES - s->arena_used) {
        void *p = s->arena + s->arena_used;
        s->arena_used += r ? r : 16;
        return p;
    }
    b = malloc(sizeof(*b) + (bytes ? bytes : 1));

    if (b == NULL)
        return NULL;
    b->next = s->scratch;
    s->scratch = b;
    s->scratch_bytes += bytes;
    return b + 1;
}

int ucmpi_sched_num_rounds(const ucmpi_sched_t *s)
{
    int last = s->nrounds ? s->ends[s->nrounds - 1] : 0;
    return s->nrounds + (s->nsteps > last);
}

size_t ucmpi_sched_footprint(const ucmpi_sched_t *s)
{
    return sizeof(*s) + s->scratch_bytes +
           (s->steps != s->inl_steps ? s->cap * sizeof(step_t) : 0) +
           (s->rq != s->inl_rq ? s->rq_cap * sizeof(ucmpi_request_t) : 0);
}

int ucmpi_sched_busy(const ucmpi_sched_t *s)
{
    return s->running || s->req != NULL;
}

void ucmpi_sched_set_cache(ucmpi_sched_t *s, void *slot)
{
    s->cache = slot;
}

void ucmpi_sched_destroy(ucmpi_sched_t *s)
{
    if (s->chk != NULL)
        ucmpi_sched_hook->release(s, 1);
    for (int i = 0; i < s->nsteps; i++) {
        step_t *st = &s->steps[i];
        ucmpi_dt_release(st->dt);
        if (st->kind == STEP_COPY)
            ucmpi_dt_release(st->rdt);
        if (st->kind == STEP_REDUCE)
            ucmpi_op_release(st->op);
    }
    while (s->scratch) {
        scratch_t *n = s->scratch->next;
        free(s->scratch);
        s->scratch = n;
    }
    if (s->rq != s->inl_rq)
        free(s->rq);
    if (s->steps != s->inl_steps)
        free(s->steps);
    if (s->ends != s->inl_ends)
        free(s->ends);
    free(s);
}

void ucmpi_sched_free(ucmpi_sched_t *s)
{
    if (s == NULL)
        return;
    s->req = NULL;
    if (__builtin_expect(s->hooked, 0))
        ucmpi_sched_hook->release(s, 0);
    if (s->cache != NULL)         /* back to the cache, idle */
        return;
    ucmpi_sched_destroy(s);
}

