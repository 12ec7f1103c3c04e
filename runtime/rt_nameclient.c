/* A client of ucmpi_nameserver: one TCP connection per request, a line
 * each way, names and values in hex (runtime/nameserver.c). */
#define _GNU_SOURCE
#include "rt_nameclient.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define WAIT_MS 10000         /* a server that takes longer is broken */

const char *ucmpi_ns_address(void)
{
    const char *a = getenv("UCMPI_NAMESERVER");
    return a != NULL && *a != '\0' ? a : NULL;
}

static int hex_put(char *dst, size_t n, const char *s)
{
    size_t k = 0;
    for (; *s; s++, k += 2)
        if (k + 3 > n || snprintf(dst + k, 3, "%02x", (unsigned char)*s) != 2)
            return -1;
    dst[k] = '\0';
    return 0;
}

static int hex_get(char *dst, size_t n, const char *hex)
{
    size_t len = strlen(hex), k;
    if (len % 2 != 0 || len / 2 + 1 > n)
        return -1;
    for (k = 0; k < len / 2; k++) {
        unsigned v;
        if (sscanf(hex + 2 * k, "%2x", &v) != 1)
            return -1;
        dst[k] = (char)v;
    }
    dst[k] = '\0';
    return 0;
}

static int dial(const char *addr, char *why, size_t wlen)
{
    char host[256];
    const char *colon = strrchr(addr, ':');
    struct addrinfo hints = {0}, *ai = NULL, *p;
    int fd = -1, rc;

    if (colon == NULL || colon == addr || (size_t)(colon - addr) >= sizeof(host)) {
        snprintf(why, wlen, "name server address '%s' is not host:port", addr);
        return -1;
    }
    snprintf(host, sizeof(host), "%.*s", (int)(colon - addr), addr);
    hints.ai_socktype = SOCK_STREAM;
    if ((rc = getaddrinfo(host, colon + 1, &hints, &ai)) != 0) {
        snprintf(why, wlen, "name server %s: %s", addr, gai_strerror(rc));
        return -1;
    }
    for (p = ai; p != NULL && fd < 0; p = p->ai_next) {
        fd = socket(p->ai_family, p->ai_socktype | SOCK_CLOEXEC, 0);
        if (fd >= 0 && connect(fd, p->ai_addr, p->ai_addrlen) != 0) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(ai);
    if (fd < 0)
        snprintf(why, wlen, "cannot reach the name server at %s: %s", addr,
                 strerror(errno));
    return fd;
}

/* Sends req, reads the answer line into ans[n]. */
static int exchange(int fd, const char *req, char *ans, size_t n)
{
    size_t len = strlen(req), got = 0;
    struct pollfd p = {fd, POLLIN, 0};

    for (size_t off = 0; off < len;) {
        ssize_t k = write(fd, req + off, len - off);
        if (k <= 0)
            return -1;
        off += (size_t)k;
    }
    while (got < n - 1 && memchr(ans, '\n', got) == NULL) {
        if (poll(&p, 1, WAIT_MS) <= 0)
            return -1;
        ssize_t k = read(fd, ans + got, n - 1 - got);
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    ans[got] = '\0';
    return memchr(ans, '\n', got) != NULL ? 0 : -1;
}

int ucmpi_ns_ask(const char *addr, char op, const char *name,
                 const char *value, char *out, size_t outlen, char *why,
                 size_t wlen)
{
    size_t nlen = 2 * strlen(name) + 1, vlen = value ? 2 * strlen(value) + 1 : 1;
    char *req = malloc(nlen + vlen + 8), *ans = malloc(65536);
    int fd = -1, rc = -1;

    if (req == NULL || ans == NULL) {
        snprintf(why, wlen, "out of memory");
        goto out;
    }
    req[0] = op;
    req[1] = ' ';
    if (hex_put(req + 2, nlen, name) != 0)
        goto out;
    if (value != NULL) {
        size_t k = strlen(req);
        req[k++] = ' ';
        if (hex_put(req + k, vlen, value) != 0)
            goto out;
    }
    strcat(req, "\n");
    if ((fd = dial(addr, why, wlen)) < 0)
        goto out;
    if (exchange(fd, req, ans, 65536) != 0) {
        snprintf(why, wlen, "the name server at %s did not answer", addr);
        goto out;
    }
    ans[strcspn(ans, "\r\n")] = '\0';
    if (strcmp(ans, "DUP") == 0 || strcmp(ans, "NONE") == 0) {
        rc = 1;
    } else if (strcmp(ans, "OK") == 0 && op != 'L') {
        rc = 0;
    } else if (strncmp(ans, "OK ", 3) == 0 && op == 'L' &&
               hex_get(out, outlen, ans + 3) == 0) {
        rc = 0;
    } else {
        snprintf(why, wlen, "the name server at %s answered '%.100s'", addr,
                 ans);
    }
out:
    if (fd >= 0)
        close(fd);
    free(req);
    free(ans);
    return rc;
}
