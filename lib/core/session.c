/* MPI Sessions: init/finalize, the psets mpi://WORLD and mpi://SELF, their
 * groups and info; the shared instance: docs/architecture.md "core: sessions" */
#include <stdio.h>
#include "core/call.h"
#include <stdlib.h>
#include <string.h>
#include "comm/group.h"
#include "core/errhandler.h"
#include "comm/comm_internal.h"
#include "p2p/bsend.h"

struct ucmpi_session_s {
    uint32_t magic;                    /* ucmpi_win_head_t layout: error */
    int refcount;                      /* reporting finds the handler */
    ucmpi_errhandler_t *errhandler;
    MPI_Info info;                     /* what MPI_Session_get_info gives */
    uint32_t id;                       /* groups and comms name it by this */
    ucmpi_bpool_t *bpool;              /* MPI_Session_attach_buffer */
    struct ucmpi_session_s *next;      /* open sessions */
};

static int open_sessions, exit_hook;
static MPI_Session sessions;           /* open ones, under the lock */
static uint32_t last_id;
static const char *const psets[] = {"mpi://WORLD", "mpi://SELF"};
const char *const ucmpi_thread_level_names[4] = {
    "MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
    "MPI_THREAD_MULTIPLE"};

int ucmpi_sessions_open(void)
{
    return open_sessions;
}

static int session_valid(MPI_Session s)
{
    return s != MPI_SESSION_NULL && s->magic == UCMPI_MAGIC_SESSION;
}

/* Session_init's errors go to its errhandler argument (MPI-4.1 11.3.1);
 * without a valid one there is no handler: say so and return. */
static int init_error(MPI_Errhandler eh, int code, const char *why)
{
    if (eh == MPI_ERRHANDLER_NULL || eh->magic != UCMPI_MAGIC_ERRHANDLER) {
        fprintf(stderr, "ucmpi: %s: %s\n", ucmpi_call_name(), why);
        return code;
    }
    return ucmpi_error(UCMPI_OBJ_ERRHANDLER, eh, code, ucmpi_call_name(),
                       "%s", why);
}

/* The "thread_level" the info asks for: MPI_THREAD_SINGLE when absent,
 * -1 when the value is not one of the four level names. */
static int requested_level(MPI_Info info)
{
    const char *v = info != MPI_INFO_NULL
                        ? ucmpi_info_lookup(info, "thread_level") : NULL;
    if (v == NULL)
        return MPI_THREAD_SINGLE;
    for (int l = MPI_THREAD_MULTIPLE; l >= MPI_THREAD_SINGLE; l--)
        if (strcmp(v, ucmpi_thread_level_names[l]) == 0)
            return l;
    return -1;
}

static MPI_Info session_info(void)
{
    MPI_Info info = ucmpi_info_new();
    if (info != MPI_INFO_NULL)
        PMPI_Info_set(info, "thread_level",
                      ucmpi_thread_level_names[ucmpi_global.thread_level]);
    return info;
}

/* Session-only processes take the instance down at exit, collectively (not
 * with sessions left open, an error, nor under an unfinished world model). */
static void down_at_exit(void)
{
    if (ucmpi_global.active && open_sessions == 0 &&
        !ucmpi_global.initialized)
        ucmpi_instance_down();
}

static int bring_up(MPI_Info info)
{
    if (ucmpi_global.active)
        return MPI_SUCCESS;
    if (ucmpi_global.finalized)   /* see the top of this file */
        return MPI_ERR_OTHER;
    ucmpi_instance_up(requested_level(info));
    if (!exit_hook)
        exit_hook = atexit(down_at_exit) == 0;
    return MPI_SUCCESS;
}

