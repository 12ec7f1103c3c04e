/* Completion of every kind of request: MPI_Wait/Test and their any/all/some
 * forms, request free and status queries. */
#include "p2p/request.h"
#include "p2p/progress_api.h"
#include "p2p/p2p.h"
#include "p2p/p2p_cancel.h"
#include "p2p/progress.h"
#include "core/failure.h"
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

/* Now and then, fail requests whose peer died or whose comm was revoked
 * (see failure.c): one check per run of receives from the same peer (each
 * may cost a system call).  Returns the index of the first MPI_ANY_SOURCE
 * receive that ULFM keeps pending (a failure not acknowledged), else -1. */
int ucmpi_requests_check_now(int count, MPI_Request reqs[])
{
    int last = -2, blocked = -1;

    for (int i = 0; i < count; i++) {
        ucmpi_request_t *r = reqs[i];
        if (ucmpi_request_inactive(r) || ucmpi_request_is_complete(r) ||
            (r->kind == UCMPI_REQ_RECV && r->p2p.world_peer >= 0 &&
             r->p2p.world_peer == last))
            continue;
        if (r->kind == UCMPI_REQ_RECV)
            last = r->p2p.world_peer;
        ucmpi_request_check_peer(r);
        if (blocked < 0 && ucmpi_p2p_anysrc_blocked(r))
            blocked = i;
    }
    return blocked;
}

/* Every 1024th idle turn of a waiting loop (spins: its idle turns): the
 * check above, else -1. */
static inline int check_peers(unsigned spins, int count, MPI_Request reqs[])
{
    if (__builtin_expect(spins % 1024 == 0 && spins != 0, 0))
        return ucmpi_requests_check_now(count, reqs);
    return -1;
}

/* The error of a call that leaves an MPI_ANY_SOURCE receive pending. */
static int report_pending(ucmpi_request_t *r, const char *fn)
{
    return ucmpi_p2p_report(r->comm, MPI_ERR_PROC_FAILED_PENDING, fn);
}

/* Its slot of a call on many requests (the request stays). */
static int pending_slot(MPI_Status sts[], int i)
{
    if (sts != MPI_STATUSES_IGNORE) {
        sts[i] = ucmpi_empty_status;
        sts[i].MPI_ERROR = MPI_ERR_PROC_FAILED_PENDING;
    }
    return 1;
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
        if (__builtin_expect(
                check_peers(ucmpi_wait_loop_after(&l, n), 1, request) == 0, 0)) {
            ucmpi_progress_wait_done();
            return report_pending(r, "MPI_Wait");
        }
    }
    ucmpi_progress_wait_done();
    /* the usual case: nothing to report, no comm reference needed */
    if (plain(r)) {
        finish_plain(request, status);
        return MPI_SUCCESS;
    }
    return finish_report(request, status, "MPI_Wait");
}

/* MPI_Test's miss when failure.h says to check: the request may end now
 * (a dead peer, a revoked comm) or be an MPI_ANY_SOURCE receive kept
 * pending. */
