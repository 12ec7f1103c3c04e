/*
 * Parameter server over MPI one-sided communication.
 *
 * Rank 0 holds the model weights in a window.  Every other rank is a
 * worker that, each step, reads fresh weights with MPI_Get under a shared
 * lock, computes a gradient for its shard of a least-squares problem, and
 * adds -lr * gradient into the server's weights with MPI_Accumulate
 * (element-wise atomic, so concurrent workers never lose updates).  The
 * server only waits in a barrier meanwhile.
 *
 * Self-check: the problem y = X w* has an exact solution, so the loss
 * must fall to near zero and w approach w*; and an extra counter that
 * every worker increments each step (MPI_Fetch_and_op) must equal
 * workers * steps.  Runs with any number of ranks (alone, rank 0 also
 * works as the single worker).
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define DIM 16
#define SAMPLES 64            /* per worker */
#define STEPS 200
#define LR 1.5

/* Deterministic data: features from a small LCG, targets from w*. */
static double lcg(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return ((*s >> 8) & 0xffff) / 65536.0 - 0.5;
}

static double true_w(int j)
{
    return 0.5 + 0.1 * j - 0.01 * j * j;
}

int main(int argc, char **argv)
{
    int rank, size;
    double *w = NULL;            /* window memory: DIM weights + counter */
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Aint bytes = rank == 0 ? (DIM + 1) * sizeof(double) : 0;
    MPI_Win_allocate(bytes, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &w, &win);
    if (rank == 0)
        for (int j = 0; j <= DIM; j++)
            w[j] = 0;
    MPI_Barrier(MPI_COMM_WORLD);

    int worker = size == 1 || rank > 0, nworkers = size > 1 ? size - 1 : 1;
    double x[SAMPLES][DIM], y[SAMPLES], loss = 0;
    unsigned seed = 1234u + 77u * (unsigned)rank;
    for (int i = 0; i < SAMPLES; i++) {
        y[i] = 0;
        for (int j = 0; j < DIM; j++) {
            x[i][j] = lcg(&seed);
            y[i] += x[i][j] * true_w(j);
        }
    }
    if (worker) {
        double cur[DIM], grad[DIM], one = 1, ticket;
        for (int step = 0; step < STEPS; step++) {
            MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
            MPI_Get(cur, DIM, MPI_DOUBLE, 0, 0, DIM, MPI_DOUBLE, win);
            MPI_Win_unlock(0, win);
            loss = 0;
            for (int j = 0; j < DIM; j++)
                grad[j] = 0;
            for (int i = 0; i < SAMPLES; i++) {
                double e = -y[i];
                for (int j = 0; j < DIM; j++)
                    e += x[i][j] * cur[j];
                loss += e * e / SAMPLES;
                for (int j = 0; j < DIM; j++)
                    grad[j] -= LR * 2 * e * x[i][j] / SAMPLES / nworkers;
            }
            MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
            MPI_Accumulate(grad, DIM, MPI_DOUBLE, 0, 0, DIM, MPI_DOUBLE,
                           MPI_SUM, win);
            MPI_Fetch_and_op(&one, &ticket, MPI_DOUBLE, 0, DIM, MPI_SUM, win);
            MPI_Win_unlock(0, win);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);   /* the server progresses in here */

    int ok = 1;
    if (worker && loss > 1e-3) {
        printf("rank %d: loss %.3g did not converge\n", rank, loss);
        ok = 0;
    }
    if (rank == 0) {
        double err = 0;
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        for (int j = 0; j < DIM; j++)
            err = fmax(err, fabs(w[j] - true_w(j)));
        double steps = w[DIM];
        MPI_Win_unlock(0, win);
        printf("param_server: %d worker(s), %d steps, max |w - w*| = %.2e, "
               "updates %.0f\n", nworkers, STEPS, err, steps);
        if (err > 0.05 || steps != (double)nworkers * STEPS) {
            printf("param_server: FAILED (want updates %d, error < 0.05)\n",
                   nworkers * STEPS);
            ok = 0;
        }
    }
    MPI_Win_free(&win);
    int all_ok = ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Finalize();
    return all_ok ? 0 : 1;
}