#pragma weak MPI_Session_init = PMPI_Session_init
int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler,
                      MPI_Session *session)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Session_init");
    if (errhandler == MPI_ERRHANDLER_NULL ||
        errhandler->magic != UCMPI_MAGIC_ERRHANDLER)
        return init_error(errhandler, MPI_ERR_ERRHANDLER,
                          "errhandler is null or freed");
    if (session == NULL)
        return init_error(errhandler, MPI_ERR_ARG, "session is NULL");
    if (info != MPI_INFO_NULL && !ucmpi_info_valid(info))
        return init_error(errhandler, MPI_ERR_INFO,
                          "info is not a valid info");
    if (requested_level(info) < 0)
        return init_error(errhandler, MPI_ERR_INFO_VALUE,
                          "info key thread_level is not an "
                          "MPI_THREAD_* level name");
    MPI_Session s = calloc(1, sizeof(*s));
    if (s == NULL)
        return init_error(errhandler, MPI_ERR_NO_MEM, "out of memory");
    ucmpi_lock();
    int rc = bring_up(info);
    open_sessions += rc == MPI_SUCCESS;
    ucmpi_unlock();
    if (rc != MPI_SUCCESS) {
        free(s);
        return init_error(errhandler, rc, "MPI cannot start again in "
                          "a process after MPI_Finalize");
    }
    s->magic = UCMPI_MAGIC_SESSION;
    s->refcount = 1;
    ucmpi_errhandler_retain(errhandler);
    s->errhandler = errhandler;
    s->info = session_info();
    ucmpi_lock();
    s->id = ++last_id;
    s->next = sessions;
    sessions = s;
    ucmpi_unlock();
    *session = s;
    return MPI_SUCCESS;
}

/* ---- the session's buffer for buffered sends (lib/bsend*.c) ---- */
ucmpi_bpool_t *ucmpi_session_bpool_of(MPI_Session s, int create)
{
    if (s->bpool == NULL && create)
        s->bpool = ucmpi_bpool_new();
    return s->bpool;
}

ucmpi_bpool_t *ucmpi_session_bpool(uint32_t id)
{
    ucmpi_bpool_t *pool = NULL;
    ucmpi_lock();
    for (MPI_Session s = sessions; s != NULL; s = s->next)
        if (s->id == id)
            pool = s->bpool;
    ucmpi_unlock();
    return pool;
}

static void unlink_session(MPI_Session s)
{
    ucmpi_lock();
    for (MPI_Session *p = &sessions; *p != NULL; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    ucmpi_unlock();
}

int ucmpi_check_session(MPI_Session s, const char *fn)
{
    int rc = ucmpi_check_initialized(fn);
    if (rc == MPI_SUCCESS && !session_valid(s))
        rc = ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_SESSION, fn,
                         "session is null or finalized");
    return rc;
}

#pragma weak MPI_Session_finalize = PMPI_Session_finalize
int PMPI_Session_finalize(MPI_Session *session)
{
    const char *fn = "MPI_Session_finalize";
    int rc = ucmpi_check_session(session ? *session : MPI_SESSION_NULL, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Session s = *session;
    ucmpi_bpool_free(s->bpool);   /* its buffered messages leave first */
    unlink_session(s);
    s->magic = UCMPI_MAGIC_FREED;
    ucmpi_errhandler_release(s->errhandler);
    ucmpi_info_destroy(s->info);
    free(s);
    *session = MPI_SESSION_NULL;
    ucmpi_lock();
    int last = --open_sessions == 0 && ucmpi_global.finalized;
    ucmpi_unlock();
    if (last)
        ucmpi_instance_down();
    return MPI_SUCCESS;
}

static int pset_index(const char *name)
{
    for (int i = 0; name != NULL && i < 2; i++)
        if (strcasecmp(name, psets[i]) == 0)   /* URIs: case-insensitive */
            return i;
    return -1;
}

#pragma weak MPI_Session_get_num_psets = PMPI_Session_get_num_psets
int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info,
                               int *npset_names)
{
    const char *fn = "MPI_Session_get_num_psets";
    int rc = ucmpi_check_session(session, fn);
    if (rc == MPI_SUCCESS && npset_names == NULL)
        rc = ucmpi_error(UCMPI_OBJ_SESSION, session, MPI_ERR_ARG, fn,
                         "npset_names is NULL");
    if (rc == MPI_SUCCESS)
        *npset_names = 2;
    return rc;
}

