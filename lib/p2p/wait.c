/* Completion of every kind of request: MPI_Wait/Test and their any/all/some
 * forms, request free and status queries. */
#include "p2p/request.h"
#include "p2p/progress_api.h"
#include "p2p/p2p.h"
#include "p2p/p2p_cancel.h"
#include "p2p/progress.h"
#include "ucp_glue/ucx.h"

#include <string.h>

const MPI_Status ucmpi_empty_status = {MPI_ANY_SOURCE, MPI_ANY_TAG,
                                      MPI_SUCCESS, 0, 0};

/* Requests the user freed while active: released once complete. */
static ucmpi_request_t *orphans;

static int reap_orphans(void)
{
    ucmpi_request_t **p = &orphans;
    int n = 0;

    while (*p != NULL) {
        ucmpi_request_t *r = *p;
        if (ucmpi_request_is_complete(r)) {
            *p = r->next_free;
            ucmpi_request_free(r);
            n++;
        } else {
            p = &r->next_free;
        }
    }
    if (orphans == NULL)
        ucmpi_progress_unregister(reap_orphans);
    return n;
}

/* For MPI_Finalize: user-freed requests of `kind` in flight (-1: all but
 * receives and generalized ones); `cancel` cancels such receives. */
int ucmpi_orphans_pending(int kind, int cancel)
{
    return ucmpi_orphans_pending_on(NULL, kind, cancel);
}

/* The same for the requests on comm c only (NULL: any comm). */
int ucmpi_orphans_pending_on(ucmpi_comm_t *c, int kind, int cancel)
{
    int n = 0;

    ucmpi_lock();
    for (ucmpi_request_t *r = orphans; r != NULL; r = r->next_free) {
        int k = r->kind;
        if (ucmpi_request_is_complete(r) || (c != NULL && r->comm != c) ||
            (kind < 0 ? k == UCMPI_REQ_RECV || k == UCMPI_REQ_GREQ
                      : k != kind))
            continue;
        if (cancel && k == UCMPI_REQ_RECV)
            ucmpi_ucx_cancel(&r->p2p.op);
        n++;
    }
    ucmpi_unlock();
    return n;
}

/* An entry point a program may spin on: the initialized check inline. */
static inline int enter(const char *fn)
{
    if (__builtin_expect(ucmpi_global.active, 1)) {
        ucmpi_rt_enter(fn);
        return MPI_SUCCESS;
    }
    return ucmpi_check_initialized(fn);
}

int ucmpi_request_check(ucmpi_request_t *r, const char *fn)
{
    if (r == MPI_REQUEST_NULL || r->magic == UCMPI_MAGIC_REQUEST)
        return MPI_SUCCESS;
    return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_REQUEST, fn,
                       "invalid request %p (freed or not a request)",
                       (void *)r);
}

/* Reports completion of *rp: status out, request released (or made
 * inactive if persistent).  Returns the request's error code. */
static int finish(MPI_Request *rp, MPI_Status *st)
{
    ucmpi_request_t *r = *rp;
    int err;

    if (r->ops != NULL && r->ops->on_complete != NULL)
        r->ops->on_complete(r);
    err = r->status.MPI_ERROR;
    if (st != MPI_STATUS_IGNORE) {
        int keep = st->MPI_ERROR;
        *st = r->status;
        st->MPI_ERROR = keep;
    }
    if (r->persistent) {
        r->active = 0;
    } else {
        ucmpi_request_free_fast(r);
        *rp = MPI_REQUEST_NULL;
    }
    return err;
}

/* A failed collective's reason (as the blocking call says it), kept in the
 * caller's why[WHY_LEN] if empty; read before finish() frees the schedule. */
#define WHY_LEN 400

static int finish_why(MPI_Request *rp, MPI_Status *st, char *why)
{
    ucmpi_request_t *r = *rp;

    if (why[0] == '\0' && r->status.MPI_ERROR != MPI_SUCCESS &&
        r->ops != NULL && r->ops->why != NULL)
        (void)r->ops->why(r, why, WHY_LEN);
    return finish(rp, st);
}

