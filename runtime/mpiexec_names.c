/*
 * mpiexec's name service (PMIx publish/lookup/unpublish, behind
 * MPI_Publish_name and friends): one file per name in a directory shared by
 * every mpiexec of the user on this machine, so jobs started apart, and the
 * jobs they spawn, see each other's names.  UCMPI_NAME_DIR overrides it.
 * With UCMPI_NAMESERVER=host:port (mpiexec --nameserver) the names go to
 * that ucmpi_nameserver instead, which jobs on other machines share.
 * Names this mpiexec's ranks published and left go at its end.
 */
#define _GNU_SOURCE
#include "mpiexec.h"
#include "rt_nameclient.h"

#include <pmix_server.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_OWN 256

static char *own[MAX_OWN];    /* files we created and did not remove, or
                               * "\1name" for the name server's names */
static int nown;
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
typedef struct answer {
    pmix_pdata_t *pd;
    size_t n;
    struct answer *next;
} answer_t;
static answer_t *answers;     /* lookups' replies */

/* The file of a name: its bytes in hex (any name is a safe file name). */
static int name_path(const char *name, char *path, size_t n)
{
    const char *dir = getenv("UCMPI_NAME_DIR");
    char base[256];
    size_t k;

    if (dir == NULL || *dir == '\0') {
        snprintf(base, sizeof(base), "/tmp/ucmpi-names-%d", (int)getuid());
        dir = base;
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return -1;
    k = (size_t)snprintf(path, n, "%s/", dir);
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (k + 3 >= n)
            return -1;
        k += (size_t)snprintf(path + k, n - k, "%02x", *p);
    }
    return 0;
}

static int is_directive(const char *key)
{
    return strncmp(key, "pmix.", 5) == 0;
}

static void own_add(const char *id)
{
    pthread_mutex_lock(&names_lock);
    if (nown < MAX_OWN)
        own[nown++] = strdup(id);
    pthread_mutex_unlock(&names_lock);
}

static void forget(const char *id);

/* The name server's answer as a PMIx status (its trouble is logged). */
static pmix_status_t server_status(int rc, pmix_status_t no, const char *why)
{
    if (rc < 0)
        mx_log("%s", why);
    return rc == 0 ? PMIX_SUCCESS : rc == 1 ? no : PMIX_ERR_UNREACH;
}

static pmix_status_t publish_one(const char *key, const char *value)
{
    char path[4096], why[512];
    int fd;

    if (ucmpi_ns_address() != NULL) {
        int rc = ucmpi_ns_ask(ucmpi_ns_address(), 'P', key, value, NULL, 0,
                              why, sizeof(why));
        if (rc == 0 && snprintf(path, sizeof(path), "\1%s", key) > 0)
            own_add(path);
        return server_status(rc, PMIX_ERR_DUPLICATE_KEY, why);
    }
    if (name_path(key, path, sizeof(path)) != 0)
        return PMIX_ERR_BAD_PARAM;
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0)
        return errno == EEXIST ? PMIX_ERR_DUPLICATE_KEY : PMIX_ERROR;
    size_t len = strlen(value);
    int ok = write(fd, value, len) == (ssize_t)len;
    close(fd);
    if (!ok) {
        unlink(path);
        return PMIX_ERROR;
    }
    own_add(path);
    return PMIX_SUCCESS;
}

/* A name's value into buf: 0, 1 not published, -1 the server failed. */
static int lookup_one(const char *key, char *buf, size_t n)
{
    char path[4096], why[512];
    FILE *f;

    if (ucmpi_ns_address() != NULL) {
        int rc = ucmpi_ns_ask(ucmpi_ns_address(), 'L', key, NULL, buf, n, why,
                              sizeof(why));
        if (rc < 0)
            mx_log("%s", why);
        return rc;
    }
    if (name_path(key, path, sizeof(path)) != 0 ||
        (f = fopen(path, "r")) == NULL)
        return 1;
    size_t len = fread(buf, 1, n - 1, f);
    fclose(f);
    buf[len] = '\0';
    return 0;
}

