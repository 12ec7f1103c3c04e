/* Size, preallocation, sync, atomicity, individual pointer: rank 0 makes the
 * collective changes and all return its outcome. */
#include "io.h"
#include "core/call.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int file_size(ucmpi_file_t *f, MPI_Offset *size, int *err)
{
    struct stat sb;
    if (fstat(f->fd, &sb) != 0) {
        *err = errno;
        return -1;
    }
    *size = sb.st_size;
    return 0;
}

#pragma weak MPI_File_get_size = PMPI_File_get_size
int PMPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_get_size");
    int rc = ucmpi_file_check_out(fh, size, "size"), err;
    if (rc != MPI_SUCCESS)
        return rc;
    if (file_size(fh, size, &err) != 0)
        return ucmpi_err_file(fh, MPI_ERR_IO, fn, "\"%s\": %s", fh->filename,
                              strerror(err));
    return MPI_SUCCESS;
}

/* set_size, or preallocate (grow: the file only grows); rank 0 changes
 * the file and every process returns the outcome. */
static int resize(MPI_File fh, MPI_Offset size, bool grow)
{
    const char *fn = ucmpi_call_name();
    int rc = ucmpi_file_check(fh), rank, err = 0;
    if (rc != MPI_SUCCESS)
        return rc;
    if (size < 0)
        return ucmpi_err_file(fh, MPI_ERR_ARG, fn, "size %lld is negative",
                              size);
    if (fh->amode & MPI_MODE_RDONLY)
        return ucmpi_err_file(fh, MPI_ERR_READ_ONLY, fn,
                              "\"%s\" was opened MPI_MODE_RDONLY",
                              fh->filename);
    PMPI_Comm_rank(fh->comm, &rank);
    PMPI_Barrier(fh->comm);   /* accesses made before the call come first */
    MPI_Offset cur = 0;
    if (rank == 0 && !grow && ftruncate(fh->fd, (off_t)size) != 0)
        err = errno;
    /* a file system without fallocate gets zeros */
    if (rank == 0 && grow && file_size(fh, &cur, &err) == 0 && size > cur) {
        err = posix_fallocate(fh->fd, 0, (off_t)size);
        if (err == EOPNOTSUPP || err == EINVAL)
            err = ftruncate(fh->fd, (off_t)size) == 0 ? 0 : errno;
    }
    PMPI_Bcast(&err, 1, MPI_INT, 0, fh->comm);   /* rank 0's errno, to all */
    if (err != 0)
        return ucmpi_err_file(fh, ucmpi_io_errno_class(err), fn,
                              "\"%s\" to %lld bytes: %s", fh->filename, size,
                              strerror(err));
    return MPI_SUCCESS;
}

#pragma weak MPI_File_set_size = PMPI_File_set_size
int PMPI_File_set_size(MPI_File fh, MPI_Offset size)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_set_size");
    return resize(fh, size, false);
}

#pragma weak MPI_File_preallocate = PMPI_File_preallocate
int PMPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_preallocate");
    return resize(fh, size, true);
}

#pragma weak MPI_File_sync = PMPI_File_sync
int PMPI_File_sync(MPI_File fh)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_sync");
    int rc = ucmpi_file_check(fh);
    if (rc != MPI_SUCCESS)
        return rc;
    if (fsync(fh->fd) != 0 && errno != EINVAL && errno != EROFS)
        return ucmpi_err_file(fh, ucmpi_io_errno_class(errno), fn,
                              "\"%s\": %s", fh->filename, strerror(errno));
    return MPI_SUCCESS;
}

#pragma weak MPI_File_set_atomicity = PMPI_File_set_atomicity
int PMPI_File_set_atomicity(MPI_File fh, int flag)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_set_atomicity");
    int rc = ucmpi_file_check(fh);
    if (rc != MPI_SUCCESS)
        return rc;
    /* collective: pending accesses of the old mode end first */
    PMPI_Barrier(fh->comm);
    fh->atomic = flag != 0;
    return MPI_SUCCESS;
}

#pragma weak MPI_File_get_atomicity = PMPI_File_get_atomicity
int PMPI_File_get_atomicity(MPI_File fh, int *flag)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_get_atomicity");
    int rc = ucmpi_file_check_out(fh, flag, "flag");
    if (rc == MPI_SUCCESS)
        *flag = fh->atomic;
    return rc;
}

MPI_Offset ucmpi_file_view_eof(const ucmpi_file_t *f, MPI_Offset size)
{
    MPI_Offset rel = size - f->disp, bytes;
    if (rel <= 0)
        return 0;
    if (f->dense) {
        bytes = rel - f->runs[0].off;
    } else {   /* whole filetypes, then the runs of the last partial one */
        MPI_Offset k = f->ft_extent > 0 ? rel / f->ft_extent : 0;
        MPI_Offset rem = rel - k * f->ft_extent;
        bytes = k * f->ft_size;
        for (size_t i = 0; i < f->nruns; i++) {
            MPI_Offset in = rem - f->runs[i].off;
            if (in > 0)
                bytes += in < (MPI_Offset)f->runs[i].len
                             ? in : (MPI_Offset)f->runs[i].len;
        }
    }
    if (bytes < 0)
        bytes = 0;
    /* a partial etype at the end counts as a whole one */
    return (bytes + f->etype->size - 1) / f->etype->size;
}

#pragma weak MPI_File_seek = PMPI_File_seek
int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_seek");
    int rc = ucmpi_file_check(fh);
    if (rc != MPI_SUCCESS)
        return rc;
    if (fh->amode & MPI_MODE_SEQUENTIAL)
        return ucmpi_err_file(fh, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                              "the individual file pointer of a "
                              "MPI_MODE_SEQUENTIAL file");
    MPI_Offset base = 0, size;
    if (whence == MPI_SEEK_END) {
        if ((rc = PMPI_File_get_size(fh, &size)) != MPI_SUCCESS)
            return rc;
        base = ucmpi_file_view_eof(fh, size);
    } else if (whence != MPI_SEEK_SET && whence != MPI_SEEK_CUR) {
        return ucmpi_err_file(fh, MPI_ERR_ARG, fn, "whence %d is not "
                              "MPI_SEEK_SET, _CUR or _END", whence);
    }
    pthread_mutex_lock(&fh->fp_lock);   /* other threads may move it */
    if (whence == MPI_SEEK_CUR)
        base = fh->fp;
    if (base + offset >= 0)
        fh->fp = base + offset;
    pthread_mutex_unlock(&fh->fp_lock);
    if (base + offset < 0)
        return ucmpi_err_file(fh, MPI_ERR_ARG, fn,
                              "the new position %lld is negative",
                              base + offset);
    return MPI_SUCCESS;
}

#pragma weak MPI_File_get_position = PMPI_File_get_position
int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_get_position");
    int rc = ucmpi_file_check_out(fh, offset, "offset");
    if (rc == MPI_SUCCESS) {
        pthread_mutex_lock(&fh->fp_lock);
        *offset = fh->fp;
        pthread_mutex_unlock(&fh->fp_lock);
    }
    return rc;
}