/* finish() and the report of the request's error through comm's handler
 * (a collective's reason, else point-to-point's words for the class). */
static int finish_report(MPI_Request *rp, MPI_Status *st, const char *fn)
{
    ucmpi_comm_t *comm = (*rp)->comm;
    char why[WHY_LEN];
    why[0] = '\0';
    int rc;

    if (comm)
        ucmpi_comm_retain(comm);
    int err = finish_why(rp, st, why);
    if (err != MPI_SUCCESS && why[0] != '\0')
        rc = ucmpi_err_comm(comm, err, fn, "%s", why);
    else
        rc = ucmpi_p2p_report(comm, err, fn);
    if (comm)
        ucmpi_comm_release(comm);
    return rc;
}

/* The error of a call on many requests, with the first collective's reason. */
static int report_many(int errs, const char *why, const char *fn)
{
    return ucmpi_error(UCMPI_OBJ_COMM, &ucmpi_comm_world, MPI_ERR_IN_STATUS,
                       fn, "%d request(s) failed: see the statuses%s%s%s",
                       errs, why[0] ? " (" : "", why, why[0] ? ")" : "");
}

/* Now and then, fail receives whose peer died (see failure.c): one check
 * per run of requests to the same peer (each may cost a system call). */
static void check_peers_now(int count, MPI_Request reqs[])
{
    int last = -2;

    for (int i = 0; i < count; i++) {
        ucmpi_request_t *r = reqs[i];
        if (r == MPI_REQUEST_NULL || ucmpi_request_is_complete(r) ||
            (r->kind == UCMPI_REQ_RECV && r->p2p.world_peer == last))
            continue;
        if (r->kind == UCMPI_REQ_RECV)
            last = r->p2p.world_peer;
        ucmpi_request_check_peer(r);
    }
}

/* Every 1024th idle turn of a waiting loop (spins: its idle turns). */
static inline void check_peers(unsigned spins, int count, MPI_Request reqs[])
{
    if (__builtin_expect(spins % 1024 == 0 && spins != 0, 0))
        check_peers_now(count, reqs);
}

/* finish() of the usual request (not persistent, no ops, no error),
 * inline in the loops that complete one request after another. */
static inline bool plain(const ucmpi_request_t *r)
{
    return r->ops == NULL && !r->persistent &&
           r->status.MPI_ERROR == MPI_SUCCESS;
}

static inline void finish_plain(MPI_Request *rp, MPI_Status *st)
{
    ucmpi_request_t *r = *rp;

    if (st != MPI_STATUS_IGNORE) {
        int keep = st->MPI_ERROR;
        *st = r->status;
        st->MPI_ERROR = keep;
    }
    ucmpi_request_free_fast(r);
    *rp = MPI_REQUEST_NULL;
}

static int wait_checks(MPI_Request *request)
{
    int rc = ucmpi_check_initialized("MPI_Wait");
    if (rc == MPI_SUCCESS && request == NULL)
        rc = ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, "MPI_Wait",
                         "request is NULL");
    if (rc == MPI_SUCCESS)
        rc = ucmpi_request_check(*request, "MPI_Wait");
    return rc;
}

#pragma weak MPI_Wait = PMPI_Wait
int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
    ucmpi_request_t *r;
    int rc;

    /* the usual arguments in one predicted branch, the checks otherwise */
    if (__builtin_expect(ucmpi_global.active && request != NULL &&
                         (r = *request) != MPI_REQUEST_NULL &&
                         r->magic == UCMPI_MAGIC_REQUEST, 1)) {
        ucmpi_rt_enter("MPI_Wait");
    } else {
        rc = wait_checks(request);
        if (rc != MPI_SUCCESS)
            return rc;
        r = *request;
    }
    if (ucmpi_request_inactive(r)) {
        if (status != MPI_STATUS_IGNORE)
            *status = ucmpi_empty_status;
        return MPI_SUCCESS;
    }
    ucmpi_wait_loop_t l;
    ucmpi_wait_loop_init(&l);
    while (!ucmpi_request_is_complete(r)) {
        int n = l.fast ? ucmpi_ucx_progress() : ucmpi_progress();
        /* done: leave before the loop's bookkeeping (the way from the
         * completion back to the caller is part of a message's latency) */
        if (ucmpi_request_is_complete(r))
            break;
        check_peers(ucmpi_wait_loop_after(&l, n), 1, request);
    }
    ucmpi_progress_wait_done();
    /* the usual case: nothing to report, no comm reference needed */
    if (plain(r)) {
        finish_plain(request, status);
        return MPI_SUCCESS;
    }
    return finish_report(request, status, "MPI_Wait");
}

