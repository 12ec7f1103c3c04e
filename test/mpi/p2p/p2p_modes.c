/* Send modes: synchronous (not complete before the receive matched),
 * ready, buffered (attach/detach, MPI_ERR_BUFFER when full), persistent. */
#include "../mpitest.h"
#include <string.h>
#include <unistd.h>

static void sync_semantics(int rank)
{
    int v = 7, flag = 0;
    MPI_Request rq;
    if (rank == 0) {
        MPI_Issend(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &rq);
        double t0 = MPI_Wtime();
        while (MPI_Wtime() - t0 < 0.1 && !flag)
            MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
        MT_CHECK(!flag, "Issend completed before the receive was posted");
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        MPI_Ssend(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
        /* a large synchronous message (rendezvous path) */
        static double big[1 << 18];
        big[5] = 5.5;
        MPI_Ssend(big, 1 << 18, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD);
    } else if (rank == 1) {
        usleep(400000);
        MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MT_CHECK(v == 7, "ssend data %d", v);
        static double big[1 << 18];
        MPI_Recv(big, 1 << 18, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        MT_CHECK(big[5] == 5.5, "large ssend data");
    }
}

static void ready(int rank)
{
    int v = 0, go = 1;
    MPI_Request rq;
    if (rank == 1) {
        MPI_Irecv(&v, 1, MPI_INT, 0, 10, MPI_COMM_WORLD, &rq);
        MPI_Send(&go, 1, MPI_INT, 0, 11, MPI_COMM_WORLD);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        MT_CHECK(v == 99, "rsend data %d", v);
    } else if (rank == 0) {
        MPI_Recv(&go, 1, MPI_INT, 1, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        v = 99;
        MPI_Rsend(&v, 1, MPI_INT, 1, 10, MPI_COMM_WORLD);
    }
}

static void buffered(int rank)
{
    /* messages past the rendezvous threshold stay in the attached buffer
     * until the receiver takes them, so the buffer really fills up */
    enum { N = 4, LEN = 1 << 18 };
    if (rank == 0) {
        int size = N * (LEN * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
        char *buf = malloc((size_t)size);
        static int data[LEN];
        MPI_Buffer_attach(buf, size);
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < LEN; j++)
                data[j] = i * LEN + j;
            MPI_Bsend(data, LEN, MPI_INT, 1, 20 + i, MPI_COMM_WORLD);
            data[0] = -1;   /* the buffered copy must be unaffected */
        }
        /* the buffer is full: one more is MPI_ERR_BUFFER */
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int rc = MPI_Bsend(data, LEN, MPI_INT, 1, 99, MPI_COMM_WORLD);
        int cls = MPI_SUCCESS;
        MPI_Error_class(rc, &cls);
        MT_CHECK(cls == MPI_ERR_BUFFER, "overfull bsend gave %d", rc);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        MPI_Barrier(MPI_COMM_WORLD);   /* now rank 1 may take them */
        void *out;
        int outsize;
        MPI_Buffer_detach(&out, &outsize);
        MT_CHECK(out == buf && outsize == size, "detach gave %p %d", out,
                 outsize);
        free(buf);
    } else {
        static int data[LEN];
        /* only after rank 0's overfull Bsend: a message taken earlier
         * frees its space (Bsend takes in finished sends before failing) */
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = N - 1; rank == 1 && i >= 0; i--) {
            MPI_Recv(data, LEN, MPI_INT, 0, 20 + i, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MT_CHECK(data[0] == i * LEN && data[LEN - 1] == i * LEN + LEN - 1,
                     "bsend %d data %d", i, data[0]);
        }
    }
}

static void persistent(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out = 0, in = -1;
    MPI_Request rq[2];
    MPI_Recv_init(&in, 1, MPI_INT, left, 30, MPI_COMM_WORLD, &rq[0]);
    MPI_Send_init(&out, 1, MPI_INT, right, 30, MPI_COMM_WORLD, &rq[1]);
    for (int it = 0; it < 10; it++) {
        out = rank * 1000 + it;
        MPI_Startall(2, rq);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        MT_CHECK(in == left * 1000 + it, "persistent iteration %d got %d", it,
                 in);
    }
    MT_CHECK(rq[0] != MPI_REQUEST_NULL, "persistent request was freed");
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
    /* persistent synchronous send */
    MPI_Ssend_init(&out, 1, MPI_INT, right, 31, MPI_COMM_WORLD, &rq[1]);
    MPI_Irecv(&in, 1, MPI_INT, left, 31, MPI_COMM_WORLD, &rq[0]);
    MPI_Start(&rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    MPI_Request_free(&rq[1]);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size >= 2) {
        sync_semantics(rank);
        ready(rank);
        buffered(rank);
    }
    persistent(rank, size);
    return mt_finish();
}
