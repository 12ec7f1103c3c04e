/* Communicator dup, create, create_group, split (intra and inter) and free:
 * each agrees on a context id (comm_ctx.c), then builds the object locally. */
#include "p2p/pt2pt.h"
#include "core/attr.h"
#include "core/call.h"
#include "comm/comm_internal.h"
#include "comm/dpm.h"

#include <stdlib.h>
#include <string.h>

/* Collective state of lib/coll/, released if that area provides it. */

ucmpi_comm_t *ucmpi_comm_build(ucmpi_group_t *group, ucmpi_group_t *remote,
                               uint32_t ctx, ucmpi_comm_t *parent)
{
    ucmpi_comm_t *c = calloc(1, sizeof(*c));
    if (c == NULL || group == NULL) {
        free(c);
        ucmpi_group_release(group);
        ucmpi_group_release(remote);
        return NULL;
    }
    c->magic = UCMPI_MAGIC_COMM;
    c->refcount = 1;
    c->group = group;
    if (remote == NULL) {
        ucmpi_group_retain(group);    /* one reference as remote group */
        remote = group;
    } else {
        c->is_inter = 1;
    }
    c->remote_group = remote;
    c->rank = group->my_rank;
    c->size = group->size;
    c->remote_size = remote->size;
    c->ctx = ctx;
    /* an earlier comm with this ctx may have left unread stall messages
     * (sched_abort.h): its numbers differ from this one's */
    c->ctx_stamp = ucmpi_ctx_stamp(ctx);
    c->coll_seq = (uint32_t)((c->ctx_stamp * UINT64_C(0x9e3779b97f4a7c15))
                             >> 32);
    c->session_id = parent ? parent->session_id : 0;
    c->errhandler = parent ? parent->errhandler : &ucmpi_errors_are_fatal;
    ucmpi_errhandler_retain(c->errhandler);
    ucmpi_ulfm_comm_built(c);     /* revoke notices find it by its ctx */
    return c;
}

void ucmpi_comm_destroy(ucmpi_comm_t *c)
{
    ucmpi_attr_delete_all(UCMPI_ATTR_COMM, c, &c->attrs);
    ucmpi_hooks_run(UCMPI_HOOK_COMM_DESTROY, c);   /* e.g. collective state */
    ucmpi_topo_destroy(c->topo);
    c->topo = NULL;
    ucmpi_info_destroy(c->info);
    c->info = NULL;
    if (c->local_comm != NULL)
        ucmpi_comm_release(c->local_comm);
    c->local_comm = NULL;
    ucmpi_group_release(c->group);
    ucmpi_group_release(c->remote_group);
    ucmpi_errhandler_release(c->errhandler);
    c->magic = UCMPI_MAGIC_FREED;
    if (!c->predefined) {
        ucmpi_ctx_release(c->ctx);
        free(c);
    }
}

int ucmpi_check_intra(MPI_Comm comm)
{
    const char *fn = ucmpi_call_name();
    int rc = ucmpi_check_comm(comm, fn);
    if (rc == MPI_SUCCESS && comm->is_inter)
        rc = ucmpi_err_comm(comm, MPI_ERR_COMM, fn,
                            "comm is an intercommunicator; an "
                            "intracommunicator is required");
    return rc;
}

/* Copies attributes, topology and info of c into fresh n. */
static int inherit(ucmpi_comm_t *c, ucmpi_comm_t *n)
{
    int rc = ucmpi_attr_copy_all(UCMPI_ATTR_COMM, c, n, &c->attrs, &n->attrs);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_topo_dup(c, n);
    if (rc == MPI_SUCCESS && c->info != NULL &&
        (n->info = ucmpi_info_filter(c->info, NULL)) == NULL)
        rc = MPI_ERR_NO_MEM;
    return rc;
}