#pragma weak MPI_Test = PMPI_Test
int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    int rc = enter("MPI_Test");
    if (rc == MPI_SUCCESS && (request == NULL || flag == NULL))
        rc = ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, "MPI_Test",
                         "request or flag is NULL");
    if (rc == MPI_SUCCESS)
        rc = ucmpi_request_check(*request, "MPI_Test");
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_request_t *r = *request;
    if (ucmpi_request_inactive(r)) {
        *flag = 1;
        if (status != MPI_STATUS_IGNORE)
            *status = ucmpi_empty_status;
        return MPI_SUCCESS;
    }
    int n = ucmpi_request_is_complete(r) ? 1 : ucmpi_progress_fast();
    *flag = ucmpi_request_is_complete(r);
    if (!*flag) {
        ucmpi_progress_poll_miss(n);
        return MPI_SUCCESS;
    }
    return finish_report(request, status, "MPI_Test");
}

static inline bool array_ok(int count, MPI_Request reqs[])
{
    if (!ucmpi_global.active || count < 0 || (count > 0 && reqs == NULL))
        return false;
    for (int i = 0; i < count; i++)
        if (reqs[i] != MPI_REQUEST_NULL &&
            reqs[i]->magic != UCMPI_MAGIC_REQUEST)
            return false;
    return true;
}

static __attribute__((noinline)) int
check_array_slow(int count, MPI_Request reqs[], const char *fn)
{
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (count < 0)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_COUNT, fn,
                           "count %d is negative", count);
    if (count > 0 && reqs == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "array_of_requests is NULL");
    for (int i = 0; i < count; i++) {
        rc = ucmpi_request_check(reqs[i], fn);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* Inline: a program may spin on MPI_Testany and its kin. */
static inline int check_array(int count, MPI_Request reqs[], const char *fn)
{
    if (__builtin_expect(array_ok(count, reqs), 1)) {
        ucmpi_rt_enter(fn);
        return MPI_SUCCESS;
    }
    return check_array_slow(count, reqs, fn);
}

/* Reports reqs[i], complete or inactive, into its slot of sts (the
 * empty status if inactive); 1 when it failed. */
static inline int complete_slot(MPI_Request reqs[], MPI_Status sts[], int i,
                                char *why)
{
    MPI_Status *st = sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &sts[i];

    if (ucmpi_request_inactive(reqs[i])) {
        if (st != MPI_STATUS_IGNORE)
            *st = ucmpi_empty_status;
        return 0;
    }
    if (plain(reqs[i])) {
        finish_plain(&reqs[i], st);
        if (st != MPI_STATUS_IGNORE)
            st->MPI_ERROR = MPI_SUCCESS;
        return 0;
    }
    int e = finish_why(&reqs[i], st, why);
    if (st != MPI_STATUS_IGNORE)
        st->MPI_ERROR = e;
    return e != MPI_SUCCESS;
}

static int all_complete(int count, MPI_Request reqs[])
{
    for (int i = 0; i < count; i++)
        if (!ucmpi_request_inactive(reqs[i]) &&
            !ucmpi_request_is_complete(reqs[i]))
            return 0;
    return 1;
}

/* Every request is complete or inactive: report them all. */
static int finish_all(int count, MPI_Request reqs[], MPI_Status sts[],
                      const char *fn)
{
    int errs = 0;
    char why[WHY_LEN];
    why[0] = '\0';

    for (int i = 0; i < count; i++)
        errs += complete_slot(reqs, sts, i, why);
    if (errs == 0)
        return MPI_SUCCESS;
    return report_many(errs, why, fn);
}

#pragma weak MPI_Waitall = PMPI_Waitall
int PMPI_Waitall(int count, MPI_Request reqs[], MPI_Status sts[])
{
    int rc = check_array(count, reqs, "MPI_Waitall");
    if (rc != MPI_SUCCESS)
        return rc;
    /* one pass: wait for each request in turn and report it at once (its
     * status out, the request back to the pool) */
    ucmpi_wait_loop_t l;
    int errs = 0;
    char why[WHY_LEN];
    why[0] = '\0';    /* not the whole array: the usual call never reads it */
    ucmpi_wait_loop_init(&l);
    for (int i = 0; i < count; i++) {
        if (!ucmpi_request_inactive(reqs[i]))
            while (!ucmpi_request_is_complete(reqs[i]))
                check_peers(ucmpi_wait_loop_turn(&l), count - i, reqs + i);
        errs += complete_slot(reqs, sts, i, why);
    }
    ucmpi_progress_wait_done();
    if (errs == 0)
        return MPI_SUCCESS;
    return report_many(errs, why, "MPI_Waitall");
}

#pragma weak MPI_Testall = PMPI_Testall
int PMPI_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status sts[])
{
    int rc = check_array(count, reqs, "MPI_Testall");
    if (rc != MPI_SUCCESS)
        return rc;
    int n = all_complete(count, reqs) ? 1 : ucmpi_progress_fast();
    *flag = all_complete(count, reqs);
    if (*flag)
        return finish_all(count, reqs, sts, "MPI_Testall");
    ucmpi_progress_poll_miss(n);
    return MPI_SUCCESS;
}

