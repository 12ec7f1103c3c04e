/* MPI Sessions: a library-style session without MPI_Init (psets, info,
 * group, communicator, a reduction), finalized and initialized again; then
 * a session alongside the world model; session error handlers.
 * SESSION_WORLD=1 in the environment adds the world model (MPI_Init). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "../mpitest.h"

static int session_errors;
static void on_error(MPI_Session *s, int *code, ...)
{
    (void)s;
    session_errors += *code == MPI_ERR_ARG;
}

static void check_psets(MPI_Session s)
{
    int n = 0, len = 0;
    char name[MPI_MAX_PSET_NAME_LEN];
    MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n);
    MT_CHECK(n >= 2, "num psets %d", n);
    MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, NULL);
    MT_CHECK(len == (int)strlen("mpi://WORLD") + 1, "length query %d", len);
    len = sizeof(name);
    MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 1, &len, name);
    MT_CHECK(strcmp(name, "mpi://SELF") == 0, "pset 1 %s", name);
}

/* One library cycle; returns the world size seen through the session. */
static int library_cycle(int expect_size)
{
    MPI_Session s;
    MPI_Info info, used, pinfo;
    MPI_Group g;
    MPI_Comm c;
    char v[64];
    int flag, rank, size, sum = 0;
    MPI_Info_create(&info);
    MPI_Info_set(info, "thread_level", "NOT_A_LEVEL");
    int rc = MPI_Session_init(info, MPI_ERRORS_RETURN, &s);
    MT_CHECK(rc == MPI_ERR_INFO_VALUE, "bad thread_level gave %d", rc);
    /* raised on the errhandler argument: MPI_ERRORS_RETURN keeps the reason */
    char why[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, why, &len);
    MT_CHECK(strstr(why, "thread_level") != NULL, "reason lost: %s", why);
    MPI_Info_set(info, "thread_level", "MPI_THREAD_SERIALIZED");
    MT_CHECK(MPI_Session_init(info, MPI_ERRORS_RETURN, &s) == MPI_SUCCESS,
             "Session_init");
    MPI_Info_free(&info);
    check_psets(s);
    MPI_Session_get_info(s, &used);
    MPI_Info_get(used, "thread_level", sizeof(v), v, &flag);
    MT_CHECK(flag && strncmp(v, "MPI_THREAD_", 11) == 0, "thread_level");
    MPI_Info_free(&used);
    MPI_Session_get_pset_info(s, "mpi://WORLD", &pinfo);
    MPI_Info_get(pinfo, "mpi_size", sizeof(v), v, &flag);
    MPI_Info_free(&pinfo);
    MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
    MPI_Comm_create_from_group(g, "ucmpi.test.session", MPI_INFO_NULL,
                               MPI_ERRORS_RETURN, &c);
    MPI_Group_free(&g);
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &size);
    MT_CHECK(flag && atoi(v) == size, "mpi_size %s vs %d", v, size);
    MT_CHECK(expect_size < 0 || size == expect_size, "size %d", size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
    MT_CHECK(sum == size * (size - 1) / 2, "sum %d", sum);
    MT_CHECK(MPI_Group_from_session_pset(s, "mpi://nowhere", &g) ==
                 MPI_ERR_ARG, "unknown pset");
    MPI_Comm_free(&c);
    MT_CHECK(MPI_Session_finalize(&s) == MPI_SUCCESS && s == MPI_SESSION_NULL,
             "Session_finalize");
    return size;
}

static void check_errhandler(void)
{
    MPI_Session s;
    MPI_Errhandler eh, got;
    MPI_Group g;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &s);
    MPI_Session_create_errhandler(on_error, &eh);
    MPI_Session_set_errhandler(s, eh);
    MPI_Session_get_errhandler(s, &got);
    MT_CHECK(got == eh, "get_errhandler");
    MPI_Errhandler_free(&got);
    MPI_Group_from_session_pset(s, "mpi://bogus", &g);
    MPI_Session_call_errhandler(s, MPI_ERR_ARG);
    MT_CHECK(session_errors == 2, "handler ran %d times", session_errors);
    MPI_Errhandler_free(&eh);
    MPI_Session_finalize(&s);
}

int main(int argc, char **argv)
{
    const char *w = getenv("SESSION_WORLD");
    int world = w != NULL && atoi(w) == 1, size = -1, flag;
    if (world)
        MPI_Init(&argc, &argv);
    MPI_Initialized(&flag);
    MT_CHECK(flag == world, "MPI_Initialized %d", flag);
    size = library_cycle(-1);
    library_cycle(size);          /* again, after the instance went down */
    check_errhandler();
    if (world) {
        int wsize;
        MPI_Comm_size(MPI_COMM_WORLD, &wsize);
        MT_CHECK(wsize == size, "world %d session %d", wsize, size);
        return mt_finish();
    }
    if (mt_errors)   /* mt_finish needs the world model */
        fprintf(stderr, "session_basic: %d check(s) failed\n", mt_errors);
    return mt_errors ? 1 : 0;
}
