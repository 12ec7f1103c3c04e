/* MPI_T events (MPI-4.1 15.3.8): an unexpected message matched, a
 * collective's algorithm chosen, a peer found failed.  Each is raised inside
 * an MPI call or its progress, a context that requires
 * MPI_T_CB_REQUIRE_MPI_RESTRICTED (THREAD_SAFE under MPI_THREAD_MULTIPLE):
 * the callback of the least demanding level at or above it runs there and
 * then; without one the event is dropped and the dropped handler told at
 * once.  The lower layers raise events through hooks set only while a
 * registration listens (p2p_stats.h, coll_stats.h, UCMPI_HOOK_PEER_FAILED). */
#include "mpit/mpit.h"
#include "p2p/p2p_stats.h"
#include "coll/coll_stats.h"
#include "comm/comm.h"
#include "core/hooks.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define NLEVELS 4                 /* MPI_T_cb_safety values */
#define MAX_ELEMS 3

enum { EV_UNEXPECTED, EV_COLL_ALG, EV_PEER_FAILED, NEVENTS };

static const struct {
    const char *name, *desc;
    int n;                        /* elements, each an int or a count */
    int is_count[MAX_ELEMS];      /* MPI_COUNT, else MPI_INT */
} events[NEVENTS] = {
    {"ucmpi_unexpected_msg",
     "a receive matched a message that had already arrived: source (world "
     "rank), tag, bytes", 3, {0, 0, 1}},
    {"ucmpi_coll_algorithm",
     "a collective's message schedule starts: collective id (as in "
     "ucmpi_coll_calls), algorithm id (as in ucmpi_coll_alg_<name>), "
     "communicator size", 3, {0, 0, 0}},
    {"ucmpi_peer_failed", "a process was found failed: its world rank", 1,
     {0}},
};

struct ucmpi_mpit_event_reg_s {
    struct ucmpi_mpit_event_reg_s *next;
    int event;
    MPI_T_event_cb_function *cb[NLEVELS];
    void *user_data[NLEVELS];
    MPI_T_event_dropped_cb_function *dropped;
};

#define INSTANCE_MAGIC 0x65766e74u
struct ucmpi_mpit_event_inst_s {
    unsigned magic;
    int event;
    MPI_Count timestamp;
    union {
        int i;
        MPI_Count c;
    } v[MAX_ELEMS];
};

static struct ucmpi_mpit_event_reg_s *regs;   /* every live registration */
static int listening[NEVENTS];
static uint8_t *failed_told;                  /* world rank: raised once */
static int failed_told_n;

static MPI_Datatype elem_type(int e, int k)
{
    return events[e].is_count[k] ? MPI_COUNT : MPI_INT;
}

static MPI_Aint elem_disp(int k)
{
    return (MPI_Aint)(k * (int)sizeof(MPI_Count));
}

/* --- raising --- */

static MPI_T_cb_safety context_level(void)
{
    return ucmpi_global.thread_level == MPI_THREAD_MULTIPLE
               ? MPI_T_CB_REQUIRE_THREAD_SAFE
               : MPI_T_CB_REQUIRE_MPI_RESTRICTED;
}

static void deliver(struct ucmpi_mpit_event_inst_s *in)
{
    MPI_T_cb_safety need = context_level();

    /* a failure may be learnt on the runtime's thread (PMIx events) */
    if (in->event == EV_PEER_FAILED && need < MPI_T_CB_REQUIRE_THREAD_SAFE)
        need = MPI_T_CB_REQUIRE_THREAD_SAFE;

    /* the lock is recursive: callbacks may call MPI_T (not free reg) */
    if (ucmpi_mpit_enter() != MPI_SUCCESS)
        return;
    for (struct ucmpi_mpit_event_reg_s *r = regs; r; r = r->next) {
        if (r->event != in->event)
            continue;
        int lv = need;
        while (lv < NLEVELS && r->cb[lv] == NULL)
            lv++;
        if (lv < NLEVELS)
            r->cb[lv](in, r, need, r->user_data[lv]);
        else if (r->dropped != NULL)
            r->dropped(1, r, 0, need, NULL);
    }
    ucmpi_mpit_leave(MPI_SUCCESS);
}

