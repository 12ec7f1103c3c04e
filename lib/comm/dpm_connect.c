/* MPI_Comm_accept / MPI_Comm_connect: the roots meet on the port (handshake
 * on the dynamic-process context), then each group learns the other's
 * processes and both agree on context ids as MPI_Intercomm_create does, the
 * roots' bridge being the link: docs/architecture.md, "lib/comm internals:
 * dynamic processes". */
#include "comm/dpm.h"
#include "comm/comm_internal.h"
#include "core/call.h"
#include "core/config.h"
#include "core/failure.h"
#include "p2p/progress_api.h"
#include "p2p/pt2pt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

_Static_assert(UCMPI_DPM_CTX >= UCMPI_CTX_IDS, "DPM_CTX is a communicator's");

/* Handshake tags: a hello carries bit 23 and the port's id; the rest of a
 * conversation uses the connector's number (below bit 23). */
#define HELLO_TAG(id) ((int)(1u << 23 | (id)))

typedef struct {
    ucmpi_dpm_proc_t proc;    /* the connecting root */
    int32_t conv, pad;
} hello_t;

/* A two-process communicator of the roots (acceptor rank 0) on the
 * handshake context, or a one-process one (w1 < 0) to receive hellos. */
static ucmpi_comm_t *bridge_build(int w0, int w1)
{
    int n = w1 < 0 ? 1 : 2;
    int *t = malloc((size_t)n * sizeof(int));
    if (t == NULL)
        return NULL;
    t[0] = w0;
    if (n == 2)
        t[1] = w1;
    ucmpi_group_t *g = ucmpi_group_from_table(t, n);
    return g != NULL ? ucmpi_comm_build(g, NULL, UCMPI_DPM_CTX, NULL) : NULL;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Waits for r until `secs` pass (0: no limit) or world rank `peer` dies:
 * MPI_SUCCESS, the request's error, or MPI_ERR_PENDING on a timeout (r is
 * then cancelled and freed). */
static int wait_bounded(ucmpi_request_t *r, long secs, int peer,
                        int (*gone)(void *), void *arg)
{
    double end = now() + (double)secs;
    unsigned spins = 0;
    int rc;

    while (!ucmpi_request_is_complete(r)) {
        if (ucmpi_progress() == 0)
            ucmpi_progress_idle(++spins);
        else
            spins = 0;
        if (spins % 256 != 255)
            continue;
        if ((secs > 0 && now() > end) || (peer >= 0 && ucmpi_peer_failed(peer)) ||
            (gone != NULL && gone(arg))) {
            MPI_Request h = r;
            PMPI_Cancel(&h);
            ucmpi_request_wait(r);
            ucmpi_request_free(r);
            return secs > 0 && now() > end ? MPI_ERR_PENDING
                                           : MPI_ERR_PROC_FAILED;
        }
    }
    rc = r->status.MPI_ERROR;
    ucmpi_request_free(r);
    return rc;
}

