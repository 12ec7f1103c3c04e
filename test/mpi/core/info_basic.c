/* Info API: set/get/valuelen/nkeys/nthkey order/delete/dup/get_string,
 * MPI_INFO_ENV, errors, comm info hints. */
#include "../mpitest.h"
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Info info, dup;
    char val[64], key[MPI_MAX_INFO_KEY];
    int flag, n, len;

    MPI_Info_create(&info);          /* allowed before MPI_Init */
    MPI_Init(&argc, &argv);
    MPI_Info_set(info, "b", "2");
    MPI_Info_set(info, "a", "1");
    MPI_Info_set(info, "b", "22");
    MPI_Info_get_nkeys(info, &n);
    MT_CHECK(n == 2, "nkeys %d", n);
    MPI_Info_get_nthkey(info, 0, key);
    MT_CHECK(strcmp(key, "b") == 0, "nthkey 0 %s", key);
    MPI_Info_get(info, "b", sizeof(val) - 1, val, &flag);
    MT_CHECK(flag && strcmp(val, "22") == 0, "get b %s", val);
    MPI_Info_get_valuelen(info, "b", &len, &flag);
    MT_CHECK(flag && len == 2, "valuelen %d", len);
    len = 2;
    MPI_Info_get_string(info, "b", &len, val, &flag);
    MT_CHECK(flag && len == 3 && strcmp(val, "2") == 0, "get_string");
    MPI_Info_dup(info, &dup);
    MPI_Info_delete(info, "b");
    MPI_Info_get(info, "b", 10, val, &flag);
    MT_CHECK(!flag, "deleted key found");
    MPI_Info_get(dup, "b", 10, val, &flag);
    MT_CHECK(flag, "dup lost key");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MT_CHECK(MPI_Info_delete(info, "zz") == MPI_ERR_INFO_NOKEY, "nokey");
    MT_CHECK(MPI_Info_get_nthkey(info, 5, key) == MPI_ERR_ARG, "nthkey 5");
    MT_CHECK(MPI_Info_set(info, "", "x") == MPI_ERR_INFO_KEY, "empty key");
    MPI_Info_get(MPI_INFO_ENV, "maxprocs", 10, val, &flag);
    MT_CHECK(flag, "INFO_ENV maxprocs");
    /* comm hints: mpi_ keys kept, others ignored */
    MPI_Comm d;
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    MPI_Info_set(info, "junk_key", "1");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &d);
    MPI_Info used;
    MPI_Comm_get_info(d, &used);
    MPI_Info_get(used, "mpi_assert_no_any_tag", 10, val, &flag);
    MT_CHECK(flag, "hint lost");
    MPI_Info_get(used, "junk_key", 10, val, &flag);
    MT_CHECK(!flag, "junk hint kept");
    MPI_Info_free(&used);
    MPI_Comm_free(&d);
    MPI_Info_free(&dup);
    MPI_Info_free(&info);
    MT_CHECK(info == MPI_INFO_NULL, "free");
    return mt_finish();
}
