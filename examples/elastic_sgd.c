/*
 * elastic_sgd: data-parallel training that survives dead ranks (ULFM).
 *
 * A linear model is trained by full-batch gradient descent: each rank computes
 * the gradient over its shard of the samples and MPI_Allreduce sums the
 * gradients.  When a rank dies (kill -9 at any moment, rank 0 included), the
 * survivors' allreduce fails; each survivor revokes the communicator (so that
 * none stays blocked in it), shrinks it to the survivors, re-shards the
 * samples over the new size, rolls back the step it may have finished alone,
 * and goes on.  The full-batch gradient does not depend on the sharding, so
 * the result must match a serial replay of the same steps, which every
 * survivor checks at the end.
 *
 *   mpiexec --with-ft ulfm -n 4 examples/elastic_sgd [STEPS [RANK:STEP ...]]
 *
 * RANK:STEP makes world rank RANK kill itself (SIGKILL) before step STEP;
 * or kill any rank from outside.  Prints each recovery and the time lost;
 * exits 0 on the survivors when the check passed.
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NPARAM 256
#define NSAMPLE 4096
#define LR 0.5

static double feature(int i, int j)
{
    unsigned x = (unsigned)i * 2654435761u ^ (unsigned)j * 40503u;
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    x ^= x >> 15;
    return (double)(x % 2000) / 1000.0 - 1.0;
}

static double x[NSAMPLE][NPARAM], y[NSAMPLE];

static void make_data(void)
{
    for (int i = 0; i < NSAMPLE; i++) {
        y[i] = 0;
        for (int j = 0; j < NPARAM; j++) {
            x[i][j] = feature(i, j) / sqrt(NPARAM);
            y[i] += x[i][j] * sin(0.1 * j);
        }
    }
}

/* Gradient (and loss, last) of samples rank, rank + size, ... into g. */
static void gradient(const double *w, int rank, int size, double *g)
{
    memset(g, 0, (NPARAM + 1) * sizeof(double));
    for (int i = rank; i < NSAMPLE; i += size) {
        double e = -y[i];
        for (int j = 0; j < NPARAM; j++)
            e += w[j] * x[i][j];
        for (int j = 0; j < NPARAM; j++)
            g[j] += e * x[i][j];
        g[NPARAM] += 0.5 * e * e;
    }
}

static void step(double *w, const double *g)
{
    for (int j = 0; j < NPARAM; j++)
        w[j] -= LR * g[j] / NSAMPLE * NPARAM / 16;
}

/* World ranks of comm's failed members, printed into buf. */
static void failed_ranks(MPI_Comm comm, char *buf, size_t len)
{
    MPI_Group f, w;
    int n, r, wr;
    size_t o = 0;

    MPIX_Comm_get_failed(comm, &f);
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    MPI_Group_size(f, &n);
    buf[0] = '\0';
    for (r = 0; r < n && o + 16 < len; r++) {
        MPI_Group_translate_ranks(f, 1, &r, w, &wr);
        o += (size_t)snprintf(buf + o, len - o, "%s%d", r ? "," : "", wr);
    }
    MPI_Group_free(&f);
    MPI_Group_free(&w);
}

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 200, me, world, rank, size, k = 0;
    int kill_step = -1, recoveries = 0, rc;
    static double w[NPARAM], w_prev[NPARAM], g[NPARAM + 1], sum[NPARAM + 1];
    double loss0 = -1, loss = 0, t0, lost = 0;
    MPI_Comm comm;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    for (int a = 2; a < argc; a++) {
        int r, s;
        if (sscanf(argv[a], "%d:%d", &r, &s) == 2 && r == me)
            kill_step = s;
    }
    make_data();
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    t0 = MPI_Wtime();
    for (;;) {
        int flag = 1, agreed = 0;
        MPI_Comm_rank(comm, &rank);
        MPI_Comm_size(comm, &size);
        if (k == steps) {
            /* the end is agreed (uniformly), as a rank that finished its
             * last allreduce may be the only one that did */
            MPIX_Comm_agree(comm, &flag);
            if (flag)
                break;
            agreed = 1;
            rc = MPIX_ERR_REVOKED;
        } else {
            if (k == kill_step) {
                printf("world rank %d: killing itself before step %d\n", me, k);
                fflush(stdout);
                raise(SIGKILL);
            }
            gradient(w, rank, size, g);
            rc = MPI_Allreduce(g, sum, NPARAM + 1, MPI_DOUBLE, MPI_SUM, comm);
            if (rc == MPI_SUCCESS) {
                memcpy(w_prev, w, sizeof(w));
                step(w, sum);
                loss = sum[NPARAM] / NSAMPLE;
                if (loss0 < 0)
                    loss0 = loss;
                k++;
                continue;
            }
        }
        /* a rank died: interrupt everyone, then go on with the survivors */
        double t1 = MPI_Wtime();
        char who[256];
        int ec, kmin, old = size;
        MPI_Comm survivors;
        MPI_Error_class(rc, &ec);
        MPIX_Comm_revoke(comm);
        if (!agreed) {        /* pairs with the finished ranks' agreement */
            flag = 0;
            MPIX_Comm_agree(comm, &flag);
        }
        if (MPIX_Comm_shrink(comm, &survivors) != MPI_SUCCESS) {
            fprintf(stderr, "world rank %d: shrink failed\n", me);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        failed_ranks(comm, who, sizeof(who));
        MPI_Comm_free(&comm);
        comm = survivors;
        MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
        /* the step a rank may have finished alone is done again by all */
        rc = MPI_Allreduce(&k, &kmin, 1, MPI_INT, MPI_MIN, comm);
        if (rc != MPI_SUCCESS)
            continue;         /* another failure: recover again */
        if (k > kmin)
            memcpy(w, w_prev, sizeof(w));
        k = kmin;
        MPI_Comm_rank(comm, &rank);
        MPI_Comm_size(comm, &size);
        lost += MPI_Wtime() - t1;
        recoveries++;
        if (rank == 0)
            printf("step %d: %s (world rank(s) %s failed); recovered in %.1f ms: "
                   "%d -> %d ranks, samples re-sharded\n", k,
                   ec == MPIX_ERR_REVOKED ? "communicator revoked"
                                          : "allreduce failed",
                   who[0] ? who : "?", (MPI_Wtime() - t1) * 1e3, old, size);
    }
    double total = MPI_Wtime() - t0;

    /* check against a serial replay of the same steps */
    static double ws[NPARAM];
    for (int s = 0; s < steps; s++) {
        gradient(ws, 0, 1, g);
        step(ws, g);
    }
    double err = 0;
    for (int j = 0; j < NPARAM; j++)
        err = fmax(err, fabs(w[j] - ws[j]));
    int ok = err < 1e-9 && loss < 0.5 * loss0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank == 0 || !ok)
        printf("%s: %d steps on %d of %d ranks, %d recover%s; loss %.3g -> "
               "%.3g, max |w - serial| = %.2g; %.3f s, %.3f s lost to "
               "recovery\n", ok ? "OK" : "FAILED", steps, size, world,
               recoveries, recoveries == 1 ? "y" : "ies", loss0, loss, err,
               total, lost);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return ok ? 0 : 1;
}
