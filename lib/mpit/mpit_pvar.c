/* Performance variables (MPI-4.1 15.3.7): sessions and handles over the
 * table of mpit_pvar_table.c.  A handle keeps, per element, what it has
 * accumulated and the raw value when it last started: counters and timers
 * read 0 at allocation and after a reset, and move only while started
 * (always, for continuous ones); levels and high-water marks read the raw
 * value.  Counters are plain increments, so no variable is atomic; the
 * per-peer, size, wait-time and collective ones count while MPI_T is
 * initialised (ucmpi_mpit_counting), the others from MPI_Init on. */
#include "mpit/mpit_pvar.h"
#include "comm/comm.h"
#include "p2p/p2p_stats.h"

#include <stdlib.h>
#include <string.h>

struct ucmpi_mpit_pvar_handle_s {
    struct ucmpi_mpit_pvar_handle_s *next;   /* in its session */
    const ucmpi_mpit_pvar_t *v;
    int n;
    int started;
    int *peers;                   /* bound: world rank of each element */
    uint64_t *base, *acc, *raw;   /* [n] each */
};

struct ucmpi_mpit_pvar_session_s {
    struct ucmpi_mpit_pvar_session_s *next;
    struct ucmpi_mpit_pvar_handle_s *handles;
};

static struct ucmpi_mpit_pvar_session_s *sessions;   /* every live session */

static int session_is_live(MPI_T_pvar_session s)
{
    for (struct ucmpi_mpit_pvar_session_s *p = sessions; p; p = p->next)
        if (p == s)
            return 1;
    return 0;
}

static void handle_free(struct ucmpi_mpit_pvar_handle_s *h)
{
    free(h->peers);
    free(h->base);
    free(h);
}

static void session_free(struct ucmpi_mpit_pvar_session_s *s)
{
    while (s->handles) {
        struct ucmpi_mpit_pvar_handle_s *h = s->handles;
        s->handles = h->next;
        handle_free(h);
    }
    free(s);
}

void ucmpi_mpit_pvar_cleanup(void)
{
    while (sessions) {
        struct ucmpi_mpit_pvar_session_s *s = sessions;
        sessions = s->next;
        session_free(s);
    }
}

static int is_timer(const ucmpi_mpit_pvar_t *v)
{
    return v->cls == MPI_T_PVAR_CLASS_TIMER;
}

/* Counters and timers accumulate per handle; the rest read raw values. */
static int accumulates(const ucmpi_mpit_pvar_t *v)
{
    return v->cls == MPI_T_PVAR_CLASS_COUNTER || is_timer(v);
}

static int active(const struct ucmpi_mpit_pvar_handle_s *h)
{
    return h->v->continuous || h->started;
}

#pragma weak MPI_T_pvar_get_num = PMPI_T_pvar_get_num
int PMPI_T_pvar_get_num(int *num_pvar)
{
    return ucmpi_mpit_count(num_pvar, ucmpi_mpit_pvar_count());
}

