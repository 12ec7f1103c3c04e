/*
 * moe_alltoallv: mixture-of-experts token routing, as in expert-parallel
 * training.  Every rank hosts EXPERTS_PER_RANK experts and holds a batch
 * of tokens (a different number per rank).  A gate picks one expert per
 * token (skewed: popular experts get many tokens, some ranks get none from
 * some peers); the tokens travel to their expert's rank with
 * MPI_Alltoallv (dispatch), the expert transforms them, and a second
 * MPI_Alltoallv brings them home (combine), where they are put back in
 * their original order.
 *
 * Self-check: every token comes back transformed by the expert the gate
 * chose for it, and no token is lost or duplicated.
 *   mpiexec -n 4 examples/moe_alltoallv
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIM 16                /* floats per token (hidden size) */
#define EXPERTS_PER_RANK 2

/* Gate: the expert of token k of rank r.  Skewed towards low experts;
 * odd ranks never pick the last rank's experts (zero counts). */
static int gate(int r, int k, int nexperts)
{
    unsigned h = (unsigned)(r * 7919 + k) * 2654435761u;
    h ^= h >> 16;
    int a = (int)(h % (unsigned)nexperts);
    int b = (int)((h >> 8) % (unsigned)nexperts);
    int e = nexperts - 1 - (a > b ? a : b);     /* low experts popular */
    if ((r & 1) && e >= nexperts - EXPERTS_PER_RANK &&
        nexperts > 2 * EXPERTS_PER_RANK)
        e = 0;
    return e;
}

static float input(int r, int k, int d)
{
    return (float)((r * 131 + k * 17 + d * 3) % 101) / 8.0f;
}

/* Expert e's "feed-forward network". */
static float expert_fn(int e, float x)
{
    return x * (float)(e + 1) + (float)e;
}

