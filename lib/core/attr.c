/* Attribute caching on communicators, datatypes and windows.  An object's list
 * is newest first, so delete callbacks run newest to oldest, as MPI asks. */
#include "p2p/pt2pt.h"
#include "datatype/datatype.h"
#include "core/attr.h"
#include "core/call.h"
#include "comm/comm_internal.h"
#include "core/hooks.h"

#include <stdlib.h>
#include <string.h>

typedef void (*generic_fn_t)(void);

typedef struct ucmpi_keyval {
    int id;
    int kind;                 /* UCMPI_ATTR_* */
    int refcount;             /* user handle + attributes using it */
    int freed;                /* user freed the keyval */
    generic_fn_t copy_fn;     /* typed per kind; NULL = no copy */
    generic_fn_t delete_fn;   /* typed per kind; NULL = nothing */
    void *extra_state;
} keyval_t;

typedef struct attr {
    struct attr *next;
    keyval_t *kv;
    void *val;
    int fortran;   /* val is an integer set from Fortran: C reads its address */
} attr_t;

/* User keyvals get ids from UCMPI_KEYVAL_BASE on; ids are not reused, so a
 * stale keyval is always detected. */
#define UCMPI_KEYVAL_BASE 64
static keyval_t **keyvals;
static int nkeyvals, keyvals_cap;

static const char *kind_name[] = {"communicator", "datatype", "window"};

/* ---- Predefined callbacks (the MPI_*_FN macros of mpi.h) ---- */
int ucmpi_comm_null_copy_fn(MPI_Comm c, int k, void *x, void *in, void *out,
                            int *flag)
{
    *flag = 0;
    return MPI_SUCCESS;
}

