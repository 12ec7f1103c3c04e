/* Communicators that reuse a freed communicator's context id must not
 * take its leftovers.  A schedule that stalls tells the peer it waits for
 * (a stall message); a peer that never stalls there leaves it unread.
 * Part 1: rank `late` enters an MPI_Iscan on A late (the others stall and
 * tell it), A is freed, B = dup(world) takes A's id, and there `late`
 * stalls in an MPI_Iallreduce at the same collective number: A's stall
 * messages are not B's ("collectives out of step" was a false error;
 * every rank in turn, twice: whether a stall message is left depends on
 * timing, at 2 ranks it nearly always is).
 * Part 2 (MPI_THREAD_MULTIPLE, as MPICH's threads/comm/idup_nb): three
 * threads per process idup their own communicators several times at
 * once, run nonblocking collectives on them, check the results, and check
 * that every process means the same communicator (an allreduce of the
 * thread's and the comm's number on each). */
#include <mpi.h>
#include <pthread.h>
#include <unistd.h>
#include "../mpitest.h"

#define NTHREADS 3
#define NIDUP 3
#define ITERS 3
#define LATE_US 300000

static int rank, size;

static void check_req(int rc, const char *what)
{
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (rc != MPI_SUCCESS)
        MPI_Error_string(rc, msg, &len);
    MT_CHECK(rc == MPI_SUCCESS, "%s: %s", what, msg);
}

/* Part 1, with `late` the rank that comes late to A, early to B. */
static void reuse_after(int late)
{
    MPI_Comm a, b;
    MPI_Request req;
    int v = rank + 1, sum = 0;

    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    if (rank == late)
        usleep(LATE_US);
    MPI_Iscan(&v, &sum, 1, MPI_INT, MPI_SUM, a, &req);
    check_req(MPI_Wait(&req, MPI_STATUS_IGNORE), "MPI_Iscan on A");
    MT_CHECK(sum == (rank + 1) * (rank + 2) / 2, "scan %d", sum);
    MPI_Comm_free(&a);
    MPI_Barrier(MPI_COMM_WORLD);      /* A's id is free everywhere */

    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    if (rank != late)
        usleep(LATE_US);
    MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, b, &req);
    check_req(MPI_Wait(&req, MPI_STATUS_IGNORE), "MPI_Iallreduce on B");
    MT_CHECK(sum == size * (size + 1) / 2, "allreduce %d", sum);
    MPI_Comm_free(&b);
    MPI_Barrier(MPI_COMM_WORLD);
}

static MPI_Comm parents[NTHREADS];

/* Every process must mean the same comm c by (t, j). */
static void check_same(MPI_Comm c, int t, int j)
{
    int mine = 100 * t + j, got = 0, n;
    MPI_Comm_size(c, &n);
    check_req(MPI_Allreduce(&mine, &got, 1, MPI_INT, MPI_SUM, c),
              "MPI_Allreduce (identity)");
    MT_CHECK(got == n * mine, "thread %d comm %d: sum %d, not %d", t, j, got,
             n * mine);
}

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    MPI_Comm parent = parents[t];

    for (int it = 0; it < ITERS; it++) {
        MPI_Comm comms[2 * NIDUP];
        MPI_Request reqs[2 * NIDUP + 3];
        int n = 0, scan = 0, sum = 0, bc = rank == 0 ? 7 : 0;

        if (t == (rank + it) % NTHREADS)
            usleep(100000);           /* threads start out of order */
        for (int j = 0; j < NIDUP; j++)
            MPI_Comm_idup(parent, &comms[j], &reqs[n++]);
        MPI_Iscan(&rank, &scan, 1, MPI_INT, MPI_SUM, parent, &reqs[n++]);
        check_req(MPI_Wait(&reqs[0], MPI_STATUS_IGNORE), "MPI_Comm_idup");
        for (int j = 0; j < NIDUP; j++)
            MPI_Comm_idup(comms[0], &comms[NIDUP + j], &reqs[n++]);
        MPI_Iallreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comms[0],
                       &reqs[n++]);
        MPI_Ibcast(&bc, 1, MPI_INT, 0, parent, &reqs[n++]);
        check_req(MPI_Waitall(n - 1, reqs + 1, MPI_STATUSES_IGNORE),
                  "MPI_Waitall");
        MT_CHECK(scan == rank * (rank + 1) / 2, "thread %d scan %d", t, scan);
        MT_CHECK(sum == size * (size - 1) / 2, "thread %d sum %d", t, sum);
        MT_CHECK(bc == 7, "thread %d bcast %d", t, bc);
        for (int j = 0; j < 2 * NIDUP; j++) {
            check_same(comms[j], t, j);
            MPI_Comm_free(&comms[j]);
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    pthread_t th[NTHREADS];
    MPI_Request reqs[NTHREADS];

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i < 2 * size && size > 1; i++)
        reuse_after(i % size);
    if (provided < MPI_THREAD_MULTIPLE) {
        MT_CHECK(0, "MPI_THREAD_MULTIPLE not provided (%d)", provided);
        return mt_finish();
    }
    for (int t = 0; t < NTHREADS; t++)
        MPI_Comm_idup(MPI_COMM_WORLD, &parents[t], &reqs[t]);
    check_req(MPI_Waitall(NTHREADS, reqs, MPI_STATUSES_IGNORE),
              "MPI_Waitall (parents)");
    for (int t = 0; t < NTHREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *)(long)t);
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < NTHREADS; t++)
        MPI_Comm_free(&parents[t]);
    return mt_finish();
}
