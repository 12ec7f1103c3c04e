/* MPI_T init, strings, enums and categories: cvars are the tunables table,
 * performance variables the counters (mpit_pvar_table.c), in three
 * categories by area. */
#include "mpit/mpit.h"
#include "mpit/mpit_pvar.h"
#include "core/config_table.h"
#include "p2p/p2p_stats.h"
#include "coll/coll_stats.h"

#include <pthread.h>
#include <string.h>

static pthread_mutex_t mpit_mutex;
static pthread_once_t mpit_once = PTHREAD_ONCE_INIT;

/* Recursive: event callbacks run under the lock and may call MPI_T. */
static void mutex_init(void)
{
    pthread_mutexattr_t a;

    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&mpit_mutex, &a);
    pthread_mutexattr_destroy(&a);
}
static int mpit_refs;   /* MPI_T_init_thread calls not yet finalized */
static int counting_users;   /* MPI_T, and the profile (mpit_profile.c) */

void ucmpi_mpit_counting(int on)
{
    counting_users += on ? 1 : -1;
    ucmpi_p2p_stats.on = counting_users > 0;
    ucmpi_coll_stats.on = counting_users > 0;
}

int ucmpi_mpit_enter(void)
{
    pthread_once(&mpit_once, mutex_init);
    pthread_mutex_lock(&mpit_mutex);
    if (mpit_refs == 0) {
        pthread_mutex_unlock(&mpit_mutex);
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    return MPI_SUCCESS;
}

int ucmpi_mpit_leave(int rc)
{
    pthread_mutex_unlock(&mpit_mutex);
    return rc;
}

int ucmpi_mpit_empty(int err)
{
    int rc = ucmpi_mpit_enter();

    return rc ? rc : ucmpi_mpit_leave(err);
}

int ucmpi_mpit_count(int *out, int value)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (out == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    *out = value;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

void ucmpi_mpit_strcpy(char *dst, int *len, const char *src)
{
    size_t need = strlen(src) + 1;

    if (len == NULL)
        return;
    if (dst == NULL || *len <= 0) {
        *len = (int)need;
        return;
    }
    size_t n = need <= (size_t)*len ? need - 1 : (size_t)*len - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
    *len = (int)n + 1;
}

#pragma weak MPI_T_init_thread = PMPI_T_init_thread
int PMPI_T_init_thread(int required, int *provided)
{
    if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE ||
        provided == NULL)
        return MPI_T_ERR_INVALID;
    pthread_once(&mpit_once, mutex_init);
    pthread_mutex_lock(&mpit_mutex);
    if (mpit_refs++ == 0)
        ucmpi_mpit_counting(1);
    ucmpi_mpit_pvar_table_init();
    pthread_mutex_unlock(&mpit_mutex);
    *provided = required;   /* every MPI_T call is serialised by one lock */
    return MPI_SUCCESS;
}

#pragma weak MPI_T_finalize = PMPI_T_finalize
int PMPI_T_finalize(void)
{
    int rc = ucmpi_mpit_enter();

    if (rc != MPI_SUCCESS)
        return rc;
    if (--mpit_refs == 0) {
        ucmpi_mpit_event_cleanup();
        ucmpi_mpit_counting(0);
        ucmpi_mpit_cvar_cleanup();
        ucmpi_mpit_pvar_cleanup();
    }
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

/* No variable uses an enumeration, so no MPI_T_enum handle is valid. */
UCMPI_MPIT_STUB(T_enum_get_info, MPI_T_ERR_INVALID_HANDLE, MPI_T_enum enumtype,
                int *num, char *name, int *name_len)

UCMPI_MPIT_STUB(T_enum_get_item, MPI_T_ERR_INVALID_HANDLE, MPI_T_enum enumtype,
                int indx, int *value, char *name, int *name_len)

/* ---- categories ---- */

static const struct {
    const char *name, *desc;
} categories[] = {
    {"ucmpi_p2p", "Point-to-point messaging and the progress engine"},
    {"ucmpi_coll", "Collective operations: algorithm choice and tuning"},
    {"ucmpi_rma", "One-sided communication"},
};
#define N_CATEGORIES ((int)(sizeof(categories) / sizeof(categories[0])))

/* Category (index into the category table) of tunable entry i. */
static int cvar_category(int i)
{
    const char *n = ucmpi_config_table[i].name;

    if (strncmp(n, "RMA_", 4) == 0)
        return 2;
    if (strstr(n, "_ALGORITHM") || strncmp(n, "COLL_", 5) == 0 ||
        strncmp(n, "ALLTOALL_", 9) == 0 || strncmp(n, "ALLREDUCE_", 10) == 0)
        return 1;
    return 0;
}

static int pvars_in(int cat, int len, int *indices)
{
    int n = 0;

    for (int i = 0; i < ucmpi_mpit_pvar_count(); i++) {
        if (ucmpi_mpit_pvar(i)->cat != cat)
            continue;
        if (n < len)
            indices[n] = i;
        n++;
    }
    return n;
}

static int cvars_in(int cat, int len, int *indices)
{
    int n = 0;

    for (int i = 0; i < ucmpi_config_count(); i++) {
        if (cvar_category(i) != cat)
            continue;
        if (n < len)
            indices[n] = i;
        n++;
    }
    return n;
}

#pragma weak MPI_T_category_get_num = PMPI_T_category_get_num
int PMPI_T_category_get_num(int *num_cat)
{
    return ucmpi_mpit_count(num_cat, N_CATEGORIES);
}

#pragma weak MPI_T_category_get_info = PMPI_T_category_get_info
int PMPI_T_category_get_info(int cat_index, char *name, int *name_len,
                             char *desc, int *desc_len, int *num_cvars,
                             int *num_pvars, int *num_categories)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (cat_index < 0 || cat_index >= N_CATEGORIES)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_INDEX);
    ucmpi_mpit_strcpy(name, name_len, categories[cat_index].name);
    ucmpi_mpit_strcpy(desc, desc_len, categories[cat_index].desc);
    if (num_cvars)
        *num_cvars = cvars_in(cat_index, 0, NULL);
    if (num_pvars)
        *num_pvars = pvars_in(cat_index, 0, NULL);
    if (num_categories)
        *num_categories = 0;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_category_get_num_events = PMPI_T_category_get_num_events
int PMPI_T_category_get_num_events(int cat_index, int *num_events)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (cat_index < 0 || cat_index >= N_CATEGORIES)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_INDEX);
    if (num_events == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    *num_events = 0;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_category_get_index = PMPI_T_category_get_index
int PMPI_T_category_get_index(const char *name, int *cat_index)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (name == NULL || cat_index == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    for (int i = 0; i < N_CATEGORIES; i++)
        if (strcmp(categories[i].name, name) == 0) {
            *cat_index = i;
            return ucmpi_mpit_leave(MPI_SUCCESS);
        }
    return ucmpi_mpit_leave(MPI_T_ERR_INVALID_NAME);
}

/* The member lists: cvars and pvars by area; no subcategories. */
enum { MEMBER_CVARS, MEMBER_PVARS, MEMBER_NONE };
static int category_members(int cat_index, int len, int indices[],
                            int what)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (cat_index < 0 || cat_index >= N_CATEGORIES)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID_INDEX);
    if (len < 0 || (len > 0 && indices == NULL))
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    if (what == MEMBER_CVARS)
        cvars_in(cat_index, len, indices);
    else if (what == MEMBER_PVARS)
        pvars_in(cat_index, len, indices);
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_category_get_cvars = PMPI_T_category_get_cvars
int PMPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
    return category_members(cat_index, len, indices, MEMBER_CVARS);
}

#pragma weak MPI_T_category_get_pvars = PMPI_T_category_get_pvars
int PMPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
    return category_members(cat_index, len, indices, MEMBER_PVARS);
}

/* No category holds events or subcategories: one body for both. */
#pragma weak MPI_T_category_get_events = PMPI_T_category_get_categories
#pragma weak PMPI_T_category_get_events = PMPI_T_category_get_categories
#pragma weak MPI_T_category_get_categories = PMPI_T_category_get_categories
int PMPI_T_category_get_categories(int cat_index, int len, int indices[])
{
    return category_members(cat_index, len, indices, MEMBER_NONE);
}

/* Categories never change while the library runs. */
#pragma weak MPI_T_category_changed = PMPI_T_category_changed
int PMPI_T_category_changed(int *update_number)
{
    return ucmpi_mpit_count(update_number, 0);
}
