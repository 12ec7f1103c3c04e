/* Connect/accept between two separately started mpiexec jobs:
 *   dpm_job server FILE   opens a port, writes its name to FILE, accepts
 *   dpm_job client FILE   waits for FILE, connects
 * With DPM_SERVICE=name in the environment the server also publishes the
 * port under that name and the client looks it up (the file only says when).
 * Both check p2p, collectives and a merge over the intercommunicator, print
 * "dpm <role> of N ranks: remote M OK" at rank 0 and exit non-zero on error.
 *   dpm_job server FILE K  accepts K clients in turn (each disconnects and
 *                          finishes while the server goes on) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One connection: exchange over it, then disconnect. */
static int one_round(const char *port, int server, int rank, int size,
                     int *rsize_out)
{
    MPI_Comm ic, merged;
    int rsize, v, sum, errs = 0, mrank, msize;

    if (server)
        MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic);
    else
        MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic);
    MPI_Comm_remote_size(ic, &rsize);
    /* each rank trades with remote rank (rank % rsize) */
    {
        int out = (server ? 100 : 200) + rank, in = -1, peer = rank % rsize;
        MPI_Request r[2];
        MPI_Irecv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 5, ic, &r[0]);
        MPI_Isend(&out, 1, MPI_INT, peer, 5, ic, &r[1]);
        /* the remote ranks that send to us: those with (their rank % size)
         * == rank; receive them all */
        MPI_Wait(&r[1], MPI_STATUS_IGNORE);
        int senders = 0;
        for (int k = 0; k < rsize; k++)
            senders += k % size == rank;
        for (int k = 0; k < senders; k++) {
            MPI_Status st;
            if (k > 0)
                MPI_Irecv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 5, ic, &r[0]);
            MPI_Wait(&r[0], &st);
            if (in != (server ? 200 : 100) + st.MPI_SOURCE)
                errs++;
        }
        if (senders == 0)
            MPI_Cancel(&r[0]), MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    }
    v = rank + 1;
    MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, ic);
    if (sum != rsize * (rsize + 1) / 2)
        errs++;
    MPI_Intercomm_merge(ic, !server, &merged);
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    if (msize != size + rsize || mrank != (server ? 0 : rsize) + rank)
        errs++;
    v = mrank;
    MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, merged);
    if (sum != msize * (msize - 1) / 2)
        errs++;
    MPI_Barrier(merged);
    MPI_Comm_free(&merged);
    MPI_Comm_disconnect(&ic);
    *rsize_out = rsize;
    return errs;
}

int main(int argc, char **argv)
{
    char port[MPI_MAX_PORT_NAME] = "";
    int rank, size, server, errs = 0, rounds;

    const char *svc = getenv("DPM_SERVICE");
    if (svc != NULL && *svc == '\0')
        svc = NULL;
    if (argc < 3)
        return 2;
    server = strcmp(argv[1], "server") == 0;
    rounds = server && argc > 3 ? atoi(argv[3]) : 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (server && rank == 0) {
        char tmp[4096];
        FILE *f;
        MPI_Open_port(MPI_INFO_NULL, port);
        if (svc != NULL)
            MPI_Publish_name(svc, MPI_INFO_NULL, port);
        snprintf(tmp, sizeof(tmp), "%s.tmp", argv[2]);
        f = fopen(tmp, "w");
        fprintf(f, "%s\n", port);
        fclose(f);
        rename(tmp, argv[2]);     /* the client never reads half a name */
    } else if (rank == 0) {
        FILE *f = NULL;
        for (int i = 0; i < 1200 && (f = fopen(argv[2], "r")) == NULL; i++)
            usleep(100000);
        if (f == NULL || fgets(port, sizeof(port), f) == NULL)
            MPI_Abort(MPI_COMM_WORLD, 3);
        port[strcspn(port, "\n")] = '\0';
        fclose(f);
        if (svc != NULL)
            MPI_Lookup_name(svc, MPI_INFO_NULL, port);
    }
    for (int k = 0; k < rounds; k++) {
        int rsize = 0, e = one_round(port, server, rank, size, &rsize);
        MPI_Allreduce(MPI_IN_PLACE, &e, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 0)
            printf("dpm %s of %d ranks: remote %d %s\n", argv[1], size, rsize,
                   e ? "FAILED" : "OK");
        fflush(stdout);
        errs += e;
    }
    if (server && rank == 0 && svc != NULL)
        MPI_Unpublish_name(svc, MPI_INFO_NULL, port);
    if (server && rank == 0)
        MPI_Close_port(port);
    MPI_Finalize();
    return errs != 0;
}