int ucmpi_comm_dup_fn(MPI_Comm c, int k, void *x, void *in, void *out,
                      int *flag)
{
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int ucmpi_comm_null_delete_fn(MPI_Comm c, int k, void *v, void *x)
{
    return MPI_SUCCESS;
}

/* The handle argument is unused, so the type and window kinds share them. */
#pragma weak ucmpi_type_null_copy_fn = ucmpi_comm_null_copy_fn
#pragma weak ucmpi_type_dup_fn = ucmpi_comm_dup_fn
#pragma weak ucmpi_type_null_delete_fn = ucmpi_comm_null_delete_fn
#pragma weak ucmpi_win_null_copy_fn = ucmpi_comm_null_copy_fn
#pragma weak ucmpi_win_dup_fn = ucmpi_comm_dup_fn
#pragma weak ucmpi_win_null_delete_fn = ucmpi_comm_null_delete_fn

/* ---- Keyvals ---- */
static keyval_t *keyval_lookup(int id)
{
    if (id < UCMPI_KEYVAL_BASE || id >= UCMPI_KEYVAL_BASE + nkeyvals)
        return NULL;
    return keyvals[id - UCMPI_KEYVAL_BASE];
}

static void keyval_release(keyval_t *kv)
{
    if (--kv->refcount > 0)
        return;
    keyvals[kv->id - UCMPI_KEYVAL_BASE] = NULL;
    free(kv);
}

static int keyval_create(int kind, generic_fn_t copy, generic_fn_t del,
                         void *extra, int *id)
{
    keyval_t *kv = calloc(1, sizeof(*kv));
    if (kv == NULL)
        return MPI_ERR_NO_MEM;
    ucmpi_lock();
    if (nkeyvals == keyvals_cap) {
        int cap = keyvals_cap ? 2 * keyvals_cap : 64;
        keyval_t **t = realloc(keyvals, cap * sizeof(*t));
        if (t == NULL) {
            ucmpi_unlock();
            free(kv);
            return MPI_ERR_NO_MEM;
        }
        keyvals = t;
        keyvals_cap = cap;
    }
    kv->id = UCMPI_KEYVAL_BASE + nkeyvals;
    keyvals[nkeyvals++] = kv;
    ucmpi_unlock();
    kv->kind = kind;
    kv->refcount = 1;
    kv->copy_fn = copy;
    kv->delete_fn = del;
    kv->extra_state = extra;
    *id = kv->id;
    return MPI_SUCCESS;
}

/* The predefined attribute keyvals MPI_TAG_UB .. MPI_WIN_MODEL. */
static int keyval_is_predefined(int id)
{
    return id >= MPI_TAG_UB && id <= MPI_WIN_MODEL;
}

static int predefined_kind(int id)
{
    return id >= MPI_WIN_BASE ? UCMPI_ATTR_WIN : UCMPI_ATTR_COMM;
}

/* ---- Callbacks ---- */
static int call_copy(int kind, keyval_t *kv, void *old, void *in, void *out,
                     int *flag)
{
    *flag = 0;
    if (kv->copy_fn == NULL)
        return MPI_SUCCESS;
    switch (kind) {
    case UCMPI_ATTR_COMM:
        return ((MPI_Comm_copy_attr_function *)kv->copy_fn)(
            old, kv->id, kv->extra_state, in, out, flag);
    case UCMPI_ATTR_TYPE:
        return ((MPI_Type_copy_attr_function *)kv->copy_fn)(
            old, kv->id, kv->extra_state, in, out, flag);
    default:
        return ((MPI_Win_copy_attr_function *)kv->copy_fn)(
            old, kv->id, kv->extra_state, in, out, flag);
    }
}

static int call_delete(int kind, keyval_t *kv, void *obj, void *val)
{
    if (kv->delete_fn == NULL)
        return MPI_SUCCESS;
    switch (kind) {
    case UCMPI_ATTR_COMM:
        return ((MPI_Comm_delete_attr_function *)kv->delete_fn)(
            obj, kv->id, val, kv->extra_state);
    case UCMPI_ATTR_TYPE:
        return ((MPI_Type_delete_attr_function *)kv->delete_fn)(
            obj, kv->id, val, kv->extra_state);
    default:
        return ((MPI_Win_delete_attr_function *)kv->delete_fn)(
            obj, kv->id, val, kv->extra_state);
    }
}

/* ---- Lists (the interface of lib/core/attr.h) ---- */
static attr_t **list_find(void **attrs, keyval_t *kv)
{
    attr_t **pp = (attr_t **)attrs;
    while (*pp != NULL && (*pp)->kv != kv)
        pp = &(*pp)->next;
    return pp;
}

int ucmpi_attr_delete_all(int kind, void *handle, void **attrs)
{
    /* Unlink before calling, so the callback sees a consistent list; a
     * failing callback leaves that attribute and the rest in place. */
    while (*attrs != NULL) {
        attr_t *a = *attrs;
        *attrs = a->next;
        int rc = call_delete(kind, a->kv, handle, a->val);
        if (rc != MPI_SUCCESS) {
            a->next = *attrs;
            *attrs = a;
            return rc;
        }
        keyval_release(a->kv);
        free(a);
    }
    return MPI_SUCCESS;
}

int ucmpi_attr_copy_all(int kind, void *old_handle, void *new_handle,
                        void **old_attrs, void **new_attrs)
{
    attr_t **tail = (attr_t **)new_attrs;
    int rc = MPI_SUCCESS;

    *new_attrs = NULL;
    for (attr_t *a = *old_attrs; a != NULL; a = a->next) {
        void *out = NULL;
        int flag = 0;
        rc = call_copy(kind, a->kv, old_handle, a->val, &out, &flag);
        if (rc != MPI_SUCCESS)
            break;
        if (!flag)
            continue;
        attr_t *n = malloc(sizeof(*n));
        if (n == NULL) {
            rc = MPI_ERR_NO_MEM;
            break;
        }
        n->next = NULL;
        n->kv = a->kv;
        n->val = out;
        n->fortran = a->fortran;
        a->kv->refcount++;
        *tail = n;
        tail = &n->next;
    }
    if (rc != MPI_SUCCESS)
        ucmpi_attr_delete_all(kind, new_handle, new_attrs);
    return rc;
}

/* ---- Generic set/get/delete on an attribute list ---- */
typedef struct {
    int kind;
    void *handle;             /* MPI_Comm / MPI_Datatype / MPI_Win */
    void **attrs;             /* the object's list head */
    int obj_kind;             /* UCMPI_OBJ_* for error reporting */
    void *err_obj;
} attr_obj_t;

static int attr_error(const attr_obj_t *o, int code,
                      const char *why, int keyval)
{
    const char *fn = ucmpi_call_name();
    return ucmpi_error(o->obj_kind, o->err_obj, code, fn, why, keyval);
}

static int check_keyval(const attr_obj_t *o, int id,
                        int allow_predefined, keyval_t **out)
{
    const char *fn = ucmpi_call_name();
    *out = NULL;
    if (keyval_is_predefined(id)) {
        if (allow_predefined && predefined_kind(id) == o->kind)
            return MPI_SUCCESS;
        return attr_error(o, MPI_ERR_KEYVAL,
                          "keyval %d is predefined (read-only or of "
                          "another object kind)", id);
    }
    /* A freed keyval still works on the attributes that use it (and is
     * gone, hence invalid, once the last of them is deleted). */
    keyval_t *kv = keyval_lookup(id);
    if (kv == NULL)
        return attr_error(o, MPI_ERR_KEYVAL,
                          "invalid or freed keyval %d", id);
    if (kv->kind != o->kind)
        return ucmpi_error(o->obj_kind, o->err_obj, MPI_ERR_KEYVAL, fn,
                           "keyval %d was created for a %s", id,
                           kind_name[kv->kind]);
    *out = kv;
    return MPI_SUCCESS;
}

static int attr_set(const attr_obj_t *o, int id, void *val, int fortran)
{
    keyval_t *kv;
    int rc = check_keyval(o, id, 0, &kv);
    if (rc != MPI_SUCCESS)
        return rc;
    attr_t **pp = list_find(o->attrs, kv);
    if (*pp != NULL) {
        /* Replacing: the old value's delete callback runs first. */
        rc = call_delete(o->kind, kv, o->handle, (*pp)->val);
        if (rc != MPI_SUCCESS)
            return attr_error(o, rc,
                              "delete callback of keyval %d failed", id);
        pp = list_find(o->attrs, kv);   /* callback may edit the list */
        if (*pp != NULL) {
            (*pp)->val = val;
            (*pp)->fortran = fortran;
            return MPI_SUCCESS;
        }
    }
    attr_t *a = malloc(sizeof(*a));
    if (a == NULL)
        return attr_error(o, MPI_ERR_NO_MEM, "keyval %d: out of memory",
                          id);
    a->kv = kv;
    a->val = val;
    a->fortran = fortran;
    a->next = *o->attrs;
    *o->attrs = a;
    kv->refcount++;
    return MPI_SUCCESS;
}

static int attr_delete(const attr_obj_t *o, int id)
{
    keyval_t *kv;
    int rc = check_keyval(o, id, 0, &kv);
    if (rc != MPI_SUCCESS)
        return rc;
    attr_t **pp = list_find(o->attrs, kv);
    if (*pp == NULL)
        return attr_error(o, MPI_ERR_KEYVAL,
                          "no attribute is set for keyval %d", id);
    attr_t *a = *pp;
    *pp = a->next;
    rc = call_delete(o->kind, kv, o->handle, a->val);
    if (rc != MPI_SUCCESS) {
        a->next = *o->attrs;
        *o->attrs = a;
        return attr_error(o, rc, "delete callback of keyval %d failed",
                          id);
    }
    keyval_release(kv);
    free(a);
    return MPI_SUCCESS;
}

/* Values of the predefined attributes; the caller gets their address. */
static int pre_tag_ub = UCMPI_TAG_MAX, pre_host = MPI_PROC_NULL,
           pre_io = MPI_ANY_SOURCE, pre_wtime_global = 0, pre_universe,
           pre_appnum, pre_lastusedcode;

extern int ucmpi_last_used_code;   /* lib/core/error.c */

/* Windows belong to lib/rma, which tells where a window's attribute list
 * lives and answers its predefined attributes (ucmpi_attr_win_ops). */
static const ucmpi_attr_win_ops_t *win_ops;

void ucmpi_attr_win_ops(const ucmpi_attr_win_ops_t *ops)
{
    win_ops = ops;
}

static void get_predefined(const attr_obj_t *o, int id, void *val, int *flag)
{
    void **out = val;
    *flag = 0;
    if (o->kind == UCMPI_ATTR_WIN) {
        if (win_ops != NULL)
            win_ops->predefined(o->handle, id, val, flag);
        return;
    }
    if (o->handle != MPI_COMM_WORLD)
        return;
    *flag = 1;
    switch (id) {
    case MPI_TAG_UB: *out = &pre_tag_ub; break;
    case MPI_HOST: *out = &pre_host; break;
    case MPI_IO: *out = &pre_io; break;
    case MPI_WTIME_IS_GLOBAL: *out = &pre_wtime_global; break;
    case MPI_UNIVERSE_SIZE:
        pre_universe = ucmpi_global.universe_size > 0
                           ? ucmpi_global.universe_size
                           : ucmpi_global.world_size;
        *out = &pre_universe;
        break;
    case MPI_APPNUM:
        pre_appnum = ucmpi_global.appnum;
        *flag = pre_appnum >= 0;
        *out = &pre_appnum;
        break;
    case MPI_LASTUSEDCODE:
        pre_lastusedcode = ucmpi_last_used_code;
        *out = &pre_lastusedcode;
        break;
    default:
        *flag = 0;
    }
}

static int attr_get(const attr_obj_t *o, int id, void *val, int *flag,
                    int fortran)
{
    const char *fn = ucmpi_call_name();
    keyval_t *kv;
    if (val == NULL || flag == NULL)
        return ucmpi_error(o->obj_kind, o->err_obj, MPI_ERR_ARG, fn,
                           "attribute_val or flag is NULL");
    int rc = check_keyval(o, id, 1, &kv);
    if (rc != MPI_SUCCESS)
        return rc;
    if (kv == NULL) {
        get_predefined(o, id, val, flag);
        return MPI_SUCCESS;
    }
    attr_t *a = *list_find(o->attrs, kv);
    *flag = a != NULL;
    if (a != NULL)   /* MPI-4.1 19.3.7: C reads a Fortran integer by address */
        *(void **)val = a->fortran && !fortran ? (void *)&a->val : a->val;
    return MPI_SUCCESS;
}

/* ---- Object lookup per kind ---- */
static int comm_obj(MPI_Comm comm, attr_obj_t *o)
{
    int rc = ucmpi_check_comm(comm, ucmpi_call_name());
    if (rc != MPI_SUCCESS)
        return rc;
    *o = (attr_obj_t){UCMPI_ATTR_COMM, comm, &comm->attrs, UCMPI_OBJ_COMM,
                      comm};
    return MPI_SUCCESS;
}

static int type_obj(MPI_Datatype dt, attr_obj_t *o)
{
    const char *fn = ucmpi_call_name();
    const char *why;
    int rc = ucmpi_dt_check(dt, 0, &why);
    if (rc != MPI_SUCCESS)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, rc, fn, "datatype: %s",
                           why);
    *o = (attr_obj_t){UCMPI_ATTR_TYPE, dt, &dt->attrs, UCMPI_OBJ_NONE, NULL};
    return MPI_SUCCESS;
}