int ucmpi_dpm_root_accept(const char *port, ucmpi_comm_t **bridge, int *conv,
                          char *why, size_t n, int (*gone)(void *),
                          void *arg)
{
    ucmpi_dpm_port_t p;
    hello_t h;
    ucmpi_request_t *r = NULL;
    long secs = ucmpi_config_long("DPM_ACCEPT_TIMEOUT");
    int rc, peer, ok = 0;

    if (ucmpi_dpm_port_parse(port, &p, why, n) != 0)
        return MPI_ERR_PORT;
    if (strcmp(p.owner.nspace, ucmpi_global.nspace) != 0 ||
        p.owner.rank != ucmpi_global.world_rank ||
        !ucmpi_dpm_port_open_here(p.id)) {
        snprintf(why, n, "the port is not open in this process (accept "
                 "needs a name from its own MPI_Open_port)");
        return MPI_ERR_PORT;
    }
    ucmpi_comm_t *pre = bridge_build(ucmpi_global.world_rank, -1);
    if (pre == NULL)
        return MPI_ERR_NO_MEM;
    rc = ucmpi_irecv(&h, sizeof(h), MPI_BYTE, MPI_ANY_SOURCE, HELLO_TAG(p.id),
                     pre, UCMPI_CTX_COLL, &r);
    if (rc == MPI_SUCCESS)
        rc = wait_bounded(r, secs, -1, gone, arg);
    ucmpi_comm_release(pre);
    if (rc == MPI_ERR_PENDING) {
        snprintf(why, n, "nobody connected within UCMPI_DPM_ACCEPT_TIMEOUT="
                 "%ld s", secs);
        return MPI_ERR_PORT;
    }
    if (rc != MPI_SUCCESS)
        return rc;
    peer = ucmpi_dpm_proc_add(&h.proc);
    if (peer < 0 || (*bridge = bridge_build(ucmpi_global.world_rank, peer))
                        == NULL) {
        snprintf(why, n, "no room for the connecting process "
                 "(UCMPI_DPM_PEERS)");
        return MPI_ERR_NO_MEM;
    }
    *conv = h.conv;
    rc = ucmpi_send(&ok, 1, MPI_INT, 1, *conv, *bridge, UCMPI_CTX_COLL);
    if (rc != MPI_SUCCESS) {
        ucmpi_comm_release(*bridge);
        *bridge = NULL;
    }
    return rc;
}

static int root_accept(const char *port, ucmpi_comm_t **bridge, int *conv,
                       char *why, size_t n)
{
    return ucmpi_dpm_root_accept(port, bridge, conv, why, n, NULL, NULL);
}

int ucmpi_dpm_root_connect(const char *port, ucmpi_comm_t **bridge,
                           int *conv, char *why, size_t n)
{
    static unsigned serial;
    ucmpi_dpm_port_t p;
    hello_t h;
    ucmpi_request_t *sr = NULL, *rr = NULL;
    long secs = ucmpi_config_long("DPM_CONNECT_TIMEOUT");
    int rc, owner, ok = -1;

    if (ucmpi_dpm_port_parse(port, &p, why, n) != 0)
        return MPI_ERR_PORT;
    memset(&h, 0, sizeof(h));
    owner = ucmpi_dpm_proc_add(&p.owner);
    if (owner < 0 || ucmpi_dpm_self(&h.proc) != 0) {
        snprintf(why, n, "cannot reach the port's process");
        return MPI_ERR_PORT;
    }
    if (ucmpi_peer_failed(owner)) {
        snprintf(why, n, "the port's process is gone");
        return MPI_ERR_PORT;
    }
    if ((*bridge = bridge_build(owner, ucmpi_global.world_rank)) == NULL)
        return MPI_ERR_NO_MEM;
    ucmpi_lock();
    h.conv = (int32_t)((((unsigned)getpid() << 8) + ++serial) & 0x7fffff);
    ucmpi_unlock();
    h.conv = h.conv ? h.conv : 1;
    *conv = h.conv;
    rc = ucmpi_irecv(&ok, 1, MPI_INT, 0, *conv, *bridge, UCMPI_CTX_COLL, &rr);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_isend(&h, sizeof(h), MPI_BYTE, 0, HELLO_TAG(p.id),
                         *bridge, UCMPI_CTX_COLL, UCMPI_SEND_STANDARD, &sr);
    if (rc == MPI_SUCCESS)
        rc = wait_bounded(rr, secs, owner, NULL, NULL);
    else if (rr != NULL)
        wait_bounded(rr, 1, owner, NULL, NULL);
    if (sr != NULL && rc == MPI_SUCCESS)
        rc = wait_bounded(sr, secs, owner, NULL, NULL);
    else if (sr != NULL)
        wait_bounded(sr, 1, owner, NULL, NULL);
    if (rc == MPI_ERR_PENDING)
        snprintf(why, n, "no MPI_Comm_accept on the port within "
                 "UCMPI_DPM_CONNECT_TIMEOUT=%ld s (closed port?)", secs);
    else if (rc == MPI_ERR_PROC_FAILED)
        snprintf(why, n, "the port's process is gone");
    if (rc != MPI_SUCCESS || ok != 0) {
        ucmpi_comm_release(*bridge);
        *bridge = NULL;
        return rc == MPI_SUCCESS ? MPI_ERR_PORT : rc == MPI_ERR_PENDING
                                   ? MPI_ERR_PORT : rc;
    }
    return MPI_SUCCESS;
}

