/* MPIX_Comm_revoke / MPIX_Comm_is_revoked, and the active messages of ULFM
 * (revoke notices and agreement messages).  A revoke notice goes to every
 * member; the first notice a process gets it sends on to every member too, so
 * the notice reaches all survivors even when its sender dies half-way. */
#include "comm/ulfm.h"
#include "comm/comm_internal.h"
#include "core/call.h"
#include "core/failure.h"
#include "p2p/progress_api.h"
#include "ucp_glue/ucx.h"
#include "mpi-ext.h"

#include <stdlib.h>
#include <string.h>

/* Notices for a comm not built here yet: its stamp + 1 by context id. */
static uint64_t pending[UCMPI_CTX_IDS];

int ucmpi_ulfm_revoke_pending(uint32_t ctx, uint64_t stamp)
{
    return ctx < UCMPI_CTX_IDS && pending[ctx] == stamp + 1;
}

/* Sends the notice of c to every member not known failed. */
static void notify_all(ucmpi_comm_t *c)
{
    ucmpi_ulfm_wire_t m = {.ctx = c->ctx, .kind = ULFM_REVOKE,
                           .stamp = c->ctx_stamp, .src = c->rank};

    for (int r = 0; r < c->size; r++)
        if (r != c->rank && !ucmpi_ulfm_rank_failed(c, r))
            (void)ucmpi_ucx_am_send(ucmpi_comm_peer_world(c, r), UCMPI_AM_ULFM,
                                    &m, sizeof(m));
}

void ucmpi_ulfm_mark_revoked(ucmpi_comm_t *c)
{
    c->revoked = 1;
    ucmpi_failure_poke();         /* test-style calls look at once */
}

/* ---- forwarding, from progress (no sends inside a UCX callback) ---- */

typedef struct fwd {
    struct fwd *next;
    uint32_t ctx;
    uint64_t stamp;
} fwd_t;
static fwd_t *todo;
static int hook_on;

static int run_forwards(void)
{
    int n = 0;

    ucmpi_lock();
    while (todo != NULL) {
        fwd_t *f = todo;
        ucmpi_comm_t *c = ucmpi_ulfm_comm_of(f->ctx, f->stamp);
        todo = f->next;
        if (c != NULL)
            notify_all(c);
        free(f);
        n++;
    }
    if (hook_on) {
        hook_on = 0;
        ucmpi_progress_unregister(run_forwards);
    }
    ucmpi_unlock();
    return n;
}

static void revoke_arrived(const ucmpi_ulfm_wire_t *m)
{
    ucmpi_comm_t *c = ucmpi_ulfm_comm_of(m->ctx, m->stamp);
    fwd_t *f;

    if (c == NULL) {
        if (m->ctx < UCMPI_CTX_IDS && m->ctx > 1)
            pending[m->ctx] = m->stamp + 1;
        return;
    }
    if (c->revoked)
        return;
    ucmpi_ulfm_mark_revoked(c);
    if ((f = malloc(sizeof(*f))) == NULL)
        return;               /* the sender's own notices still go out */
    *f = (fwd_t){todo, m->ctx, m->stamp};
    todo = f;
    if (!hook_on) {
        hook_on = 1;
        ucmpi_progress_register(run_forwards);
    }
}

static void am_arrived(void *arg, const void *data, size_t len)
{
    const ucmpi_ulfm_wire_t *m = data;

    if (len < sizeof(*m))
        return;
    if (m->kind == ULFM_REVOKE)
        revoke_arrived(m);
    else
        ucmpi_ulfm_agree_arrived(data, len);
}

static void ulfm_init(void *rc)
{
    memset(pending, 0, sizeof(pending));
    if (ucmpi_ucx_am_handler(UCMPI_AM_ULFM, am_arrived, NULL) != 0)
        *(int *)rc = -1;
}

__attribute__((constructor)) static void ulfm_revoke_hooks(void)
{
    ucmpi_hook_add(UCMPI_HOOK_INIT, 0, ulfm_init);
}

/* ---- the calls ---- */

#pragma weak MPIX_Comm_revoke = PMPIX_Comm_revoke
int PMPIX_Comm_revoke(MPI_Comm comm)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPIX_Comm_revoke");
    int rc = ucmpi_ulfm_check_comm(comm, fn);

    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_lock();
    if (!comm->revoked) {
        ucmpi_ulfm_mark_revoked(comm);
        notify_all(comm);
    }
    ucmpi_unlock();
    return MPI_SUCCESS;
}

#pragma weak MPIX_Comm_is_revoked = PMPIX_Comm_is_revoked
int PMPIX_Comm_is_revoked(MPI_Comm comm, int *flag)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPIX_Comm_is_revoked");
    int rc = ucmpi_ulfm_check_comm(comm, fn);

    if (rc == MPI_SUCCESS && flag == NULL)
        rc = ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "flag is NULL");
    if (rc != MPI_SUCCESS)
        return rc;
    (void)ucmpi_progress();       /* a notice may be waiting */
    *flag = comm->revoked != 0;
    return MPI_SUCCESS;
}