static int win_obj(MPI_Win win, attr_obj_t *o)
{
    void **attrs = (win_ops != NULL && win != MPI_WIN_NULL)
                       ? win_ops->attrs(win) : NULL;
    if (attrs == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_WIN,
                           ucmpi_call_name(), "invalid window");
    *o = (attr_obj_t){UCMPI_ATTR_WIN, win, attrs, UCMPI_OBJ_WIN, win};
    return MPI_SUCCESS;
}

/* Every attribute entry point: find the object, then set, get or delete.
 * The _F forms are the Fortran bindings' (values are integers). */
enum { ATTR_SET, ATTR_GET, ATTR_DELETE, ATTR_SET_F, ATTR_GET_F };

static inline __attribute__((always_inline)) int
attr_call(const char *name, int kind, void *handle, int op, int keyval,
          void *val, int *flag)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    attr_obj_t o;
    int rc = ucmpi_check_initialized(fn);
    if (rc == MPI_SUCCESS)
        rc = kind == UCMPI_ATTR_COMM   ? comm_obj(handle, &o)
             : kind == UCMPI_ATTR_TYPE ? type_obj(handle, &o)
                                       : win_obj(handle, &o);
    if (rc != MPI_SUCCESS)
        return rc;
    if (op == ATTR_SET || op == ATTR_SET_F)
        return attr_set(&o, keyval, val, op == ATTR_SET_F);
    if (op == ATTR_GET || op == ATTR_GET_F)
        return attr_get(&o, keyval, val, flag, op == ATTR_GET_F);
    return attr_delete(&o, keyval);
}

