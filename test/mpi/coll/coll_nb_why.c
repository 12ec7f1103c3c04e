/*
 * A nonblocking collective whose ranks are out of step (rank 0 calls
 * MPI_Iallreduce, the others MPI_Iallgather at the same point: each waits
 * for the other's data) fails on every rank, and the error the wait reports names the call that started the
 * request and the reason, as the blocking call's message does, instead of
 * point-to-point's "communication failed".  The reason is read from
 * ucmpi's error handler call, which passes the failing function's name and
 * the reason after the code (ucmpi-specific: MPI leaves those arguments to
 * the implementation).  XTEST_WAIT=wait|test|waitall picks the completion
 * call (waitall: MPI_ERR_IN_STATUS, the first collective's reason in its
 * message), not a bare "communication failed".
 */
#include "../mpitest.h"

#include <stdarg.h>
#include <string.h>

static char seen_fn[64], seen_why[1024];
static int seen;

static void catch_err(MPI_Comm *comm, int *code, ...)
{
    va_list ap;

    (void)comm;
    (void)code;
    va_start(ap, code);
    const char *fn = va_arg(ap, const char *);
    const char *why = va_arg(ap, const char *);
    va_end(ap);
    snprintf(seen_fn, sizeof(seen_fn), "%s", fn ? fn : "");
    snprintf(seen_why, sizeof(seen_why), "%s", why ? why : "");
    seen++;
}

static int complete(MPI_Request *r, MPI_Status *st, const char *how)
{
    int flag = 0, rc = MPI_SUCCESS;

    if (strcmp(how, "waitall") == 0)
        return MPI_Waitall(1, r, st);
    if (strcmp(how, "wait") == 0)
        return MPI_Wait(r, st);
    while (!flag && rc == MPI_SUCCESS)
        rc = MPI_Test(r, &flag, st);
    return rc;
}

int main(int argc, char **argv)
{
    const char *how = getenv("XTEST_WAIT");
    int rank, size, v[4] = {1, 2, 3, 4}, out[4], cls = MPI_SUCCESS, rc;
    int *all;
    MPI_Errhandler eh;
    MPI_Request r;
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_create_errhandler(catch_err, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    if (how == NULL)
        how = "wait";
    all = malloc(sizeof(int) * 4 * (size_t)size);
    if (rank == 0)
        rc = MPI_Iallreduce(v, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
    else
        rc = MPI_Iallgather(v, 4, MPI_INT, all, 4, MPI_INT, MPI_COMM_WORLD,
                            &r);
    MT_CHECK_RC(rc);
    st.MPI_ERROR = MPI_SUCCESS;
    rc = complete(&r, &st, how);
    if (size > 1) {
        const char *mine = rank == 0 ? "MPI_Iallreduce: " : "MPI_Iallgather: ";
        int in_status = strcmp(how, "waitall") == 0;
        MPI_Error_class(rc, &cls);
        MT_CHECK(cls == (in_status ? MPI_ERR_IN_STATUS : MPI_ERR_TRUNCATE),
                 "%s: class %d", how, cls);
        if (in_status)
            MT_CHECK(st.MPI_ERROR == MPI_ERR_TRUNCATE, "status error %d",
                     st.MPI_ERROR);
        MT_CHECK(seen == 1, "handler called %d times", seen);
        /* (the name of the other collective, or what differs) */
        MT_CHECK(strstr(seen_why, mine) != NULL &&
                     (strstr(seen_why, rank ? "MPI_Allreduce" : "MPI_Allgather") ||
                      strstr(seen_why, "differ")),
                 "%s: reason \"%s\" does not name the call and why",
                 seen_fn, seen_why);
    } else {
        MT_CHECK_RC(rc);
    }
    /* in step again */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MT_CHECK_RC(MPI_Allreduce(v, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    MT_CHECK(out[3] == 4 * size, "allreduce %d", out[3]);
    MPI_Errhandler_free(&eh);
    free(all);
    return mt_finish();
}
