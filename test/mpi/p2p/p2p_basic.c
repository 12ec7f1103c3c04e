/* Blocking and nonblocking send/recv: sizes from 0 B past the rendezvous
 * threshold, wildcards, MPI_PROC_NULL, non-overtaking order, Sendrecv and
 * Sendrecv_replace around a ring. */
#include "../mpitest.h"
#include <string.h>

static void fill(unsigned char *b, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)(seed * 31 + i * 7);
}

static int verify(const unsigned char *b, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != (unsigned char)(seed * 31 + i * 7))
            return 0;
    return 1;
}

static void sizes_ring(int rank, int size)
{
    static const size_t sizes[] = {0, 1, 7, 64, 1000, 8192, 65536, 1 << 20,
                                   (1 << 22) + 3};
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        size_t n = sizes[k];
        unsigned char *s = malloc(n + 1), *r = malloc(n + 1);
        MPI_Request rq;
        MPI_Status st;
        int count;
        fill(s, n, rank);
        memset(r, 0, n + 1);
        MPI_Irecv(r, (int)n, MPI_BYTE, left, (int)k, MPI_COMM_WORLD, &rq);
        MPI_Send(s, (int)n, MPI_BYTE, right, (int)k, MPI_COMM_WORLD);
        MPI_Wait(&rq, &st);
        MPI_Get_count(&st, MPI_BYTE, &count);
        MT_CHECK(count == (int)n, "size %zu: count %d", n, count);
        MT_CHECK(st.MPI_SOURCE == left && st.MPI_TAG == (int)k,
                 "size %zu: source %d tag %d", n, st.MPI_SOURCE, st.MPI_TAG);
        MT_CHECK(verify(r, n, left), "size %zu: data differs", n);
        free(s);
        free(r);
    }
}

static void wildcards(int rank, int size)
{
    if (rank == 0) {
        int seen = 0;
        for (int i = 1; i < size; i++) {
            int v;
            MPI_Status st;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                     MPI_COMM_WORLD, &st);
            MT_CHECK(v == st.MPI_SOURCE * 100 && st.MPI_TAG == st.MPI_SOURCE,
                     "got %d from %d tag %d", v, st.MPI_SOURCE, st.MPI_TAG);
            seen |= 1 << st.MPI_SOURCE;
        }
        MT_CHECK(size > 30 || seen == ((1 << size) - 2), "seen mask %x", seen);
        /* release the others only now, so no later message can match the
         * wildcard receives above */
        for (int i = 1; i < size; i++)
            MPI_Send(NULL, 0, MPI_BYTE, i, 0, MPI_COMM_WORLD);
    } else {
        int v = rank * 100;
        MPI_Send(&v, 1, MPI_INT, 0, rank, MPI_COMM_WORLD);
        MPI_Recv(NULL, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

/* Messages with the same envelope arrive in order, also mixed sizes. */
static void ordering(int rank, int size)
{
    enum { N = 200 };
    if (size < 2 || rank > 1)
        return;
    if (rank == 0) {
        static int big[100000];
        for (int i = 0; i < N; i++) {
            big[0] = i;
            MPI_Send(big, i % 10 == 0 ? 100000 : 1, MPI_INT, 1, 5,
                     MPI_COMM_WORLD);
        }
    } else {
        static int big[100000];
        for (int i = 0; i < N; i++) {
            MPI_Recv(big, 100000, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MT_CHECK(big[0] == i, "message %d arrived as %d", i, big[0]);
        }
    }
}

static void proc_null(void)
{
    int v = 42;
    MPI_Status st;
    MPI_Request rq;
    MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    MT_CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG &&
             count == 0 && v == 42, "proc_null status %d %d %d",
             st.MPI_SOURCE, st.MPI_TAG, count);
    MPI_Irecv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, &st);
    MT_CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "irecv proc_null");
}

static void sendrecv(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[3] = {rank, rank * 2, rank * 3}, in[3] = {0};
    MPI_Status st;
    MPI_Sendrecv(out, 3, MPI_INT, right, 9, in, 3, MPI_INT, left, 9,
                 MPI_COMM_WORLD, &st);
    MT_CHECK(in[0] == left && in[2] == left * 3, "sendrecv got %d", in[0]);
    int buf[1000];
    for (int i = 0; i < 1000; i++)
        buf[i] = rank + i;
    MPI_Sendrecv_replace(buf, 1000, MPI_INT, right, 3, left, 3,
                         MPI_COMM_WORLD, &st);
    MT_CHECK(buf[0] == left && buf[999] == left + 999,
             "sendrecv_replace got %d", buf[0]);
    MPI_Request rq;
    in[0] = -1;
    MPI_Isendrecv(out, 3, MPI_INT, right, 10, in, 3, MPI_INT, left, 10,
                  MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, &st);
    MT_CHECK(in[1] == left * 2 && st.MPI_SOURCE == left && st.MPI_TAG == 10,
             "isendrecv got %d from %d", in[1], st.MPI_SOURCE);
    for (int i = 0; i < 1000; i++)
        buf[i] = rank * 7 + i;
    MPI_Isendrecv_replace(buf, 1000, MPI_INT, right, 11, left, 11,
                          MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, &st);
    MT_CHECK(buf[0] == left * 7 && buf[999] == left * 7 + 999,
             "isendrecv_replace got %d", buf[0]);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    sizes_ring(rank, size);
    wildcards(rank, size);
    ordering(rank, size);
    proc_null();
    sendrecv(rank, size);
    return mt_finish();
}