__attribute__((visibility("default"))) int
ucmpi_attr_fortran(const char *name, int kind, void *handle, int keyval,
                   MPI_Aint *val, int *flag)
{
    if (flag == NULL)
        return attr_call(name, kind, handle, ATTR_SET_F, keyval,
                         (void *)(intptr_t)*val, NULL);
    void *v = NULL;
    int rc = attr_call(name, kind, handle, ATTR_GET_F, keyval, &v, flag);
    if (rc == MPI_SUCCESS && *flag)
        *val = (MPI_Aint)(intptr_t)v;
    return rc;
}

/* ---- Keyval entry points ---- */
static int create_keyval(const char *name, int kind, generic_fn_t copy,
                         generic_fn_t del, int *keyval, void *extra)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (keyval == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "keyval output argument is NULL");
    rc = keyval_create(kind, copy, del, extra, keyval);
    if (rc != MPI_SUCCESS)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, rc, fn, "out of memory");
    return MPI_SUCCESS;
}

static int free_keyval(const char *name, int kind, int *keyval)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (keyval == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "keyval argument is NULL");
    keyval_t *kv = keyval_lookup(*keyval);
    if (kv == NULL || kv->kind != kind)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_KEYVAL, fn,
                           "invalid, freed or predefined %s keyval %d",
                           kind_name[kind], *keyval);
    /* The user's reference goes once; freeing again while attributes
     * still hold the keyval is tolerated (as MPICH does). */
    if (!kv->freed) {
        kv->freed = 1;
        keyval_release(kv);   /* stays alive while attributes use it */
    }
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_create_keyval = PMPI_Comm_create_keyval
int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy_fn,
                            MPI_Comm_delete_attr_function *delete_fn,
                            int *keyval, void *extra_state)
{
    return create_keyval("MPI_Comm_create_keyval", UCMPI_ATTR_COMM,
                         (generic_fn_t)copy_fn, (generic_fn_t)delete_fn,
                         keyval, extra_state);
}

