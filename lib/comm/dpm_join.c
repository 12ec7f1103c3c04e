/* MPI_Comm_join: both processes open a port and swap the names over the
 * socket; the one whose name sorts first accepts, the other connects. */
#include "comm/dpm.h"
#include "comm/comm_internal.h"
#include "core/call.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* send(MSG_NOSIGNAL): a peer that closed its end must not kill us with
 * SIGPIPE (write for what is not a socket). */
static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == ENOTSOCK)
            k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static int read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n > 0) {
        ssize_t k = read(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

#pragma weak MPI_Comm_join = PMPI_Comm_join
int PMPI_Comm_join(int fd, MPI_Comm *intercomm)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Comm_join");
    char mine[MPI_MAX_PORT_NAME], theirs[MPI_MAX_PORT_NAME], why[256] = "";
    ucmpi_comm_t *bridge = NULL;
    uint32_t id = 0, len, rlen = 0;
    int rc = ucmpi_check_initialized(fn), conv = 0, accept;

    if (rc != MPI_SUCCESS)
        return rc;
    if (intercomm == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "intercomm is NULL");
    *intercomm = MPI_COMM_NULL;
    rc = ucmpi_dpm_port_new(mine, &id);
    if (rc != MPI_SUCCESS)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, rc, fn,
                           "cannot open a port");
    len = (uint32_t)strlen(mine) + 1;
    if (write_all(fd, &len, sizeof(len)) != 0 ||
        write_all(fd, mine, len) != 0 ||
        read_all(fd, &rlen, sizeof(rlen)) != 0 || rlen == 0 ||
        rlen > sizeof(theirs) || read_all(fd, theirs, rlen) != 0 ||
        theirs[rlen - 1] != '\0') {
        ucmpi_dpm_port_close(id);
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "fd %d is not a connected socket with "
                           "MPI_Comm_join at its other end", fd);
    }
    accept = strcmp(mine, theirs) < 0;
    rc = accept ? ucmpi_dpm_root_accept(mine, &bridge, &conv, why,
                                        sizeof(why), NULL, NULL)
                : ucmpi_dpm_root_connect(theirs, &bridge, &conv, why,
                                         sizeof(why));
    int jrc = ucmpi_dpm_join(MPI_COMM_SELF, 0, bridge, conv, !accept, rc,
                             intercomm);
    if (bridge != NULL)
        ucmpi_comm_release(bridge);
    ucmpi_dpm_port_close(id);
    if (jrc != MPI_SUCCESS)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, jrc, fn, "%s",
                           why[0] ? why : "exchange with the peer failed");
    return MPI_SUCCESS;
}
