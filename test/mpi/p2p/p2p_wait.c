/* Completion calls: Waitany/Waitsome/Testany/Testsome/Testall over mixed
 * and null requests, Request_get_status, cancelling a receive, freeing an
 * active request. */
#include "../mpitest.h"
#include <string.h>

static void any_some(int rank, int size)
{
    enum { N = 6 };
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int in[N], out[N];
    MPI_Request rq[N + 2];
    for (int i = 0; i < N; i++) {
        out[i] = rank * 10 + i;
        MPI_Irecv(&in[i], 1, MPI_INT, left, i, MPI_COMM_WORLD, &rq[i]);
    }
    rq[N] = MPI_REQUEST_NULL;
    rq[N + 1] = MPI_REQUEST_NULL;
    for (int i = N - 1; i >= 0; i--)
        MPI_Send(&out[i], 1, MPI_INT, right, i, MPI_COMM_WORLD);
    int done = 0, idx[N + 2], outcount;
    MPI_Status sts[N + 2];
    while (done < N / 2) {
        int k;
        MPI_Status st;
        MPI_Waitany(N + 2, rq, &k, &st);
        MT_CHECK(k >= 0 && k < N && rq[k] == MPI_REQUEST_NULL, "waitany %d", k);
        MT_CHECK(st.MPI_TAG == k && in[k] == left * 10 + k, "waitany data");
        done++;
    }
    while (done < N) {
        MPI_Waitsome(N + 2, rq, &outcount, idx, sts);
        for (int j = 0; j < outcount; j++)
            MT_CHECK(in[idx[j]] == left * 10 + idx[j] && sts[j].MPI_TAG == idx[j],
                     "waitsome data");
        done += outcount;
    }
    MPI_Waitsome(N + 2, rq, &outcount, idx, sts);
    MT_CHECK(outcount == MPI_UNDEFINED, "waitsome on nulls gave %d", outcount);
    int k, flag;
    MPI_Testany(N + 2, rq, &k, &flag, MPI_STATUS_IGNORE);
    MT_CHECK(flag && k == MPI_UNDEFINED, "testany on nulls");
    MPI_Testall(N + 2, rq, &flag, MPI_STATUSES_IGNORE);
    MT_CHECK(flag, "testall on nulls");
}

static void cancel_and_free(int rank, int size)
{
    int x = 0, flag = 0;
    MPI_Request rq;
    MPI_Status st;
    MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 12345, MPI_COMM_WORLD, &rq);
    MPI_Cancel(&rq);
    MPI_Wait(&rq, &st);
    MPI_Test_cancelled(&st, &flag);
    MT_CHECK(flag, "receive was not cancelled");
    MT_CHECK(rq == MPI_REQUEST_NULL, "cancelled request not freed");

    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int v = rank, got = -1;
    MPI_Isend(&v, 1, MPI_INT, right, 77, MPI_COMM_WORLD, &rq);
    MPI_Request_free(&rq);     /* still active: freed when done */
    MT_CHECK(rq == MPI_REQUEST_NULL, "request_free did not null");
    MPI_Irecv(&got, 1, MPI_INT, left, 77, MPI_COMM_WORLD, &rq);
    flag = 0;
    while (!flag)
        MPI_Request_get_status(rq, &flag, &st);
    MT_CHECK(rq != MPI_REQUEST_NULL && got == left, "get_status");
    MPI_Wait(&rq, MPI_STATUS_IGNORE);

    /* MPI-4.1 array status queries leave the requests alive.  The left
     * neighbour sends tag 78 only after our token, so exactly one of the
     * two receives can be complete while we look. */
    MPI_Request two[2];
    int a = -1, b = -1, idx, n, ids[2], token = 0;
    MPI_Irecv(&a, 1, MPI_INT, left, 78, MPI_COMM_WORLD, &two[0]);
    MPI_Irecv(&b, 1, MPI_INT, left, 79, MPI_COMM_WORLD, &two[1]);
    MPI_Request_get_status_all(2, two, &flag, MPI_STATUSES_IGNORE);
    MT_CHECK(!flag, "get_status_all complete before tag 78 was sent");
    MPI_Send(&v, 1, MPI_INT, right, 79, MPI_COMM_WORLD);
    flag = 0;
    while (!flag)
        MPI_Request_get_status_any(2, two, &idx, &flag, &st);
    MT_CHECK(idx == 1 && two[1] != MPI_REQUEST_NULL && st.MPI_TAG == 79,
             "get_status_any gave %d", idx);
    MPI_Request_get_status_some(2, two, &n, ids, MPI_STATUSES_IGNORE);
    MT_CHECK(n == 1 && ids[0] == 1, "get_status_some gave %d", n);
    MPI_Send(&token, 1, MPI_INT, left, 80, MPI_COMM_WORLD);
    MPI_Recv(&token, 1, MPI_INT, right, 80, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&v, 1, MPI_INT, right, 78, MPI_COMM_WORLD);
    MPI_Waitall(2, two, MPI_STATUSES_IGNORE);
    MT_CHECK(a == left && b == left, "values %d %d", a, b);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    any_some(rank, size);
    cancel_and_free(rank, size);
    return mt_finish();
}
