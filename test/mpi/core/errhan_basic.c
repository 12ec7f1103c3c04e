/* User error handlers: called with the code, inherited by dup, freed
 * while in use; Comm_call_errhandler; user error classes and strings. */
#include "../mpitest.h"
#include <string.h>

static int calls, last;

static void handler(MPI_Comm *c, int *code, ...)
{
    calls++;
    last = *code;
}

int main(int argc, char **argv)
{
    MPI_Errhandler eh, got;
    MPI_Comm d, d2;

    MPI_Init(&argc, &argv);
    MPI_Comm_create_errhandler(handler, &eh);
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Comm_set_errhandler(d, eh);
    MPI_Errhandler_free(&eh);             /* d keeps it */
    MPI_Comm_dup(d, &d2);                 /* inherited */
    int rc = MPI_Comm_call_errhandler(d2, MPI_ERR_OTHER);
    MT_CHECK(rc == MPI_SUCCESS && calls == 1 && last == MPI_ERR_OTHER,
             "call_errhandler %d %d", calls, last);
    rc = MPI_Cart_shift(d2, 0, 1, &last, &last);   /* no topology */
    MT_CHECK(calls == 2 && last == MPI_ERR_TOPOLOGY && rc == MPI_ERR_TOPOLOGY,
             "handler on a real error: %d %d", calls, last);
    MPI_Comm_get_errhandler(d2, &got);
    MPI_Comm_set_errhandler(d2, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&got);
    MT_CHECK(MPI_Comm_call_errhandler(d2, MPI_ERR_ARG) == MPI_SUCCESS,
             "return handler");
    int cls, code, len;
    char s[MPI_MAX_ERROR_STRING];
    MPI_Add_error_class(&cls);
    MPI_Add_error_code(cls, &code);
    MPI_Add_error_string(code, "my error");
    MPI_Error_string(code, s, &len);
    MT_CHECK(strcmp(s, "my error") == 0, "string %s", s);
    int ec;
    MPI_Error_class(code, &ec);
    MT_CHECK(ec == cls, "class");
    int *last_used, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last_used, &flag);
    MT_CHECK(flag && *last_used >= code, "LASTUSEDCODE %d", *last_used);
    MPI_Comm_free(&d2);
    MPI_Comm_free(&d);
    return mt_finish();
}
