/*
 * A real MPI program for the launcher tests: after MPI_Init, rank WHO fails in
 * the given MODE while the others wait in MPI_Recv (blocked in UCX progress).
 * Usage: mpi_job ok | abort WHO CODE | segv WHO | exit WHO CODE | stuck |
 *        noinit WHO MS
 *        shmleft WHO
 * shmleft: every rank leaves segment names as the library's would be after
 * a crash between create and unlink, prints them, then rank WHO segfaults.
 * noinit: rank WHO (by $PMIX_RANK) sleeps MS milliseconds and exits 0
 * without MPI_Init; the others call MPI_Init (which cannot complete).
 * stuck (for --timeout's report): after a barrier all pass, rank 0 blocks
 * in MPI_Recv, rank 1 in MPI_Barrier, rank 2 computes, rank 3 blocks in
 * MPI_Wait, rank 4 in MPI_Probe, the others in MPI_Barrier.
 */
#include <mpi.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void stuck(int rank)
{
    volatile unsigned long spin = 0;
    MPI_Request req;
    int buf;

    MPI_Barrier(MPI_COMM_WORLD);            /* a wait that ends: must clear */
    printf("rank %d stuck\n", rank);
    fflush(stdout);
    switch (rank) {
    case 0:
        MPI_Recv(&buf, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        break;
    case 2:
        for (;;)
            spin++;
    case 3:
        MPI_Irecv(&buf, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        break;
    case 4:
        MPI_Probe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        break;
    default:
        MPI_Barrier(MPI_COMM_WORLD);
    }
    fprintf(stderr, "rank %d: a call that cannot complete returned\n", rank);
    exit(99);
}

/* names as lib/coll/shm, lib/rma/shm.c and lib/rma/win_shared.c make them */
static void leave_segments(int rank)
{
    static const char *const fmt[] = {"/ucmpi-coll-%d-7-0", "/ucmpi-w%d-0",
                                      "/ucmpi-%d-3"};
    char name[64];

    for (int i = 0; i < 3; i++) {
        snprintf(name, sizeof(name), fmt[i], (int)getpid());
        int fd = shm_open(name, O_CREAT | O_RDWR, 0600);
        if (fd < 0 || ftruncate(fd, 4096) != 0) {
            perror("shm_open");
            exit(3);
        }
        close(fd);
        printf("rank %d left /dev/shm%s\n", rank, name);
    }
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ok";
    int who = argc > 2 ? atoi(argv[2]) : 0, code = argc > 3 ? atoi(argv[3]) : 1;
    int rank, size, token = 0;
    const char *me = getenv("PMIX_RANK");

    if (!strcmp(mode, "noinit") && me != NULL && atoi(me) == who) {
        usleep(code * 1000);
        return 0;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!strcmp(mode, "ok")) {
        /* a ring: proves the modex and UCX wire-up between all ranks */
        if (rank == 0) {
            token = 1;
            if (size > 1) {
                MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(&token, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
        } else {
            MPI_Recv(&token, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            token++;
            MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
        }
        if (rank == 0)
            printf("ring of %d ranks: token %d %s\n", size, token, token == size ? "OK" : "BAD");
        MPI_Finalize();
        return rank == 0 && token != size;
    }
    if (!strcmp(mode, "stuck"))
        stuck(rank);
    if (!strcmp(mode, "shmleft")) {
        leave_segments(rank);
        mode = "segv";
    }
    if (rank == who) {
        printf("rank %d failing: %s\n", rank, mode);
        fflush(stdout);
        if (!strcmp(mode, "abort"))
            MPI_Abort(MPI_COMM_WORLD, code);
        if (!strcmp(mode, "segv"))
            raise(SIGSEGV);
        exit(code);
    }
    MPI_Recv(&token, 1, MPI_INT, who, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
