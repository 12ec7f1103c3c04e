/* Info objects: ordered (key, value) string pairs, MPI_INFO_ENV and the info
 * of communicators; usable before MPI_Init and after MPI_Finalize (MPI-4). */
#include "core/errhandler.h"
#include "core/call.h"
#include "comm/comm_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    char *key, *val;
} info_pair_t;

struct ucmpi_info_s {
    uint32_t magic;
    int predefined;
    int n, cap;               /* pairs in insertion order */
    info_pair_t *pairs;
};

UCMPI_PREDEFINED(struct ucmpi_info_s, ucmpi_info_env, UCMPI_PAD_INFO) = {
    .obj = {.magic = UCMPI_MAGIC_INFO, .predefined = 1}};
static int env_filled;

bool ucmpi_info_valid(MPI_Info info)
{
    return info != MPI_INFO_NULL && info->magic == UCMPI_MAGIC_INFO;
}

static int info_err(int code, const char *why)
{
    const char *fn = ucmpi_call_name();
    return ucmpi_error(UCMPI_OBJ_NONE, NULL, code, fn, "%s", why);
}

static void env_fill(void);

/* Checks an info handle (filling MPI_INFO_ENV on first use). */
static int check_info(MPI_Info info)
{
    const char *fn = ucmpi_call_name();
    if (!ucmpi_info_valid(info))
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_INFO, fn,
                           "info argument is null or freed");
    if (info == MPI_INFO_ENV && !env_filled)
        env_fill();
    return MPI_SUCCESS;
}

static int check_key(const char *key)
{
    const char *fn = ucmpi_call_name();
    if (key == NULL)
        return info_err(MPI_ERR_INFO_KEY, "key is NULL");
    size_t len = strlen(key);
    if (len == 0 || len >= MPI_MAX_INFO_KEY)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_INFO_KEY, fn,
                           "key of length %zu (must be 1..%d)", len,
                           MPI_MAX_INFO_KEY - 1);
    return MPI_SUCCESS;
}

/* info and key valid; for a change (set, delete), info not MPI_INFO_ENV. */
static int check_info_key(MPI_Info info, const char *key, int change)
{
    int rc = check_info(info);
    if (rc == MPI_SUCCESS)
        rc = check_key(key);
    if (rc == MPI_SUCCESS && change && info->predefined)
        rc = info_err(MPI_ERR_INFO, "MPI_INFO_ENV is read-only");
    return rc;
}

static info_pair_t *find(MPI_Info info, const char *key)
{
    for (int i = 0; i < info->n; i++)
        if (strcmp(info->pairs[i].key, key) == 0)
            return &info->pairs[i];
    return NULL;
}

/* Sets key to val; MPI_SUCCESS or MPI_ERR_NO_MEM (info unchanged). */
static int info_put(MPI_Info info, const char *key, const char *val)
{
    info_pair_t *p = find(info, key);
    char *v = strdup(val);
    if (v == NULL)
        return MPI_ERR_NO_MEM;
    if (p != NULL) {
        free(p->val);
        p->val = v;
        return MPI_SUCCESS;
    }
    if (info->n == info->cap) {
        int cap = info->cap ? 2 * info->cap : 8;
        info_pair_t *t = realloc(info->pairs, cap * sizeof(*t));
        if (t == NULL) {
            free(v);
            return MPI_ERR_NO_MEM;
        }
        info->pairs = t;
        info->cap = cap;
    }
    char *k = strdup(key);
    if (k == NULL) {
        free(v);
        return MPI_ERR_NO_MEM;
    }
    info->pairs[info->n++] = (info_pair_t){k, v};
    return MPI_SUCCESS;
}

static void info_clear(MPI_Info info)
{
    for (int i = 0; i < info->n; i++) {
        free(info->pairs[i].key);
        free(info->pairs[i].val);
    }
    free(info->pairs);
    info->pairs = NULL;
    info->n = info->cap = 0;
}

MPI_Info ucmpi_info_new(void)
{
    MPI_Info info = calloc(1, sizeof(*info));
    if (info != NULL)
        info->magic = UCMPI_MAGIC_INFO;
    return info;
}

