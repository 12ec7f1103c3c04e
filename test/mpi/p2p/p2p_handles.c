/* Fortran conversion of requests, messages and statuses: round trips,
 * null handles, one index per handle, MPI_F_SOURCE/TAG/ERROR positions. */
#include "../mpitest.h"

int main(int argc, char **argv)
{
    int rank, size, v = 3, w = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    MT_CHECK(MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) ==
                 MPI_REQUEST_NULL, "null request");
    MPI_Request rq[64];
    MPI_Fint f[64];
    for (int i = 0; i < 64; i++) {     /* enough to grow the tables */
        MPI_Irecv(&w, 1, MPI_INT, left, 100 + i, MPI_COMM_WORLD, &rq[i]);
        f[i] = MPI_Request_c2f(rq[i]);
        MT_CHECK(f[i] != MPI_Request_c2f(MPI_REQUEST_NULL), "index %d", i);
    }
    for (int i = 0; i < 64; i++) {
        MT_CHECK(MPI_Request_c2f(rq[i]) == f[i], "stable index %d", i);
        MT_CHECK(MPI_Request_f2c(f[i]) == rq[i], "round trip %d", i);
        for (int j = 0; j < i; j++)
            MT_CHECK(f[i] != f[j], "indices %d and %d equal", i, j);
        MPI_Request r = MPI_Request_f2c(f[i]);
        MPI_Cancel(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }

    MT_CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NULL)) ==
                 MPI_MESSAGE_NULL, "null message");
    MT_CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NO_PROC)) ==
                 MPI_MESSAGE_NO_PROC, "no-proc message");
    MPI_Send(&v, 1, MPI_INT, right, 7, MPI_COMM_WORLD);
    MPI_Message m;
    MPI_Status st;
    MPI_Mprobe(left, 7, MPI_COMM_WORLD, &m, &st);
    MPI_Fint fm = MPI_Message_c2f(m);
    MPI_Message m2 = MPI_Message_f2c(fm);
    MT_CHECK(m2 == m, "message round trip");
    st.MPI_ERROR = MPI_ERR_OTHER;   /* single completions leave it */
    MPI_Mrecv(&w, 1, MPI_INT, &m2, &st);
    MT_CHECK(w == 3, "mrecv through the converted handle: %d", w);
    MT_CHECK(st.MPI_ERROR == MPI_ERR_OTHER, "Mrecv set MPI_ERROR");

    MPI_Fint fs[MPI_F_STATUS_SIZE];
    MPI_Status back;
    MPI_Status_c2f(&st, fs);
    MT_CHECK(fs[MPI_F_SOURCE] == left && fs[MPI_F_TAG] == 7 &&
                 fs[MPI_F_ERROR] == MPI_ERR_OTHER, "fortran status fields");
    MPI_Status_f2c(fs, &back);
    int n = -1;
    MPI_Get_count(&back, MPI_INT, &n);
    MT_CHECK(back.MPI_SOURCE == left && back.MPI_TAG == 7 && n == 1,
             "status round trip: %d %d %d", back.MPI_SOURCE, back.MPI_TAG, n);
    MPI_F08_status f08;
    MPI_Status_c2f08(&st, &f08);
    MT_CHECK(f08.MPI_SOURCE == left && f08.MPI_TAG == 7, "f08 status");
    MPI_Status_f082f(&f08, fs);
    MPI_Status_f2f08(fs, &f08);
    MPI_Status_f082c(&f08, &back);
    n = -1;
    MPI_Get_count(&back, MPI_INT, &n);
    MT_CHECK(back.MPI_TAG == 7 && n == 1, "f08 round trip");
    return mt_finish();
}
