/* Fortran handles index per-kind tables (0 = null); a hash keyed by address
 * makes c2f O(1) and stable, and the tables grow with distinct addresses only. */
#include "p2p/request.h"
#include "datatype/datatype.h"
#include "coll/op.h"
#include "core/call.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    void **to_c;              /* index - 1 -> handle */
    int n, cap;
    struct { void *h; int idx; } *map;   /* open addressing, power of 2 */
    int map_cap;
} ftable_t;

static ftable_t requests, messages;

static size_t slot_of(const void *h, int cap)
{
    uintptr_t x = (uintptr_t)h;
    x ^= x >> 17;
    x *= UINT64_C(0x9e3779b97f4a7c15);
    return (size_t)(x >> 20) & (size_t)(cap - 1);
}

static int map_find(const ftable_t *t, const void *h)
{
    if (t->map_cap == 0)
        return 0;
    for (size_t i = slot_of(h, t->map_cap);; i = (i + 1) & (t->map_cap - 1)) {
        if (t->map[i].h == h)
            return t->map[i].idx;
        if (t->map[i].h == NULL)
            return 0;
    }
}

static void map_put(ftable_t *t, void *h, int idx)
{
    size_t i = slot_of(h, t->map_cap);
    while (t->map[i].h != NULL)
        i = (i + 1) & (t->map_cap - 1);
    t->map[i].h = h;
    t->map[i].idx = idx;
}

/* Index of handle h, added on first use; 0 when out of memory. */
static int table_index(ftable_t *t, void *h)
{
    int idx = map_find(t, h);
    if (idx != 0)
        return idx;
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 64;
        void **a = realloc(t->to_c, sizeof(*a) * (size_t)cap);
        if (a == NULL)
            return 0;
        t->to_c = a;
        t->cap = cap;
    }
    if (2 * (t->n + 1) > t->map_cap) {      /* keep the map half empty */
        ftable_t old = *t;
        t->map_cap = old.map_cap ? 2 * old.map_cap : 128;
        t->map = calloc((size_t)t->map_cap, sizeof(*t->map));
        if (t->map == NULL) {
            *t = old;
            return 0;
        }
        for (int i = 0; i < old.map_cap; i++)
            if (old.map[i].h != NULL)
                map_put(t, old.map[i].h, old.map[i].idx);
        free(old.map);
    }
    t->to_c[t->n++] = h;
    map_put(t, h, t->n);
    return t->n;
}

static void *table_handle(const ftable_t *t, MPI_Fint f)
{
    return f >= 1 && f <= t->n ? t->to_c[f - 1] : NULL;
}

static MPI_Fint to_f(ftable_t *t, void *h)
{
    if (h == NULL)
        return 0;
    ucmpi_lock();
    int idx = table_index(t, h);
    ucmpi_unlock();
    return idx;
}

static void *to_c(ftable_t *t, MPI_Fint f)
{
    ucmpi_lock();
    void *h = table_handle(t, f);
    ucmpi_unlock();
    return h;
}

#pragma weak MPI_Request_c2f = PMPI_Request_c2f
MPI_Fint PMPI_Request_c2f(MPI_Request request)
{
    return to_f(&requests, request);
}

#pragma weak MPI_Request_f2c = PMPI_Request_f2c
MPI_Request PMPI_Request_f2c(MPI_Fint request)
{
    return to_c(&requests, request);
}

#pragma weak MPI_Message_c2f = PMPI_Message_c2f
MPI_Fint PMPI_Message_c2f(MPI_Message message)
{
    return to_f(&messages, message);
}

#pragma weak MPI_Message_f2c = PMPI_Message_f2c
MPI_Message PMPI_Message_f2c(MPI_Fint message)
{
    return to_c(&messages, message);
}

static ftable_t comms, types, groups, ops, wins, infos, errhandlers, sessions;
static ftable_t files;   /* io area */

#pragma weak MPI_Comm_c2f = PMPI_Comm_c2f
MPI_Fint PMPI_Comm_c2f(MPI_Comm comm)
{
    return to_f(&comms, comm);
}

#pragma weak MPI_Comm_f2c = PMPI_Comm_f2c
MPI_Comm PMPI_Comm_f2c(MPI_Fint comm)
{
    return to_c(&comms, comm);
}

#pragma weak MPI_Type_c2f = PMPI_Type_c2f
MPI_Fint PMPI_Type_c2f(MPI_Datatype datatype)
{
    return to_f(&types, datatype);
}

