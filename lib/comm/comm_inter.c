/* MPI_Intercomm_create (leaders swap groups and free masks over the peer comm)
 * and _merge; local_comm serves the group-local steps of later collectives. */
#include "p2p/progress_api.h"
#include "p2p/pt2pt.h"
#include "core/call.h"
#include "comm/comm_internal.h"
#include "comm/dpm.h"

#include <stdlib.h>
#include <string.h>

/* The leaders swap their groups as process descriptions (world ranks differ
 * between jobs, and a member of the other group may be a process this one
 * never met, e.g. after a spawn from MPI_COMM_SELF); everyone learns the
 * remote one.  *rranks is malloc'd. */
static int swap_groups(ucmpi_comm_t *local, const ucmpi_cc_link_t *l,
                       const ucmpi_cc_t *cc, int *rsize, int **rranks)
{
    int rc = MPI_SUCCESS, lsize = local->size;
    size_t sz = sizeof(ucmpi_dpm_proc_t);
    ucmpi_dpm_proc_t *mine = NULL, *theirs = NULL;
    *rranks = NULL;
    if (local->rank == l->leader) {
        mine = malloc(sz * (size_t)lsize);
        for (int i = 0; mine != NULL && i < lsize && rc == MPI_SUCCESS; i++)
            if (ucmpi_dpm_describe(ucmpi_group_world(local->group, i),
                                   &mine[i]) != 0)
                rc = MPI_ERR_INTERN;
        if (mine == NULL)
            rc = MPI_ERR_NO_MEM;
    }
    if (rc == MPI_SUCCESS)
        rc = ucmpi_cc_swap_bcast(cc, l, &lsize, sizeof(int), rsize,
                                 sizeof(int));
    if (rc == MPI_SUCCESS && *rsize <= 0)
        rc = MPI_ERR_INTERN;
    if (rc == MPI_SUCCESS &&
        ((*rranks = malloc(*rsize * sizeof(int))) == NULL ||
         (theirs = malloc(sz * (size_t)*rsize)) == NULL))
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = ucmpi_cc_swap_bcast(cc, l, mine, sz * (size_t)lsize, theirs,
                                 sz * (size_t)*rsize);
    for (int i = 0; rc == MPI_SUCCESS && i < *rsize; i++)
        if (((*rranks)[i] = ucmpi_dpm_proc_add(&theirs[i])) < 0)
            rc = MPI_ERR_NO_MEM;   /* the process table is full */
    free(mine);
    free(theirs);
    if (rc != MPI_SUCCESS) {
        free(*rranks);
        *rranks = NULL;
    }
    return rc;
}