/* Index of a complete active request, MPI_UNDEFINED if none is active,
 * -1 if active ones are all pending. */
static inline __attribute__((always_inline)) int
find_any(int count, MPI_Request reqs[])
{
    int active = 0;
    for (int i = 0; i < count; i++) {
        if (ucmpi_request_inactive(reqs[i]))
            continue;
        active = 1;
        if (ucmpi_request_is_complete(reqs[i]))
            return i;
    }
    return active ? -1 : MPI_UNDEFINED;
}

static int finish_one(MPI_Request reqs[], int i, MPI_Status *st,
                      const char *fn)
{
    if (plain(reqs[i])) {      /* the usual case: nothing to report */
        finish_plain(&reqs[i], st);
        return MPI_SUCCESS;
    }
    return finish_report(&reqs[i], st, fn);
}

/* find_any after waiting for a result (wait), or after one progress
 * call if none is complete yet. */
static inline __attribute__((always_inline)) int
find_progress(int count, MPI_Request reqs[], bool wait)
{
    int i;
    if (wait) {
        ucmpi_wait_loop_t l;
        ucmpi_wait_loop_init(&l);
        while ((i = find_any(count, reqs)) == -1)
            check_peers(ucmpi_wait_loop_turn(&l), count, reqs);
        ucmpi_progress_wait_done();
    } else if ((i = find_any(count, reqs)) == -1) {
        int n = ucmpi_progress_fast();
        if ((i = find_any(count, reqs)) == -1)
            ucmpi_progress_poll_miss(n);
    }
    return i;
}

/* MPI_Waitany (flag NULL) and MPI_Testany. */
static int any(int count, MPI_Request reqs[], int *index, int *flag,
               MPI_Status *st, const char *fn)
{
    int rc = check_array(count, reqs, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int i = find_progress(count, reqs, flag == NULL);
    if (flag != NULL)
        *flag = i != -1;
    *index = i == -1 ? MPI_UNDEFINED : i;
    if (i == -1)
        return MPI_SUCCESS;
    if (i == MPI_UNDEFINED) {
        if (st != MPI_STATUS_IGNORE)
            *st = ucmpi_empty_status;
        return MPI_SUCCESS;
    }
    return finish_one(reqs, i, st, fn);
}

#pragma weak MPI_Waitany = PMPI_Waitany
int PMPI_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *st)
{
    return any(count, reqs, index, NULL, st, "MPI_Waitany");
}

