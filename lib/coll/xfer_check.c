/* Argument checks of the data-movement collectives, the rooted
 * collectives' start and the paths of a rank whose arguments failed. */
#include "coll/xfer.h"
#include "coll/coll_tune.h"

#include <string.h>

/* Reported on c, or only returned (c NULL: see xfer.h). */
#define FAIL(c, code, ...) \
    ((c) ? ucmpi_coll_err((c), (code), __VA_ARGS__) : (code))

int ucmpi_xfer_check_inplace(ucmpi_comm_t *c, const void *sbuf,
                             const void *rbuf)
{
    if (rbuf == MPI_IN_PLACE)
        return ucmpi_coll_err(c, MPI_ERR_BUFFER, "recvbuf is MPI_IN_PLACE "
                              "(only sendbuf may be)");
    if (sbuf == MPI_IN_PLACE && c->is_inter)
        return ucmpi_coll_err(c, MPI_ERR_BUFFER, "MPI_IN_PLACE on an "
                              "intercommunicator");
    return MPI_SUCCESS;
}

int ucmpi_xfer_check_buf(ucmpi_comm_t *c, MPI_Count count, MPI_Datatype dt,
                         const char *what)
{
    const char *why = "";
    int rc;

    if (count < 0)
        return FAIL(c, MPI_ERR_COUNT, "%s count %lld < 0", what,
                              (long long)count);
    rc = ucmpi_dt_check(dt, 1, &why);
    if (rc != MPI_SUCCESS)
        return FAIL(c, rc, "%s datatype: %s", what, why);
    return MPI_SUCCESS;
}

int ucmpi_xfer_check_blocks(ucmpi_comm_t *c, const ucmpi_coll_side_t *s,
                            const char *what)
{
    const void *displs = s->ccounts ? (const void *)s->adispls
                         : s->displs ? (const void *)s->displs
                                     : (const void *)s->adispls;
    const char *why = "";
    int n = s->n, rc;

    if (n > 0 && ((s->ccounts == NULL && s->counts == NULL) ||
                  displs == NULL))
        return FAIL(c, MPI_ERR_ARG, "%s counts%s displacements "
                              "array is NULL", what,
                              s->dts && !s->ccounts ? ", types or" : " or");
    if (n > 0 && s->ccounts && s->dt == MPI_DATATYPE_NULL && !s->dts)
        return FAIL(c, MPI_ERR_ARG, "%s types array is NULL",
                              what);
    for (int i = 0; i < n; i++) {
        MPI_Count k = s->ccounts ? s->ccounts[i] : s->counts[i];

        if (k < 0)
            return FAIL(c, MPI_ERR_COUNT, "%s count[%d] = %lld "
                                  "< 0", what, i, (long long)k);
        if (s->dts && (rc = ucmpi_dt_check(s->dts[i], 1, &why)) !=
                          MPI_SUCCESS)
            return FAIL(c, rc, "%s datatype[%d]: %s", what, i,
                                  why);
    }
    if (!s->dts && (rc = ucmpi_dt_check(s->dt, 1, &why)) != MPI_SUCCESS)
        return FAIL(c, rc, "%s datatype: %s", what, why);
    return MPI_SUCCESS;
}

void ucmpi_xfer_record_uniform(const ucmpi_coll_args_t *u,
                               ucmpi_coll_check_args_t *r)
{
    *r = (ucmpi_coll_check_args_t){
        .send = {.count = u->sbuf == MPI_IN_PLACE ? u->rcount : u->scount,
                 .dt = u->sbuf == MPI_IN_PLACE ? u->rdt : u->sdt},
        .recv = {.count = u->rcount, .dt = u->rdt}};
}

int ucmpi_xfer_check_match(ucmpi_comm_t *c, MPI_Count scount,
                           MPI_Datatype sdt, MPI_Count rcount,
                           MPI_Datatype rdt, const char *what)
{
    long long sb = (long long)(scount * sdt->size);
    long long rb = (long long)(rcount * rdt->size);

    if (sb == rb)
        return MPI_SUCCESS;
    return ucmpi_coll_err(c, sb > rb ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT,
                          "%s: this rank sends %lld bytes to itself but "
                          "receives %lld (type signatures must match)", what,
                          sb, rb);
}

int ucmpi_xfer_failed_shm(ucmpi_comm_t *comm, int kind, size_t nbytes,
                          MPI_Count count, ucmpi_xfer_shm_skip_fn skip)
{
    const char *fn = ucmpi_call_name();
    int vote;

    if (count > 0 && ucmpi_coll_shm_wanted(comm, kind, nbytes))
        return skip(comm, nbytes, fn) != UCMPI_SHM_FALLBACK;
    vote = ucmpi_xfer_shm_vote(comm, kind, nbytes, UCMPI_XFER_VOTE_QUIET, fn);
    if (vote == UCMPI_SHM_FALLBACK)
        return 0;
    /* the others voted too: on to p2p if all alike */
    return vote != MPI_SUCCESS || count == 0;
}