static int check_create_args(MPI_Comm local, int local_leader, MPI_Comm peer,
                             int remote_leader, int tag, MPI_Comm *out)
{
    const char *fn = ucmpi_call_name();
    int rc = ucmpi_check_intra(local);
    if (rc != MPI_SUCCESS)
        return rc;
    if (out == NULL)
        return ucmpi_err_comm(local, MPI_ERR_ARG, fn, "newintercomm is NULL");
    if (local_leader < 0 || local_leader >= local->size)
        return ucmpi_err_comm(local, MPI_ERR_RANK, fn,
                              "local_leader %d is not in [0, %d)",
                              local_leader, local->size);
    if (tag < 0 || tag > UCMPI_TAG_MAX)
        return ucmpi_err_comm(local, MPI_ERR_TAG, fn,
                              "tag %d is not in [0, %d]", tag, UCMPI_TAG_MAX);
    if (local->rank != local_leader)
        return MPI_SUCCESS;   /* peer_comm matters only at the leaders */
    rc = ucmpi_check_comm(peer, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    /* an intercomm peer_comm (e.g. a spawn's) names the remote group */
    if (remote_leader < 0 || remote_leader >= peer->remote_size ||
        (!peer->is_inter && remote_leader == peer->rank))
        return ucmpi_err_comm(local, MPI_ERR_RANK, fn,
                              "remote_leader %d is not another rank of "
                              "peer_comm (size %d)", remote_leader,
                              peer->remote_size);
    return MPI_SUCCESS;
}

#pragma weak MPI_Intercomm_create = PMPI_Intercomm_create
int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader,
                          MPI_Comm peer_comm, int remote_leader, int tag,
                          MPI_Comm *newintercomm)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Intercomm_create");
    int rc = check_create_args(local_comm, local_leader, peer_comm,
                               remote_leader, tag, newintercomm);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_comm_live(local_comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    *newintercomm = MPI_COMM_NULL;

    ucmpi_cc_t cc;
    int *rranks = NULL, rsize = 0;
    uint32_t ids[2];

    ucmpi_cc_init(&cc, local_comm);
    ucmpi_cc_link_t l = {peer_comm, UCMPI_CTX_AUX, tag, local_leader,
                         remote_leader};
    rc = swap_groups(local_comm, &l, &cc, &rsize, &rranks);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_comm(local_comm, rc, fn,
                              "exchange between the leaders failed");
    /* rounds over peer_comm until every participant offered its real mask */
    rc = ucmpi_ctx_agree_link(&cc, &l, ((uint64_t)local_comm->ctx << 32) |
                              (uint32_t)cc.tag, 2, ids, &rsize, &rsize, 0);
    if (rc != MPI_SUCCESS) {
        free(rranks);
        return ucmpi_err_comm(local_comm, rc, fn,
                              "context id agreement failed");
    }
    ucmpi_group_t *remote = ucmpi_group_from_table(rranks, rsize);
    ucmpi_comm_t *lc = NULL, *ic = NULL;
    if (remote != NULL) {
        ucmpi_group_retain(local_comm->group);
        lc = ucmpi_comm_build(local_comm->group, NULL, ids[1], local_comm);
    }
    if (lc != NULL) {
        ucmpi_group_retain(local_comm->group);
        ic = ucmpi_comm_build(local_comm->group, remote, ids[0], local_comm);
        remote = NULL;            /* owned by ic (or released) now */
    }
    if (ic == NULL) {
        if (lc != NULL)
            ucmpi_comm_release(lc);   /* releases ids[1] */
        else
            ucmpi_ctx_release(ids[1]);
        ucmpi_group_release(remote);
        ucmpi_ctx_release(ids[0]);
        return ucmpi_err_comm(local_comm, MPI_ERR_NO_MEM, fn,
                              "out of memory");
    }
    ic->local_comm = lc;
    *newintercomm = ic;
    return MPI_SUCCESS;
}

#pragma weak MPI_Intercomm_merge = PMPI_Intercomm_merge
int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newcomm)
{
    const char *fn = "MPI_Intercomm_merge";
    int rc = ucmpi_check_comm(intercomm, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_comm_live(intercomm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!intercomm->is_inter)
        return ucmpi_err_comm(intercomm, MPI_ERR_COMM, fn,
                              "intercomm is an intracommunicator");
    if (newcomm == NULL)
        return ucmpi_err_comm(intercomm, MPI_ERR_ARG, fn, "newcomm is NULL");
    *newcomm = MPI_COMM_NULL;

    /* The leader's `high` decides for its group (the standard asks all
     * members to pass the same value). */
    int x = high ? 1 : 0, rx = 0;
    uint32_t id;
    rc = ucmpi_ctx_agree_inter(intercomm, 1, &id, &x, &rx, 1);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_comm(intercomm, rc, fn, "context id agreement "
                              "failed");
    /* low group first; equal flags: the group of the lower leader */
    ucmpi_group_t *lg = intercomm->group, *rg = intercomm->remote_group;
    /* the leaders' order by identity: world ranks differ between jobs */
    int local_first = x != rx ? x < rx
                              : ucmpi_dpm_ident_cmp(ucmpi_group_world(lg, 0),
                                                    ucmpi_group_world(rg, 0))
                                    < 0;
    ucmpi_group_t *a = local_first ? lg : rg, *b = local_first ? rg : lg;
    int *t = malloc(((size_t)a->size + b->size) * sizeof(int));
    if (t == NULL) {
        ucmpi_ctx_release(id);
        return ucmpi_err_comm(intercomm, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    for (int i = 0; i < a->size; i++)
        t[i] = ucmpi_group_world(a, i);
    for (int i = 0; i < b->size; i++)
        t[a->size + i] = ucmpi_group_world(b, i);
    ucmpi_group_t *g = ucmpi_group_from_table(t, a->size + b->size);
    ucmpi_comm_t *n = g ? ucmpi_comm_build(g, NULL, id, intercomm) : NULL;
    if (n == NULL) {
        ucmpi_ctx_release(id);
        return ucmpi_err_comm(intercomm, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    *newcomm = n;
    return MPI_SUCCESS;
}