static void raise_event(int e, const MPI_Count *vals)
{
    struct ucmpi_mpit_event_inst_s in = {INSTANCE_MAGIC, e,
                                         (MPI_Count)ucmpi_stats_ticks(), {{0}}};

    for (int k = 0; k < events[e].n; k++) {
        if (events[e].is_count[k])
            in.v[k].c = vals[k];
        else
            in.v[k].i = (int)vals[k];
    }
    deliver(&in);
    in.magic = 0;                 /* the instance ends with the callbacks */
}

static void on_unexpected(struct ucmpi_comm_s *c, int src, int tag,
                          size_t len)
{
    MPI_Count v[3] = {src >= 0 ? ucmpi_comm_peer_world(c, src) : src, tag,
                      (MPI_Count)len};
    raise_event(EV_UNEXPECTED, v);
}

static void on_alg(struct ucmpi_comm_s *c, unsigned coll, int alg,
                   const char *name)
{
    MPI_Count v[3] = {(MPI_Count)coll, alg, c->size};
    (void)name;
    raise_event(EV_COLL_ALG, v);
}

/* UCMPI_HOOK_PEER_FAILED: once per rank (failure.c declares each once). */
static void on_peer_failed(void *arg)
{
    int r = *(int *)arg;
    MPI_Count v[1] = {r};

    if (!listening[EV_PEER_FAILED] || r < 0 || r >= failed_told_n ||
        failed_told[r])
        return;
    failed_told[r] = 1;
    raise_event(EV_PEER_FAILED, v);
}

__attribute__((constructor)) static void event_hooks(void)
{
    ucmpi_hook_add(UCMPI_HOOK_PEER_FAILED, 0, on_peer_failed);
}

/* Sets or clears the lower layers' hooks after registrations changed. */
static void listen(int e, int delta)
{
    listening[e] += delta;
    if (e == EV_UNEXPECTED) {
        ucmpi_p2p_stats.on_unexpected = listening[e] ? on_unexpected : NULL;
        ucmpi_mpit_counting(delta);   /* the detection counts */
    } else if (e == EV_COLL_ALG) {
        ucmpi_coll_stats.on_alg = listening[e] ? on_alg : NULL;
        ucmpi_mpit_counting(delta);
    } else if (listening[e] && failed_told == NULL &&
               ucmpi_global.world_size > 0) {
        failed_told = calloc((size_t)ucmpi_global.world_size, 1);
        failed_told_n = failed_told ? ucmpi_global.world_size : 0;
    }
}

void ucmpi_mpit_event_cleanup(void)
{
    while (regs) {
        struct ucmpi_mpit_event_reg_s *r = regs;
        regs = r->next;
        listen(r->event, -1);
        free(r);
    }
    free(failed_told);
    failed_told = NULL;
    failed_told_n = 0;
}

/* --- sources: the tick counter --- */

#pragma weak MPI_T_source_get_num = PMPI_T_source_get_num
int PMPI_T_source_get_num(int *num_sources)
{
    return ucmpi_mpit_count(num_sources, 1);
}

#pragma weak MPI_T_source_get_info = PMPI_T_source_get_info
int PMPI_T_source_get_info(int source_index, char *name, int *name_len,
                           char *desc, int *desc_len,
                           MPI_T_source_order *ordering,
                           MPI_Count *ticks_per_second, MPI_Count *max_ticks,
                           MPI_Info *info)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (source_index != 0)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_INDEX);
    ucmpi_mpit_strcpy(name, name_len, "ucmpi_clock");
    ucmpi_mpit_strcpy(desc, desc_len, "this process's monotonic tick "
                      "counter (the TSC on x86-64); every event comes from "
                      "here, in order");
    if (ordering)
        *ordering = MPI_T_SOURCE_ORDERED;
    if (ticks_per_second)
        *ticks_per_second = (MPI_Count)ucmpi_stats_tick_rate();
    if (max_ticks)
        *max_ticks = LLONG_MAX;
    if (info && PMPI_Info_create(info) != MPI_SUCCESS)
        *info = MPI_INFO_NULL;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_source_get_timestamp = PMPI_T_source_get_timestamp
