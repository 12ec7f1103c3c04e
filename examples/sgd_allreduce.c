/*
 * sgd_allreduce: data-parallel training steps of a linear model, the way
 * deep-learning frameworks do it.  Each rank holds a shard of the batch,
 * runs the forward pass, then the backward pass bucket by bucket (last
 * layer first); as soon as a bucket's gradient is ready its MPI_Iallreduce
 * starts, overlapping communication with the backward pass of the next
 * bucket.  After MPI_Waitall every rank applies the same averaged update.
 *
 * Self-check: rank 0 replays the same steps serially over the whole batch;
 * the weights of every rank must match it (to rounding), and the loss must
 * fall.
 *   mpiexec -n 4 examples/sgd_allreduce [STEPS]
 */
#include <mpi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUCKETS 4             /* "layers": one allreduce each */
#define BUCKET_LEN 8192       /* parameters per bucket */
#define NPARAM (BUCKETS * BUCKET_LEN)
#define BATCH 192             /* samples in the global batch */
#define LR 0.5                /* of the largest stable step */

/* Deterministic input feature j of sample i, in [-1, 1). */
static double feature(int i, int j)
{
    unsigned x = (unsigned)i * 2654435761u ^ (unsigned)j * 40503u;
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    x ^= x >> 15;
    return (double)(x % 2000) / 1000.0 - 1.0;
}

/* The model the data was made with: the target of sample i. */
static double target(int i)
{
    double y = 0;
    for (int j = 0; j < NPARAM; j++)
        y += feature(i, j) * sin(0.001 * j);
    return y;
}

/* Forward pass over n samples: residuals and the summed squared error. */
static double forward(const double *w, const double *x, const double *y,
                      int n, double *res)
{
    double loss = 0;
    for (int k = 0; k < n; k++) {
        double p = 0;
        for (int j = 0; j < NPARAM; j++)
            p += w[j] * x[(size_t)k * NPARAM + j];
        res[k] = p - y[k];
        loss += res[k] * res[k];
    }
    return loss;
}

/* Gradient of one bucket (unscaled sum over the local samples). */
static void backward_bucket(int b, const double *x, const double *res, int n,
                            double *g)
{
    memset(g, 0, sizeof(double) * BUCKET_LEN);
    for (int k = 0; k < n; k++) {
        const double *xk = x + (size_t)k * NPARAM + (size_t)b * BUCKET_LEN;
        for (int j = 0; j < BUCKET_LEN; j++)
            g[j] += res[k] * xk[j];
    }
}

/* Features are uniform in [-1, 1), so X X^T is close to NPARAM/3 times
 * the identity: a step of 3/NPARAM would zero the residual at once. */
static void update(double *w, const double *g)
{
    for (int j = 0; j < NPARAM; j++)
        w[j] -= LR * 3.0 / NPARAM * g[j];
}

int main(int argc, char **argv)
{
    int rank, size, steps = argc > 1 ? atoi(argv[1]) : 5, ok = 1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* my shard: samples rank, rank + size, ... */
    int n = 0;
    for (int i = rank; i < BATCH; i += size)
        n++;
    double *x = malloc(sizeof(double) * NPARAM * (n ? n : 1));
    double *y = malloc(sizeof(double) * (n ? n : 1));
    double *res = malloc(sizeof(double) * (n ? n : 1));
    double *w = calloc(NPARAM, sizeof(double));
    double *g = malloc(sizeof(double) * NPARAM);
    double *gsum = malloc(sizeof(double) * NPARAM);
    for (int k = 0; k < n; k++) {
        for (int j = 0; j < NPARAM; j++)
            x[(size_t)k * NPARAM + j] = feature(rank + k * size, j);
        y[k] = target(rank + k * size);
    }

    double first_loss = 0, loss = 0, t_comm_wait = 0, t0 = MPI_Wtime();
    for (int s = 0; s < steps; s++) {
        MPI_Request req[BUCKETS];
        double local = forward(w, x, y, n, res);
        /* backward, last bucket first; each bucket's allreduce starts as
         * soon as its gradient is complete */
        for (int b = BUCKETS - 1; b >= 0; b--) {
            backward_bucket(b, x, res, n, g + (size_t)b * BUCKET_LEN);
            MPI_Iallreduce(g + (size_t)b * BUCKET_LEN,
                           gsum + (size_t)b * BUCKET_LEN, BUCKET_LEN,
                           MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req[b]);
        }
        /* the loss is reported, not needed for the update */
        MPI_Allreduce(&local, &loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double tw = MPI_Wtime();
        MPI_Waitall(BUCKETS, req, MPI_STATUSES_IGNORE);
        t_comm_wait += MPI_Wtime() - tw;
        update(w, gsum);
        loss /= BATCH;
        if (s == 0)
            first_loss = loss;
        if (rank == 0)
            printf("sgd_allreduce: step %d: loss %.6f\n", s + 1, loss);
    }
    double elapsed = MPI_Wtime() - t0;

    /* Reference: the same steps serially over the whole batch (rank 0). */
    double max_err = 0;
    double *wref = calloc(NPARAM, sizeof(double));
    if (rank == 0) {
        double *xa = malloc(sizeof(double) * NPARAM * BATCH);
        double *ya = malloc(sizeof(double) * BATCH);
        double *ra = malloc(sizeof(double) * BATCH);
        for (int i = 0; i < BATCH; i++) {
            for (int j = 0; j < NPARAM; j++)
                xa[(size_t)i * NPARAM + j] = feature(i, j);
            ya[i] = target(i);
        }
        for (int s = 0; s < steps; s++) {
            forward(wref, xa, ya, BATCH, ra);
            for (int b = 0; b < BUCKETS; b++)
                backward_bucket(b, xa, ra, BATCH, g + (size_t)b * BUCKET_LEN);
            update(wref, g);
        }
        free(ra);
        free(ya);
        free(xa);
    }
    MPI_Bcast(wref, NPARAM, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int j = 0; j < NPARAM; j++) {
        double e = fabs(w[j] - wref[j]) / (fabs(wref[j]) + 1e-3);
        max_err = e > max_err ? e : max_err;
    }
    MPI_Allreduce(MPI_IN_PLACE, &max_err, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);
    ok = max_err < 1e-9 && (steps < 2 || loss < first_loss);
    if (rank == 0) {
        printf("sgd_allreduce: %d ranks, %d steps, %d buckets x %d doubles "
               "per step in %.3f s (%.3f s waiting for allreduce)\n", size,
               steps, BUCKETS, BUCKET_LEN, elapsed, t_comm_wait);
        printf("sgd_allreduce: loss %.6f -> %.6f; weights on every rank match "
               "the serial run (max rel. error %.1e): %s\n", first_loss, loss,
               max_err, ok ? "OK" : "FAILED");
    }
    free(wref);
    free(gsum);
    free(g);
    free(w);
    free(res);
    free(y);
    free(x);
    MPI_Finalize();
    return ok ? 0 : 1;
}