/* Every member: the other group's processes (world ranks, added to the table
 * here) from the roots' swap; *rranks malloc'd. */
static int swap_procs(const ucmpi_cc_t *cc, const ucmpi_cc_link_t *l,
                      int *rsize, int **rranks, int *bad)
{
    size_t sz = sizeof(ucmpi_dpm_proc_t);
    int size = cc->size, rc;
    ucmpi_dpm_proc_t *mine = malloc(sz), *all = malloc(sz * (size_t)size);
    ucmpi_dpm_proc_t *theirs = NULL;

    *rranks = NULL;
    rc = mine == NULL || all == NULL || ucmpi_dpm_self(mine) != 0
             ? MPI_ERR_NO_MEM : MPI_SUCCESS;
    /* everyone takes part even after a local failure: the others wait */
    if (ucmpi_cc_allgather(cc, mine ? (void *)mine : (void *)all, all, sz)
        != MPI_SUCCESS)
        rc = MPI_ERR_OTHER;
    if (ucmpi_cc_swap_bcast(cc, l, &size, sizeof(int), rsize, sizeof(int))
        != MPI_SUCCESS || *rsize <= 0) {
        free(mine);
        free(all);
        return MPI_ERR_OTHER;     /* the roots' link failed: nothing agreed */
    }
    theirs = malloc(sz * (size_t)*rsize);
    *rranks = malloc(sizeof(int) * (size_t)*rsize);
    if (theirs == NULL || *rranks == NULL)
        rc = MPI_ERR_NO_MEM;
    /* short of memory, the swap fails (truncation) and so do we */
    if (ucmpi_cc_swap_bcast(cc, l, all, sz * (size_t)size, theirs,
                            theirs ? sz * (size_t)*rsize : 0) != MPI_SUCCESS)
        rc = MPI_ERR_OTHER;
    for (int i = 0; rc == MPI_SUCCESS && i < *rsize; i++)
        if (((*rranks)[i] = ucmpi_dpm_proc_add(&theirs[i])) < 0)
            rc = MPI_ERR_NO_MEM;
    *bad = rc != MPI_SUCCESS;
    free(mine);
    free(all);
    free(theirs);
    return MPI_SUCCESS;
}

/* Collective over comm once root has a bridge (NULL after a failed
 * handshake: root_rc says why): the intercommunicator.  my_side: 0 acceptor,
 * 1 connector (the roots' ranks in the bridge). */