pmix_status_t mx_names_publish(const pmix_proc_t *proc, const pmix_info_t info[],
                               size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pmix_status_t rc = PMIX_SUCCESS;

    for (size_t i = 0; i < ninfo && rc == PMIX_SUCCESS; i++)
        if (!is_directive(info[i].key))
            rc = info[i].value.type == PMIX_STRING
                     ? publish_one(info[i].key, info[i].value.data.string)
                     : PMIX_ERR_BAD_PARAM;
    if (rc != PMIX_SUCCESS)
        return rc;
    if (cbfunc != NULL)
        cbfunc(PMIX_SUCCESS, cbdata);
    return PMIX_SUCCESS;
}

pmix_status_t mx_names_lookup(const pmix_proc_t *proc, char **keys,
                              const pmix_info_t info[], size_t ninfo,
                              pmix_lookup_cbfunc_t cbfunc, void *cbdata)
{
    size_t n = 0, found = 0;
    pmix_pdata_t *pd;
    int broken = 0;

    while (keys != NULL && keys[n] != NULL)
        n++;
    if (n == 0)
        return PMIX_ERR_BAD_PARAM;
    PMIX_PDATA_CREATE(pd, n);
    for (size_t i = 0; i < n; i++) {
        char buf[4096];
        int rc = lookup_one(keys[i], buf, sizeof(buf));
        broken |= rc < 0;
        if (rc != 0)
            continue;
        PMIX_LOAD_PROCID(&pd[found].proc, proc->nspace, proc->rank);
        PMIX_LOAD_KEY(pd[found].key, keys[i]);
        PMIX_VALUE_LOAD(&pd[found].value, buf, PMIX_STRING);
        found++;
    }
    if (found == 0) {
        PMIX_PDATA_FREE(pd, n);
        return broken ? PMIX_ERR_UNREACH : PMIX_ERR_NOT_FOUND;
    }
    if (cbfunc != NULL)
        cbfunc(PMIX_SUCCESS, pd, found, cbdata);
    /* PMIx may read the answer after the callback returns: freed at the end */
    pthread_mutex_lock(&names_lock);
    answer_t *a = malloc(sizeof(*a));
    if (a != NULL) {
        *a = (answer_t){pd, n, answers};
        answers = a;
    }
    pthread_mutex_unlock(&names_lock);
    return PMIX_SUCCESS;
}

static void forget(const char *path)
{
    pthread_mutex_lock(&names_lock);
    for (int i = 0; i < nown; i++)
        if (own[i] != NULL && strcmp(own[i], path) == 0) {
            free(own[i]);
            own[i] = own[--nown];
            break;
        }
    pthread_mutex_unlock(&names_lock);
}

pmix_status_t mx_names_unpublish(const pmix_proc_t *proc, char **keys,
                                 const pmix_info_t info[], size_t ninfo,
                                 pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    for (size_t i = 0; keys != NULL && keys[i] != NULL; i++) {
        char path[4096], why[512];
        if (ucmpi_ns_address() != NULL) {
            int rc = ucmpi_ns_ask(ucmpi_ns_address(), 'U', keys[i], NULL, NULL,
                                  0, why, sizeof(why));
            if (rc != 0)
                return server_status(rc, PMIX_ERR_NOT_FOUND, why);
            snprintf(path, sizeof(path), "\1%s", keys[i]);
            forget(path);
            continue;
        }
        if (name_path(keys[i], path, sizeof(path)) != 0 || unlink(path) != 0)
            return PMIX_ERR_NOT_FOUND;
        forget(path);
    }
    if (cbfunc != NULL)
        cbfunc(PMIX_SUCCESS, cbdata);
    return PMIX_SUCCESS;
}

/* At the end of mpiexec: names its ranks left published. */
void mx_names_cleanup(void)
{
    pthread_mutex_lock(&names_lock);
    for (int i = 0; i < nown; i++) {
        char why[512];
        if (own[i][0] == '\1')
            (void)ucmpi_ns_ask(ucmpi_ns_address() ? ucmpi_ns_address() : "",
                               'U', own[i] + 1, NULL, NULL, 0, why,
                               sizeof(why));
        else
            unlink(own[i]);
        free(own[i]);
    }
    nown = 0;
    while (answers != NULL) {
        answer_t *a = answers;
        answers = a->next;
        PMIX_PDATA_FREE(a->pd, a->n);
        free(a);
    }
    pthread_mutex_unlock(&names_lock);
}