int ucmpi_xfer_lost(ucmpi_comm_t *comm, int rc, int kind, int mode,
                    MPI_Request *req)
{
    if (kind >= 0 && ucmpi_xfer_shm_vote(comm, kind, 0, UCMPI_XFER_VOTE_LOST,
                                         ucmpi_call_name()) !=
                         UCMPI_SHM_FALLBACK)
        return rc;
    return ucmpi_coll_skip_abort(comm, rc, mode, req);
}

const ucmpi_coll_alg_t *ucmpi_xfer_rooted_select(const ucmpi_xfer_rooted_t *k,
                                                 const ucmpi_coll_args_t *a)
{
    const ucmpi_coll_alg_t *f = ucmpi_coll_alg_forced(k->algs, k->knob);
    int send = ucmpi_xfer_is_root(a->comm, a->root) != k->gather;
    size_t bs = send ? (size_t)(a->scount * a->sdt->size)
                     : (size_t)(a->rcount * a->rdt->size);

    if (a->comm->is_inter)
        return &k->algs[0];
    if (f)
        return f;
    /* (v forms: counts differ per rank, so only the rank count) */
    if ((f = ucmpi_coll_tuned(k->algs, k->knob, a->size,
                              k->v ? 0 : bs)) != NULL)
        return f;
    /* block bytes agree on all ranks (type signatures match) */
    return a->size >= ucmpi_thr_n(k->min_ranks) &&
                   (k->max_total < 0 ||
                    bs * (size_t)a->size < ucmpi_thr(k->max_total))
               ? &k->algs[1] : &k->algs[0];
}

const ucmpi_coll_alg_t *ucmpi_xfer_rooted_guess(const ucmpi_xfer_rooted_t *k,
                                                const ucmpi_coll_args_t *a,
                                                long long bs)
{
    const ucmpi_coll_alg_t *f;

    if (bs >= 0 || a->comm->is_inter || k->v)
        return ucmpi_xfer_rooted_select(k, a);
    if ((f = ucmpi_coll_alg_forced(k->algs, k->knob)) != NULL)
        return f;
    return a->size < ucmpi_thr_n(k->min_ranks) ? &k->algs[0] : NULL;
}

/* The root, MPI_IN_PLACE (the root's buffer never; the other side's only
 * at an intracomm root) and the non-root side's buffer where it is used. */
static int check_rooted(const ucmpi_coll_args_t *a, int gather)
{
    ucmpi_comm_t *c = a->comm;
    int is_root = ucmpi_xfer_is_root(c, a->root);
    const void *rootbuf = gather ? a->rbuf : a->sbuf;
    const void *leafbuf = gather ? a->sbuf : a->rbuf;
    const char *rootname = gather ? "recvbuf" : "sendbuf";
    const char *leafname = gather ? "sendbuf" : "recvbuf";
    int rc = ucmpi_coll_check_root(c, a->root);

    if (rc != MPI_SUCCESS)
        return rc;
    if (rootbuf == MPI_IN_PLACE && is_root)
        return ucmpi_coll_err(c, MPI_ERR_BUFFER, "%s is MPI_IN_PLACE (only "
                              "%s may be, at the root)", rootname, leafname);
    if (leafbuf == MPI_IN_PLACE && (!is_root || c->is_inter))
        return ucmpi_coll_err(c, MPI_ERR_BUFFER, "%s is MPI_IN_PLACE on a %s",
                              leafname, c->is_inter ? "intercommunicator"
                                                    : "rank that is not root");
    if ((c->is_inter && (a->root == MPI_PROC_NULL || is_root)) ||
        leafbuf == MPI_IN_PLACE)
        return MPI_SUCCESS;   /* intercomm root group: ignored */
    return gather ? ucmpi_xfer_check_buf(c, a->scount, a->sdt, "send")
                  : ucmpi_xfer_check_buf(c, a->rcount, a->rdt, "receive");
}

/* The root's own block mismatched (err, reported): it is dropped and the
 * others' blocks still move (ucmpi_xfer_run_failed). */
static int run_without_own(const ucmpi_xfer_rooted_t *k, ucmpi_coll_args_t *a,
                           int err)
{
    ucmpi_xfer_drop_side(a, k->gather);
    if (k->gather)
        a->sbuf = MPI_IN_PLACE;
    else
        a->rbuf = MPI_IN_PLACE;
    return ucmpi_xfer_run_failed(ucmpi_xfer_rooted_select(k, a), a, err, 0);
}

int ucmpi_xfer_rooted_empty(const ucmpi_coll_args_t *a, int gather)
{
    const ucmpi_comm_t *c = a->comm;

    return !c->is_inter && c->size > 1 &&
           ((a->root == c->rank) == gather ? a->rcount * a->rdt->size
                                            : a->scount * a->sdt->size) == 0;
}

