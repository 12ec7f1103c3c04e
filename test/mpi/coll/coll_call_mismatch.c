/*
 * Ranks of one intracommunicator that call
 * different collectives of the same bytes, or name different roots, must
 * end in an error where a rank needs data of the other call, never in
 * MPI_SUCCESS with the other call's data.  Rank 0 calls A, the others B:
 *  - Allreduce of 2n ints against Reduce_scatter_block of 2 ints a rank
 *    (same bytes and buffers on the shm path: every rank fails);
 *  - Bcast of 1 int from rank 1 against Allgather of 1 int (every rank);
 *  - Barrier against Bcast of 1 int from rank 0 (every rank);
 *  - Allreduce of 1 int against Reduce of 1 int to rank 1 (ranks 0 and
 *    1 fail: the other ranks only send);
 *  - blocking shm only: Bcast from rank 1 against Bcast from rank 0
 *    (every rank), Reduce to rank 0 against Reduce to rank 1 (ranks 0
 *    and 1).  Over p2p these still hang (no rank sends).
 * Each runs blocking, nonblocking and persistent (where the form
 * exists); afterwards a checked allreduce and bcast on the same comm.
 * The shm paths once compared only byte counts: the first three
 * returned MPI_SUCCESS on some ranks (rank 0 of the second took rank 1's
 * allgather block as its bcast data).
 */
#include "coll_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, errors, verbose;
static MPI_Comm comm;

/* form 0 blocking, 1 nonblocking, 2 persistent: the call's result */
static int finish(int rc, MPI_Request *q, int form)
{
    if (form == 2 && rc == MPI_SUCCESS)
        rc = MPI_Start(q);
    if (form != 0 && rc == MPI_SUCCESS)
        rc = MPI_Wait(q, MPI_STATUS_IGNORE);
    else if (form != 0 && *q != MPI_REQUEST_NULL && form != 2)
        (void)MPI_Wait(q, MPI_STATUS_IGNORE);
    if (form == 2 && *q != MPI_REQUEST_NULL)
        MPI_Request_free(q);
    return rc;
}

static int allreduce(int form, int *s, int *r, int n, MPI_Request *q)
{
    return form == 0 ? MPI_Allreduce(s, r, n, MPI_INT, MPI_SUM, comm)
           : form == 1
               ? MPI_Iallreduce(s, r, n, MPI_INT, MPI_SUM, comm, q)
               : MPI_Allreduce_init(s, r, n, MPI_INT, MPI_SUM, comm,
                                    MPI_INFO_NULL, q);
}

static int bcast(int form, int *b, int n, int root, MPI_Request *q)
{
    return form == 0   ? MPI_Bcast(b, n, MPI_INT, root, comm)
           : form == 1 ? MPI_Ibcast(b, n, MPI_INT, root, comm, q)
                       : MPI_Bcast_init(b, n, MPI_INT, root, comm,
                                        MPI_INFO_NULL, q);
}

static int reduce(int form, int *s, int *r, int n, int root, MPI_Request *q)
{
    return form == 0 ? MPI_Reduce(s, r, n, MPI_INT, MPI_SUM, root, comm)
           : form == 1
               ? MPI_Ireduce(s, r, n, MPI_INT, MPI_SUM, root, comm, q)
               : MPI_Reduce_init(s, r, n, MPI_INT, MPI_SUM, root, comm,
                                 MPI_INFO_NULL, q);
}

static int ar_vs_rsb(int form, int *s, int *r, MPI_Request *q)
{
    if (rank == 0)
        return allreduce(form, s, r, 2 * size, q);
    return form == 0 ? MPI_Reduce_scatter_block(s, r, 2, MPI_INT, MPI_SUM,
                                                comm)
           : form == 1
               ? MPI_Ireduce_scatter_block(s, r, 2, MPI_INT, MPI_SUM, comm, q)
               : MPI_Reduce_scatter_block_init(s, r, 2, MPI_INT, MPI_SUM,
                                               comm, MPI_INFO_NULL, q);
}

