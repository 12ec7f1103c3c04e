/*
 * One program for the fault tests (test/fault/run.sh): after MPI_Init, one
 * rank misbehaves while the others are blocked inside MPI.
 *
 *   fault_prog abort RANK CODE   RANK calls MPI_Abort(MPI_COMM_WORLD, CODE)
 *   fault_prog segv RANK         RANK writes through a NULL pointer
 *   fault_prog exit RANK CODE    RANK calls exit(CODE) without MPI_Finalize
 *   fault_prog hang              every rank blocks in MPI_Recv (kill -9,
 *                                SIGINT, --timeout tests)
 *   fault_prog survive RANK CODE RANK exits with CODE; the others (mpiexec
 *                                --disable-auto-cleanup) check that talking
 *                                to it fails with MPI_ERR_PROC_FAILED, that
 *                                they still talk to each other, and finalize
 *   fault_prog survive1st RANK CODE  the same, but RANK exits before any
 *                                collective: the survivors' first one (a
 *                                bcast, which sets up the shm segment) must
 *                                end, with MPI_ERR_PROC_FAILED or the right
 *                                data, on every survivor
 *
 * The ranks that wait block on a receive nobody sends.  With FAULT_DIR set,
 * each rank writes its pid to FAULT_DIR/pid.RANK once initialized, and the
 * faulting rank writes the wall-clock time of the fault to FAULT_DIR/fault
 * just before it, so the harness can time how fast the job ends.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int rank, size;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void write_file(const char *name, const char *fmt, double v)
{
    const char *dir = getenv("FAULT_DIR");
    char path[4096];
    FILE *f;

    if (dir == NULL)
        return;
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        return;
    }
    fprintf(f, fmt, v);
    fclose(f);
}

/* Called right before the fault: output first, then the timestamp. */
static void about_to_fail(const char *what)
{
    printf("rank %d: %s now\n", rank, what);
    fflush(stdout);
    write_file("fault", "%.6f\n", now());
}

static void wait_forever(void)
{
    int buf;
    MPI_Recv(&buf, 1, MPI_INT, MPI_ANY_SOURCE, 4242, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    fprintf(stderr, "rank %d: MPI_Recv nobody sends to returned\n", rank);
    exit(99);
}

static int errs;

static void expect_class(int rc, int want, const char *what)
{
    int cls = MPI_SUCCESS;

    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    if (cls != want) {
        printf("rank %d: %s gave class %d, want %d\n", rank, what, cls, want);
        errs++;
    }
}

/* The survivors of `who`: receives from it, small and rendezvous sends to
 * it (UCX holds the latter until the receiver fetches), a ring over the
 * living ranks, a barrier (must end, whatever it returns), finalize. */
static int survive(int who)
{
    enum { BIG = 1 << 20 };
    char *big = calloc(BIG, 1);
    int v = -1, next, prev;
    MPI_Request rq;

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    expect_class(MPI_Recv(&v, 1, MPI_INT, who, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                 MPI_ERR_PROC_FAILED, "MPI_Recv from the dead rank");
    expect_class(MPI_Send(big, BIG, MPI_CHAR, who, 2, MPI_COMM_WORLD), MPI_ERR_PROC_FAILED,
                 "1 MiB MPI_Send to the dead rank");
    MPI_Isend(big, BIG, MPI_CHAR, who, 3, MPI_COMM_WORLD, &rq);
    expect_class(MPI_Wait(&rq, MPI_STATUS_IGNORE), MPI_ERR_PROC_FAILED,
                 "MPI_Wait on a 1 MiB MPI_Isend to the dead rank");
    next = (rank + 1) % size == who ? (rank + 2) % size : (rank + 1) % size;
    prev = (rank - 1 + size) % size == who ? (rank - 2 + size) % size : (rank - 1 + size) % size;
    if (next != rank) {
        expect_class(MPI_Sendrecv(&rank, 1, MPI_INT, next, 4, &v, 1, MPI_INT, prev, 4,
                                  MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                     MPI_SUCCESS, "MPI_Sendrecv among the living");
        if (v != prev) {
            printf("rank %d: got %d from the ring, want %d\n", rank, v, prev);
            errs++;
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    free(big);
    MPI_Finalize();
    printf("rank %d: survived, %d errors\n", rank, errs);
    return errs ? 1 : 0;
}

/* The survivors' first collectives on a comm with a dead rank: each must
 * end, with the root's data or MPI_ERR_PROC_FAILED (the shm segment's
 * set-up, which every rank entered but the dead one, hung before). */
static void first_bcasts(void)
{
    enum { BIG = 100000 };
    char *buf = malloc(BIG);
    int rc, cls;

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int len = 10; len <= BIG; len *= 100) {
        for (int i = 0; i < len; i++)
            buf[i] = rank == 0 ? (char)(i * 7 + len) : 0;
        rc = MPI_Bcast(buf, len, MPI_CHAR, 0, MPI_COMM_WORLD);
        cls = MPI_SUCCESS;
        if (rc != MPI_SUCCESS)
            MPI_Error_class(rc, &cls);
        if (cls != MPI_SUCCESS && cls != MPI_ERR_PROC_FAILED) {
            printf("rank %d: bcast of %d gave class %d\n", rank, len, cls);
            errs++;
        }
        for (int i = 0; i < len && cls == MPI_SUCCESS; i++)
            if (buf[i] != (char)(i * 7 + len)) {
                printf("rank %d: bcast of %d: [%d] wrong\n", rank, len, i);
                errs++;
                break;
            }
    }
    free(buf);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int who = argc > 2 ? atoi(argv[2]) : 1;
    int code = argc > 3 ? atoi(argv[3]) : 1;
    char name[32];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    snprintf(name, sizeof(name), "pid.%d", rank);
    write_file(name, "%.0f\n", (double)getpid());
    printf("rank %d of %d: up (pid %d)\n", rank, size, (int)getpid());
    fflush(stdout);

    if (!strcmp(mode, "hang"))
        wait_forever();
    if (!strcmp(mode, "survive")) {
        MPI_Barrier(MPI_COMM_WORLD);  /* every endpoint and segment set up */
        if (rank != who)
            return survive(who);
        about_to_fail("exiting without MPI_Finalize");
        exit(code);
    }
    if (!strcmp(mode, "survive1st")) {
        if (rank != who) {
            first_bcasts();
            return survive(who);
        }
        about_to_fail("exiting without MPI_Finalize");
        exit(code);
    }
    if (rank != who)
        wait_forever();
    usleep(200000);   /* let the others block inside MPI first */
    if (!strcmp(mode, "abort")) {
        about_to_fail("calling MPI_Abort");
        MPI_Abort(MPI_COMM_WORLD, code);
    } else if (!strcmp(mode, "segv")) {
        volatile int *volatile p = NULL;
        about_to_fail("writing through NULL");
        *p = 1;
    } else if (!strcmp(mode, "exit")) {
        about_to_fail("exiting without MPI_Finalize");
        exit(code);
    }
    fprintf(stderr, "fault_prog: unknown mode '%s'\n", mode);
    return 98;
}
