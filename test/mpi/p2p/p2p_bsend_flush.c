/* MPI-4.1 buffered-send buffers: MPI_Buffer_flush/iflush on the process's
 * buffer, a buffer attached to a communicator (used before the process's,
 * flushed, detached, detached implicitly by MPI_Comm_free), and the
 * large-count attach/detach.  Messages are large enough (rendezvous) to
 * stay in the buffer until the right neighbour receives them. */
#include "../mpitest.h"
#include <string.h>

enum { LEN = 1 << 20 };
static int rank, size, right, left;
static char *out, *in;

static int cls_of(int rc)
{
    int c = MPI_SUCCESS;
    MPI_Error_class(rc, &c);
    return c;
}

static void recv_check(MPI_Comm comm, int seed)
{
    memset(in, 0, LEN);
    MPI_Recv(in, LEN, MPI_BYTE, left, seed, comm, MPI_STATUS_IGNORE);
    MT_CHECK(in[0] == (char)seed && in[LEN - 1] == (char)(seed + 1),
             "message %d: got %d %d", seed, in[0], in[LEN - 1]);
}

static void bsend(MPI_Comm comm, int seed)
{
    out[0] = (char)seed;
    out[LEN - 1] = (char)(seed + 1);
    int rc = MPI_Bsend(out, LEN, MPI_BYTE, right, seed, comm);
    MT_CHECK(rc == MPI_SUCCESS, "bsend %d: rc %d", seed, rc);
}

static void process_buffer(void)
{
    int bsize = LEN + MPI_BSEND_OVERHEAD, flag = 1;
    char *buf = malloc((size_t)bsize);
    MPI_Request rq;
    void *got;
    MPI_Count csize;

    MPI_Buffer_attach_c(buf, (MPI_Count)bsize);
    bsend(MPI_COMM_WORLD, 1);
    int rc = MPI_Bsend(out, LEN, MPI_BYTE, right, 9, MPI_COMM_WORLD);
    MT_CHECK(cls_of(rc) == MPI_ERR_BUFFER, "full buffer: rc %d", rc);
    MPI_Buffer_iflush(&rq);
    MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
    MT_CHECK(!flag, "iflush done before the message was received");
    MPI_Barrier(MPI_COMM_WORLD);
    recv_check(MPI_COMM_WORLD, 1);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    bsend(MPI_COMM_WORLD, 2);          /* room again, buffer still attached */
    recv_check(MPI_COMM_WORLD, 2);
    MPI_Buffer_flush();
    MPI_Buffer_detach_c(&got, &csize);
    MT_CHECK(got == buf && csize == bsize, "detach_c gave %p %lld", got,
             (long long)csize);
    free(buf);
}

static void comm_buffer(void)
{
    int bsize = LEN + MPI_BSEND_OVERHEAD, flag = 1, osize = 0;
    char *buf = malloc((size_t)bsize);
    MPI_Comm comm;
    MPI_Request rq;
    void *got = NULL;

    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_attach_buffer(comm, buf, bsize);
    int rc = MPI_Comm_attach_buffer(comm, buf, bsize);
    MT_CHECK(cls_of(rc) == MPI_ERR_BUFFER, "second attach: rc %d", rc);
    bsend(comm, 3);                    /* no process buffer: comm's used */
    rc = MPI_Bsend(out, LEN, MPI_BYTE, right, 9, comm);
    MT_CHECK(cls_of(rc) == MPI_ERR_BUFFER, "full comm buffer: rc %d", rc);
    rc = MPI_Bsend(out, 1, MPI_BYTE, right, 9, MPI_COMM_WORLD);
    MT_CHECK(cls_of(rc) == MPI_ERR_BUFFER, "world has no buffer: rc %d", rc);
    MPI_Comm_iflush_buffer(comm, &rq);
    MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
    MT_CHECK(!flag, "comm iflush done before the message was received");
    MPI_Barrier(MPI_COMM_WORLD);
    recv_check(comm, 3);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    bsend(comm, 4);
    recv_check(comm, 4);
    MPI_Comm_flush_buffer(comm);
    MPI_Comm_detach_buffer(comm, &got, &osize);
    MT_CHECK(got == buf && osize == bsize, "comm detach gave %p %d", got,
             osize);
    /* attached again, then freed with the communicator */
    MPI_Comm_attach_buffer_c(comm, buf, (MPI_Count)bsize);
    bsend(comm, 5);
    recv_check(comm, 5);
    MPI_Comm_free(&comm);
    free(buf);
}

static void automatic(void)
{
    MPI_Comm comm;
    void *got = NULL;
    MPI_Count csize = -1;

    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_attach_buffer(comm, MPI_BUFFER_AUTOMATIC, 0);
    for (int i = 6; i < 9; i++)
        bsend(comm, i);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 6; i < 9; i++)
        recv_check(comm, i);
    MPI_Comm_flush_buffer(comm);
    MPI_Comm_detach_buffer_c(comm, &got, &csize);
    MT_CHECK(got == MPI_BUFFER_AUTOMATIC, "automatic detach gave %p", got);
    MPI_Comm_free(&comm);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    out = calloc(LEN, 1);
    in = calloc(LEN, 1);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    process_buffer();
    comm_buffer();
    automatic();

    free(out);
    free(in);
    return mt_finish();
}