void ucmpi_info_destroy(MPI_Info info)
{
    if (info == MPI_INFO_NULL || info->predefined)
        return;
    info_clear(info);
    info->magic = UCMPI_MAGIC_FREED;
    free(info);
}

/* Copy of src holding only the keys keep() accepts (all when NULL). */
MPI_Info ucmpi_info_filter(MPI_Info src, bool (*keep)(const char *key))
{
    MPI_Info dst = ucmpi_info_new();
    if (dst == NULL)
        return NULL;
    for (int i = 0; src != MPI_INFO_NULL && i < src->n; i++) {
        if (keep != NULL && !keep(src->pairs[i].key))
            continue;
        if (info_put(dst, src->pairs[i].key, src->pairs[i].val) != 0) {
            ucmpi_info_destroy(dst);
            return NULL;
        }
    }
    return dst;
}

const char *ucmpi_info_lookup(MPI_Info info, const char *key)
{
    if (!ucmpi_info_valid(info))
        return NULL;
    if (info == MPI_INFO_ENV && !env_filled)
        env_fill();
    info_pair_t *p = find(info, key);
    return p ? p->val : NULL;
}

/* ---- MPI_INFO_ENV ---- */
/* The command line from /proc: "command" and space-joined "argv". */
static void env_cmdline(MPI_Info info)
{
    char buf[4096];
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (f == NULL)
        return;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    if (n == 0)
        return;
    info_put(info, "command", buf);
    size_t first = strlen(buf) + 1;
    if (first >= n)
        return;
    for (size_t i = first; i + 1 < n; i++)
        if (buf[i] == '\0')
            buf[i] = ' ';
    info_put(info, "argv", buf + first);
}

static void env_fill(void)
{
    char buf[1024];
    env_filled = 1;
    env_cmdline(&ucmpi_info_env);
    snprintf(buf, sizeof(buf), "%d",
             ucmpi_global.world_size > 0 ? ucmpi_global.world_size : 1);
    info_put(&ucmpi_info_env, "maxprocs", buf);
    if (gethostname(buf, sizeof(buf)) == 0) {
        buf[sizeof(buf) - 1] = '\0';
        info_put(&ucmpi_info_env, "host", buf);
    }
    info_put(&ucmpi_info_env, "arch", "x86_64-linux");
    if (getcwd(buf, sizeof(buf)) != NULL)
        info_put(&ucmpi_info_env, "wdir", buf);
    int lvl = ucmpi_global.thread_level;
    info_put(&ucmpi_info_env, "thread_level",
             ucmpi_thread_level_names[lvl >= 0 && lvl <= 3 ? lvl : 0]);
}


/* ---- Entry points ---- */
#pragma weak MPI_Info_create = PMPI_Info_create
int PMPI_Info_create(MPI_Info *info)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Info_create");
    if (info == NULL)
        return info_err(MPI_ERR_ARG, "info is NULL");
    *info = ucmpi_info_new();
    if (*info == NULL)
        return info_err(MPI_ERR_NO_MEM, "out of memory");
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_create_env = PMPI_Info_create_env
int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Info_create_env");
    if (info == NULL)
        return info_err(MPI_ERR_ARG, "info is NULL");
    if (!env_filled)
        env_fill();
    *info = ucmpi_info_filter(&ucmpi_info_env, NULL);
    if (*info == NULL)
        return info_err(MPI_ERR_NO_MEM,
                        "out of memory");
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_free = PMPI_Info_free
int PMPI_Info_free(MPI_Info *info)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Info_free");
    int rc;
    if (info == NULL)
        return info_err(MPI_ERR_ARG, "info is NULL");
    if ((rc = check_info(*info)) != MPI_SUCCESS)
        return rc;
    if ((*info)->predefined)
        return info_err(MPI_ERR_INFO,
                        "MPI_INFO_ENV cannot be freed");
    ucmpi_info_destroy(*info);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_dup = PMPI_Info_dup
