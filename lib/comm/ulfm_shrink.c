/* MPIX_Comm_shrink: one fault-tolerant agreement (ulfm_agree.c) decides both
 * the failed set and a context id free on every survivor (the AND of their
 * free masks, with the complement of their epochs for the stamp, as
 * comm_ctx.c's rounds do); a second agreement checks that every survivor
 * could take that id, else both are tried again.  Works on a revoked comm. */
#include "comm/ulfm.h"
#include "comm/comm_internal.h"
#include "core/call.h"
#include "core/failure.h"
#include "mpi-ext.h"

#include <stdlib.h>
#include <string.h>

#define VWORDS (UCMPI_CTX_WORDS + 1)   /* free mask, ~epoch */

static int agree(ucmpi_comm_t *c, uint64_t *val, int vwords, uint64_t *failed)
{
    ucmpi_ulfm_agree_t *a;

    ucmpi_lock();
    a = ucmpi_ulfm_agree_start(c, val, vwords);
    ucmpi_unlock();
    if (a == NULL)
        return MPI_ERR_NO_MEM;
    ucmpi_ulfm_agree_wait(a, val, failed);
    ucmpi_ulfm_agree_free(a);
    return MPI_SUCCESS;
}

/* The survivors' group (a reference) from the agreed failed set. */
static ucmpi_group_t *survivors(ucmpi_comm_t *c, const uint64_t *failed)
{
    int *keep = malloc((size_t)c->size * sizeof(int)), n = 0;
    ucmpi_group_t *g;

    if (keep == NULL)
        return NULL;
    for (int r = 0; r < c->size; r++)
        if (!(failed[r / 64] >> (r % 64) & 1))
            keep[n++] = r;
    g = ucmpi_group_incl(c->group, n, keep);
    free(keep);
    return g;
}

/* One try: MPI_SUCCESS with *out, MPI_ERR_PENDING to try again. */
static int shrink_once(ucmpi_comm_t *c, int words, ucmpi_comm_t **out)
{
    *out = NULL;
    uint64_t val[VWORDS], *failed = calloc((size_t)words, sizeof(uint64_t));
    uint64_t ok = 1;
    uint32_t id = UCMPI_CTX_IDS;
    int rc, took = 0;

    if (failed == NULL)
        return MPI_ERR_NO_MEM;
    ucmpi_ctx_offer(val, &val[UCMPI_CTX_WORDS]);
    rc = agree(c, val, VWORDS, failed);
    for (int w = 0; rc == MPI_SUCCESS && w < UCMPI_CTX_WORDS && id == UCMPI_CTX_IDS; w++)
        if (val[w] != 0)
            id = (uint32_t)(w * 64 + __builtin_ctzll(val[w]));
    if (rc == MPI_SUCCESS && id == UCMPI_CTX_IDS)
        rc = MPI_ERR_OTHER;           /* no id free on every survivor */
    if (rc == MPI_SUCCESS) {
        took = ucmpi_ctx_take(id, val[UCMPI_CTX_WORDS]) == 0;
        ok = (uint64_t)took;
        rc = agree(c, &ok, 1, NULL);  /* each took it? */
    }
    if (rc == MPI_SUCCESS && !ok) {
        rc = MPI_ERR_PENDING;
    } else if (rc == MPI_SUCCESS) {
        ucmpi_group_t *g = survivors(c, failed);
        *out = g != NULL ? ucmpi_comm_build(g, NULL, id, c) : NULL;
        rc = *out != NULL ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    }
    if (rc != MPI_SUCCESS && took && *out == NULL)
        ucmpi_ctx_release(id);
    free(failed);
    return rc;
}

#pragma weak MPIX_Comm_shrink = PMPIX_Comm_shrink
int PMPIX_Comm_shrink(MPI_Comm comm, MPI_Comm *newcomm)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPIX_Comm_shrink");
    int rc = ucmpi_check_comm_out(comm, fn, newcomm, "newcomm");
    ucmpi_ulfm_t *s;
    ucmpi_comm_t *n = NULL;

    if (rc == MPI_SUCCESS)
        rc = ucmpi_ulfm_check_comm(comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_rt_enter(fn);
    ucmpi_lock();
    s = ucmpi_ulfm_state(comm);
    ucmpi_unlock();
    if (s == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    do
        rc = shrink_once(comm, s->words, &n);
    while (rc == MPI_ERR_PENDING);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_comm(comm, rc, fn, rc == MPI_ERR_OTHER
                              ? "no context id is free on every survivor"
                              : "out of memory");
    *newcomm = n;
    return MPI_SUCCESS;
}
