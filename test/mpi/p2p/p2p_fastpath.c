/* The direct point-to-point paths (contiguous data straight on UCX, no
 * request for sends UCX completes at once) keep every semantic of the
 * generic path: status and counts, truncation, synchronous sends matched
 * by a blocking receive, handles of sends completed at once, eager and
 * rendezvous sizes, derived contiguous types with a lower bound, and
 * non-overtaking order when direct and packed messages mix. */
#include "../mpitest.h"
#include <string.h>

static int rank, size, left, right;

static int cls(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

/* Blocking receive of a message longer than the buffer. */
static void truncation(MPI_Comm comm)
{
    int out[10], in[10];
    MPI_Request rq;
    MPI_Status st;

    for (int i = 0; i < 10; i++) {
        out[i] = rank * 100 + i;
        in[i] = -1;
    }
    MPI_Isend(out, 10, MPI_INT, right, 1, comm, &rq);
    int rc = MPI_Recv(in, 4, MPI_INT, left, 1, comm, &st);
    MT_CHECK(cls(rc) == MPI_ERR_TRUNCATE, "rc class %d", cls(rc));
    MT_CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 1, "src %d tag %d",
             st.MPI_SOURCE, st.MPI_TAG);
    MT_CHECK(in[4] == -1 && in[9] == -1, "wrote past the buffer");
    MT_CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
}

/* Synchronous sends completed by blocking receives (which must send the
 * acknowledgement) and blocking synchronous sends to posted receives. */
static void sync_sends(MPI_Comm comm)
{
    int v = rank, got = -1;
    MPI_Request rq;

    for (int k = 0; k < 20; k++) {
        MPI_Issend(&v, 1, MPI_INT, right, 2, comm, &rq);
        MPI_Recv(&got, 1, MPI_INT, left, 2, comm, MPI_STATUS_IGNORE);
        MT_CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        MT_CHECK(got == left, "got %d", got);
        MPI_Irecv(&got, 1, MPI_INT, left, 3, comm, &rq);
        MT_CHECK_RC(MPI_Ssend(&v, 1, MPI_INT, right, 3, comm));
        MT_CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    }
}

/* Wildcard blocking receives report the envelope and the count. */
static void wildcards(MPI_Comm comm)
{
    char out[37], in[64];
    MPI_Request rq;
    MPI_Status st;
    int n = -1;

    memset(out, rank, sizeof(out));
    MPI_Isend(out, 37, MPI_CHAR, right, 40 + rank, comm, &rq);
    MT_CHECK_RC(MPI_Recv(in, 64, MPI_CHAR, MPI_ANY_SOURCE, MPI_ANY_TAG, comm,
                         &st));
    MPI_Get_count(&st, MPI_CHAR, &n);
    MT_CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 40 + left && n == 37,
             "src %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG, n);
    MT_CHECK(in[0] == (char)left && in[36] == (char)left, "data");
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
}

/* Handles of small sends (completed at once) behave like any request. */
static void done_handles(MPI_Comm comm)
{
    enum { N = 12 };
    int out[N], in[N], flag = 0, idx = -1, cnt = 0, ids[N];
    MPI_Request rq[N], rr[N];
    MPI_Status st;

    for (int i = 0; i < N; i++) {
        out[i] = rank * 1000 + i;
        MPI_Irecv(&in[i], 1, MPI_INT, left, 5, comm, &rr[i]);
    }
    for (int i = 0; i < N; i++)
        MPI_Isend(&out[i], 1, MPI_INT, right, 5, comm, &rq[i]);
    MPI_Request_get_status(rq[0], &flag, MPI_STATUS_IGNORE);
    MT_CHECK(flag, "get_status");
    MT_CHECK_RC(MPI_Test(&rq[0], &flag, &st));
    MT_CHECK(flag && rq[0] == MPI_REQUEST_NULL, "test");
    MT_CHECK_RC(MPI_Request_free(&rq[1]));
    MT_CHECK(rq[1] == MPI_REQUEST_NULL, "free");
    MPI_Cancel(&rq[2]);
    MT_CHECK_RC(MPI_Wait(&rq[2], &st));
    MPI_Test_cancelled(&st, &flag);
    MT_CHECK(!flag, "a sent message reports cancelled");
    MT_CHECK_RC(MPI_Waitany(N, rq, &idx, MPI_STATUS_IGNORE));
    MT_CHECK(idx == 3 && rq[3] == MPI_REQUEST_NULL, "waitany %d", idx);
    MT_CHECK_RC(MPI_Testsome(N, rq, &cnt, ids, MPI_STATUSES_IGNORE));
    MT_CHECK(cnt == N - 4, "testsome %d", cnt);
    MT_CHECK_RC(MPI_Waitall(N, rq, MPI_STATUSES_IGNORE));
    MPI_Status sts[N];
    MT_CHECK_RC(MPI_Waitall(N, rr, sts));
    for (int i = 0; i < N; i++)
        MT_CHECK(in[i] == left * 1000 + i && sts[i].MPI_SOURCE == left,
                 "message %d: %d from %d (order kept)", i, in[i],
                 sts[i].MPI_SOURCE);
}

