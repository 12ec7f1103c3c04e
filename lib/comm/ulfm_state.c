/* ULFM per-communicator failure state: which members failed (in detection
 * order), which are acknowledged; MPIX_Comm_get_failed, _ack_failed,
 * _failure_ack, _failure_get_acked; the checks waiting loops make
 * (failure.h) and the requests they fail. */
#include "comm/ulfm.h"
#include "comm/comm_internal.h"
#include "core/call.h"
#include "core/check.h"
#include "core/failure.h"
#include "core/hooks.h"
#include "p2p/p2p.h"
#include "p2p/request.h"
#include "mpi-ext.h"

#include <stdlib.h>
#include <string.h>

/* Live communicators by context id (revoke and agreement messages name a
 * comm by (ctx, stamp)); world and self are found by their ids. */
static ucmpi_comm_t *by_ctx[UCMPI_CTX_IDS];

void ucmpi_ulfm_comm_built(ucmpi_comm_t *c)
{
    if (c->ctx >= UCMPI_CTX_IDS || c->is_inter)
        return;
    by_ctx[c->ctx] = c;
    if (ucmpi_ulfm_revoke_pending(c->ctx, c->ctx_stamp))
        c->revoked = 1;           /* the notice came before the comm */
}

ucmpi_comm_t *ucmpi_ulfm_comm_of(uint32_t ctx, uint64_t stamp)
{
    ucmpi_comm_t *c = NULL;

    if (ctx == 0)
        c = &ucmpi_comm_world;
    else if (ctx == 1)
        c = &ucmpi_comm_self;
    else if (ctx < UCMPI_CTX_IDS)
        c = by_ctx[ctx];
    if (c == NULL || c->magic != UCMPI_MAGIC_COMM || c->ctx_stamp != stamp)
        return NULL;
    return c;
}

static void state_free(ucmpi_ulfm_t *s)
{
    for (int i = 0; i < UCMPI_ULFM_KEEP; i++) {
        free(s->done[i].failed);
        free(s->done[i].val);
    }
    free(s->rank_of);
    free(s->failed);
    free(s);
}

static void on_destroy(void *arg)
{
    ucmpi_comm_t *c = arg;

    if (c->ctx < UCMPI_CTX_IDS && by_ctx[c->ctx] == c)
        by_ctx[c->ctx] = NULL;
    if (c->ft != NULL)
        state_free(c->ft);
    c->ft = NULL;
    c->revoked = 0;               /* predefined comms come back (sessions) */
}

static ucmpi_ulfm_t *state_new(ucmpi_comm_t *c)
{
    int n = ucmpi_global.proc_cap;   /* other jobs' processes included */
    ucmpi_ulfm_t *s = calloc(1, sizeof(*s));

    if (s == NULL)
        return NULL;
    s->rank_of = malloc((size_t)n * sizeof(int));
    s->failed = malloc((size_t)c->size * sizeof(int));
    if (s->rank_of == NULL || s->failed == NULL) {
        state_free(s);
        return NULL;
    }
    for (int w = 0; w < n; w++)
        s->rank_of[w] = -1;
    for (int r = 0; r < c->size; r++)
        s->rank_of[ucmpi_group_world(c->group, r)] = r;
    s->words = (c->size + 63) / 64;
    return s;
}

ucmpi_ulfm_t *ucmpi_ulfm_state(ucmpi_comm_t *c)
{
    ucmpi_ulfm_t *s = c->ft;
    int n = ucmpi_failure_count();

    if (s == NULL && (s = c->ft = state_new(c)) == NULL)
        return NULL;
    for (; s->scanned < n; s->scanned++) {
        int r = s->rank_of[ucmpi_failure_nth(s->scanned)];
        if (r >= 0)
            s->failed[s->nfailed++] = r;
    }
    return s;
}

int ucmpi_ulfm_rank_failed(ucmpi_comm_t *c, int r)
{
    return r != c->rank && ucmpi_peer_failed(ucmpi_comm_peer_world(c, r));
}

/* failure.h's check for waiting loops. */
static int comm_check(ucmpi_comm_t *c, int any_source)
{
    ucmpi_ulfm_t *s;
    int rc = 0;

    if (c->revoked)
        return MPI_ERR_REVOKED;
    if (!any_source || c->is_inter || ucmpi_failure_count() == 0)
        return 0;
    ucmpi_lock();
    s = ucmpi_ulfm_state(c);
    if (s != NULL && s->nfailed > s->nacked)
        rc = MPI_ERR_PROC_FAILED_PENDING;
    ucmpi_unlock();
    return rc;
}

/* A waiting loop's request: a transfer on a revoked comm (any sub-context:
 * collectives' too) ends with MPI_ERR_REVOKED.  A user MPI_ANY_SOURCE
 * receive while a failure is not acknowledged stays pending: the waiting
 * call reports MPI_ERR_PROC_FAILED_PENDING (ucmpi_p2p_anysrc_blocked), a
 * blocking receive ends with MPI_ERR_PROC_FAILED. */
