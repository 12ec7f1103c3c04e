/* The argument check: records to each peer, then verdicts; all take the worst
 * of the same n, so they fail alike.  2(n-1) messages: debugging only. */
#include "coll/check/coll_check_impl.h"
#include "coll/check/sched_chk.h"
#include "coll/coll_util.h"
#include "coll/coll_drv.h"
#include "core/config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    ucmpi_sched_t *s;         /* the check's schedule (its reason) */
    int n, me;
    int blocking;             /* the caller reads the text (last_why) */
    ucmpi_cck_rec_t *out, *in;
    ucmpi_cck_verdict_t *vs;  /* vs[me]: this rank's, vs[p]: p's */
} check_t;

/* The text of a failed blocking check, for its caller (the schedule is
 * gone once ucmpi_sched_run_blocking returns). */
static _Thread_local char last_why[320];
static _Thread_local int last_news;

static int judge_step(void *arg)
{
    check_t *c = arg;

    ucmpi_cck_judge(c->out, c->in, c->n, c->me, &c->vs[c->me]);
    return MPI_SUCCESS;
}

/* The worst verdict (the smallest kind, then ranks): the same on every
 * rank, which all hold the same n verdicts. */
static int conclude_step(void *arg)
{
    check_t *c = arg;
    ucmpi_cck_verdict_t best = {.kind = UCMPI_CCK_V_OK};
    char why[sizeof(last_why)];

    for (int i = 0; i < c->n; i++)
        if (c->vs[i].kind != UCMPI_CCK_V_OK)
            ucmpi_cck_worse(&best, &c->vs[i]);
    if (best.kind == UCMPI_CCK_V_OK)
        return MPI_SUCCESS;
    ucmpi_cck_why(&best, why, sizeof(why));
    if (c->blocking) {
        memcpy(last_why, why, sizeof(why));
        last_news = 1;
    } else {
        ucmpi_sched_set_why(c->s, why);
    }
    return ucmpi_cck_class(&best);
}

/* Round 1 sends every peer its record, round 2 its verdict. */
static int add_exchange(ucmpi_sched_t *s, check_t *c, void *out, void *in,
                        size_t each, int one_out)
{
    int rc = MPI_SUCCESS;

    for (int p = 0; p < c->n && rc == MPI_SUCCESS; p++) {
        if (p == c->me)
            continue;
        rc = ucmpi_sched_recv_exact(s, (char *)in + (size_t)p * each,
                                    (MPI_Count)each, MPI_BYTE, p);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_send(s, (char *)out +
                                         (one_out ? 0 : (size_t)p * each),
                                  (MPI_Count)each, MPI_BYTE, p);
    }
    return rc != MPI_SUCCESS ? rc : ucmpi_sched_fence(s);
}

static int build(ucmpi_sched_t *s, ucmpi_comm_t *comm,
                 const ucmpi_coll_check_args_t *a, const char *fn,
                 int blocking)
{
    size_t n = (size_t)comm->size;
    check_t *c = ucmpi_sched_alloc(s, sizeof(*c));
    int rc;

    if (c == NULL)
        return MPI_ERR_NO_MEM;
    *c = (check_t){.s = s, .n = comm->size, .me = comm->rank,
                   .blocking = blocking,
                   .out = ucmpi_sched_alloc(s, n * sizeof(*c->out)),
                   .in = ucmpi_sched_alloc(s, n * sizeof(*c->in)),
                   .vs = ucmpi_sched_alloc(s, n * sizeof(*c->vs))};
    if (c->out == NULL || c->in == NULL || c->vs == NULL)
        return MPI_ERR_NO_MEM;
    memset(c->in, 0, n * sizeof(ucmpi_cck_rec_t));
    memset(c->vs, 0, n * sizeof(ucmpi_cck_verdict_t));
    ucmpi_cck_fill(comm, a, fn, c->out);
    rc = add_exchange(s, c, c->out, c->in, sizeof(ucmpi_cck_rec_t), 0);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_call(s, judge_step, c);
    if (rc == MPI_SUCCESS)
        rc = add_exchange(s, c, &c->vs[c->me], c->vs,
                          sizeof(ucmpi_cck_verdict_t), 1);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_call(s, conclude_step, c);
    return rc;
}

static int gate_arm(ucmpi_sched_t *g)
{
    ucmpi_sched_chk_t *k = ucmpi_sched_chk(g);

    if (k == NULL)
        return MPI_ERR_NO_MEM;
    k->is_gate = 1;
    return ucmpi_sched_prepare(g);
}

/* The check's schedule, signed "Coll_check" so ranks in different collectives
 * meet in it; NULL with the error in *rc. */
