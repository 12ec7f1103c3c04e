/* Split collectives: begin does the I/O and keeps its status for end. */
#include "io.h"
#include "core/call.h"

static int split_begin(const char *name, int how, MPI_File fh,
                       MPI_Offset offset, const void *buf, MPI_Count count,
                       MPI_Datatype dt)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    int rc = ucmpi_file_check(fh);
    if (rc != MPI_SUCCESS)
        return rc;
    if (fh->split_active)
        return ucmpi_err_file(fh, MPI_ERR_OTHER, fn,
                              "a split collective is already active on "
                              "\"%s\"", fh->filename);
    rc = ucmpi_file_access(fh, how, offset, buf, count, dt, &fh->split_st,
                           NULL);
    fh->split_active = 1;
    fh->split_rc = rc;
    return rc;
}

static int split_end(const char *name, MPI_File fh, const void *buf,
                     MPI_Status *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    int rc = ucmpi_file_check(fh);
    (void)buf;
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
    return split_begin("MPI_File_read_all_begin", 0, fh, 0, buf, count,
                       datatype);
}

#pragma weak MPI_File_read_all_begin_c = PMPI_File_read_all_begin_c
int PMPI_File_read_all_begin_c(MPI_File fh, void *buf, MPI_Count count,
                               MPI_Datatype datatype)
{
    return split_begin("MPI_File_read_all_begin_c", 0, fh, 0, buf, count,
                       datatype);
}

#pragma weak MPI_File_read_all_end = PMPI_File_read_all_end
int PMPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    return split_end("MPI_File_read_all_end", fh, buf, status);
}

#pragma weak MPI_File_read_at_all_begin = PMPI_File_read_at_all_begin
int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int
                                count, MPI_Datatype datatype)
{
    return split_begin("MPI_File_read_at_all_begin", UCMPI_IO_AT, fh, offset,
                       buf, count, datatype);
}

#pragma weak MPI_File_read_at_all_begin_c = PMPI_File_read_at_all_begin_c
int PMPI_File_read_at_all_begin_c(MPI_File fh, MPI_Offset offset, void *buf,
                                  MPI_Count count, MPI_Datatype datatype)
{
    return split_begin("MPI_File_read_at_all_begin_c", UCMPI_IO_AT, fh, offset,
                       buf, count, datatype);
}

#pragma weak MPI_File_read_at_all_end = PMPI_File_read_at_all_end
int PMPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    return split_end("MPI_File_read_at_all_end", fh, buf,
                     status);
}

#pragma weak MPI_File_read_ordered_begin = PMPI_File_read_ordered_begin
int PMPI_File_read_ordered_begin(MPI_File fh, void *buf, int count,
                                 MPI_Datatype datatype)
{
    return split_begin("MPI_File_read_ordered_begin", UCMPI_IO_ORDERED, fh, 0,
                       buf, count, datatype);
}

#pragma weak MPI_File_read_ordered_begin_c = PMPI_File_read_ordered_begin_c
int PMPI_File_read_ordered_begin_c(MPI_File fh, void *buf, MPI_Count count,
                                   MPI_Datatype datatype)
{
    return split_begin("MPI_File_read_ordered_begin_c", UCMPI_IO_ORDERED, fh,
                       0, buf, count, datatype);
}

#pragma weak MPI_File_read_ordered_end = PMPI_File_read_ordered_end
int PMPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status)
{
    return split_end("MPI_File_read_ordered_end", fh, buf,
                     status);
}

#pragma weak MPI_File_write_all_begin = PMPI_File_write_all_begin
int PMPI_File_write_all_begin(MPI_File fh, const void *buf, int count,
                              MPI_Datatype datatype)
{
    return split_begin("MPI_File_write_all_begin", UCMPI_IO_WR, fh, 0, buf,
                       count, datatype);
}

#pragma weak MPI_File_write_all_begin_c = PMPI_File_write_all_begin_c
int PMPI_File_write_all_begin_c(MPI_File fh, const void *buf, MPI_Count count,
                                MPI_Datatype datatype)
{
    return split_begin("MPI_File_write_all_begin_c", UCMPI_IO_WR, fh, 0, buf,
                       count, datatype);
}

#pragma weak MPI_File_write_all_end = PMPI_File_write_all_end
int PMPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    return split_end("MPI_File_write_all_end", fh, buf, status);
}

#pragma weak MPI_File_write_at_all_begin = PMPI_File_write_at_all_begin
int PMPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void
                                 *buf, int count, MPI_Datatype datatype)
{
    return split_begin("MPI_File_write_at_all_begin",
                       UCMPI_IO_WR | UCMPI_IO_AT, fh, offset, buf, count,
                       datatype);
}

#pragma weak MPI_File_write_at_all_begin_c = PMPI_File_write_at_all_begin_c
int PMPI_File_write_at_all_begin_c(MPI_File fh, MPI_Offset offset, const void
                                   *buf, MPI_Count count, MPI_Datatype
                                   datatype)
{
    return split_begin("MPI_File_write_at_all_begin_c",
                       UCMPI_IO_WR | UCMPI_IO_AT, fh, offset, buf, count,
                       datatype);
}

#pragma weak MPI_File_write_at_all_end = PMPI_File_write_at_all_end
int PMPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status
                               *status)
{
    return split_end("MPI_File_write_at_all_end", fh, buf, status);
}

#pragma weak MPI_File_write_ordered_begin = PMPI_File_write_ordered_begin
int PMPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count,
                                  MPI_Datatype datatype)
{
    return split_begin("MPI_File_write_ordered_begin",
                       UCMPI_IO_WR | UCMPI_IO_ORDERED, fh, 0, buf, count,
                       datatype);
}

#pragma weak MPI_File_write_ordered_begin_c = PMPI_File_write_ordered_begin_c
int PMPI_File_write_ordered_begin_c(MPI_File fh, const void *buf, MPI_Count
                                    count, MPI_Datatype datatype)
{
    return split_begin("MPI_File_write_ordered_begin_c",
                       UCMPI_IO_WR | UCMPI_IO_ORDERED, fh, 0, buf, count,
                       datatype);
}

#pragma weak MPI_File_write_ordered_end = PMPI_File_write_ordered_end
int PMPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status
                                *status)
{
    return split_end("MPI_File_write_ordered_end", fh, buf, status);
}
