/* Shared bits of the coll_* tests: the non-commutative test op (affine
 * maps mod 10007 on MPI_2INT pairs, composed in rank order) and fills. */
#ifndef COLL_COMMON_H
#define COLL_COMMON_H
#include "../mpitest.h"
#include <string.h>

/* inout = in o inout, element-wise */
static inline void affine_apply(const int *in, int *inout, int n)
{
    for (int i = 0; i < n; i++) {
        long a = in[2 * i], b = in[2 * i + 1];
        long c = inout[2 * i], d = inout[2 * i + 1];
        inout[2 * i] = (int)(a * c % 10007);
        inout[2 * i + 1] = (int)((a * d + b) % 10007);
    }
}

static inline void affine_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    affine_apply(in, inout, *len);
}

/* rank r's pair i */
static inline void affine_fill(int *v, int r, int count)
{
    for (int i = 0; i < count; i++) {
        v[2 * i] = (r * 7 + i) % 13 + 2;
        v[2 * i + 1] = (r * 3 + i * 5) % 17;
    }
}

/* out = x_lo o ... o x_{hi-1} */
static inline void affine_expect(int *out, int lo, int hi, int count, int *scratch)
{
    affine_fill(out, hi - 1, count);
    for (int r = hi - 2; r >= lo; r--) {
        affine_fill(scratch, r, count);
        affine_apply(scratch, out, count);
    }
}
/* The classes a rank may report for counts that differ between ranks. */
static inline int coll_mismatch_err(int rc)
{
    int cls = MPI_SUCCESS;

    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls == MPI_ERR_TRUNCATE || cls == MPI_ERR_COUNT ||
           cls == MPI_ERR_OTHER;
}


/* The mismatch tests (coll_*mismatch.c): FAIL counts a failure in the
 * test's `errors` and names the rank (FAIL_RANK: the test's `rank`
 * unless it defines another before including this file). */
#ifndef FAIL_RANK
#define FAIL_RANK rank
#endif
#define FAIL(...)                                                            \
    do {                                                                     \
        fprintf(stderr, "rank %d: ", FAIL_RANK);                             \
        fprintf(stderr, __VA_ARGS__);                                        \
        fputc('\n', stderr);                                                 \
        errors++;                                                            \
    } while (0)

/* Their verdict: every rank's failures summed, " No Errors" on rank 0
 * when there were none; the exit status. */
static inline int coll_verdict(int errors)
{
    int rank;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(MPI_IN_PLACE, &errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && errors == 0)
        printf(" No Errors\n");
    return errors != 0;
}

#endif
