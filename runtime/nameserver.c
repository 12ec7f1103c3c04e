/*
 * ucmpi_nameserver: the name service of MPI_Publish_name / MPI_Lookup_name
 * for jobs that share no machine (each mpiexec finds it through
 * UCMPI_NAMESERVER=host:port or --nameserver).  One TCP request per
 * connection, a line each way (runtime/rt_nameclient.c):
 *   P <name> <value>  ->  OK | DUP        publish
 *   L <name>          ->  OK <value> | NONE
 *   U <name>          ->  OK | NONE       unpublish
 * names and values in hex.  Names live in memory until unpublished (an
 * mpiexec withdraws its ranks' leftovers at its end) or the daemon ends.
 * Anyone who reaches the port may publish: bind it to a trusted network.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct entry {
    char *name, *value;       /* hex, as on the wire */
    struct entry *next;
} entry_t;

static entry_t *names;
static int verbose;

static entry_t **find(const char *name)
{
    entry_t **e = &names;
    while (*e != NULL && strcmp((*e)->name, name) != 0)
        e = &(*e)->next;
    return e;
}

static int publish(const char *name, const char *value)
{
    entry_t **slot = find(name), *e;
    if (*slot != NULL)
        return 1;
    if ((e = calloc(1, sizeof(*e))) == NULL ||
        (e->name = strdup(name)) == NULL || (e->value = strdup(value)) == NULL) {
        if (e != NULL)
            free(e->name);
        free(e);
        return -1;
    }
    *slot = e;
    return 0;
}

/* One request line into the answer line. */
static void answer(char *req, char *ans, size_t n)
{
    char *op = strtok(req, " \r\n"), *name = strtok(NULL, " \r\n");
    char *value = strtok(NULL, " \r\n");
    entry_t **e;

    if (op == NULL || name == NULL || strlen(op) != 1) {
        snprintf(ans, n, "ERR bad request\n");
        return;
    }
    switch (op[0]) {
    case 'P':
        if (value == NULL) {
            snprintf(ans, n, "ERR no value\n");
            return;
        }
        switch (publish(name, value)) {
        case 0: snprintf(ans, n, "OK\n"); break;
        case 1: snprintf(ans, n, "DUP\n"); break;
        default: snprintf(ans, n, "ERR out of memory\n"); break;
        }
        break;
    case 'L':
        e = find(name);
        if (*e == NULL)
            snprintf(ans, n, "NONE\n");
        else
            snprintf(ans, n, "OK %s\n", (*e)->value);
        break;
    case 'U':
        e = find(name);
        if (*e == NULL) {
            snprintf(ans, n, "NONE\n");
        } else {
            entry_t *gone = *e;
            *e = gone->next;
            free(gone->name);
            free(gone->value);
            free(gone);
            snprintf(ans, n, "OK\n");
        }
        break;
    default:
        snprintf(ans, n, "ERR unknown request %s\n", op);
    }
}

/* Reads one line (bounded, a few seconds), answers it, closes. */
static void serve(int fd)
{
    static char req[65536], ans[65536];
    size_t len = 0;
    struct pollfd p = {fd, POLLIN, 0};

    while (len < sizeof(req) - 1 && memchr(req, '\n', len) == NULL) {
        if (poll(&p, 1, 5000) <= 0)
            break;
        ssize_t k = read(fd, req + len, sizeof(req) - 1 - len);
        if (k <= 0)
            break;
        len += (size_t)k;
    }
    req[len] = '\0';
    if (memchr(req, '\n', len) == NULL) {
        close(fd);
        return;
    }
    if (verbose)
        fprintf(stderr, "ucmpi_nameserver: %s", req);
    answer(req, ans, sizeof(ans));
    for (size_t off = 0, n = strlen(ans); off < n;) {
        ssize_t k = write(fd, ans + off, n - off);
        if (k <= 0)
            break;
        off += (size_t)k;
    }
    close(fd);
}

static int listen_on(const char *bind_addr, const char *port, char *where,
                     size_t n)
{
    struct addrinfo hints = {0}, *ai = NULL;
    int fd = -1, one = 1;

    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    if (getaddrinfo(bind_addr, port, &hints, &ai) != 0 || ai == NULL)
        return -1;
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
        bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 64) != 0) {
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return -1;
    }
    freeaddrinfo(ai);
    struct sockaddr_storage ss;
    socklen_t sl = sizeof(ss);
    char host[256], serv[32], me[256];
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0 ||
        getnameinfo((struct sockaddr *)&ss, sl, host, sizeof(host), serv,
                    sizeof(serv), NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
        close(fd);
        return -1;
    }
    /* bound to every address: tell the host name, which peers resolve */
    if (strcmp(host, "0.0.0.0") == 0 && gethostname(me, sizeof(me)) == 0)
        snprintf(host, sizeof(host), "%s", me);
    snprintf(where, n, "%s:%s", host, serv);
    return fd;
}

static const char usage[] =
    "usage: ucmpi_nameserver [--port N] [--bind ADDRESS] [--address-file FILE] [-v]\n"
    "Serves MPI_Publish_name / MPI_Lookup_name to ucmpi jobs on any machine:\n"
    "start it once, then give its address to each job's mpiexec with\n"
    "UCMPI_NAMESERVER=host:port (or mpiexec --nameserver host:port).\n"
    "  --port N           TCP port (default: any free one)\n"
    "  --bind ADDRESS     listen on this address only (default: all)\n"
    "  --address-file F   write host:port to F once listening (also printed)\n"
    "  -v                 log each request to stderr\n"
    "Runs until killed (SIGTERM/SIGINT); names are kept in memory.\n";

int main(int argc, char **argv)
{
    const char *port = "0", *bind_addr = NULL, *file = NULL;
    char where[300];

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--port") && i + 1 < argc)
            port = argv[++i];
        else if (!strcmp(argv[i], "--bind") && i + 1 < argc)
            bind_addr = argv[++i];
        else if (!strcmp(argv[i], "--address-file") && i + 1 < argc)
            file = argv[++i];
        else if (!strcmp(argv[i], "-v"))
            verbose = 1;
        else {
            fputs(usage, strcmp(argv[i], "-h") && strcmp(argv[i], "--help")
                             ? stderr : stdout);
            return strcmp(argv[i], "-h") && strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    signal(SIGPIPE, SIG_IGN);
    int lfd = listen_on(bind_addr, port, where, sizeof(where));
    if (lfd < 0) {
        fprintf(stderr, "ucmpi_nameserver: cannot listen on %s:%s: %s\n",
                bind_addr ? bind_addr : "*", port, strerror(errno));
        return 1;
    }
    printf("%s\n", where);
    fflush(stdout);
    if (file != NULL) {
        char tmp[4096];
        FILE *f;
        snprintf(tmp, sizeof(tmp), "%s.tmp", file);
        if ((f = fopen(tmp, "w")) == NULL || fprintf(f, "%s\n", where) < 0 ||
            fclose(f) != 0 || rename(tmp, file) != 0) {
            fprintf(stderr, "ucmpi_nameserver: cannot write %s\n", file);
            return 1;
        }
    }
    for (;;) {
        int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        if (fd >= 0)
            serve(fd);
        else if (errno != EINTR && errno != ECONNABORTED)
            break;
    }
    return 1;
}
