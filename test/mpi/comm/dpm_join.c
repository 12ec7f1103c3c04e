/* MPI_Comm_join over a TCP socket between pairs of ranks (2k, 2k+1); a
 * socket without a joiner at its other end gives an error, not a hang. */
#include <mpi.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int fails, wrank;
#define CHECK(c, ...) do { if (!(c)) { fails++; printf("rank %d: ", wrank); \
    printf(__VA_ARGS__); printf("\n"); } } while (0)

static int listener(int *port)
{
    struct sockaddr_in a = {.sin_family = AF_INET};
    socklen_t len = sizeof(a);
    int s = socket(AF_INET, SOCK_STREAM, 0);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) != 0 ||
        listen(s, 1) != 0 || getsockname(s, (struct sockaddr *)&a, &len))
        return -1;
    *port = ntohs(a.sin_port);
    return s;
}

static int dial(int port)
{
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    int s = socket(AF_INET, SOCK_STREAM, 0);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a)) != 0)
        return -1;
    return s;
}

int main(int argc, char **argv)
{
    int wsize, total, port = 0, fd = -1, v, sum, rsize, ec, rc;
    MPI_Comm ic;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    /* a socket whose other end is closed */
    {
        int sv[2];
        socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
        close(sv[1]);
        rc = MPI_Comm_join(sv[0], &ic);
        MPI_Error_class(rc, &ec);
        CHECK(rc != MPI_SUCCESS && ic == MPI_COMM_NULL,
              "join on a dead socket: rc %d", rc);
        close(sv[0]);
    }
    if (wrank + 1 < wsize || wrank % 2 == 1) {
        int peer = wrank ^ 1;
        if (wrank % 2 == 0) {
            int l = listener(&port);
            MPI_Send(&port, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
            fd = accept(l, NULL, NULL);
            close(l);
        } else {
            MPI_Recv(&port, 1, MPI_INT, peer, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            fd = dial(port);
        }
        CHECK(fd >= 0, "no socket");
        rc = MPI_Comm_join(fd, &ic);
        CHECK(rc == MPI_SUCCESS, "join failed: %d", rc);
        if (rc == MPI_SUCCESS) {
            MPI_Comm_remote_size(ic, &rsize);
            CHECK(rsize == 1, "remote size %d", rsize);
            v = wrank;
            MPI_Sendrecv(&v, 1, MPI_INT, 0, 3, &sum, 1, MPI_INT, 0, 3, ic,
                         MPI_STATUS_IGNORE);
            CHECK(sum == peer, "got %d from the joined peer %d", sum, peer);
            MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, ic);
            CHECK(sum == peer, "inter allreduce %d", sum);
            MPI_Comm_disconnect(&ic);
        }
        close(fd);
    }
    MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (wrank == 0 && total == 0)
        printf("No Errors\n");
    MPI_Finalize();
    return total != 0;
}
