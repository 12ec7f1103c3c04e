/* File error handlers: MPI_ERRORS_RETURN by default (MPI-4.1 9.3.4); the one
 * of MPI_FILE_NULL is inherited and gets open/delete errors. */
#include "io.h"
#include "core/call.h"

#include <errno.h>
#include <stdlib.h>

ucmpi_errhandler_t *ucmpi_file_null_errhandler = &ucmpi_errors_return;

ucmpi_errhandler_t *ucmpi_file_errhandler_of(void *file)
{
    MPI_File fh = file;
    if (ucmpi_file_valid(fh))
        return fh->head.errhandler;
    return ucmpi_file_null_errhandler;
}

int ucmpi_file_check(MPI_File fh)
{
    const char *fn = ucmpi_call_name();
    int rc = ucmpi_check_initialized(fn);
    if (rc == MPI_SUCCESS && !ucmpi_file_valid(fh))
        rc = ucmpi_err_file(MPI_FILE_NULL, MPI_ERR_FILE, fn,
                            "fh is MPI_FILE_NULL or closed");
    return rc;
}

int ucmpi_file_check_out(MPI_File fh, const void *out, const char *name)
{
    int rc = ucmpi_file_check(fh);
    if (rc == MPI_SUCCESS && out == NULL)
        rc = ucmpi_err_file(fh, MPI_ERR_ARG, ucmpi_call_name(), "%s is NULL",
                            name);
    return rc;
}

int ucmpi_io_errno_class(int err)
{
    switch (err) {
    case ENOENT: case ENOTDIR:
        return MPI_ERR_NO_SUCH_FILE;
    case EACCES: case EPERM:
        return MPI_ERR_ACCESS;
    case EEXIST:
        return MPI_ERR_FILE_EXISTS;
    case EROFS:
        return MPI_ERR_READ_ONLY;
    case ENOSPC:
        return MPI_ERR_NO_SPACE;
    case EDQUOT:
        return MPI_ERR_QUOTA;
    case ENAMETOOLONG: case EISDIR: case ELOOP:
        return MPI_ERR_BAD_FILE;
    case EBUSY: case ETXTBSY:
        return MPI_ERR_FILE_IN_USE;
    default:
        return MPI_ERR_IO;
    }
}

#pragma weak MPI_File_create_errhandler = PMPI_File_create_errhandler
int PMPI_File_create_errhandler(MPI_File_errhandler_function *fn,
                                MPI_Errhandler *errhandler)
{
    return ucmpi_errhandler_create(UCMPI_OBJ_FILE, (void (*)(void))fn,
                                   errhandler, "MPI_File_create_errhandler",
                                   UCMPI_OBJ_FILE, MPI_FILE_NULL);
}

enum { EH_SET, EH_GET, EH_CALL };

/* MPI_File_{set,get,call}_errhandler; MPI_FILE_NULL has a slot of its own. */
static int file_eh(const char *name, MPI_File fh, int op, MPI_Errhandler eh,
                   MPI_Errhandler *out, int code)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (fh != MPI_FILE_NULL && !ucmpi_file_valid(fh))
        return ucmpi_err_file(MPI_FILE_NULL, MPI_ERR_FILE, fn,
                              "file is closed or not a file");
    ucmpi_errhandler_t **slot = fh == MPI_FILE_NULL
        ? &ucmpi_file_null_errhandler : &fh->head.errhandler;
    if (op == EH_SET)
        return ucmpi_errhandler_install(slot, eh, UCMPI_OBJ_FILE, fh);
    if (op == EH_CALL) {
        ucmpi_err_file(fh, code, fn, "error raised by the application");
        return MPI_SUCCESS;
    }
    if (out == NULL)
        return ucmpi_err_file(fh, MPI_ERR_ARG, fn, "errhandler is NULL");
    ucmpi_errhandler_retain(*slot);   /* the user frees it */
    *out = *slot;
    return MPI_SUCCESS;
}

#pragma weak MPI_File_set_errhandler = PMPI_File_set_errhandler
int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
    return file_eh("MPI_File_set_errhandler", file, EH_SET, errhandler, NULL,
                   0);
}

#pragma weak MPI_File_get_errhandler = PMPI_File_get_errhandler
int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
    return file_eh("MPI_File_get_errhandler", file, EH_GET, NULL, errhandler,
                   0);
}

#pragma weak MPI_File_call_errhandler = PMPI_File_call_errhandler
int PMPI_File_call_errhandler(MPI_File fh, int errorcode)
{
    return file_eh("MPI_File_call_errhandler", fh, EH_CALL, NULL, NULL,
                   errorcode);
}
