/* User error classes, codes and strings: add, query, remove (MPI-4.1),
 * slot reuse, MPI_LASTUSEDCODE, and the errors for wrong removals. */
#include <mpi.h>
#include <string.h>
#include "../mpitest.h"

static int last_used(void)
{
    int *v, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag);
    return flag ? *v : -1;
}

static void check_add_remove_cycles(void)
{
    int cls[4], code[4][3], base = last_used();
    for (int k = 0; k < 200; k++) {
        for (int i = 0; i < 4; i++) {
            MPI_Add_error_class(&cls[i]);
            for (int j = 0; j < 3; j++) {
                MPI_Add_error_code(cls[i], &code[i][j]);
                MPI_Add_error_string(code[i][j], "cycle");
            }
        }
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 3; j++) {
                MPI_Remove_error_string(code[i][j]);
                MPI_Remove_error_code(code[i][j]);
            }
            MPI_Remove_error_class(cls[i]);
        }
    }
    MT_CHECK(last_used() == base, "LASTUSEDCODE back to %d, is %d", base,
             last_used());
}

static void check_wrong_removals(void)
{
    int cls, code, ec;
    char s[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Add_error_class(&cls);
    MPI_Add_error_code(cls, &code);
    MPI_Add_error_string(code, "kept");
    MT_CHECK(MPI_Remove_error_class(cls) == MPI_ERR_ARG, "class with codes");
    MT_CHECK(MPI_Remove_error_code(code) == MPI_ERR_ARG, "code with string");
    MT_CHECK(MPI_Remove_error_code(cls) == MPI_ERR_ARG, "class as code");
    MT_CHECK(MPI_Remove_error_class(MPI_ERR_ARG) == MPI_ERR_ARG,
             "predefined class");
    MT_CHECK(MPI_Remove_error_string(MPI_ERR_TRUNCATE) == MPI_ERR_ARG,
             "predefined string");
    MPI_Error_string(code, s, &len);
    MT_CHECK(strcmp(s, "kept") == 0, "string after failed removals: %s", s);
    MPI_Error_class(code, &ec);
    MT_CHECK(ec == cls, "class of code %d, want %d", ec, cls);
    MT_CHECK(MPI_Remove_error_string(code) == MPI_SUCCESS, "remove string");
    MT_CHECK(MPI_Remove_error_string(code) == MPI_ERR_ARG, "string twice");
    MT_CHECK(MPI_Remove_error_code(code) == MPI_SUCCESS, "remove code");
    MT_CHECK(MPI_Error_class(code, &ec) == MPI_ERR_ARG, "removed code");
    MT_CHECK(MPI_Remove_error_class(cls) == MPI_SUCCESS, "remove class");
    MT_CHECK(MPI_Remove_error_class(cls) == MPI_ERR_ARG, "class twice");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    check_add_remove_cycles();
    check_wrong_removals();
    return mt_finish();
}
