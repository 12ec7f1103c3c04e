/* Generalized requests: query fills the status at completion, free runs
 * once when the request is released, cancel sees the completion state. */
#include "../mpitest.h"

static int freed, cancelled;

static int query(void *extra, MPI_Status *st)
{
    MPI_Status_set_source(st, *(int *)extra);
    MPI_Status_set_tag(st, 77);
    MPI_Status_set_cancelled(st, 0);
    return MPI_SUCCESS;
}

static int free_fn(void *extra)
{
    freed++;
    return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
    cancelled += complete ? 10 : 1;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int who = 5, flag = 1;
    MPI_Request rq;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Grequest_start(query, free_fn, cancel_fn, &who, &rq);
    MPI_Test(&rq, &flag, &st);
    MT_CHECK(!flag, "generalized request completed by itself");
    MPI_Cancel(&rq);
    MT_CHECK(cancelled == 1, "cancel callback saw %d", cancelled);
    MPI_Grequest_complete(rq);
    MPI_Wait(&rq, &st);
    MT_CHECK(rq == MPI_REQUEST_NULL, "request not released");
    MT_CHECK(st.MPI_SOURCE == 5 && st.MPI_TAG == 77, "query status %d %d",
             st.MPI_SOURCE, st.MPI_TAG);
    MT_CHECK(freed == 1, "free callback ran %d times", freed);
    return mt_finish();
}