int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (source_index != 0)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_INDEX);
    if (timestamp == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    *timestamp = (MPI_Count)ucmpi_stats_ticks();
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

/* --- event types --- */

#pragma weak MPI_T_event_get_num = PMPI_T_event_get_num
int PMPI_T_event_get_num(int *num_events)
{
    return ucmpi_mpit_count(num_events, NEVENTS);
}

#pragma weak MPI_T_event_get_info = PMPI_T_event_get_info
int PMPI_T_event_get_info(int event_index, char *name, int *name_len,
                          int *verbosity, MPI_Datatype array_of_datatypes[],
                          MPI_Aint array_of_displacements[],
                          int *num_elements, MPI_T_enum *enumtype,
                          MPI_Info *info, char *desc, int *desc_len,
                          int *bind)
{
    int rc = ucmpi_mpit_enter(), e = event_index;

    if (rc)
        return rc;
    if (e < 0 || e >= NEVENTS)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_INDEX);
    ucmpi_mpit_strcpy(name, name_len, events[e].name);
    ucmpi_mpit_strcpy(desc, desc_len, events[e].desc);
    if (verbosity)
        *verbosity = MPI_T_VERBOSITY_USER_BASIC;
    if (num_elements) {
        /* in: the arrays' length; out: the elements */
        for (int k = 0; k < events[e].n && k < *num_elements; k++) {
            if (array_of_datatypes)
                array_of_datatypes[k] = elem_type(e, k);
            if (array_of_displacements)
                array_of_displacements[k] = elem_disp(k);
        }
        *num_elements = events[e].n;
    }
    if (enumtype)
        *enumtype = MPI_T_ENUM_NULL;
    if (info && PMPI_Info_create(info) != MPI_SUCCESS)
        *info = MPI_INFO_NULL;
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_event_get_index = PMPI_T_event_get_index
int PMPI_T_event_get_index(const char *name, int *event_index)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (name == NULL || event_index == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    for (int e = 0; e < NEVENTS; e++)
        if (strcmp(events[e].name, name) == 0) {
            *event_index = e;
            return ucmpi_mpit_leave(MPI_SUCCESS);
        }
    return ucmpi_mpit_leave(MPI_T_ERR_INVALID_NAME);
}

/* --- registrations --- */

static int reg_is_live(MPI_T_event_registration r)
{
    for (struct ucmpi_mpit_event_reg_s *p = regs; p; p = p->next)
        if (p == r)
            return 1;
    return 0;
}

/* The lock and a live registration; else the error (lock released). */
static int enter_reg(MPI_T_event_registration r)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    return reg_is_live(r) ? MPI_SUCCESS
                          : ucmpi_mpit_leave(MPI_T_ERR_INVALID_HANDLE);
}

#pragma weak MPI_T_event_handle_alloc = PMPI_T_event_handle_alloc
int PMPI_T_event_handle_alloc(int event_index, void *obj_handle,
                              MPI_Info info,
                              MPI_T_event_registration *event_registration)
{
    int rc = ucmpi_mpit_enter();
    struct ucmpi_mpit_event_reg_s *r;

    (void)obj_handle;             /* no event is bound to an object */
    (void)info;                   /* no hints */
    if (rc)
        return rc;
    if (event_index < 0 || event_index >= NEVENTS)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_INDEX);
    if (event_registration == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    if ((r = calloc(1, sizeof(*r))) == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_MEMORY);
    r->event = event_index;
    r->next = regs;
    regs = r;
    listen(event_index, 1);
    *event_registration = r;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

/* No hints are known: setting any is accepted, none is reported. */
static int empty_info(MPI_Info *info_used)
{
    if (info_used == NULL)
        return MPI_T_ERR_INVALID;
    if (PMPI_Info_create(info_used) != MPI_SUCCESS)
        return MPI_T_ERR_MEMORY;
    return MPI_SUCCESS;
}

#pragma weak MPI_T_event_handle_set_info = PMPI_T_event_handle_set_info
int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration,
                                 MPI_Info info)
{
    int rc = enter_reg(event_registration);

    (void)info;
    return rc ? rc : ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_event_handle_get_info = PMPI_T_event_handle_get_info
int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration,
                                 MPI_Info *info_used)
{
    int rc = enter_reg(event_registration);

    return rc ? rc : ucmpi_mpit_leave(empty_info(info_used));
}