static ucmpi_sched_t *make(ucmpi_comm_t *comm,
                           const ucmpi_coll_check_args_t *a, const char *fn,
                           int blocking, int *rc)
{
    const char *saved = comm->coll.fn;
    ucmpi_sched_t *s;

    comm->coll.fn = "MPI_Coll_check";
    s = ucmpi_sched_create(comm);
    comm->coll.fn = saved;
    if (s == NULL) {
        *rc = ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
        return NULL;
    }
    *rc = build(s, comm, a, fn, blocking);
    if (*rc == MPI_SUCCESS && !blocking)
        *rc = gate_arm(s);
    if (*rc != MPI_SUCCESS) {
        ucmpi_sched_free(s);
        *rc = ucmpi_err_comm(comm, *rc, fn, "collective argument check: "
                             "cannot build its schedule");
        return NULL;
    }
    return s;
}

static int run_blocking(ucmpi_comm_t *comm, ucmpi_sched_t *s, const char *fn)
{
    const char *why;
    int rc;

    last_news = 0;
    rc = ucmpi_sched_run_blocking(s);
    if (rc == MPI_SUCCESS)
        return MPI_SUCCESS;
    why = last_news ? last_why : ucmpi_sched_abort_why();
    last_news = 0;
    return ucmpi_err_comm(comm, rc, fn, "%s",
                          why != NULL ? why : ucmpi_sched_plain_why(rc));
}

/* Gates: a checked nonblocking or persistent call's schedule posts nothing
 * before its check passed, and runs it again at each start. */
/* The first schedule run in a checked nonblocking call takes its gate, even an
 * error path's blocking one (else it waits on peers awaiting our check). */
void ucmpi_sched_gate_take(ucmpi_sched_t *s)
{
    ucmpi_sched_chk_t *k;

    if ((s->chk != NULL && s->chk->gate != NULL) ||
        (k = ucmpi_sched_chk(s)) == NULL)
        return;
    k->gate = s->comm->coll.check_gate;
    s->comm->coll.check_gate = NULL;
}

void ucmpi_sched_gate_launch(ucmpi_sched_t *s)
{
    if (!s->chk->gate->running)
        ucmpi_sched_kick(s->chk->gate);
}

int ucmpi_sched_gate_held(ucmpi_sched_t *s)
{
    ucmpi_sched_t *g = s->chk->gate;

    if (g->running)
        return 1;
    if (g->err != MPI_SUCCESS && s->err == MPI_SUCCESS) {
        s->err = g->err;
        if (g->chk->why != NULL)
            ucmpi_sched_set_why(s, g->chk->why);
    }
    return 0;
}

void ucmpi_sched_gate_drop(ucmpi_sched_t *s)
{
    ucmpi_sched_t *g = s->chk->gate;

    if (g == NULL)
        return;
    s->chk->gate = NULL;
    ucmpi_lock();
    if (g->running)
        g->orphaned = 1;
    else
        ucmpi_sched_destroy(g);
    ucmpi_unlock();
}

static int check_begin(ucmpi_comm_t *comm, int mode,
                       const ucmpi_coll_check_args_t *a)
{
    const char *fn = ucmpi_call_name();
    ucmpi_sched_t *s;
    int rc;

    if (ucmpi_coll_check_state < 0)
        ucmpi_coll_check_state = ucmpi_config_long("COLL_CHECK") != 0;
    if (!ucmpi_coll_check_state || comm->is_inter || comm->size < 2)
        return MPI_SUCCESS;
    if ((s = make(comm, a, fn, mode == UCMPI_COLL_BLOCKING, &rc)) == NULL)
        return rc;
    if (mode == UCMPI_COLL_BLOCKING)
        return run_blocking(comm, s, fn);
    comm->coll.check_gate = s;
    return MPI_SUCCESS;
}

/* After the call: a gate no schedule took (the call failed on this rank
 * before starting one) still runs, for the other ranks. */
static void check_end(ucmpi_comm_t *comm)
{
    ucmpi_sched_t *g;

    if (ucmpi_coll_check_state <= 0 || (g = comm->coll.check_gate) == NULL)
        return;
    comm->coll.check_gate = NULL;
    ucmpi_lock();
    g->orphaned = 1;              /* the engine frees it at its end */
    if (!g->running)
        ucmpi_sched_kick(g);
    ucmpi_unlock();
}

static const ucmpi_coll_check_hook_t check_hook = {
    &ucmpi_coll_check_state, check_begin, check_end};

/* The module registers itself when the library is loaded. */
__attribute__((constructor)) static void check_register(void)
{
    ucmpi_coll_check_register(&check_hook);
}