int ucmpi_xfer_rooted_start(const ucmpi_xfer_rooted_t *k,
                            ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *c = a->comm;
    int g = k->gather, is_root = ucmpi_xfer_is_root(c, a->root);
    ucmpi_coll_side_t s = {
        .buf = a->sbuf, .n = 1, .count = a->scount, .dt = a->sdt,
        .counts = a->scounts, .ccounts = a->scounts_c, .displs = a->sdispls,
        .adispls = a->sdispls_c};
    ucmpi_coll_side_t r = {
        .buf = a->rbuf, .n = 1, .count = a->rcount, .dt = a->rdt,
        .counts = a->rcounts, .ccounts = a->rcounts_c, .displs = a->rdispls,
        .adispls = a->rdispls_c};
    /* the root's n blocks and the own block */
    ucmpi_coll_side_t *all = g ? &r : &s, *own = g ? &s : &r;
    int moves_own = !c->is_inter && is_root && own->buf != MPI_IN_PLACE;
    const char *what = g ? "receive" : "send";
    int rc = check_rooted(a, g);

    all->n = c->remote_size;
    if (rc == MPI_SUCCESS && is_root)
        rc = k->v ? ucmpi_xfer_check_blocks(c, all, what)
                  : ucmpi_xfer_check_buf(c, all->count, all->dt, what);
    if (rc == MPI_SUCCESS && moves_own && k->v)
        rc = ucmpi_coll_check_alias(c, &s, &r, ucmpi_call_name());
    else if (rc == MPI_SUCCESS && moves_own)
        rc = ucmpi_coll_check_alias1(c, a->sbuf, a->scount * (g ? 1 : c->size),
                                     a->sdt, a->rbuf,
                                     a->rcount * (g ? c->size : 1), a->rdt,
                                     ucmpi_call_name());
    if (rc != MPI_SUCCESS)
        return k->failed(k, rc, a);
    if (!is_root)
        ucmpi_xfer_drop_side(a, !g);      /* ignored at non-roots */
    else if (g)
        a->nrblk = c->remote_size;
    else
        a->nsblk = c->remote_size;
    /* no own block: in place, an intercomm root group, a MPI_PROC_NULL */
    if (own->buf == MPI_IN_PLACE || (c->is_inter && a->root == MPI_ROOT) ||
        a->root == MPI_PROC_NULL)
        ucmpi_xfer_drop_side(a, g);
    if (moves_own) {
        MPI_Count n = !k->v ? all->count : all->ccounts ? all->ccounts[a->root]
                                                        : all->counts[a->root];

        rc = g ? ucmpi_xfer_check_match(c, a->scount, a->sdt, n, a->rdt,
                                        "root's own block")
               : ucmpi_xfer_check_match(c, n, a->sdt, a->rcount, a->rdt,
                                        "root's own block");
        if (rc != MPI_SUCCESS && !k->v && ucmpi_xfer_rooted_empty(a, g))
            return ucmpi_coll_run_empty_rooted(c, g ? a->root : -1, a->mode,
                                               a->req, rc);
        if (rc != MPI_SUCCESS)
            return run_without_own(k, a, rc);
    }
    if (!k->v && ucmpi_xfer_rooted_empty(a, g))
        return ucmpi_coll_run_empty_rooted(c, g ? a->root : -1, a->mode,
                                           a->req, MPI_SUCCESS);
    return ucmpi_xfer_run(ucmpi_xfer_rooted_select(k, a), a, a->mode, a->req);
}

int ucmpi_xfer_rooted_nonroot(const ucmpi_xfer_rooted_t *k, ucmpi_comm_t *c,
                              int root, long long bs, int mode,
                              MPI_Request *req, int err)
{
    int intra_root = !c->is_inter && root >= 0 && root < c->size;
    ucmpi_coll_args_t a = {.comm = c, .rank = c->rank, .size = c->size,
                           .root = root, .sdt = MPI_BYTE, .rdt = MPI_BYTE};
    MPI_Count *own = k->gather ? &a.scount : &a.rcount;
    const ucmpi_coll_alg_t *alg;
    ucmpi_sched_t *s;
    void *z;
    int rc;

    if (mode != UCMPI_COLL_BLOCKING && req != NULL)
        *req = MPI_REQUEST_NULL;
    /* an unknown size is taken as 1: a send built non-empty goes empty,
     * never as a loss token a 1-byte receive could take for data */
    *own = bs > 0 ? bs : 1;
    alg = intra_root ? ucmpi_xfer_rooted_guess(k, &a, bs) : NULL;
    if (alg == NULL && intra_root)
        return ucmpi_coll_skip_abort(c, err, mode, req);
    if (alg == NULL || (s = ucmpi_sched_create(c)) == NULL)
        return ucmpi_coll_skip(c, err, -1, 0, 0);
    ucmpi_xfer_sign(s, alg, &a);
    if (!k->gather)
        a.rcount = 1;         /* its real size may be unknown */
    if ((z = ucmpi_sched_alloc(s, (size_t)*own)) != NULL)
        memset(z, 0, (size_t)*own);
    if (k->gather)
        a.sbuf = z;
    else
        a.rbuf = z;
    rc = z == NULL ? MPI_ERR_NO_MEM : alg->build(s, &a);
    ucmpi_sched_poison(s);
    return ucmpi_coll_serve(s, rc, mode, req, err);
}
