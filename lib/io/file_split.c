/*
 * Split collective data access (MPI-4.1 14.4.5): begin does the I/O and
 * keeps its status; end hands the status back.  One split collective may
 * be active per file.
 */
#include "io.h"
#include "core/call.h"

static int begin(MPI_File fh, int dir, int how, MPI_Offset offset,
                 void *buf, MPI_Count count, MPI_Datatype dt)
{
    int rc = ucmpi_file_check(fh);
    if (rc != MPI_SUCCESS)
        return rc;
    if (fh->split_active)
        return ucmpi_err_file(fh, MPI_ERR_OTHER, ucmpi_call_name(),
                              "a split collective is already active on "
                              "\"%s\"", fh->filename);
    rc = ucmpi_file_access(fh, dir, how, offset, buf, count, dt,
                           &fh->split_st, NULL);
    fh->split_active = 1;
    fh->split_rc = rc;
    return rc;
}

static int end(MPI_File fh, MPI_Status *status)
{
    int rc = ucmpi_file_check(fh);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!fh->split_active)
        return ucmpi_err_file(fh, MPI_ERR_OTHER, ucmpi_call_name(),
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
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_read_all_begin");
    return begin(fh, UCMPI_IO_READ, 0, 0, buf, count, datatype);
}

#pragma weak MPI_File_read_all_begin_c = PMPI_File_read_all_begin_c
int PMPI_File_read_all_begin_c(MPI_File fh, void *buf, MPI_Count count,
                               MPI_Datatype datatype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_read_all_begin_c");
    return begin(fh, UCMPI_IO_READ, 0, 0, buf, count, datatype);
}

#pragma weak MPI_File_read_all_end = PMPI_File_read_all_end
int PMPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_read_all_end");
    (void)buf;
    return end(fh, status);
}

#pragma weak MPI_File_read_at_all_begin = PMPI_File_read_at_all_begin
int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int
                                count, MPI_Datatype datatype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_read_at_all_begin");
    return begin(fh, UCMPI_IO_READ, UCMPI_IO_AT, offset, buf, count, datatype);
}

#pragma weak MPI_File_read_at_all_begin_c = PMPI_File_read_at_all_begin_c
int PMPI_File_read_at_all_begin_c(MPI_File fh, MPI_Offset offset, void *buf,
                                  MPI_Count count, MPI_Datatype datatype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_read_at_all_begin_c");
    return begin(fh, UCMPI_IO_READ, UCMPI_IO_AT, offset, buf, count, datatype);
}

#pragma weak MPI_File_read_at_all_end = PMPI_File_read_at_all_end
int PMPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_read_at_all_end");
    (void)buf;
    return end(fh, status);
}

#pragma weak MPI_File_read_ordered_begin = PMPI_File_read_ordered_begin
int PMPI_File_read_ordered_begin(MPI_File fh, void *buf, int count,
                                 MPI_Datatype datatype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_read_ordered_begin");
    return begin(fh, UCMPI_IO_READ, UCMPI_IO_ORDERED, 0, buf, count, datatype);
}

#pragma weak MPI_File_read_ordered_begin_c = PMPI_File_read_ordered_begin_c
int PMPI_File_read_ordered_begin_c(MPI_File fh, void *buf, MPI_Count count,
                                   MPI_Datatype datatype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_read_ordered_begin_c");
    return begin(fh, UCMPI_IO_READ, UCMPI_IO_ORDERED, 0, buf, count, datatype);
}

#pragma weak MPI_File_read_ordered_end = PMPI_File_read_ordered_end
int PMPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_read_ordered_end");
    (void)buf;
    return end(fh, status);
}

#pragma weak MPI_File_write_all_begin = PMPI_File_write_all_begin
int PMPI_File_write_all_begin(MPI_File fh, const void *buf, int count,
                              MPI_Datatype datatype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_write_all_begin");
    return begin(fh, UCMPI_IO_WRITE, 0, 0, (void *)buf, count, datatype);
}

#pragma weak MPI_File_write_all_begin_c = PMPI_File_write_all_begin_c
int PMPI_File_write_all_begin_c(MPI_File fh, const void *buf, MPI_Count count,
                                MPI_Datatype datatype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_write_all_begin_c");
    return begin(fh, UCMPI_IO_WRITE, 0, 0, (void *)buf, count, datatype);
}

#pragma weak MPI_File_write_all_end = PMPI_File_write_all_end
int PMPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_write_all_end");
    (void)buf;
    return end(fh, status);
}

#pragma weak MPI_File_write_at_all_begin = PMPI_File_write_at_all_begin
int PMPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void
                                 *buf, int count, MPI_Datatype datatype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_write_at_all_begin");
    return begin(fh, UCMPI_IO_WRITE, UCMPI_IO_AT, offset, (void *)buf, count,
                 datatype);
}

#pragma weak MPI_File_write_at_all_begin_c = PMPI_File_write_at_all_begin_c
int PMPI_File_write_at_all_begin_c(MPI_File fh, MPI_Offset offset, const void
                                   *buf, MPI_Count count, MPI_Datatype
                                   datatype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_write_at_all_begin_c");
    return begin(fh, UCMPI_IO_WRITE, UCMPI_IO_AT, offset, (void *)buf, count,
                 datatype);
}

#pragma weak MPI_File_write_at_all_end = PMPI_File_write_at_all_end
int PMPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status
                               *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_write_at_all_end");
    (void)buf;
    return end(fh, status);
}

#pragma weak MPI_File_write_ordered_begin = PMPI_File_write_ordered_begin
int PMPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count,
                                  MPI_Datatype datatype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_write_ordered_begin");
    return begin(fh, UCMPI_IO_WRITE, UCMPI_IO_ORDERED, 0, (void *)buf, count,
                 datatype);
}

#pragma weak MPI_File_write_ordered_begin_c = PMPI_File_write_ordered_begin_c
int PMPI_File_write_ordered_begin_c(MPI_File fh, const void *buf, MPI_Count
                                    count, MPI_Datatype datatype)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_write_ordered_begin_c");
    return begin(fh, UCMPI_IO_WRITE, UCMPI_IO_ORDERED, 0, (void *)buf, count,
                 datatype);
}

#pragma weak MPI_File_write_ordered_end = PMPI_File_write_ordered_end
int PMPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status
                                *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_write_ordered_end");
    (void)buf;
    return end(fh, status);
}