#pragma weak MPI_Type_f2c = PMPI_Type_f2c
MPI_Datatype PMPI_Type_f2c(MPI_Fint datatype)
{
    return to_c(&types, datatype);
}

#pragma weak MPI_Group_c2f = PMPI_Group_c2f
MPI_Fint PMPI_Group_c2f(MPI_Group group)
{
    return to_f(&groups, group);
}

#pragma weak MPI_Group_f2c = PMPI_Group_f2c
MPI_Group PMPI_Group_f2c(MPI_Fint group)
{
    return to_c(&groups, group);
}

#pragma weak MPI_Op_c2f = PMPI_Op_c2f
MPI_Fint PMPI_Op_c2f(MPI_Op op)
{
    return to_f(&ops, op);
}

#pragma weak MPI_Op_f2c = PMPI_Op_f2c
MPI_Op PMPI_Op_f2c(MPI_Fint op)
{
    return to_c(&ops, op);
}

#pragma weak MPI_Win_c2f = PMPI_Win_c2f
MPI_Fint PMPI_Win_c2f(MPI_Win win)
{
    return to_f(&wins, win);
}

#pragma weak MPI_Win_f2c = PMPI_Win_f2c
MPI_Win PMPI_Win_f2c(MPI_Fint win)
{
    return to_c(&wins, win);
}

#pragma weak MPI_Info_c2f = PMPI_Info_c2f
MPI_Fint PMPI_Info_c2f(MPI_Info info)
{
    return to_f(&infos, info);
}

#pragma weak MPI_Info_f2c = PMPI_Info_f2c
MPI_Info PMPI_Info_f2c(MPI_Fint info)
{
    return to_c(&infos, info);
}

#pragma weak MPI_Errhandler_c2f = PMPI_Errhandler_c2f
MPI_Fint PMPI_Errhandler_c2f(MPI_Errhandler errhandler)
{
    return to_f(&errhandlers, errhandler);
}

#pragma weak MPI_Errhandler_f2c = PMPI_Errhandler_f2c
MPI_Errhandler PMPI_Errhandler_f2c(MPI_Fint errhandler)
{
    return to_c(&errhandlers, errhandler);
}

#pragma weak MPI_Session_c2f = PMPI_Session_c2f
MPI_Fint PMPI_Session_c2f(MPI_Session session)
{
    return to_f(&sessions, session);
}

#pragma weak MPI_Session_f2c = PMPI_Session_f2c
MPI_Session PMPI_Session_f2c(MPI_Fint session)
{
    return to_c(&sessions, session);
}

/* A Fortran status is the C status as MPI_F_STATUS_SIZE integers, with
 * SOURCE, TAG and ERROR first (MPI_F_SOURCE, MPI_F_TAG, MPI_F_ERROR). */
_Static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint),
               "MPI_F_STATUS_SIZE must cover MPI_Status");
_Static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status),
               "MPI_F08_status must mirror MPI_Status");

/* All three layouts are the same bytes (asserted above): one copy. */
static int status_copy(const char *name, void *to, const void *from)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    if (from == NULL || to == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, ucmpi_call_name(),
                           "a status argument is NULL");
    memcpy(to, from, sizeof(MPI_Status));
    return MPI_SUCCESS;
}

#pragma weak MPI_Status_c2f = PMPI_Status_c2f
int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
    return status_copy("MPI_Status_c2f", f_status, c_status);
}

#pragma weak MPI_Status_f2c = PMPI_Status_f2c
int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
    return status_copy("MPI_Status_f2c", c_status, f_status);
}

#pragma weak MPI_Status_c2f08 = PMPI_Status_c2f08
int PMPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status)
{
    return status_copy("MPI_Status_c2f08", f08_status, c_status);
}

#pragma weak MPI_Status_f082c = PMPI_Status_f082c
int PMPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status)
{
    return status_copy("MPI_Status_f082c", c_status, f08_status);
}

#pragma weak MPI_Status_f2f08 = PMPI_Status_f2f08
int PMPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status)
{
    return status_copy("MPI_Status_f2f08", f08_status, f_status);
}

#pragma weak MPI_Status_f082f = PMPI_Status_f082f
int PMPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status)
{
    return status_copy("MPI_Status_f082f", f_status, f08_status);
}

/* ---- io area: file handles ---- */
#pragma weak MPI_File_c2f = PMPI_File_c2f
MPI_Fint PMPI_File_c2f(MPI_File file)
{
    return to_f(&files, file);
}

#pragma weak MPI_File_f2c = PMPI_File_f2c
MPI_File PMPI_File_f2c(MPI_Fint file)
{
    return to_c(&files, file);
}