#pragma weak MPI_Keyval_create = PMPI_Keyval_create
int PMPI_Keyval_create(MPI_Copy_function *copy_fn,
                       MPI_Delete_function *delete_fn, int *keyval,
                       void *extra_state)
{
    return create_keyval("MPI_Keyval_create", UCMPI_ATTR_COMM,
                         (generic_fn_t)copy_fn, (generic_fn_t)delete_fn,
                         keyval, extra_state);
}

#pragma weak MPI_Type_create_keyval = PMPI_Type_create_keyval
int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *copy_fn,
                            MPI_Type_delete_attr_function *delete_fn,
                            int *keyval, void *extra_state)
{
    return create_keyval("MPI_Type_create_keyval", UCMPI_ATTR_TYPE,
                         (generic_fn_t)copy_fn, (generic_fn_t)delete_fn,
                         keyval, extra_state);
}

#pragma weak MPI_Win_create_keyval = PMPI_Win_create_keyval
int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *copy_fn,
                           MPI_Win_delete_attr_function *delete_fn,
                           int *keyval, void *extra_state)
{
    return create_keyval("MPI_Win_create_keyval", UCMPI_ATTR_WIN,
                         (generic_fn_t)copy_fn, (generic_fn_t)delete_fn,
                         keyval, extra_state);
}

#pragma weak MPI_Comm_free_keyval = PMPI_Comm_free_keyval
int PMPI_Comm_free_keyval(int *keyval)
{
    return free_keyval("MPI_Comm_free_keyval", UCMPI_ATTR_COMM, keyval);
}

#pragma weak MPI_Keyval_free = PMPI_Keyval_free
int PMPI_Keyval_free(int *keyval)
{
    return free_keyval("MPI_Keyval_free", UCMPI_ATTR_COMM, keyval);
}

#pragma weak MPI_Type_free_keyval = PMPI_Type_free_keyval
int PMPI_Type_free_keyval(int *keyval)
{
    return free_keyval("MPI_Type_free_keyval", UCMPI_ATTR_TYPE, keyval);
}

#pragma weak MPI_Win_free_keyval = PMPI_Win_free_keyval
int PMPI_Win_free_keyval(int *keyval)
{
    return free_keyval("MPI_Win_free_keyval", UCMPI_ATTR_WIN, keyval);
}

/* ---- Attribute entry points ---- */
#pragma weak MPI_Comm_set_attr = PMPI_Comm_set_attr
int PMPI_Comm_set_attr(MPI_Comm comm, int keyval, void *val)
{
    return attr_call("MPI_Comm_set_attr", UCMPI_ATTR_COMM, comm, ATTR_SET,
                     keyval, val, NULL);
}

#pragma weak MPI_Attr_put = PMPI_Attr_put
int PMPI_Attr_put(MPI_Comm comm, int keyval, void *val)
{
    return attr_call("MPI_Attr_put", UCMPI_ATTR_COMM, comm, ATTR_SET, keyval,
                     val, NULL);
}