static int valid_level(MPI_T_cb_safety s)
{
    return s >= MPI_T_CB_REQUIRE_NONE && s <= MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE;
}

#pragma weak MPI_T_event_register_callback = PMPI_T_event_register_callback
int PMPI_T_event_register_callback(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info,
                                   void *user_data,
                                   MPI_T_event_cb_function *event_cb_function)
{
    int rc = enter_reg(event_registration);

    (void)info;
    if (rc)
        return rc;
    if (!valid_level(cb_safety))
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    /* a NULL function removes the level's callback */
    event_registration->cb[cb_safety] = event_cb_function;
    event_registration->user_data[cb_safety] = user_data;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_event_callback_set_info = PMPI_T_event_callback_set_info
int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info)
{
    int rc = enter_reg(event_registration);

    (void)info;
    if (rc)
        return rc;
    return ucmpi_mpit_leave(valid_level(cb_safety) ? MPI_SUCCESS
                                                   : MPI_T_ERR_INVALID);
}

#pragma weak MPI_T_event_callback_get_info = PMPI_T_event_callback_get_info
int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety,
                                   MPI_Info *info_used)
{
    int rc = enter_reg(event_registration);

    if (rc)
        return rc;
    if (!valid_level(cb_safety))
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    return ucmpi_mpit_leave(empty_info(info_used));
}

/* Unlinks at once: no callback of it runs after this returns (events are
 * delivered under the same lock); free_cb then runs here. */
#pragma weak MPI_T_event_handle_free = PMPI_T_event_handle_free
int PMPI_T_event_handle_free(MPI_T_event_registration event_registration,
                             void *user_data,
                             MPI_T_event_free_cb_function *free_cb_function)
{
    int rc = enter_reg(event_registration);

    if (rc)
        return rc;
    for (struct ucmpi_mpit_event_reg_s **p = &regs; *p; p = &(*p)->next)
        if (*p == event_registration) {
            *p = event_registration->next;
            break;
        }
    listen(event_registration->event, -1);
    if (free_cb_function != NULL)
        free_cb_function(event_registration, MPI_T_CB_REQUIRE_NONE,
                         user_data);
    free(event_registration);
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_event_set_dropped_handler = PMPI_T_event_set_dropped_handler
int PMPI_T_event_set_dropped_handler(
    MPI_T_event_registration event_registration,
    MPI_T_event_dropped_cb_function *dropped_cb_function)
{
    int rc = enter_reg(event_registration);

    if (rc)
        return rc;
    event_registration->dropped = dropped_cb_function;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

/* --- instances: valid inside their callback --- */

static int live_instance(MPI_T_event_instance in)
{
    return in != NULL && in->magic == INSTANCE_MAGIC;
}

static size_t elem_size(int e, int k)
{
    return events[e].is_count[k] ? sizeof(MPI_Count) : sizeof(int);
}

#pragma weak MPI_T_event_read = PMPI_T_event_read
int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index,
                      void *buffer)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (!live_instance(event_instance))
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_HANDLE);
    int e = event_instance->event;
    if (element_index < 0 || element_index >= events[e].n)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_INDEX);
    if (buffer == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    memcpy(buffer, &event_instance->v[element_index], elem_size(e, element_index));
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

/* The elements at the displacements MPI_T_event_get_info gives. */
#pragma weak MPI_T_event_copy = PMPI_T_event_copy
int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (!live_instance(event_instance))
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_HANDLE);
    if (buffer == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    int e = event_instance->event;
    for (int k = 0; k < events[e].n; k++)
        memcpy((char *)buffer + elem_disp(k), &event_instance->v[k],
               elem_size(e, k));
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_event_get_timestamp = PMPI_T_event_get_timestamp
int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance,
                               MPI_Count *event_timestamp)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (!live_instance(event_instance))
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_HANDLE);
    if (event_timestamp == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    *event_timestamp = event_instance->timestamp;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_event_get_source = PMPI_T_event_get_source
int PMPI_T_event_get_source(MPI_T_event_instance event_instance,
                            int *source_index)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (!live_instance(event_instance))
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_HANDLE);
    if (source_index == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    *source_index = 0;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}
