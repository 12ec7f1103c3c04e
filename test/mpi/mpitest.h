/* Helpers for self-checking test programs: a failed check prints where and
 * why, and the program exits non-zero at mt_finish() (mpiexec then fails). */
#ifndef MPITEST_H
#define MPITEST_H
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int mt_errors;

#define MT_CHECK(cond, ...)                                               \
    do {                                                                  \
        if (!(cond)) {                                                    \
            int mt_r_ = -1;                                               \
            MPI_Comm_rank(MPI_COMM_WORLD, &mt_r_);                        \
            fprintf(stderr, "[rank %d] %s:%d: check failed: %s: ", mt_r_, \
                    __FILE__, __LINE__, #cond);                           \
            fprintf(stderr, __VA_ARGS__);                                 \
            fprintf(stderr, "\n");                                        \
            mt_errors++;                                                  \
        }                                                                 \
    } while (0)

#define MT_CHECK_RC(rc) MT_CHECK((rc) == MPI_SUCCESS, "rc=%d", (rc))

/* Finalizes and returns the process exit code. */
static inline int mt_finish(void)
{
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Finalize();
    if (mt_errors)
        fprintf(stderr, "[rank %d] %d check(s) failed\n", rank, mt_errors);
    return mt_errors ? 1 : 0;
}
#endif