static void check_request(void *arg)
{
    ucmpi_request_t *r = arg;

    if ((r->kind != UCMPI_REQ_RECV && r->kind != UCMPI_REQ_SEND) ||
        r->comm == NULL || !r->comm->revoked || ucmpi_request_is_complete(r))
        return;
    ucmpi_lock();
    if (!ucmpi_request_is_complete(r)) {
        if (r->kind == UCMPI_REQ_RECV) {
            r->status.MPI_ERROR = MPI_ERR_REVOKED;
            ucmpi_ucx_cancel(&r->p2p.op);
        } else {
            ucmpi_p2p_send_abandon(r);   /* a rendezvous send to a live peer */
            r->status.MPI_ERROR = MPI_ERR_REVOKED;
        }
    }
    ucmpi_unlock();
}

__attribute__((constructor)) static void ulfm_state_hooks(void)
{
    ucmpi_failure_set_comm_check(comm_check);
    ucmpi_hook_add(UCMPI_HOOK_COMM_DESTROY, 0, on_destroy);
    ucmpi_hook_add(UCMPI_HOOK_PEER_CHECK, 0, check_request);
}

/* ---- the calls ---- */

int ucmpi_ulfm_check_comm(MPI_Comm comm, const char *fn)
{
    int rc = ucmpi_check_comm(comm, fn);

    if (rc == MPI_SUCCESS && comm->is_inter)
        rc = ucmpi_err_comm(comm, MPI_ERR_COMM, fn, "intercommunicators are "
                            "not supported by ucmpi's ULFM yet");
    return rc;
}

static int entry(MPI_Comm comm, const char *fn, ucmpi_ulfm_t **s)
{
    int rc = ucmpi_ulfm_check_comm(comm, fn);

    if (rc != MPI_SUCCESS)
        return rc;
    /* a failure no event announced (under srun): ask after each member, as
     * waiting loops do (a system call for each one on this node) */
    for (int r = 0; r < comm->size; r++)
        (void)ucmpi_ulfm_rank_failed(comm, r);
    ucmpi_lock();
    *s = ucmpi_ulfm_state(comm);
    ucmpi_unlock();
    if (*s == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    return MPI_SUCCESS;
}

/* Group of the first n failed members (world ranks). */
static int failed_group(ucmpi_comm_t *c, const ucmpi_ulfm_t *s, int n,
                        MPI_Group *out, const char *fn)
{
    int *t = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    ucmpi_group_t *g;

    if (t == NULL)
        return ucmpi_err_comm(c, MPI_ERR_NO_MEM, fn, "out of memory");
    for (int i = 0; i < n; i++)
        t[i] = ucmpi_group_world(c->group, s->failed[i]);
    g = ucmpi_group_from_table(t, n);
    if (g == NULL)
        return ucmpi_err_comm(c, MPI_ERR_NO_MEM, fn, "out of memory");
    *out = g;
    return MPI_SUCCESS;
}

#pragma weak MPIX_Comm_get_failed = PMPIX_Comm_get_failed
int PMPIX_Comm_get_failed(MPI_Comm comm, MPI_Group *failed_group_out)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPIX_Comm_get_failed");
    ucmpi_ulfm_t *s;
    int rc = entry(comm, fn, &s);

    if (rc == MPI_SUCCESS && failed_group_out == NULL)
        rc = ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "failedgrp is NULL");
    if (rc != MPI_SUCCESS)
        return rc;
    return failed_group(comm, s, s->nfailed, failed_group_out, fn);
}

#pragma weak MPIX_Comm_ack_failed = PMPIX_Comm_ack_failed
int PMPIX_Comm_ack_failed(MPI_Comm comm, int num_to_ack, int *num_acked)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPIX_Comm_ack_failed");
    ucmpi_ulfm_t *s;
    int rc = entry(comm, fn, &s);

    if (rc == MPI_SUCCESS && num_acked == NULL)
        rc = ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "num_acked is NULL");
    if (rc == MPI_SUCCESS && num_to_ack < 0)
        rc = ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "num_to_ack is %d "
                            "(negative)", num_to_ack);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_lock();
    if (num_to_ack > s->nacked)
        s->nacked = num_to_ack < s->nfailed ? num_to_ack : s->nfailed;
    *num_acked = s->nacked;
    ucmpi_unlock();
    return MPI_SUCCESS;
}

#pragma weak MPIX_Comm_failure_ack = PMPIX_Comm_failure_ack
int PMPIX_Comm_failure_ack(MPI_Comm comm)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPIX_Comm_failure_ack");
    ucmpi_ulfm_t *s;
    int rc = entry(comm, fn, &s);

    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_lock();
    s->nacked = s->nfailed;
    ucmpi_unlock();
    return MPI_SUCCESS;
}

#pragma weak MPIX_Comm_failure_get_acked = PMPIX_Comm_failure_get_acked
int PMPIX_Comm_failure_get_acked(MPI_Comm comm, MPI_Group *failedgrp)
{
    UCMPI_CALL_SCOPE const char *fn =
        ucmpi_call_open("MPIX_Comm_failure_get_acked");
    ucmpi_ulfm_t *s;
    int rc = entry(comm, fn, &s);

    if (rc == MPI_SUCCESS && failedgrp == NULL)
        rc = ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "failedgrp is NULL");
    if (rc != MPI_SUCCESS)
        return rc;
    return failed_group(comm, s, s->nacked, failedgrp, fn);
}
