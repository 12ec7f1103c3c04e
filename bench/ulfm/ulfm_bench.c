/*
 * ULFM costs (run under mpiexec --with-ft ulfm; ucmpi only: mpi-ext.h):
 *   failure-free, on MPI_COMM_WORLD: MPIX_Comm_agree, MPIX_Comm_shrink (+ free)
 *   and MPIX_Comm_revoke (from rank 0's call to the last rank seeing it),
 *   beside MPI_Allreduce of one int and MPI_Comm_split (+ free);
 *   then detection: the last rank kills itself (SIGKILL) and every survivor
 *   polls MPIX_Comm_get_failed: the time from the kill to the last survivor
 *   knowing.
 * One line: "ULFM n=N allreduce_us= agree_us= split_us= shrink_us=
 * revoke_us= detect_ms=" (per-call averages, the slowest rank's).
 *   mpiexec --with-ft ulfm -n N bench/ulfm/ulfm_bench [ITERS]
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int me, np, iters;

static double realtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Per-call time of what(), the slowest rank's, in microseconds. */
static double timed(void (*what)(void))
{
    double t, worst;

    for (int i = 0; i < 10; i++)
        what();
    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    for (int i = 0; i < iters; i++)
        what();
    t = (MPI_Wtime() - t) / iters * 1e6;
    MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

static void do_allreduce(void)
{
    int x = me, y;
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

static void do_agree(void)
{
    int flag = 1;
    MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
}

static void do_split(void)
{
    MPI_Comm c;
    MPI_Comm_split(MPI_COMM_WORLD, 0, me, &c);
    MPI_Comm_free(&c);
}

static void do_shrink(void)
{
    MPI_Comm c;
    MPIX_Comm_shrink(MPI_COMM_WORLD, &c);
    MPI_Comm_free(&c);
}

/* From rank 0's revoke to the last rank that sees it (microseconds). */
static double revoke_once(void)
{
    MPI_Comm c, s;
    double t = 0, last;
    int flag = 0;

    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
        t = realtime();
        MPIX_Comm_revoke(c);
    } else {
        while (!flag)
            MPIX_Comm_is_revoked(c, &flag);
        t = realtime();
    }
    MPI_Reduce(&t, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);   /* rank 0's start */
    MPIX_Comm_shrink(c, &s);
    MPI_Comm_free(&s);
    MPI_Comm_free(&c);
    return (last - t) * 1e6;
}

int main(int argc, char **argv)
{
    double ar, ag, sp, sh, rv = 0, t_kill = 0, t_know, worst = 0;
    int n = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    iters = argc > 1 ? atoi(argv[1]) : 200;
    ar = timed(do_allreduce);
    ag = timed(do_agree);
    sp = timed(do_split);
    sh = timed(do_shrink);
    for (int i = 0; i < 20; i++)
        rv += revoke_once() / 20;
    /* detection: the last rank dies; the survivors poll */
    if (np > 1) {
        MPI_Comm s;
        MPI_Barrier(MPI_COMM_WORLD);
        if (me == np - 1) {
            t_kill = realtime();
            MPI_Send(&t_kill, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
            raise(SIGKILL);
        }
        while (n == 0) {
            MPI_Group g;
            MPIX_Comm_get_failed(MPI_COMM_WORLD, &g);
            MPI_Group_size(g, &n);
            MPI_Group_free(&g);
        }
        t_know = realtime();
        if (me == 0)
            MPI_Recv(&t_kill, 1, MPI_DOUBLE, np - 1, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MPIX_Comm_shrink(MPI_COMM_WORLD, &s);
        MPI_Reduce(&t_know, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, s);
        MPI_Comm_free(&s);
    }
    if (me == 0)
        printf("ULFM n=%d allreduce_us=%.1f agree_us=%.1f split_us=%.1f "
               "shrink_us=%.1f revoke_us=%.1f detect_ms=%.2f\n", np, ar, ag,
               sp, sh, rv, np > 1 ? (worst - t_kill) * 1e3 : 0.0);
    MPI_Finalize();
    return 0;
}
