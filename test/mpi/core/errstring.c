/* MPI_Error_string of a code a call just returned names that call and
 * why it failed (error codes are the classes, so the detail is the last
 * error of the class on this thread); a class this thread never got back,
 * and user codes, keep their plain text. */
#include "../mpitest.h"
#include <string.h>

static char s[MPI_MAX_ERROR_STRING];

static const char *str(int code)
{
    int len = -1;

    MPI_Error_string(code, s, &len);
    MT_CHECK(len == (int)strlen(s), "resultlen %d for \"%s\"", len, s);
    return s;
}

static void handler(MPI_Comm *c, int *code, ...)
{
    (void)c;
    MT_CHECK(strstr(str(*code), "MPI_Recv") != NULL, "in handler: %s", s);
}

int main(int argc, char **argv)
{
    int rank, size, cls, buf[4] = {0};
    MPI_Errhandler eh;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MT_CHECK(strcmp(str(MPI_ERR_COUNT), "MPI_ERR_COUNT: invalid count "
                    "argument") == 0, "before any error: %s", s);
    int rc = MPI_Send(buf, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    MT_CHECK(cls == MPI_ERR_COUNT, "class %d", cls);
    MT_CHECK(strncmp(str(rc), "MPI_ERR_COUNT: ", 15) == 0 &&
             strstr(s, "MPI_Send") != NULL && strstr(s, "-1") != NULL,
             "count: %s", s);
    MT_CHECK(strcmp(str(MPI_ERR_TAG), "MPI_ERR_TAG: invalid tag") == 0,
             "another class: %s", s);

    rc = MPI_Bcast(buf, 1, MPI_INT, size, MPI_COMM_WORLD);
    MT_CHECK(rc != MPI_SUCCESS && strstr(str(rc), "MPI_Bcast") != NULL &&
             strstr(s, "MPI_ERR_ROOT") == s, "root: %s", s);
    MT_CHECK(strstr(str(MPI_ERR_COUNT), "MPI_Send") == NULL,
             "an older error: %s", s);

    /* a user handler may ask for the string of the code it is given */
    MPI_Comm_create_errhandler(handler, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Errhandler_free(&eh);
    MPI_Recv(buf, 1, MPI_INT, 0, -5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MT_CHECK(strstr(str(MPI_ERR_TAG), "MPI_Recv") != NULL, "tag: %s", s);
    return mt_finish();
}