#pragma weak MPI_T_pvar_get_info = PMPI_T_pvar_get_info
int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len,
                         int *verbosity, int *var_class,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype,
                         char *desc, int *desc_len, int *bind, int *readonly,
                         int *continuous, int *atomic)
{
    int rc = ucmpi_mpit_enter();
    const ucmpi_mpit_pvar_t *v;

    if (rc)
        return rc;
    if ((v = ucmpi_mpit_pvar(pvar_index)) == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_INDEX);
    ucmpi_mpit_strcpy(name, name_len, v->name);
    ucmpi_mpit_strcpy(desc, desc_len, v->desc);
    if (verbosity)
        *verbosity = MPI_T_VERBOSITY_USER_BASIC;
    if (var_class)
        *var_class = v->cls;
    if (datatype)
        *datatype = is_timer(v) ? MPI_DOUBLE : MPI_UNSIGNED_LONG_LONG;
    if (enumtype)
        *enumtype = MPI_T_ENUM_NULL;
    if (bind)
        *bind = v->bind;
    if (readonly)
        *readonly = v->readonly;
    if (continuous)
        *continuous = v->continuous;
    if (atomic)
        *atomic = 0;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_pvar_get_index = PMPI_T_pvar_get_index
int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (name == NULL || pvar_index == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    for (int i = 0; i < ucmpi_mpit_pvar_count(); i++) {
        const ucmpi_mpit_pvar_t *v = ucmpi_mpit_pvar(i);
        if (strcmp(v->name, name) == 0 && v->cls == var_class) {
            *pvar_index = i;
            return ucmpi_mpit_leave(MPI_SUCCESS);
        }
    }
    return ucmpi_mpit_leave(MPI_T_ERR_INVALID_NAME);
}

#pragma weak MPI_T_pvar_session_create = PMPI_T_pvar_session_create
int PMPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
    int rc = ucmpi_mpit_enter();
    struct ucmpi_mpit_pvar_session_s *s;

    if (rc)
        return rc;
    if (session == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    s = calloc(1, sizeof(*s));
    if (s == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_MEMORY);
    s->next = sessions;
    sessions = s;
    *session = s;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_pvar_session_free = PMPI_T_pvar_session_free
int PMPI_T_pvar_session_free(MPI_T_pvar_session *session)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (session == NULL || !session_is_live(*session))
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_SESSION);
    for (struct ucmpi_mpit_pvar_session_s **p = &sessions; *p;
         p = &(*p)->next)
        if (*p == *session) {
            *p = (*session)->next;
            break;
        }
    session_free(*session);
    *session = MPI_T_PVAR_SESSION_NULL;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

/* The elements of v bound to *obj (an MPI_Comm): its peers' world ranks. */
static int bind_comm(const ucmpi_mpit_pvar_t *v, void *obj, int **peers,
                     int *n)
{
    MPI_Comm c;

    *peers = NULL;
    *n = v->n;
    if (v->bind == MPI_T_BIND_NO_OBJECT)
        return MPI_SUCCESS;
    if (obj == NULL || !ucmpi_comm_valid(c = *(MPI_Comm *)obj))
        return MPI_T_ERR_INVALID_HANDLE;
    *n = c->remote_size;
    if ((*peers = malloc(sizeof(int) * (size_t)(*n ? *n : 1))) == NULL)
        return MPI_T_ERR_MEMORY;
    for (int i = 0; i < *n; i++)
        (*peers)[i] = ucmpi_comm_peer_world(c, i);
    return MPI_SUCCESS;
}

static void sample(struct ucmpi_mpit_pvar_handle_s *h)
{
    ucmpi_mpit_pvar_raw(h->v, h->peers, h->n, h->raw);
}

#pragma weak MPI_T_pvar_handle_alloc = PMPI_T_pvar_handle_alloc
int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index,
                             void *obj_handle, MPI_T_pvar_handle *handle,
                             int *count)
{
    int rc = ucmpi_mpit_enter();
    const ucmpi_mpit_pvar_t *v;
    struct ucmpi_mpit_pvar_handle_s *h;

    if (rc)
        return rc;
    if (!session_is_live(session))
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_SESSION);
    if ((v = ucmpi_mpit_pvar(pvar_index)) == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_INDEX);
    if (handle == NULL || count == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    if ((h = calloc(1, sizeof(*h))) == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_MEMORY);
    h->v = v;
    if ((rc = bind_comm(v, obj_handle, &h->peers, &h->n)) != MPI_SUCCESS) {
        free(h);
        return ucmpi_mpit_leave(rc);
    }
    h->base = calloc(3 * (size_t)(h->n ? h->n : 1), sizeof(uint64_t));
    if (h->base == NULL) {
        handle_free(h);
        return ucmpi_mpit_leave(MPI_T_ERR_MEMORY);
    }
    h->acc = h->base + h->n;
    h->raw = h->acc + h->n;
    sample(h);
    memcpy(h->base, h->raw, sizeof(uint64_t) * (size_t)h->n);
    h->next = session->handles;
    session->handles = h;
    *handle = h;
    *count = h->n;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

static struct ucmpi_mpit_pvar_handle_s **find(MPI_T_pvar_session s,
                                              MPI_T_pvar_handle h)
{
    for (struct ucmpi_mpit_pvar_handle_s **p = &s->handles; *p;
         p = &(*p)->next)
        if (*p == h)
            return p;
    return NULL;
}

/* Session, then handle, checked in the standard's order; the lock is held
 * on MPI_SUCCESS.  all_ok: MPI_T_PVAR_ALL_HANDLES is accepted. */
static int enter_handle(MPI_T_pvar_session s, MPI_T_pvar_handle h,
                        int all_ok)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (!session_is_live(s))
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_SESSION);
    if (h == MPI_T_PVAR_ALL_HANDLES ? !all_ok : find(s, h) == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_HANDLE);
    return MPI_SUCCESS;
}