#pragma weak MPI_Session_get_nth_pset = PMPI_Session_get_nth_pset
int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n,
                              int *pset_len, char *pset_name)
{
    const char *fn = "MPI_Session_get_nth_pset";
    int rc = ucmpi_check_session(session, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (n < 0 || n >= 2 || pset_len == NULL || *pset_len < 0)
        return ucmpi_error(UCMPI_OBJ_SESSION, session, MPI_ERR_ARG, fn,
                           "n %d is not in [0, 2) or pset_len is invalid", n);
    int need = (int)strlen(psets[n]) + 1;
    if (*pset_len == 0) {         /* the standard's length query */
        *pset_len = need;
        return MPI_SUCCESS;
    }
    if (pset_name == NULL)
        return ucmpi_error(UCMPI_OBJ_SESSION, session, MPI_ERR_ARG, fn,
                           "pset_name is NULL");
    snprintf(pset_name, (size_t)*pset_len, "%s", psets[n]);
    *pset_len = need;
    return MPI_SUCCESS;
}

#pragma weak MPI_Session_get_info = PMPI_Session_get_info
int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    const char *fn = "MPI_Session_get_info";
    int rc = ucmpi_check_session(session, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (info_used == NULL)
        return ucmpi_error(UCMPI_OBJ_SESSION, session, MPI_ERR_ARG, fn,
                           "info_used is NULL");
    *info_used = ucmpi_info_filter(session->info, NULL);
    if (*info_used == MPI_INFO_NULL)
        return ucmpi_error(UCMPI_OBJ_SESSION, session, MPI_ERR_NO_MEM, fn,
                           "out of memory");
    return MPI_SUCCESS;
}

static int check_pset(MPI_Session session, const char *name, void *out, int *index)
{
    const char *fn = ucmpi_call_name();
    int rc = ucmpi_check_session(session, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (out == NULL)
        return ucmpi_error(UCMPI_OBJ_SESSION, session, MPI_ERR_ARG, fn,
                           "output argument is NULL");
    *index = pset_index(name);
    if (*index < 0)
        return ucmpi_error(UCMPI_OBJ_SESSION, session, MPI_ERR_ARG, fn,
                           "no process set named '%s' (there are "
                           "mpi://WORLD and mpi://SELF)", name ? name : "");
    return MPI_SUCCESS;
}

#pragma weak MPI_Session_get_pset_info = PMPI_Session_get_pset_info
int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name,
                               MPI_Info *info)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Session_get_pset_info");
    int i, rc = check_pset(session, pset_name, info, &i);
    if (rc != MPI_SUCCESS)
        return rc;
    char size[16];
    snprintf(size, sizeof(size), "%d", i == 0 ? ucmpi_global.world_size : 1);
    *info = ucmpi_info_new();
    if (*info == MPI_INFO_NULL)
        return ucmpi_error(UCMPI_OBJ_SESSION, session, MPI_ERR_NO_MEM, fn,
                           "out of memory");
    PMPI_Info_set(*info, "mpi_size", size);
    return MPI_SUCCESS;
}

#pragma weak MPI_Group_from_session_pset = PMPI_Group_from_session_pset
int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name,
                                 MPI_Group *newgroup)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Group_from_session_pset");
    int i, rc = check_pset(session, pset_name, newgroup, &i);
    if (rc != MPI_SUCCESS)
        return rc;
    /* a group of its own: it carries the session (see ucmpi_group_t) */
    ucmpi_group_t *g = i == 0
        ? ucmpi_group_create_range(0, ucmpi_global.world_size, 1)
        : ucmpi_group_create_range(ucmpi_global.world_rank, 1, 1);
    if (g == NULL)
        return ucmpi_error(UCMPI_OBJ_SESSION, session, MPI_ERR_NO_MEM, fn,
                           "out of memory");
    g->session_id = session->id;
    *newgroup = g;
    return MPI_SUCCESS;
}