int ucmpi_dpm_join(ucmpi_comm_t *comm, int root, ucmpi_comm_t *bridge,
                   int conv, int my_side, int root_rc, ucmpi_comm_t **out)
{
    ucmpi_cc_t cc;
    int v = comm->rank == root ? root_rc : 0, rsize = 0, *rranks = NULL;
    int bad = 0, rbad = 0, rc;
    uint32_t ids[2];

    *out = NULL;
    ucmpi_cc_init(&cc, comm);
    /* the root's outcome: MPI error codes are positive */
    rc = ucmpi_cc_allreduce_sum(&cc, &v, 1);
    if (rc != MPI_SUCCESS || v != MPI_SUCCESS)
        return rc != MPI_SUCCESS ? rc : v;
    ucmpi_cc_link_t l = {bridge, UCMPI_CTX_COLL, conv, root, 1 - my_side};
    rc = swap_procs(&cc, &l, &rsize, &rranks, &bad);
    if (rc == MPI_SUCCESS) {
        /* any member's failure travels with the agreement */
        rc = ucmpi_cc_allreduce_sum(&cc, &bad, 1);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_ctx_agree_link(&cc, &l, ((uint64_t)comm->ctx << 32) |
                                      (uint32_t)cc.tag, 2, ids, &bad, &rbad,
                                      1);
    }
    if (rc == MPI_SUCCESS && (bad || rbad)) {
        ucmpi_ctx_release(ids[0]);
        ucmpi_ctx_release(ids[1]);
        rc = MPI_ERR_NO_MEM;
    }
    if (rc != MPI_SUCCESS) {
        free(rranks);
        return rc;
    }
    ucmpi_group_t *remote = ucmpi_group_from_table(rranks, rsize);
    ucmpi_comm_t *lc = NULL, *ic = NULL;
    if (remote != NULL) {
        ucmpi_group_retain(comm->group);
        lc = ucmpi_comm_build(comm->group, NULL, ids[1], comm);
    }
    if (lc != NULL) {
        ucmpi_group_retain(comm->group);
        ic = ucmpi_comm_build(comm->group, remote, ids[0], comm);
        remote = NULL;
    }
    if (ic == NULL) {
        if (lc != NULL)
            ucmpi_comm_release(lc);
        else
            ucmpi_ctx_release(ids[1]);
        ucmpi_group_release(remote);
        ucmpi_ctx_release(ids[0]);
        return MPI_ERR_NO_MEM;
    }
    ic->local_comm = lc;
    *out = ic;
    return MPI_SUCCESS;
}

typedef int (*root_fn_t)(const char *, ucmpi_comm_t **, int *, char *,
                         size_t);

static int accept_connect(const char *fn, const char *port, MPI_Info info,
                          int root, MPI_Comm comm, MPI_Comm *newcomm,
                          root_fn_t root_fn, int side)
{
    char why[256] = "";
    ucmpi_comm_t *bridge = NULL;
    int conv = 0, rc = ucmpi_check_intra(comm);

    if (rc != MPI_SUCCESS)
        return rc;
    if (newcomm == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "newcomm is NULL");
    if (root < 0 || root >= comm->size)
        return ucmpi_err_comm(comm, MPI_ERR_ROOT, fn,
                              "root %d is not in [0, %d)", root, comm->size);
    *newcomm = MPI_COMM_NULL;
    if (comm->rank == root) {
        if (port == NULL)
            rc = MPI_ERR_PORT, snprintf(why, sizeof(why), "port_name is NULL");
        else if (info != MPI_INFO_NULL && !ucmpi_info_valid(info))
            rc = MPI_ERR_INFO, snprintf(why, sizeof(why), "invalid info");
        else
            rc = root_fn(port, &bridge, &conv, why, sizeof(why));
    }
    int jrc = ucmpi_dpm_join(comm, root, bridge, conv, side, rc, newcomm);
    if (bridge != NULL)
        ucmpi_comm_release(bridge);
    if (jrc == MPI_SUCCESS)
        return MPI_SUCCESS;
    if (comm->rank == root && rc != MPI_SUCCESS)
        return ucmpi_err_comm(comm, rc, fn, "%s", why[0] ? why
                              : "the handshake on the port failed");
    return ucmpi_err_comm(comm, jrc, fn, comm->rank == root
                          ? "exchange with the other group failed"
                          : "the root's %s failed (see its report)",
                          side ? "connect" : "accept");
}

#pragma weak MPI_Comm_accept = PMPI_Comm_accept
int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root,
                     MPI_Comm comm, MPI_Comm *newcomm)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Comm_accept");
    return accept_connect(fn, port_name, info, root, comm, newcomm,
                          root_accept, 0);
}

#pragma weak MPI_Comm_connect = PMPI_Comm_connect
int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root,
                      MPI_Comm comm, MPI_Comm *newcomm)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Comm_connect");
    return accept_connect(fn, port_name, info, root, comm, newcomm,
                          ucmpi_dpm_root_connect, 1);
}
