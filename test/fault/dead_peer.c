/*
 * Dead peer inside the library: rank VICTIM kills itself (SIGKILL) while the
 * other ranks are blocked in a call that needs it.  Each survivor must get an
 * error through its communicator's error handler instead of hanging.
 *
 *   dead_peer [VICTIM] [recv|coll|fatal]
 *     recv   survivors block in MPI_Recv from VICTIM, with a handler of ours
 *     coll   survivors block in MPI_Barrier, with a handler of ours
 *     fatal  survivors block in MPI_Recv with the default handler
 *            (MPI_ERRORS_ARE_FATAL): the job must end with an error
 *     rma    survivors accumulate to VICTIM in a window (MPI_Win_create, so
 *            through the target's handler) and block in MPI_Win_flush,
 *            with a window handler of ours
 *     fence  survivors block in MPI_Win_fence after a put to VICTIM
 *
 * A survivor whose handler ran prints the error class and the time since the
 * death, then leaves with _exit(0) (the library may be unusable now).  Needs
 * a launcher that lets the survivors run on after one rank died: srun does
 * (KillOnBadExit=0 is Slurm's default); mpiexec ends the whole job.
 * Exit codes: 0 handler called, 1 the call returned success, 2 usage.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int rank;
static double t_death;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void handler(MPI_Comm *comm, int *code, ...)
{
    char msg[MPI_MAX_ERROR_STRING];
    int cls = -1, len = 0;

    (void)comm;
    MPI_Error_class(*code, &cls);
    MPI_Error_string(*code, msg, &len);
    printf("rank %d: error handler called %.3f s after the peer died: class %d: %s\n",
           rank, now() - t_death, cls, msg);
    fflush(stdout);
    _exit(cls == MPI_SUCCESS ? 1 : 0);
}

static void win_handler(MPI_Win *win, int *code, ...)
{
    (void)win;
    handler(NULL, code);
}

/* Every survivor talks to the victim once, so endpoints exist before it dies. */
static void connect_all(int victim, int size)
{
    int token = 0;

    if (rank == victim) {
        for (int r = 0; r < size; r++)
            if (r != victim)
                MPI_Recv(&token, 1, MPI_INT, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int r = 0; r < size; r++)
            if (r != victim)
                MPI_Send(&token, 1, MPI_INT, r, 2, MPI_COMM_WORLD);
    } else {
        MPI_Send(&token, 1, MPI_INT, victim, 1, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, victim, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

int main(int argc, char **argv)
{
    int size, victim = argc > 1 ? atoi(argv[1]) : 1, buf = 0;
    const char *variant = argc > 2 ? argv[2] : "recv";
    MPI_Errhandler eh;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (victim < 0 || victim >= size || size < 2) {
        fprintf(stderr, "dead_peer: victim %d needs 0 <= victim < size, size >= 2\n", victim);
        return 2;
    }
    if (strcmp(variant, "fatal") != 0) {
        MPI_Comm_create_errhandler(handler, &eh);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    }
    MPI_Win win = MPI_WIN_NULL;
    long wbuf[4] = {0};
    if (!strcmp(variant, "rma") || !strcmp(variant, "fence")) {
        MPI_Errhandler weh;
        MPI_Win_create(wbuf, sizeof(wbuf), sizeof(long), MPI_INFO_NULL,
                       MPI_COMM_WORLD, &win);
        MPI_Win_create_errhandler(win_handler, &weh);
        MPI_Win_set_errhandler(win, weh);
        if (!strcmp(variant, "fence"))
            MPI_Win_fence(0, win);
    }
    connect_all(victim, size);
    t_death = now() + 0.2;
    if (rank == victim) {
        usleep(200000);   /* the survivors are blocked by now */
        printf("rank %d: dying of SIGKILL now\n", rank);
        fflush(stdout);
        raise(SIGKILL);
    }
    long one = 1;
    if (strcmp(variant, "coll") == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (strcmp(variant, "rma") == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Accumulate(&one, 1, MPI_LONG, victim, 0, 1, MPI_LONG, MPI_SUM,
                       win);
        MPI_Win_flush(victim, win);
    } else if (strcmp(variant, "fence") == 0) {
        MPI_Put(&one, 1, MPI_LONG, victim, 1, 1, MPI_LONG, win);
        MPI_Win_fence(0, win);
    } else
        MPI_Recv(&buf, 1, MPI_INT, victim, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank %d: call involving dead rank %d returned success\n", rank, victim);
    return 1;
}