int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Info_dup");
    int rc = check_info(info);
    if (rc != MPI_SUCCESS)
        return rc;
    if (newinfo == NULL)
        return info_err(MPI_ERR_ARG, "newinfo is NULL");
    *newinfo = ucmpi_info_filter(info, NULL);
    if (*newinfo == NULL)
        return info_err(MPI_ERR_NO_MEM, "out of memory");
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_set = PMPI_Info_set
int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Info_set");
    int rc = check_info_key(info, key, 1);
    if (rc != MPI_SUCCESS)
        return rc;
    if (value == NULL || strlen(value) == 0 ||
        strlen(value) >= MPI_MAX_INFO_VAL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_INFO_VALUE, fn,
                           "value for key \"%s\" is NULL, empty or longer "
                           "than %d", key, MPI_MAX_INFO_VAL - 1);
    if (info_put(info, key, value) != MPI_SUCCESS)
        return info_err(MPI_ERR_NO_MEM, "out of memory");
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_delete = PMPI_Info_delete
int PMPI_Info_delete(MPI_Info info, const char *key)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Info_delete");
    int rc = check_info_key(info, key, 1);
    if (rc != MPI_SUCCESS)
        return rc;
    info_pair_t *p = find(info, key);
    if (p == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_INFO_NOKEY, fn,
                           "key \"%s\" is not set", key);
    free(p->key);
    free(p->val);
    int i = (int)(p - info->pairs);
    memmove(p, p + 1, (info->n - i - 1) * sizeof(*p));
    info->n--;
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_get = PMPI_Info_get
int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value,
                  int *flag)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Info_get");
    int rc = check_info_key(info, key, 0);
    if (rc != MPI_SUCCESS)
        return rc;
    if (valuelen < 0 || flag == NULL || (value == NULL && valuelen > 0))
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "invalid valuelen %d, value or flag", valuelen);
    info_pair_t *p = find(info, key);
    *flag = p != NULL;
    if (p != NULL && value != NULL) {
        size_t n = strlen(p->val);
        if (n > (size_t)valuelen)
            n = valuelen;
        memcpy(value, p->val, n);
        value[n] = '\0';
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_get_valuelen = PMPI_Info_get_valuelen
int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen,
                           int *flag)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Info_get_valuelen");
    int rc = check_info_key(info, key, 0);
    if (rc != MPI_SUCCESS)
        return rc;
    if (valuelen == NULL || flag == NULL)
        return info_err(MPI_ERR_ARG, "valuelen or flag is NULL");
    info_pair_t *p = find(info, key);
    *flag = p != NULL;
    if (p != NULL)
        *valuelen = (int)strlen(p->val);
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_get_string = PMPI_Info_get_string
int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen,
                         char *value, int *flag)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Info_get_string");
    int rc = check_info_key(info, key, 0);
    if (rc != MPI_SUCCESS)
        return rc;
    if (buflen == NULL || flag == NULL || *buflen < 0 ||
        (value == NULL && *buflen > 0))
        return info_err(MPI_ERR_ARG, "invalid buflen, value or flag");
    info_pair_t *p = find(info, key);
    *flag = p != NULL;
    if (p == NULL)
        return MPI_SUCCESS;
    int len = (int)strlen(p->val);
    if (*buflen > 0) {
        int n = len < *buflen - 1 ? len : *buflen - 1;
        memcpy(value, p->val, n);
        value[n] = '\0';
    }
    *buflen = len + 1;
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_get_nkeys = PMPI_Info_get_nkeys
int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Info_get_nkeys");
    int rc = check_info(info);
    if (rc != MPI_SUCCESS)
        return rc;
    if (nkeys == NULL)
        return info_err(MPI_ERR_ARG, "nkeys is NULL");
    *nkeys = info->n;
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_get_nthkey = PMPI_Info_get_nthkey
int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Info_get_nthkey");
    int rc = check_info(info);
    if (rc != MPI_SUCCESS)
        return rc;
    if (key == NULL)
        return info_err(MPI_ERR_ARG, "key is NULL");
    if (n < 0 || n >= info->n)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "n = %d is not in [0, %d)", n, info->n);
    strcpy(key, info->pairs[n].key);
    return MPI_SUCCESS;
}