/* Blocking transfers over the eager short, eager copy and rendezvous
 * ranges; even ranks send first so standard sends may block. */
static void sizes(MPI_Comm comm)
{
    static const int len[] = {0, 1, 93, 94, 8192, 16384, 65536, 131072,
                              262144, 262145, 1 << 20};
    for (size_t k = 0; k < sizeof(len) / sizeof(len[0]); k++) {
        int n = len[k];
        unsigned char *out = malloc(n + 1), *in = malloc(n + 1);
        MPI_Status st;
        int cnt = -1;
        for (int i = 0; i < n; i++) {
            out[i] = (unsigned char)(rank * 7 + i);
            in[i] = 0;
        }
        if (size == 1) {
            MPI_Request rq;
            MPI_Irecv(in, n, MPI_BYTE, 0, 6, comm, &rq);
            MPI_Send(out, n, MPI_BYTE, 0, 6, comm);
            MPI_Wait(&rq, &st);
        } else if (rank % 2 == 0) {
            MPI_Send(out, n, MPI_BYTE, right, 6, comm);
            MPI_Recv(in, n, MPI_BYTE, left, 6, comm, &st);
        } else {
            MPI_Recv(in, n, MPI_BYTE, left, 6, comm, &st);
            MPI_Send(out, n, MPI_BYTE, right, 6, comm);
        }
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        MT_CHECK(cnt == n, "size %d: count %d", n, cnt);
        int bad = 0;
        for (int i = 0; i < n; i++)
            bad += in[i] != (unsigned char)(left * 7 + i);
        MT_CHECK(bad == 0, "size %d: %d bad bytes", n, bad);
        /* nonblocking: a rendezvous send UCX keeps */
        MPI_Request rq[2];
        MPI_Irecv(in, n, MPI_BYTE, left, 7, comm, &rq[0]);
        MPI_Isend(out, n, MPI_BYTE, right, 7, comm, &rq[1]);
        MT_CHECK_RC(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        MT_CHECK(n == 0 || in[n - 1] == (unsigned char)(left * 7 + n - 1),
                 "size %d: nonblocking data", n);
        free(out);
        free(in);
    }
}

/* A contiguous derived type whose data starts after its lower bound, and
 * messages that mix direct (contiguous) and packed (vector) sends to one
 * peer: they arrive in the order sent. */
static void types_and_order(MPI_Comm comm)
{
    int blen = 4, disp = 3, buf[16], in[16];
    MPI_Datatype shifted, strided;
    MPI_Request rq;

    MPI_Type_indexed(1, &blen, &disp, MPI_INT, &shifted);
    MPI_Type_commit(&shifted);
    MPI_Type_vector(4, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    for (int i = 0; i < 16; i++)
        buf[i] = rank * 100 + i;
    MPI_Irecv(in, 4, MPI_INT, left, 8, comm, &rq);
    MPI_Send(buf, 1, shifted, right, 8, comm);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MT_CHECK(in[0] == left * 100 + 3 && in[3] == left * 100 + 6,
             "shifted type: %d %d", in[0], in[3]);
    MPI_Request rs[6];
    for (int k = 0; k < 3; k++) {
        MPI_Isend(&buf[k], 1, MPI_INT, right, 9, comm, &rs[2 * k]);
        MPI_Isend(buf, 1, strided, right, 9, comm, &rs[2 * k + 1]);
    }
    for (int k = 0; k < 3; k++) {
        MPI_Status st;
        int n = -1;
        MPI_Recv(in, 16, MPI_INT, left, 9, comm, &st);
        MPI_Get_count(&st, MPI_INT, &n);
        MT_CHECK(n == 1 && in[0] == left * 100 + k, "order %d: n %d v %d", k,
                 n, in[0]);
        MPI_Recv(in, 16, MPI_INT, left, 9, comm, &st);
        MPI_Get_count(&st, MPI_INT, &n);
        MT_CHECK(n == 4 && in[3] == left * 100 + 6, "order %d: vector", k);
    }
    MPI_Waitall(6, rs, MPI_STATUSES_IGNORE);
    MPI_Type_free(&shifted);
    MPI_Type_free(&strided);
}

int main(int argc, char **argv)
{
    MPI_Comm comm;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    truncation(comm);
    sync_sends(comm);
    wildcards(comm);
    done_handles(comm);
    sizes(comm);
    types_and_order(comm);
    MPI_Comm_free(&comm);
    return mt_finish();
}
