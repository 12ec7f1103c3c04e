/* Probe, Iprobe, Mprobe/Mrecv, Improbe/Imrecv; matched probe with a
 * synchronous sender; wildcard probes see the envelope. */
#include "../mpitest.h"
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank != 0) {
        int data[64];
        for (int i = 0; i < 64; i++)
            data[i] = rank + i;
        MPI_Send(data, rank, MPI_INT, 0, rank, MPI_COMM_WORLD);
        MPI_Ssend(data, 64, MPI_INT, 0, 1000 + rank, MPI_COMM_WORLD);
        MPI_Send(data, 3, MPI_INT, 0, 2000 + rank, MPI_COMM_WORLD);
    } else {
        for (int i = 1; i < size; i++) {
            MPI_Status st;
            int count, buf[64];
            MPI_Probe(i, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &count);
            MT_CHECK(count == st.MPI_SOURCE && st.MPI_TAG == st.MPI_SOURCE,
                     "probe: count %d source %d tag %d", count, st.MPI_SOURCE,
                     st.MPI_TAG);
            MPI_Recv(buf, count, MPI_INT, st.MPI_SOURCE, st.MPI_TAG,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MT_CHECK(count == 0 || buf[0] == st.MPI_SOURCE, "probe data");
        }
        for (int i = 1; i < size; i++) {
            MPI_Message msg;
            MPI_Status st;
            int buf[64] = {0}, count;
            MPI_Mprobe(i, 1000 + i, MPI_COMM_WORLD, &msg, &st);
            MPI_Get_count(&st, MPI_INT, &count);
            MT_CHECK(count == 64, "mprobe count %d", count);
            MPI_Mrecv(buf, 64, MPI_INT, &msg, &st);
            MT_CHECK(msg == MPI_MESSAGE_NULL, "message not reset");
            MT_CHECK(buf[63] == i + 63 && st.MPI_SOURCE == i, "mrecv data");
        }
        for (int i = 1; i < size; i++) {
            MPI_Message msg;
            MPI_Request rq;
            MPI_Status st;
            int flag = 0, buf[3] = {0};
            while (!flag)
                MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
                            &msg, &st);
            MPI_Imrecv(buf, 3, MPI_INT, &msg, &rq);
            MPI_Wait(&rq, &st);
            MT_CHECK(buf[2] == st.MPI_SOURCE + 2 &&
                     st.MPI_TAG == 2000 + st.MPI_SOURCE, "imrecv data");
        }
        int flag = 1;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        MT_CHECK(!flag, "iprobe found a message that does not exist");
        MPI_Message msg;
        MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st);
        MT_CHECK(msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL,
                 "mprobe proc_null");
        int x = 5;
        MPI_Mrecv(&x, 1, MPI_INT, &msg, &st);
        MT_CHECK(x == 5 && st.MPI_SOURCE == MPI_PROC_NULL, "mrecv no_proc");
    }
    return mt_finish();
}