/* Intercomm with ids[0], its local comm with ids[1]. */
static ucmpi_comm_t *build_inter(ucmpi_group_t *local, ucmpi_group_t *remote,
                                 const uint32_t ids[2], ucmpi_comm_t *parent)
{
    ucmpi_group_retain(local);
    ucmpi_comm_t *lc = ucmpi_comm_build(local, NULL, ids[1], parent);
    if (lc == NULL) {
        ucmpi_group_release(local);
        ucmpi_group_release(remote);
        ucmpi_ctx_release(ids[0]);
        ucmpi_ctx_release(ids[1]);
        return NULL;
    }
    ucmpi_comm_t *c = ucmpi_comm_build(local, remote, ids[0], parent);
    if (c == NULL) {
        ucmpi_comm_release(lc);
        ucmpi_ctx_release(ids[0]);
        return NULL;
    }
    c->local_comm = lc;
    return c;
}

/* Intracomm over g (a reference the caller gives) with context id `id`,
 * which goes back when out of memory. */
static int build_intra(ucmpi_group_t *g, uint32_t id, ucmpi_comm_t *parent,
                       ucmpi_comm_t **out)
{
    *out = ucmpi_comm_build(g, NULL, id, parent);
    if (*out != NULL)
        return MPI_SUCCESS;
    ucmpi_ctx_release(id);
    return MPI_ERR_NO_MEM;
}

/* The copy of c once its context ids are agreed (dup and idup). */
static int dup_build(ucmpi_comm_t *c, const uint32_t *ids, ucmpi_comm_t **out)
{
    ucmpi_comm_t *n;
    int rc = MPI_ERR_NO_MEM;

    ucmpi_group_retain(c->group);
    if (c->is_inter) {
        ucmpi_group_retain(c->remote_group);
        n = build_inter(c->group, c->remote_group, ids, c);
    } else {
        rc = build_intra(c->group, ids[0], c, &n);
    }
    if (n != NULL && (rc = inherit(c, n)) != MPI_SUCCESS) {
        ucmpi_comm_release(n);
        n = NULL;
    }
    *out = n;
    return n != NULL ? MPI_SUCCESS : rc;
}

static int comm_dup(ucmpi_comm_t *c, ucmpi_comm_t **out)
{
    uint32_t ids[2];
    ucmpi_cc_t cc;
    int rc, dummy = 0;

    *out = NULL;
    if (c->is_inter) {
        rc = ucmpi_ctx_agree_inter(c, 2, ids, &dummy, &dummy, 0);
    } else {
        ucmpi_cc_init(&cc, c);
        rc = ucmpi_ctx_agree(&cc, 1, ids);
    }
    return rc != MPI_SUCCESS ? rc : dup_build(c, ids, out);
}

static int dup_entry(const char *name, MPI_Comm comm, MPI_Info info,
                     int use_info, MPI_Comm *newcomm)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    int rc = ucmpi_check_comm_out(comm, fn, newcomm, "newcomm");
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_comm_live(comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    *newcomm = MPI_COMM_NULL;
    if (use_info && info != MPI_INFO_NULL && !ucmpi_info_valid(info))
        return ucmpi_err_comm(comm, MPI_ERR_INFO, fn,
                              "info is not a valid info object");
    ucmpi_comm_t *n;
    rc = comm_dup(comm, &n);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_comm(comm, rc, fn, "duplicating the communicator "
                              "failed (attribute copy callback or "
                              "resources)");
    if (use_info) {
        ucmpi_info_destroy(n->info);
        n->info = ucmpi_comm_info_hints(info);
    }
    *newcomm = n;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_dup = PMPI_Comm_dup
int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    return dup_entry("MPI_Comm_dup", comm, MPI_INFO_NULL, 0, newcomm);
}

#pragma weak MPI_Comm_dup_with_info = PMPI_Comm_dup_with_info
int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    return dup_entry("MPI_Comm_dup_with_info", comm, info, 1, newcomm);
}

/* MPI_Comm_idup: the context id is agreed by the progress engine; the
 * communicator is built, and the request completed, when it is. */
