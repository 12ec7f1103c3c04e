/*
 * The predefined objects mpi.h names (MPI_COMM_WORLD, MPI_INT, MPI_SUM, ...)
 * reach programs by copy relocations sized at link time, so their exported
 * sizes are ABI: each must be the fixed padded size of its kind (lib/core/base.h
 * UCMPI_PAD_*), whatever the struct inside has grown to.  Also checks that
 * the library and the program see the same object (a handle the library
 * hands back compares equal to the program's constant).
 */
#define _GNU_SOURCE
#include "../mpitest.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <string.h>

static int linked_static;

static void check_size(const void *obj, const char *what, size_t want)
{
    Dl_info info;
    const ElfW(Sym) *sym = NULL;

    if (!dladdr1(obj, &info, (void **)&sym, RTLD_DL_SYMENT) || sym == NULL) {
        linked_static = 1;    /* no dynamic symbol: a static link */
        return;
    }
    MT_CHECK(sym->st_size == want, "%s (%s) exported with %zu bytes, want %zu",
             what, info.dli_sname ? info.dli_sname : "?",
             (size_t)sym->st_size, want);
}

int main(int argc, char **argv)
{
    MPI_Comm dup;
    MPI_Datatype t, inner;
    MPI_Aint a;
    int n;
    MPI_Errhandler eh;
    int cmp;

    MPI_Init(&argc, &argv);
    check_size(MPI_COMM_WORLD, "MPI_COMM_WORLD", 1024);
    check_size(MPI_COMM_SELF, "MPI_COMM_SELF", 1024);
    check_size(MPI_MESSAGE_NO_PROC, "MPI_MESSAGE_NO_PROC", 512);
    check_size(MPI_INT, "MPI_INT", 256);
    check_size(MPI_DOUBLE_INT, "MPI_DOUBLE_INT", 256);
    check_size(MPI_COMPLEX32, "MPI_COMPLEX32", 256);
    check_size(MPI_SUM, "MPI_SUM", 128);
    check_size(MPI_NO_OP, "MPI_NO_OP", 128);
    check_size(MPI_GROUP_EMPTY, "MPI_GROUP_EMPTY", 128);
    check_size(MPI_ERRORS_RETURN, "MPI_ERRORS_RETURN", 128);
    check_size(MPI_INFO_ENV, "MPI_INFO_ENV", 128);
    if (linked_static)
        printf("abi_predefined: static link, sizes not checked\n");

    /* one object, not two copies: what the library returns is ours */
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    MT_CHECK(eh == MPI_ERRORS_ARE_FATAL, "world's handler is not ours");
    MPI_Errhandler_free(&eh);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_compare(dup, MPI_COMM_WORLD, &cmp);
    MT_CHECK(cmp == MPI_CONGRUENT, "dup of world compares %d", cmp);
    MPI_Comm_free(&dup);
    MPI_Type_contiguous(3, MPI_INT, &t);
    MPI_Type_get_contents(t, 1, 0, 1, &n, &a, &inner);
    MT_CHECK(inner == MPI_INT, "contents of a contiguous of MPI_INT: %p",
             (void *)inner);
    MPI_Type_free(&t);
    return mt_finish();
}