#pragma weak MPI_Testany = PMPI_Testany
int PMPI_Testany(int count, MPI_Request reqs[], int *index, int *flag,
                 MPI_Status *st)
{
    return any(count, reqs, index, flag, st, "MPI_Testany");
}

/* MPI_Waitsome (wait) and MPI_Testsome. */
static int some(int count, MPI_Request reqs[], int *outcount, int idx[],
                MPI_Status sts[], bool wait, const char *fn)
{
    int rc = check_array(count, reqs, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (find_progress(count, reqs, wait) == MPI_UNDEFINED) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    int n = 0, errs = 0;
    char why[WHY_LEN];
    why[0] = '\0';
    for (int i = 0; i < count; i++) {
        if (ucmpi_request_inactive(reqs[i]) ||
            !ucmpi_request_is_complete(reqs[i]))
            continue;
        MPI_Status *st = sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &sts[n];
        int e = finish_why(&reqs[i], st, why);
        if (st != MPI_STATUS_IGNORE)
            st->MPI_ERROR = e;
        errs += e != MPI_SUCCESS;
        idx[n++] = i;
    }
    *outcount = n;
    if (errs == 0)
        return MPI_SUCCESS;
    return report_many(errs, why, fn);
}

#pragma weak MPI_Waitsome = PMPI_Waitsome
int PMPI_Waitsome(int count, MPI_Request reqs[], int *outcount, int idx[],
                  MPI_Status sts[])
{
    return some(count, reqs, outcount, idx, sts, true, "MPI_Waitsome");
}

#pragma weak MPI_Testsome = PMPI_Testsome
int PMPI_Testsome(int count, MPI_Request reqs[], int *outcount, int idx[],
                  MPI_Status sts[])
{
    return some(count, reqs, outcount, idx, sts, false, "MPI_Testsome");
}

#pragma weak MPI_Request_free = PMPI_Request_free
int PMPI_Request_free(MPI_Request *request)
{
    int rc = ucmpi_check_initialized("MPI_Request_free");
    if (rc == MPI_SUCCESS && (request == NULL || *request == MPI_REQUEST_NULL))
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_REQUEST,
                           "MPI_Request_free", "request is MPI_REQUEST_NULL");
    if (rc == MPI_SUCCESS)
        rc = ucmpi_request_check(*request, "MPI_Request_free");
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_request_t *r = *request;
    *request = MPI_REQUEST_NULL;
    if (ucmpi_request_is_complete(r) || (r->persistent && !r->active)) {
        ucmpi_request_free(r);
        return MPI_SUCCESS;
    }
    r->freed_by_user = 1;
    ucmpi_lock();
    if (orphans == NULL)
        ucmpi_progress_register(reap_orphans);
    r->next_free = orphans;
    orphans = r;
    ucmpi_unlock();
    return MPI_SUCCESS;
}

#pragma weak MPI_Request_get_status = PMPI_Request_get_status
int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *st)
{
    int rc = ucmpi_request_check(request, "MPI_Request_get_status");
    if (rc != MPI_SUCCESS)
        return rc;
    if (ucmpi_request_inactive(request)) {
        *flag = 1;
        if (st != MPI_STATUS_IGNORE)
            *st = ucmpi_empty_status;
        return MPI_SUCCESS;
    }
    int n = ucmpi_request_is_complete(request) ? 1 : ucmpi_progress_fast();
    *flag = ucmpi_request_is_complete(request);
    if (!*flag)
        ucmpi_progress_poll_miss(n);
    if (*flag && st != MPI_STATUS_IGNORE) {
        if (request->ops != NULL && request->ops->on_complete != NULL)
            request->ops->on_complete(request);
        *st = request->status;
    }
    return MPI_SUCCESS;
}