int main(int argc, char **argv)
{
    int rank, size, errors = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int nexperts = EXPERTS_PER_RANK * size;
    int ntok = 40 + 23 * rank;            /* uneven batches */

    /* one token = DIM floats: a derived type keeps counts in tokens */
    MPI_Datatype token_t;
    MPI_Type_contiguous(DIM, MPI_FLOAT, &token_t);
    MPI_Type_commit(&token_t);

    /* route: count per destination rank, then order tokens by it */
    int *expert = malloc(sizeof(int) * ntok);
    int *scount = calloc(size, sizeof(int)), *rcount = malloc(sizeof(int) * size);
    int *sdispl = malloc(sizeof(int) * size), *rdispl = malloc(sizeof(int) * size);
    for (int k = 0; k < ntok; k++) {
        expert[k] = gate(rank, k, nexperts);
        scount[expert[k] / EXPERTS_PER_RANK]++;
    }
    for (int p = 0, off = 0; p < size; p++) {
        sdispl[p] = off;
        off += scount[p];
    }
    float *sbuf = malloc(sizeof(float) * DIM * (ntok ? ntok : 1));
    int *smeta = malloc(sizeof(int) * 2 * (ntok ? ntok : 1));  /* expert, slot */
    int *fill = calloc(size, sizeof(int));
    for (int k = 0; k < ntok; k++) {
        int p = expert[k] / EXPERTS_PER_RANK, slot = sdispl[p] + fill[p]++;
        for (int d = 0; d < DIM; d++)
            sbuf[(size_t)slot * DIM + d] = input(rank, k, d);
        smeta[2 * slot] = expert[k];
        smeta[2 * slot + 1] = k;
    }

    /* dispatch: counts first, then the tokens and their metadata */
    MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, MPI_COMM_WORLD);
    int nrecv = 0;
    for (int p = 0; p < size; p++) {
        rdispl[p] = nrecv;
        nrecv += rcount[p];
    }
    float *rbuf = malloc(sizeof(float) * DIM * (nrecv ? nrecv : 1));
    int *rmeta = malloc(sizeof(int) * 2 * (nrecv ? nrecv : 1));
    MPI_Alltoallv(sbuf, scount, sdispl, token_t, rbuf, rcount, rdispl,
                  token_t, MPI_COMM_WORLD);
    int *scount2 = malloc(sizeof(int) * size), *sdispl2 = malloc(sizeof(int) * size);
    int *rcount2 = malloc(sizeof(int) * size), *rdispl2 = malloc(sizeof(int) * size);
    for (int p = 0; p < size; p++) {
        scount2[p] = 2 * scount[p];
        sdispl2[p] = 2 * sdispl[p];
        rcount2[p] = 2 * rcount[p];
        rdispl2[p] = 2 * rdispl[p];
    }
    MPI_Alltoallv(smeta, scount2, sdispl2, MPI_INT, rmeta, rcount2, rdispl2,
                  MPI_INT, MPI_COMM_WORLD);

    /* experts: each token must be for one of mine */
    for (int t = 0; t < nrecv; t++) {
        int e = rmeta[2 * t];
        if (e / EXPERTS_PER_RANK != rank) {
            fprintf(stderr, "moe_alltoallv: rank %d got a token for expert "
                    "%d\n", rank, e);
            errors++;
            continue;
        }
        for (int d = 0; d < DIM; d++)
            rbuf[(size_t)t * DIM + d] = expert_fn(e, rbuf[(size_t)t * DIM + d]);
    }

    /* combine: the reverse exchange, back into the dispatch order */
    MPI_Alltoallv(rbuf, rcount, rdispl, token_t, sbuf, scount, sdispl,
                  token_t, MPI_COMM_WORLD);

    /* un-permute and check every token */
    int *seen = calloc(ntok ? ntok : 1, sizeof(int));
    for (int slot = 0; slot < ntok; slot++) {
        int k = smeta[2 * slot + 1];
        seen[k]++;
        for (int d = 0; d < DIM; d++) {
            float want = expert_fn(expert[k], input(rank, k, d));
            if (sbuf[(size_t)slot * DIM + d] != want) {
                if (errors < 5)
                    fprintf(stderr, "moe_alltoallv: rank %d token %d dim %d: "
                            "%g, expected %g\n", rank, k, d,
                            sbuf[(size_t)slot * DIM + d], want);
                errors++;
            }
        }
    }
    for (int k = 0; k < ntok; k++)
        errors += seen[k] != 1;

    /* report: the routing matrix and the totals */
    long sent = ntok, received = nrecv;
    MPI_Allreduce(MPI_IN_PLACE, &sent, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &received, 1, MPI_LONG, MPI_SUM,
                  MPI_COMM_WORLD);
    errors += sent != received;
    int *matrix = rank == 0 ? malloc(sizeof(int) * size * size) : NULL;
    MPI_Gather(scount, size, MPI_INT, matrix, size, MPI_INT, 0,
               MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("moe_alltoallv: %d ranks x %d experts, %ld tokens of %d "
               "floats; tokens sent (row) to (column):\n", size,
               EXPERTS_PER_RANK, sent, DIM);
        for (int r = 0; r < size && size <= 16; r++) {
            printf("  rank %2d:", r);
            for (int p = 0; p < size; p++)
                printf(" %4d", matrix[r * size + p]);
            printf("\n");
        }
        printf("moe_alltoallv: %ld tokens dispatched, %ld received by "
               "experts, all returned transformed by their expert: %s\n",
               sent, received, errors ? "FAILED" : "OK");
        free(matrix);
    }

    free(seen);
    free(rmeta);
    free(rbuf);
    free(rdispl2);
    free(rcount2);
    free(sdispl2);
    free(scount2);
    free(fill);
    free(smeta);
    free(sbuf);
    free(rdispl);
    free(sdispl);
    free(rcount);
    free(scount);
    free(expert);
    MPI_Type_free(&token_t);
    MPI_Finalize();
    return errors ? 1 : 0;
}