#pragma weak MPI_T_pvar_handle_free = PMPI_T_pvar_handle_free
int PMPI_T_pvar_handle_free(MPI_T_pvar_session session,
                            MPI_T_pvar_handle *handle)
{
    int rc = enter_handle(session, handle ? *handle : NULL, 0);
    struct ucmpi_mpit_pvar_handle_s **p;

    if (rc)
        return rc;
    p = find(session, *handle);
    *p = (*handle)->next;
    handle_free(*handle);
    *handle = MPI_T_PVAR_HANDLE_NULL;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

/* --- per-handle operations --- */

static void do_start(struct ucmpi_mpit_pvar_handle_s *h)
{
    if (h->started)
        return;
    sample(h);
    memcpy(h->base, h->raw, sizeof(uint64_t) * (size_t)h->n);
    h->started = 1;
}

static void do_stop(struct ucmpi_mpit_pvar_handle_s *h)
{
    if (!h->started)
        return;
    sample(h);
    for (int i = 0; i < h->n; i++)
        h->acc[i] += h->raw[i] - h->base[i];
    h->started = 0;
}

static void do_reset(struct ucmpi_mpit_pvar_handle_s *h)
{
    sample(h);
    memcpy(h->base, h->raw, sizeof(uint64_t) * (size_t)h->n);
    memset(h->acc, 0, sizeof(uint64_t) * (size_t)h->n);
}

static void do_read(struct ucmpi_mpit_pvar_handle_s *h, void *buf)
{
    double rate = is_timer(h->v) ? ucmpi_stats_tick_rate() : 1;

    sample(h);
    for (int i = 0; i < h->n; i++) {
        uint64_t x = h->raw[i];
        if (accumulates(h->v))
            x = h->acc[i] + (active(h) ? h->raw[i] - h->base[i] : 0);
        if (is_timer(h->v))
            ((double *)buf)[i] = (double)x / rate;
        else
            ((unsigned long long *)buf)[i] = x;
    }
}

static void do_write(struct ucmpi_mpit_pvar_handle_s *h, const void *buf)
{
    double rate = is_timer(h->v) ? ucmpi_stats_tick_rate() : 1;

    sample(h);
    memcpy(h->base, h->raw, sizeof(uint64_t) * (size_t)h->n);
    for (int i = 0; i < h->n; i++)
        h->acc[i] = is_timer(h->v)
                        ? (uint64_t)(((const double *)buf)[i] * rate)
                        : ((const unsigned long long *)buf)[i];
}

enum { OP_START, OP_STOP, OP_RESET };

/* Start, stop or reset one handle: the error it would give, or 0. */
static int check_op(const struct ucmpi_mpit_pvar_handle_s *h, int op)
{
    if (op == OP_RESET)
        return h->v->readonly ? MPI_T_ERR_PVAR_NO_WRITE : 0;
    return h->v->continuous ? MPI_T_ERR_PVAR_NO_STARTSTOP : 0;
}

static void apply(struct ucmpi_mpit_pvar_handle_s *h, int op)
{
    if (op == OP_START)
        do_start(h);
    else if (op == OP_STOP)
        do_stop(h);
    else
        do_reset(h);
}

/* MPI_T_PVAR_ALL_HANDLES: every handle of the session the call applies to
 * (the others are skipped, as the standard says). */
static int each(MPI_T_pvar_session s, MPI_T_pvar_handle h, int op)
{
    int rc = enter_handle(s, h, 1);

    if (rc)
        return rc;
    if (h == MPI_T_PVAR_ALL_HANDLES) {
        for (struct ucmpi_mpit_pvar_handle_s *p = s->handles; p; p = p->next)
            if (check_op(p, op) == 0)
                apply(p, op);
        return ucmpi_mpit_leave(MPI_SUCCESS);
    }
    if ((rc = check_op(h, op)) != 0)
        return ucmpi_mpit_leave(rc);
    apply(h, op);
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_pvar_start = PMPI_T_pvar_start
int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return each(session, handle, OP_START);
}

#pragma weak MPI_T_pvar_stop = PMPI_T_pvar_stop
int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return each(session, handle, OP_STOP);
}

#pragma weak MPI_T_pvar_reset = PMPI_T_pvar_reset
int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return each(session, handle, OP_RESET);
}

#pragma weak MPI_T_pvar_read = PMPI_T_pvar_read
int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                     void *buf)
{
    int rc = enter_handle(session, handle, 0);

    if (rc)
        return rc;
    if (buf == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    do_read(handle, buf);
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

/* Write and readreset: a live handle to a writable variable, a buffer. */
static int enter_writable(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                          const void *buf)
{
    int rc = enter_handle(session, handle, 0);

    if (rc)
        return rc;
    if (handle->v->readonly)
        return ucmpi_mpit_leave(MPI_T_ERR_PVAR_NO_WRITE);
    if (buf == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    return 0;
}

#pragma weak MPI_T_pvar_write = PMPI_T_pvar_write
int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                      const void *buf)
{
    int rc = enter_writable(session, handle, buf);

    if (rc)
        return rc;
    do_write(handle, buf);
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_pvar_readreset = PMPI_T_pvar_readreset
int PMPI_T_pvar_readreset(MPI_T_pvar_session session,
                          MPI_T_pvar_handle handle, void *buf)
{
    int rc = enter_writable(session, handle, buf);

    if (rc)
        return rc;
    do_read(handle, buf);
    do_reset(handle);
    return ucmpi_mpit_leave(MPI_SUCCESS);
}