static __attribute__((noinline, cold)) int
test_checked(MPI_Request *request, int *flag, MPI_Status *status)
{
    if (ucmpi_requests_check_now(1, request) == 0)
        return report_pending(*request, "MPI_Test");
    if (!(*flag = ucmpi_request_is_complete(*request)))
        return MPI_SUCCESS;
    return finish_report(request, status, "MPI_Test");
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
        if (__builtin_expect(ucmpi_failure_poll_due(), 0))
            return test_checked(request, flag, status);
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

/* Every request complete, inactive or an MPI_ANY_SOURCE receive kept
 * pending (slow path). */
static int all_settled(int count, MPI_Request reqs[])
{
    for (int i = 0; i < count; i++)
        if (!ucmpi_request_inactive(reqs[i]) &&
            !ucmpi_request_is_complete(reqs[i]) &&
            !ucmpi_p2p_anysrc_blocked(reqs[i]))
            return 0;
    return 1;
}

/* Every request is complete or inactive (or, when `settle`, an MPI_ANY_SOURCE
 * receive kept pending: reported so, left as it is): report them all. */
static int finish_all(int count, MPI_Request reqs[], MPI_Status sts[],
                      const char *fn, bool settle)
{
    int errs = 0;
    char why[WHY_LEN];
    why[0] = '\0';

    for (int i = 0; i < count; i++)
        errs += settle && !ucmpi_request_inactive(reqs[i]) &&
                        !ucmpi_request_is_complete(reqs[i])
                    ? pending_slot(sts, i)
                    : complete_slot(reqs, sts, i, why);
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
        bool pend = false;
        if (!ucmpi_request_inactive(reqs[i]))
            while (!ucmpi_request_is_complete(reqs[i]))
                if (check_peers(ucmpi_wait_loop_turn(&l), count - i,
                                reqs + i) == 0) {
                    pend = true;       /* stays: the others go on */
                    break;
                }
        errs += __builtin_expect(pend, 0) ? pending_slot(sts, i)
                                          : complete_slot(reqs, sts, i, why);
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
        return finish_all(count, reqs, sts, "MPI_Testall", false);
    if (__builtin_expect(ucmpi_failure_poll_due(), 0)) {
        if (ucmpi_requests_check_now(count, reqs) >= 0 &&
            all_settled(count, reqs)) {
            *flag = 1;     /* the rest is done; pending receives stay */
            return finish_all(count, reqs, sts, "MPI_Testall", true);
        }
        if ((*flag = all_complete(count, reqs)))   /* the check ended some */
            return finish_all(count, reqs, sts, "MPI_Testall", false);
    }
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
 * call if none is complete yet.  -1 with *blocked the index of an
 * MPI_ANY_SOURCE receive kept pending when that is all there is. */
static inline __attribute__((always_inline)) int
find_progress(int count, MPI_Request reqs[], bool wait, int *blocked)
{
    int i, b;
    if (wait) {
        ucmpi_wait_loop_t l;
        ucmpi_wait_loop_init(&l);
        while ((i = find_any(count, reqs)) == -1)
            if ((b = check_peers(ucmpi_wait_loop_turn(&l), count, reqs)) >= 0 &&
                (i = find_any(count, reqs)) == -1) {
                *blocked = b;
                break;
            }
        ucmpi_progress_wait_done();
    } else if ((i = find_any(count, reqs)) == -1) {
        int n = ucmpi_progress_fast();
        if ((i = find_any(count, reqs)) == -1) {
            if (__builtin_expect(ucmpi_failure_poll_due(), 0)) {
                b = ucmpi_requests_check_now(count, reqs);
                if ((i = find_any(count, reqs)) == -1 && b >= 0)
                    *blocked = b;
            }
            if (i == -1)
                ucmpi_progress_poll_miss(n);
        }
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
    int b = -1, i = find_progress(count, reqs, flag == NULL, &b);
    if (__builtin_expect(b >= 0, 0)) {     /* it stays; see which */
        if (flag != NULL)
            *flag = 0;
        *index = b;
        return report_pending(reqs[b], fn);
    }
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
    int b = -1;
    if (find_progress(count, reqs, wait, &b) == MPI_UNDEFINED) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    int n = 0, errs = 0;
    char why[WHY_LEN];
    why[0] = '\0';
    for (int i = 0; i < count; i++) {
        if (ucmpi_request_inactive(reqs[i]))
            continue;
        if (!ucmpi_request_is_complete(reqs[i])) {
            /* nothing completed: the receives kept pending say so */
            if (b >= 0 && ucmpi_p2p_anysrc_blocked(reqs[i])) {
                errs += pending_slot(sts, n);
                idx[n++] = i;
            }
            continue;
        }
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
    if (!*flag && __builtin_expect(ucmpi_failure_poll_due(), 0)) {
        if (ucmpi_requests_check_now(1, &request) == 0)
            return report_pending(request, "MPI_Request_get_status");
        *flag = ucmpi_request_is_complete(request);
    }
    if (!*flag)
        ucmpi_progress_poll_miss(n);
    if (*flag && st != MPI_STATUS_IGNORE) {
        if (request->ops != NULL && request->ops->on_complete != NULL)
            request->ops->on_complete(request);
        *st = request->status;
    }
    return MPI_SUCCESS;
}