#pragma weak MPI_Comm_get_attr = PMPI_Comm_get_attr
int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void *val, int *flag)
{
    return attr_call("MPI_Comm_get_attr", UCMPI_ATTR_COMM, comm, ATTR_GET,
                     keyval, val, flag);
}

#pragma weak MPI_Attr_get = PMPI_Attr_get
int PMPI_Attr_get(MPI_Comm comm, int keyval, void *val, int *flag)
{
    return attr_call("MPI_Attr_get", UCMPI_ATTR_COMM, comm, ATTR_GET, keyval,
                     val, flag);
}

#pragma weak MPI_Comm_delete_attr = PMPI_Comm_delete_attr
int PMPI_Comm_delete_attr(MPI_Comm comm, int keyval)
{
    return attr_call("MPI_Comm_delete_attr", UCMPI_ATTR_COMM, comm,
                     ATTR_DELETE, keyval, NULL, NULL);
}

#pragma weak MPI_Attr_delete = PMPI_Attr_delete
int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
    return attr_call("MPI_Attr_delete", UCMPI_ATTR_COMM, comm, ATTR_DELETE,
                     keyval, NULL, NULL);
}

#pragma weak MPI_Type_set_attr = PMPI_Type_set_attr
int PMPI_Type_set_attr(MPI_Datatype dt, int keyval, void *val)
{
    return attr_call("MPI_Type_set_attr", UCMPI_ATTR_TYPE, dt, ATTR_SET,
                     keyval, val, NULL);
}

#pragma weak MPI_Type_get_attr = PMPI_Type_get_attr
int PMPI_Type_get_attr(MPI_Datatype dt, int keyval, void *val, int *flag)
{
    return attr_call("MPI_Type_get_attr", UCMPI_ATTR_TYPE, dt, ATTR_GET,
                     keyval, val, flag);
}

#pragma weak MPI_Type_delete_attr = PMPI_Type_delete_attr
int PMPI_Type_delete_attr(MPI_Datatype dt, int keyval)
{
    return attr_call("MPI_Type_delete_attr", UCMPI_ATTR_TYPE, dt, ATTR_DELETE,
                     keyval, NULL, NULL);
}

#pragma weak MPI_Win_set_attr = PMPI_Win_set_attr
int PMPI_Win_set_attr(MPI_Win win, int keyval, void *val)
{
    return attr_call("MPI_Win_set_attr", UCMPI_ATTR_WIN, win, ATTR_SET, keyval,
                     val, NULL);
}

#pragma weak MPI_Win_get_attr = PMPI_Win_get_attr
int PMPI_Win_get_attr(MPI_Win win, int keyval, void *val, int *flag)
{
    return attr_call("MPI_Win_get_attr", UCMPI_ATTR_WIN, win, ATTR_GET, keyval,
                     val, flag);
}

#pragma weak MPI_Win_delete_attr = PMPI_Win_delete_attr
int PMPI_Win_delete_attr(MPI_Win win, int keyval)
{
    return attr_call("MPI_Win_delete_attr", UCMPI_ATTR_WIN, win, ATTR_DELETE,
                     keyval, NULL, NULL);
}

/* MPI_Finalize before anything is torn down: MPI_COMM_SELF's attributes
 * go first (newest first), then MPI_COMM_WORLD's. */
static void finalize_comm_attrs(void *unused)
{
    ucmpi_attr_delete_all(UCMPI_ATTR_COMM, MPI_COMM_SELF,
                          &MPI_COMM_SELF->attrs);
    ucmpi_attr_delete_all(UCMPI_ATTR_COMM, MPI_COMM_WORLD,
                          &MPI_COMM_WORLD->attrs);
}

__attribute__((constructor)) static void attr_hooks(void)
{
    ucmpi_hook_add(UCMPI_HOOK_FINALIZE_FIRST, UCMPI_HOOK_ORDER_ATTR,
                   finalize_comm_attrs);
}

/* Releases the keyval table at exit (objects may keep attributes until
 * the very end of MPI_Finalize). */
__attribute__((destructor)) static void attr_finalize(void)
{
    for (int i = 0; i < nkeyvals; i++)
        free(keyvals[i]);
    free(keyvals);
    keyvals = NULL;
    nkeyvals = keyvals_cap = 0;
}
