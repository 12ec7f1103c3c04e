/* Every large-count (_c) point-to-point call at ordinary counts, around a
 * ring: data, MPI_Get_count_c and the modes' semantics (ready send after
 * the receive is posted, buffered from an attached buffer). */
#include "../mpitest.h"
#include <string.h>

enum { N = 1000 };
static int rank, size, right, left;
static int out[N], in[N];

static void fill(int seed)
{
    for (int i = 0; i < N; i++)
        out[i] = seed * 100000 + rank * 1000 + i;
    memset(in, 0xff, sizeof(in));
}

static void check(int seed, const MPI_Status *st, const char *what)
{
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += in[i] != seed * 100000 + left * 1000 + i;
    MPI_Count c = -1;
    if (st != MPI_STATUS_IGNORE)
        MPI_Get_count_c(st, MPI_INT, &c);
    MT_CHECK(bad == 0 && (st == MPI_STATUS_IGNORE || c == N),
             "%s: %d wrong, count %lld", what, bad, (long long)c);
}

static void blocking(void)
{
    MPI_Status st;
    MPI_Request rq;

    fill(1);
    MPI_Send_c(out, N, MPI_INT, right, 1, MPI_COMM_WORLD);
    MPI_Recv_c(in, N, MPI_INT, left, 1, MPI_COMM_WORLD, &st);
    check(1, &st, "Send_c/Recv_c");

    fill(2);
    MPI_Irecv_c(in, N, MPI_INT, left, 2, MPI_COMM_WORLD, &rq);
    MPI_Ssend_c(out, N, MPI_INT, right, 2, MPI_COMM_WORLD);
    MPI_Wait(&rq, &st);
    check(2, &st, "Ssend_c/Irecv_c");

    fill(3);
    MPI_Irecv_c(in, N, MPI_INT, left, 3, MPI_COMM_WORLD, &rq);
    MPI_Barrier(MPI_COMM_WORLD);       /* every receive is posted */
    MPI_Rsend_c(out, N, MPI_INT, right, 3, MPI_COMM_WORLD);
    MPI_Wait(&rq, &st);
    check(3, &st, "Rsend_c");

    fill(4);
    MPI_Bsend_c(out, N, MPI_INT, right, 4, MPI_COMM_WORLD);
    out[0] = -1;                       /* the buffered copy left already */
    MPI_Recv_c(in, N, MPI_INT, left, 4, MPI_COMM_WORLD, &st);
    check(4, &st, "Bsend_c");

    fill(5);
    MPI_Sendrecv_c(out, N, MPI_INT, right, 5, in, N, MPI_INT, left, 5,
                   MPI_COMM_WORLD, &st);
    check(5, &st, "Sendrecv_c");

    fill(6);
    memcpy(in, out, sizeof(in));
    MPI_Sendrecv_replace_c(in, N, MPI_INT, right, 6, left, 6, MPI_COMM_WORLD,
                           &st);
    check(6, &st, "Sendrecv_replace_c");
}

static void nonblocking(void)
{
    MPI_Request rq[2];
    MPI_Status st[2];

    int modes = 4;
    for (int m = 0; m < modes; m++) {
        int tag = 10 + m;
        fill(tag);
        MPI_Irecv_c(in, N, MPI_INT, left, tag, MPI_COMM_WORLD, &rq[0]);
        MPI_Barrier(MPI_COMM_WORLD);
        if (m == 0)
            MPI_Isend_c(out, N, MPI_INT, right, tag, MPI_COMM_WORLD, &rq[1]);
        else if (m == 1)
            MPI_Issend_c(out, N, MPI_INT, right, tag, MPI_COMM_WORLD, &rq[1]);
        else if (m == 2)
            MPI_Irsend_c(out, N, MPI_INT, right, tag, MPI_COMM_WORLD, &rq[1]);
        else
            MPI_Ibsend_c(out, N, MPI_INT, right, tag, MPI_COMM_WORLD, &rq[1]);
        MPI_Waitall(2, rq, st);
        check(tag, &st[0], "I*send_c");
    }

    fill(20);
    MPI_Isendrecv_c(out, N, MPI_INT, right, 20, in, N, MPI_INT, left, 20,
                    MPI_COMM_WORLD, &rq[0]);
    MPI_Wait(&rq[0], &st[0]);
    check(20, &st[0], "Isendrecv_c");

    fill(21);
    memcpy(in, out, sizeof(in));
    MPI_Isendrecv_replace_c(in, N, MPI_INT, right, 21, left, 21,
                            MPI_COMM_WORLD, &rq[0]);
    MPI_Wait(&rq[0], &st[0]);
    check(21, &st[0], "Isendrecv_replace_c");
}

static void persistent(void)
{
    MPI_Request rq[2];
    MPI_Status st[2];

    for (int m = 0; m < 4; m++) {
        int tag = 30 + m;
        MPI_Recv_init_c(in, N, MPI_INT, left, tag, MPI_COMM_WORLD, &rq[0]);
        if (m == 0)
            MPI_Send_init_c(out, N, MPI_INT, right, tag, MPI_COMM_WORLD, &rq[1]);
        else if (m == 1)
            MPI_Ssend_init_c(out, N, MPI_INT, right, tag, MPI_COMM_WORLD,
                             &rq[1]);
        else if (m == 2)
            MPI_Rsend_init_c(out, N, MPI_INT, right, tag, MPI_COMM_WORLD,
                             &rq[1]);
        else
            MPI_Bsend_init_c(out, N, MPI_INT, right, tag, MPI_COMM_WORLD,
                             &rq[1]);
        for (int round = 0; round < 2; round++) {
            fill(tag + round);
            MPI_Start(&rq[0]);
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Start(&rq[1]);
            MPI_Waitall(2, rq, st);
            check(tag + round, &st[0], "*_init_c");
        }
        MPI_Request_free(&rq[0]);
        MPI_Request_free(&rq[1]);
    }
}

static void matched(void)
{
    MPI_Message msg;
    MPI_Status st;
    MPI_Request rq;

    fill(40);
    MPI_Send_c(out, N, MPI_INT, right, 40, MPI_COMM_WORLD);
    MPI_Mprobe(left, 40, MPI_COMM_WORLD, &msg, &st);
    MPI_Mrecv_c(in, N, MPI_INT, &msg, &st);
    check(40, &st, "Mrecv_c");

    fill(41);
    MPI_Send_c(out, N, MPI_INT, right, 41, MPI_COMM_WORLD);
    MPI_Mprobe(left, 41, MPI_COMM_WORLD, &msg, &st);
    MPI_Imrecv_c(in, N, MPI_INT, &msg, &rq);
    MPI_Wait(&rq, &st);
    check(41, &st, "Imrecv_c");
}

static void bad_count(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Send_c(out, -1, MPI_INT, right, 50, MPI_COMM_WORLD);
    int cls = MPI_SUCCESS;
    MPI_Error_class(rc, &cls);
    MT_CHECK(cls == MPI_ERR_COUNT, "negative count gave %d", rc);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    MPI_Count bsize = 4 * (sizeof(out) + MPI_BSEND_OVERHEAD);
    MPI_Buffer_attach_c(malloc((size_t)bsize), bsize);

    blocking();
    nonblocking();
    persistent();
    matched();
    bad_count();

    void *b;
    MPI_Buffer_detach_c(&b, &bsize);
    free(b);
    return mt_finish();
}