typedef struct {
    ucmpi_comm_t *parent;
    MPI_Comm *newcomm;
    ucmpi_request_t *req;
    MPI_Info hints;           /* dup_with_info: hints to install */
    int use_info;
} idup_t;

static void idup_done(int rc, const uint32_t *ids, void *arg)
{
    idup_t *d = arg;
    ucmpi_comm_t *n = NULL, *p = d->parent;

    if (rc == MPI_SUCCESS)
        rc = dup_build(p, ids, &n);
    if (n != NULL && d->use_info) {
        ucmpi_info_destroy(n->info);
        n->info = d->hints;
        d->hints = NULL;
    }
    ucmpi_info_destroy(d->hints);
    *d->newcomm = n ? n : MPI_COMM_NULL;
    d->req->status.MPI_ERROR = rc;
    ucmpi_request_set_complete(d->req);
    ucmpi_comm_release(p);
    free(d);
}

static int idup_entry(const char *name, MPI_Comm comm, MPI_Info info,
                      int use_info, MPI_Comm *newcomm, MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    int rc = ucmpi_check_comm(comm, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_comm_live(comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (request == NULL || newcomm == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn,
                              "request or newcomm is NULL");
    if (use_info && info != MPI_INFO_NULL && !ucmpi_info_valid(info))
        return ucmpi_err_comm(comm, MPI_ERR_INFO, fn,
                              "info is not a valid info object");
    ucmpi_request_t *req = ucmpi_request_alloc(UCMPI_REQ_COLL, NULL);
    if (req == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    req->status.MPI_ERROR = MPI_SUCCESS;
    idup_t *d = calloc(1, sizeof(*d));
    if (d == NULL) {
        ucmpi_request_free(req);
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    *d = (idup_t){comm, newcomm, req, NULL, use_info};
    if (use_info)
        d->hints = ucmpi_comm_info_hints(info);
    ucmpi_comm_retain(comm);
    rc = ucmpi_ctx_agree_nb(comm, comm->is_inter ? 2 : 1, idup_done, d);
    if (rc != MPI_SUCCESS) {
        ucmpi_comm_release(comm);
        ucmpi_info_destroy(d->hints);
        free(d);
        ucmpi_request_free(req);
        return ucmpi_err_comm(comm, rc, fn, "out of memory");
    }
    *request = req;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_idup = PMPI_Comm_idup
int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    return idup_entry("MPI_Comm_idup", comm, MPI_INFO_NULL, 0, newcomm,
                      request);
}

#pragma weak MPI_Comm_idup_with_info = PMPI_Comm_idup_with_info
int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                             MPI_Request *request)
{
    return idup_entry("MPI_Comm_idup_with_info", comm, info, 1, newcomm,
                      request);
}

/* ---- create, create_group ---- */
int ucmpi_comm_create_internal(ucmpi_comm_t *c, ucmpi_group_t *group,
                               ucmpi_comm_t **out)
{
    ucmpi_cc_t cc;
    uint32_t id;

    *out = NULL;
    ucmpi_cc_init(&cc, c);
    int rc = ucmpi_ctx_agree(&cc, 1, &id);
    if (rc != MPI_SUCCESS)
        return rc;
    if (group->my_rank == MPI_UNDEFINED) {
        ucmpi_ctx_release(id);
        return MPI_SUCCESS;
    }
    ucmpi_group_retain(group);
    return build_intra(group, id, c, out);
}

/* Comm ranks of the members of g (all must belong to c's group). */
static int *members_in(ucmpi_comm_t *c, ucmpi_group_t *g, int *bad)
{
    ucmpi_group_lookup_t l;
    int *map = malloc((g->size ? g->size : 1) * sizeof(int));
    *bad = -1;
    if (map == NULL || ucmpi_group_lookup_init(&l, c->group) != 0) {
        free(map);
        return NULL;
    }
    for (int i = 0; i < g->size && *bad < 0; i++) {
        map[i] = ucmpi_group_lookup(&l, ucmpi_group_world(g, i));
        if (map[i] == MPI_UNDEFINED)
            *bad = i;
    }
    ucmpi_group_lookup_fini(&l);
    return map;
}

/* Intercomm: the leaders swap each side's subgroup and the result joins them
 * (NULL if either subgroup is empty or this process is not in its own). */
static int create_inter(ucmpi_comm_t *c, ucmpi_group_t *group,
                        ucmpi_comm_t **out)
{
    ucmpi_cc_t cc;
    uint32_t ids[2];
    int tag = ucmpi_comm_next_coll_tag(c), rsize = 0, dummy = 0, rc;
    int *lt = ucmpi_group_to_table(group), *rt = NULL;

    *out = NULL;
    if (lt == NULL)
        return MPI_ERR_NO_MEM;
    ucmpi_cc_init(&cc, c->local_comm);
    ucmpi_cc_link_t l = {c, UCMPI_CTX_COLL, tag, 0, 0};
    rc = ucmpi_cc_swap_bcast(&cc, &l, &group->size, sizeof(int), &rsize,
                             sizeof(int));
    /* as identities: world ranks differ between jobs (dpm.h) */
    ucmpi_dpm_ident_t *li = NULL, *ri = NULL;
    size_t isz = sizeof(ucmpi_dpm_ident_t);
    if (rc == MPI_SUCCESS &&
        ((rt = malloc((rsize ? rsize : 1) * sizeof(int))) == NULL ||
         (li = malloc(isz * (size_t)(group->size ? group->size : 1))) == NULL ||
         (ri = malloc(isz * (size_t)(rsize ? rsize : 1))) == NULL))
        rc = MPI_ERR_NO_MEM;
    for (int i = 0; rc == MPI_SUCCESS && i < group->size; i++)
        if (ucmpi_dpm_ident(lt[i], &li[i]) != 0)
            rc = MPI_ERR_INTERN;
    if (rc == MPI_SUCCESS)
        rc = ucmpi_cc_swap_bcast(&cc, &l, li, group->size * isz, ri,
                                 rsize * isz);
    for (int i = 0; rc == MPI_SUCCESS && i < rsize; i++)
        if ((rt[i] = ucmpi_dpm_resolve(&ri[i])) < 0)
            rc = MPI_ERR_INTERN;
    free(li);
    free(ri);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_ctx_agree_inter(c, 2, ids, &dummy, &dummy, 0);
    free(lt);
    if (rc != MPI_SUCCESS || group->my_rank == MPI_UNDEFINED || rsize == 0) {
        if (rc == MPI_SUCCESS) {
            ucmpi_ctx_release(ids[0]);
            ucmpi_ctx_release(ids[1]);
        }
        free(rt);
        return rc;
    }
    ucmpi_group_t *rg = ucmpi_group_from_table(rt, rsize);
    if (rg == NULL) {
        ucmpi_ctx_release(ids[0]);
        ucmpi_ctx_release(ids[1]);
        return MPI_ERR_NO_MEM;
    }
    ucmpi_group_retain(group);
    *out = build_inter(group, rg, ids, c);
    return *out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

#pragma weak MPI_Comm_create = PMPI_Comm_create
int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Comm_create");
    int rc = ucmpi_check_comm(comm, fn), bad;
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_comm_live(comm, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_group(group, comm, "group");
    if (rc != MPI_SUCCESS)
        return rc;
    if (newcomm == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "newcomm is NULL");
    *newcomm = MPI_COMM_NULL;
    int *map = members_in(comm, group, &bad);
    free(map);
    if (map == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    if (bad >= 0)
        return ucmpi_err_comm(comm, MPI_ERR_GROUP, fn,
                              "member %d of group is not in comm", bad);
    rc = comm->is_inter ? create_inter(comm, group, newcomm)
                        : ucmpi_comm_create_internal(comm, group, newcomm);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_comm(comm, rc, fn, "creating the communicator "
                              "failed");
    return MPI_SUCCESS;
}

/* Comm_create_group's work, errors returned unreported (its caller
 * knows which handler gets them).  *bad: a member not in comm, or -1. */
int ucmpi_comm_create_group_internal(MPI_Comm comm, MPI_Group group, int tag,
                                     MPI_Comm *newcomm, int *bad)
{
    *newcomm = MPI_COMM_NULL;
    *bad = -1;
    if (group->my_rank == MPI_UNDEFINED)
        return MPI_SUCCESS;
    int *map = members_in(comm, group, bad);
    if (map == NULL)
        return MPI_ERR_NO_MEM;
    if (*bad >= 0) {
        free(map);
        return MPI_ERR_GROUP;
    }
    /* Only the members take part: their own channel, on the spare
     * sub-context with the user's tag. */
    ucmpi_cc_t cc = {comm, UCMPI_CTX_AUX, tag, group->size, group->my_rank,
                     map};
    uint32_t id;
    int rc = ucmpi_ctx_agree(&cc, 1, &id);
    free(map);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_group_retain(group);
    return build_intra(group, id, comm, newcomm);
}

#pragma weak MPI_Comm_create_group = PMPI_Comm_create_group
int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag,
                           MPI_Comm *newcomm)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Comm_create_group");
    int rc = ucmpi_check_intra(comm), bad;
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_comm_live(comm, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_group(group, comm, "group");
    if (rc != MPI_SUCCESS)
        return rc;
    if (newcomm == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "newcomm is NULL");
    if (tag < 0 || tag > UCMPI_TAG_MAX)
        return ucmpi_err_comm(comm, MPI_ERR_TAG, fn,
                              "tag %d is not in [0, %d]", tag, UCMPI_TAG_MAX);
    rc = ucmpi_comm_create_group_internal(comm, group, tag, newcomm, &bad);
    if (rc == MPI_ERR_GROUP)
        return ucmpi_err_comm(comm, rc, fn,
                              "member %d of group is not in comm", bad);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_comm(comm, rc, fn, "%s", rc == MPI_ERR_NO_MEM
                              ? "out of memory"
                              : "context id agreement failed");
    return MPI_SUCCESS;
}

/* ---- split ---- */
typedef struct {
    int color, key, rank;
} ckr_t;

static int ckr_cmp(const void *a, const void *b)
{
    const ckr_t *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* World ranks of the entries of `all` (n of them, (color, key) pairs in
 * rank order of group g) with colour `color`, ordered by (key, rank). */
static ucmpi_group_t *color_group(const int *all, int n, int color,
                                  const ucmpi_group_t *g)
{
    ckr_t *sel = malloc((n ? n : 1) * sizeof(*sel));
    if (sel == NULL)
        return NULL;
    int m = 0;
    for (int i = 0; i < n; i++)
        if (all[2 * i] == color)
            sel[m++] = (ckr_t){color, all[2 * i + 1], i};
    qsort(sel, m, sizeof(*sel), ckr_cmp);
    int *t = malloc((m ? m : 1) * sizeof(int));
    if (t != NULL)
        for (int i = 0; i < m; i++)
            t[i] = ucmpi_group_world(g, sel[i].rank);
    free(sel);
    return t ? ucmpi_group_from_table(t, m) : NULL;
}

static int split_intra(ucmpi_comm_t *c, int color, int key,
                       ucmpi_comm_t **out)
{
    ucmpi_cc_t cc;
    uint32_t id;
    int mine[2] = {color, key};
    int *all = malloc(2 * sizeof(int) * c->size);

    *out = NULL;
    if (all == NULL)
        return MPI_ERR_NO_MEM;
    ucmpi_cc_init(&cc, c);
    int rc = ucmpi_ctx_agree_gather(&cc, 1, &id, mine, all, sizeof(mine));
    if (rc != MPI_SUCCESS || color == MPI_UNDEFINED) {
        if (rc == MPI_SUCCESS)
            ucmpi_ctx_release(id);
        free(all);
        return rc;
    }
    ucmpi_group_t *g = color_group(all, c->size, color, c->group);
    free(all);
    return build_intra(g, id, c, out);
}

/* Each group splits locally; equal colours on both sides pair up. */
static int split_inter(ucmpi_comm_t *c, int color, int key,
                       ucmpi_comm_t **out)
{
    ucmpi_cc_t cc;
    uint32_t ids[2];
    int mine[2] = {color, key}, dummy = 0;
    int *all = malloc(2 * sizeof(int) * c->size);
    int *rall = malloc(2 * sizeof(int) * c->remote_size);
    int rc = MPI_ERR_NO_MEM;

    *out = NULL;
    if (all == NULL || rall == NULL)
        goto out_free;
    ucmpi_cc_init(&cc, c->local_comm);
    int tag = ucmpi_comm_next_coll_tag(c);
    rc = ucmpi_cc_allgather(&cc, mine, all, sizeof(mine));
    ucmpi_cc_link_t l = {c, UCMPI_CTX_COLL, tag, 0, 0};
    if (rc == MPI_SUCCESS)
        rc = ucmpi_cc_swap_bcast(&cc, &l, all, 2 * sizeof(int) * c->size,
                                 rall, 2 * sizeof(int) * c->remote_size);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_ctx_agree_inter(c, 2, ids, &dummy, &dummy, 0);
    if (rc != MPI_SUCCESS)
        goto out_free;
    ucmpi_group_t *lg = NULL, *rg = NULL;
    if (color != MPI_UNDEFINED) {
        lg = color_group(all, c->size, color, c->group);
        rg = color_group(rall, c->remote_size, color, c->remote_group);
    }
    if (lg == NULL || rg == NULL || rg->size == 0) {
        ucmpi_group_release(lg);
        ucmpi_group_release(rg);
        ucmpi_ctx_release(ids[0]);
        ucmpi_ctx_release(ids[1]);
        rc = color == MPI_UNDEFINED || (rg && rg->size == 0)
                 ? MPI_SUCCESS : MPI_ERR_NO_MEM;
        goto out_free;
    }
    *out = build_inter(lg, rg, ids, c);
    rc = *out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
out_free:
    free(all);
    free(rall);
    return rc;
}

int ucmpi_comm_split_internal(ucmpi_comm_t *c, int color, int key,
                              ucmpi_comm_t **out)
{
    return c->is_inter ? split_inter(c, color, key, out)
                       : split_intra(c, color, key, out);
}

#pragma weak MPI_Comm_split = PMPI_Comm_split
int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    const char *fn = "MPI_Comm_split";
    int rc = ucmpi_check_comm_out(comm, fn, newcomm, "newcomm");
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_comm_live(comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (color < 0 && color != MPI_UNDEFINED)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn,
                              "color %d is negative (and not "
                              "MPI_UNDEFINED)", color);
    rc = ucmpi_comm_split_internal(comm, color, key, newcomm);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_comm(comm, rc, fn, "splitting failed");
    return MPI_SUCCESS;
}

/* ---- free ---- */
int ucmpi_comm_check_freeable(MPI_Comm *comm,
                              const char *verb)
{
    const char *fn = ucmpi_call_name();
    if (comm == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "comm is NULL");
    int rc = ucmpi_check_comm(*comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((*comm)->predefined)
        return ucmpi_err_comm(*comm, MPI_ERR_COMM, fn, "%s cannot be %s",
                              (*comm)->name, verb);
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_free = PMPI_Comm_free
int PMPI_Comm_free(MPI_Comm *comm)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Comm_free");
    int rc = ucmpi_comm_check_freeable(comm, "freed");
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_comm_t *c = *comm;
    /* Delete callbacks run now; a failing one keeps the communicator. */
    rc = ucmpi_attr_delete_all(UCMPI_ATTR_COMM, c, &c->attrs);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_comm(c, rc, fn, "an attribute delete callback "
                              "failed with %d", rc);
    *comm = MPI_COMM_NULL;
    ucmpi_comm_release(c);    /* destroyed when operations drain */
    return MPI_SUCCESS;
}