static int bcast_vs_allgather(int form, int *s, int *r, MPI_Request *q)
{
    if (rank == 0)
        return bcast(form, r, 1, 1, q);
    return form == 0 ? MPI_Allgather(s, 1, MPI_INT, r, 1, MPI_INT, comm)
           : form == 1
               ? MPI_Iallgather(s, 1, MPI_INT, r, 1, MPI_INT, comm, q)
               : MPI_Allgather_init(s, 1, MPI_INT, r, 1, MPI_INT, comm,
                                    MPI_INFO_NULL, q);
}

static int barrier_vs_bcast(int form, int *s, int *r, MPI_Request *q)
{
    (void)s;
    if (rank != 0)
        return bcast(form, r, 1, 0, q);
    return form == 0   ? MPI_Barrier(comm)
           : form == 1 ? MPI_Ibarrier(comm, q)
                       : MPI_Barrier_init(comm, MPI_INFO_NULL, q);
}

static int allreduce_vs_reduce(int form, int *s, int *r, MPI_Request *q)
{
    return rank == 0 ? allreduce(form, s, r, 1, q)
                     : reduce(form, s, r, 1, 1, q);
}

static int bcast_roots(int form, int *s, int *r, MPI_Request *q)
{
    (void)s;
    return bcast(form, r, 2, rank == 0 ? 1 : 0, q);
}

static int reduce_roots(int form, int *s, int *r, MPI_Request *q)
{
    return reduce(form, s, r, 2, rank == 0 ? 0 : 1, q);
}

/* The comm still works: a checked allreduce and bcast. */
static void check_usable(const char *after)
{
    int v = rank + 1, sum = 0, b[2] = {0, 0};

    if (MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, comm) != MPI_SUCCESS ||
        sum != size * (size + 1) / 2)
        FAIL("allreduce after %s: %d, want %d", after, sum,
             size * (size + 1) / 2);
    if (rank == size - 1)
        b[0] = 77, b[1] = 78;
    if (MPI_Bcast(b, 2, MPI_INT, size - 1, comm) != MPI_SUCCESS ||
        b[0] != 77 || b[1] != 78)
        FAIL("bcast after %s: %d %d", after, b[0], b[1]);
}

typedef struct {
    const char *name;
    int (*run)(int form, int *s, int *r, MPI_Request *q);
    int all;              /* every rank must fail, else ranks 0 and 1 */
    int shm_only;         /* blocking on the shm path only (p2p hangs) */
} mcase_t;

static void run_case(const mcase_t *c, int form)
{
    int s[2 * 64], r[2 * 64];
    MPI_Request q = MPI_REQUEST_NULL;
    char what[96];

    for (int i = 0; i < 2 * 64; i++)
        s[i] = rank + 1, r[i] = -1;
    snprintf(what, sizeof(what), "%s (form %d)", c->name, form);
    if (verbose)
        fprintf(stderr, "rank %d: %s\n", rank, what);
    int rc = finish(c->run(form, s, r, &q), &q, form);
    if (rc != MPI_SUCCESS && !coll_mismatch_err(rc))
        FAIL("%s: error class of %d is not a mismatch's", what, rc);
    if ((c->all || rank <= 1) && rc == MPI_SUCCESS)
        FAIL("%s: returned success", what);
    check_usable(what);
}

int main(int argc, char **argv)
{
    static const mcase_t cases[] = {
        {"allreduce vs reduce_scatter_block", ar_vs_rsb, 1, 0},
        {"bcast from 1 vs allgather", bcast_vs_allgather, 1, 0},
        {"barrier vs bcast from 0", barrier_vs_bcast, 1, 0},
        {"allreduce vs reduce to 1", allreduce_vs_reduce, 0, 0},
        {"bcast from 1 vs bcast from 0", bcast_roots, 1, 1},
        {"reduce to 0 vs reduce to 1", reduce_roots, 0, 1},
    };
    const char *e = getenv("UCMPI_COLL_SHM");
    int shm_on = e == NULL || strcmp(e, "0") != 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    verbose = getenv("XTEST_VERBOSE") != NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    check_usable("nothing");      /* sets up comm's shm segment */
    if (size > 1 && size <= 64)
        for (int form = 0; form < 3; form++)
            for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
                if (!cases[i].shm_only || (shm_on && form == 0))
                    run_case(&cases[i], form);
    MPI_Comm_free(&comm);
    int rc = coll_verdict(errors);
    MPI_Finalize();
    return rc;
}
