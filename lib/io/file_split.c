/*
 * Split collective data access (MPI-4.1 14.4.5): begin does the I/O and
 * keeps its status; end hands the status back.  One split collective may
 * be active per file.
 */
#include "io.h"

static int begin(MPI_File fh, int dir, int how, MPI_Offset offset,
                 void *buf, MPI_Count count, MPI_Datatype dt, const char *fn)
{
    int rc = ucmpi_file_check(fh, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (fh->split_active)
        return ucmpi_err_file(fh, MPI_ERR_OTHER, fn,
                              "a split collective is already active on "
                              "\"%s\"", fh->filename);
    rc = ucmpi_file_access(fh, dir, how, offset, buf, count, dt,
                           &fh->split_st, NULL, fn);
    fh->split_active = 1;
    fh->split_rc = rc;
    return rc;
}

static int end(MPI_File fh, MPI_Status *status, const char *fn)
{
    int rc = ucmpi_file_check(fh, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!fh->split_active)
        return ucmpi_err_file(fh, MPI_ERR_OTHER, fn,
                              "no split collective is active on \"%s\"",
                              fh->filename);
    fh->split_active = 0;
    if (status != MPI_STATUS_IGNORE && fh->split_rc == MPI_SUCCESS)
        *status = fh->split_st;
    return fh->split_rc;
}

#pragma weak MPI_File_read_all_begin = PMPI_File_read_all_begin
int PMPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype
                             datatype)
{
    return begin(fh, UCMPI_IO_READ, 0, 0, buf, count, datatype,
                 "MPI_File_read_all_begin");
}

#pragma weak MPI_File_read_all_begin_c = PMPI_File_read_all_begin_c
int PMPI_File_read_all_begin_c(MPI_File fh, void *buf, MPI_Count count,
                               MPI_Datatype datatype)
{
    return begin(fh, UCMPI_IO_READ, 0, 0, buf, count, datatype,
                 "MPI_File_read_all_begin_c");
}

#pragma weak MPI_File_read_all_end = PMPI_File_read_all_end
int PMPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    (void)buf;
    return end(fh, status, "MPI_File_read_all_end");
}

#pragma weak MPI_File_read_at_all_begin = PMPI_File_read_at_all_begin
int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int
                                count, MPI_Datatype datatype)
{
    return begin(fh, UCMPI_IO_READ, UCMPI_IO_AT, offset, buf, count, datatype,
                 "MPI_File_read_at_all_begin");
}

#pragma weak MPI_File_read_at_all_begin_c = PMPI_File_read_at_all_begin_c
int PMPI_File_read_at_all_begin_c(MPI_File fh, MPI_Offset offset, void *buf,
                                  MPI_Count count, MPI_Datatype datatype)
{
    return begin(fh, UCMPI_IO_READ, UCMPI_IO_AT, offset, buf, count, datatype,
                 "MPI_File_read_at_all_begin_c");
}

#pragma weak MPI_File_read_at_all_end = PMPI_File_read_at_all_end
int PMPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    (void)buf;
    return end(fh, status, "MPI_File_read_at_all_end");
}

#pragma weak MPI_File_read_ordered_begin = PMPI_File_read_ordered_begin
int PMPI_File_read_ordered_begin(MPI_File fh, void *buf, int count,
                                 MPI_Datatype datatype)
{
    return begin(fh, UCMPI_IO_READ, UCMPI_IO_ORDERED, 0, buf, count, datatype,
                 "MPI_File_read_ordered_begin");
}

#pragma weak MPI_File_read_ordered_begin_c = PMPI_File_read_ordered_begin_c
int PMPI_File_read_ordered_begin_c(MPI_File fh, void *buf, MPI_Count count,
                                   MPI_Datatype datatype)
{
    return begin(fh, UCMPI_IO_READ, UCMPI_IO_ORDERED, 0, buf, count, datatype,
                 "MPI_File_read_ordered_begin_c");
}

#pragma weak MPI_File_read_ordered_end = PMPI_File_read_ordered_end
int PMPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status)
{
    (void)buf;
    return end(fh, status, "MPI_File_read_ordered_end");
}

#pragma weak MPI_File_write_all_begin = PMPI_File_write_all_begin
int PMPI_File_write_all_begin(MPI_File fh, const void *buf, int count,
                              MPI_Datatype datatype)
{
    return begin(fh, UCMPI_IO_WRITE, 0, 0, (void *)buf, count, datatype,
                 "MPI_File_write_all_begin");
}

#pragma weak MPI_File_write_all_begin_c = PMPI_File_write_all_begin_c
int PMPI_File_write_all_begin_c(MPI_File fh, const void *buf, MPI_Count count,
                                MPI_Datatype datatype)
{
    return begin(fh, UCMPI_IO_WRITE, 0, 0, (void *)buf, count, datatype,
                 "MPI_File_write_all_begin_c");
}

#pragma weak MPI_File_write_all_end = PMPI_File_write_all_end
int PMPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    (void)buf;
    return end(fh, status, "MPI_File_write_all_end");
}

#pragma weak MPI_File_write_at_all_begin = PMPI_File_write_at_all_begin
int PMPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void
                                 *buf, int count, MPI_Datatype datatype)
{
    return begin(fh, UCMPI_IO_WRITE, UCMPI_IO_AT, offset, (void *)buf, count,
                 datatype, "MPI_File_write_at_all_begin");
}

#pragma weak MPI_File_write_at_all_begin_c = PMPI_File_write_at_all_begin_c
int PMPI_File_write_at_all_begin_c(MPI_File fh, MPI_Offset offset, const void
                                   *buf, MPI_Count count, MPI_Datatype
                                   datatype)
{
    return begin(fh, UCMPI_IO_WRITE, UCMPI_IO_AT, offset, (void *)buf, count,
                 datatype, "MPI_File_write_at_all_begin_c");
}

#pragma weak MPI_File_write_at_all_end = PMPI_File_write_at_all_end
int PMPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status
                               *status)
{
    (void)buf;
    return end(fh, status, "MPI_File_write_at_all_end");
}

#pragma weak MPI_File_write_ordered_begin = PMPI_File_write_ordered_begin
int PMPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count,
                                  MPI_Datatype datatype)
{
    return begin(fh, UCMPI_IO_WRITE, UCMPI_IO_ORDERED, 0, (void *)buf, count,
                 datatype, "MPI_File_write_ordered_begin");
}

#pragma weak MPI_File_write_ordered_begin_c = PMPI_File_write_ordered_begin_c
int PMPI_File_write_ordered_begin_c(MPI_File fh, const void *buf, MPI_Count
                                    count, MPI_Datatype datatype)
{
    return begin(fh, UCMPI_IO_WRITE, UCMPI_IO_ORDERED, 0, (void *)buf, count,
                 datatype, "MPI_File_write_ordered_begin_c");
}

#pragma weak MPI_File_write_ordered_end = PMPI_File_write_ordered_end
int PMPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status
                                *status)
{
    (void)buf;
    return end(fh, status, "MPI_File_write_ordered_end");
}
