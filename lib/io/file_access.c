/*
 * Blocking data access entry points (MPI-4.1 14.4): explicit offsets,
 * the individual file pointer, their collective forms, and
 * ucmpi_file_access, which all reads and writes go through.  Collective
 * forms are independent I/O followed by a barrier, so that data written by
 * a collective call is in the file for every process when it returns.
 */
#include "io.h"
#include "core/call.h"

/* Where the access starts, in etypes of the view. */
static int position(MPI_File fh, int how, int rc, MPI_Offset offset,
                    MPI_Offset n, MPI_Offset *start)
{
    int r2 = MPI_SUCCESS;
    *start = fh->fp;
    if (how & UCMPI_IO_AT)
        *start = offset;
    else if (how & UCMPI_IO_ORDERED)   /* collective: even after errors */
        r2 = ucmpi_file_ordered_claim(fh, rc == MPI_SUCCESS ? n : 0, start);
    else if ((how & UCMPI_IO_SHARED) && rc == MPI_SUCCESS)
        r2 = ucmpi_file_shared_claim(fh, n, start);
    if (rc == MPI_SUCCESS && r2 != MPI_SUCCESS)
        rc = ucmpi_err_file(fh, r2, ucmpi_call_name(),
                            "updating the shared file pointer failed");
    return rc;
}

int ucmpi_file_access(MPI_File fh, int dir, int how, MPI_Offset offset,
                      void *buf, MPI_Count count, MPI_Datatype dt,
                      MPI_Status *st, MPI_Request *req)
{
    const char *fn = ucmpi_call_name();
    int rc = ucmpi_file_check(fh);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Status local;
    MPI_Offset start, done = 0, n = 0;
    rc = ucmpi_file_check_access(fh, dir, buf, count, dt);
    if (rc == MPI_SUCCESS && (how & UCMPI_IO_AT) &&
        (fh->amode & MPI_MODE_SEQUENTIAL))
        rc = ucmpi_err_file(fh, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                            "explicit offsets on a MPI_MODE_SEQUENTIAL file");
    if (rc == MPI_SUCCESS && (how & UCMPI_IO_AT) && offset < 0)
        rc = ucmpi_err_file(fh, MPI_ERR_ARG, fn, "offset %lld is negative",
                            offset);
    if (rc == MPI_SUCCESS)
        n = count * dt->size / fh->etype->size;
    /* threads using the individual pointer take turns, as if serialised */
    int individual = !(how & (UCMPI_IO_AT | UCMPI_IO_SHARED |
                              UCMPI_IO_ORDERED));
    if (individual)
        pthread_mutex_lock(&fh->fp_lock);
    rc = position(fh, how, rc, offset, n, &start);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_file_xfer(fh, dir, start, buf, count, dt,
                             req != NULL ? &local : st, &done);
    if (individual) {
        fh->fp += done;
        pthread_mutex_unlock(&fh->fp_lock);
    }
    /* nonblocking collectives must not block: no barrier for them */
    if ((how & UCMPI_IO_COLL) && req == NULL)
        PMPI_Barrier(fh->comm);
    if (req != NULL) {
        *req = MPI_REQUEST_NULL;
        if (rc == MPI_SUCCESS && ucmpi_file_done_request(&local, rc, req))
            rc = ucmpi_err_file(fh, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    return rc;
}

#pragma weak MPI_File_read = PMPI_File_read
int PMPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                   MPI_Status *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_read");
    return ucmpi_file_access(fh, UCMPI_IO_READ, 0, 0, buf, count, datatype,
        status, NULL);
}

#pragma weak MPI_File_read_c = PMPI_File_read_c
int PMPI_File_read_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype
                     datatype, MPI_Status *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_read_c");
    return ucmpi_file_access(fh, UCMPI_IO_READ, 0, 0, buf, count, datatype,
        status, NULL);
}

#pragma weak MPI_File_read_at = PMPI_File_read_at
int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                      MPI_Datatype datatype, MPI_Status *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_read_at");
    return ucmpi_file_access(fh, UCMPI_IO_READ, UCMPI_IO_AT, offset, buf,
        count, datatype, status, NULL);
}

#pragma weak MPI_File_read_at_c = PMPI_File_read_at_c
int PMPI_File_read_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count
                        count, MPI_Datatype datatype, MPI_Status *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_read_at_c");
    return ucmpi_file_access(fh, UCMPI_IO_READ, UCMPI_IO_AT, offset, buf,
        count, datatype, status, NULL);
}

#pragma weak MPI_File_read_all = PMPI_File_read_all
int PMPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype
                       datatype, MPI_Status *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_read_all");
    return ucmpi_file_access(fh, UCMPI_IO_READ, UCMPI_IO_COLL, 0, buf, count,
        datatype, status, NULL);
}

#pragma weak MPI_File_read_all_c = PMPI_File_read_all_c
int PMPI_File_read_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype
                         datatype, MPI_Status *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_read_all_c");
    return ucmpi_file_access(fh, UCMPI_IO_READ, UCMPI_IO_COLL, 0, buf, count,
        datatype, status, NULL);
}

#pragma weak MPI_File_read_at_all = PMPI_File_read_at_all
int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
                          MPI_Datatype datatype, MPI_Status *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_read_at_all");
    return ucmpi_file_access(fh, UCMPI_IO_READ, UCMPI_IO_AT | UCMPI_IO_COLL,
        offset, buf, count, datatype, status, NULL);
}

#pragma weak MPI_File_read_at_all_c = PMPI_File_read_at_all_c
int PMPI_File_read_at_all_c(MPI_File fh, MPI_Offset offset, void *buf,
                            MPI_Count count, MPI_Datatype datatype, MPI_Status
                            *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_read_at_all_c");
    return ucmpi_file_access(fh, UCMPI_IO_READ, UCMPI_IO_AT | UCMPI_IO_COLL,
        offset, buf, count, datatype, status, NULL);
}

#pragma weak MPI_File_write = PMPI_File_write
int PMPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype
                    datatype, MPI_Status *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_write");
    return ucmpi_file_access(fh, UCMPI_IO_WRITE, 0, 0, (void *)buf, count,
        datatype, status, NULL);
}

#pragma weak MPI_File_write_c = PMPI_File_write_c
int PMPI_File_write_c(MPI_File fh, const void *buf, MPI_Count count,
                      MPI_Datatype datatype, MPI_Status *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_write_c");
    return ucmpi_file_access(fh, UCMPI_IO_WRITE, 0, 0, (void *)buf, count,
        datatype, status, NULL);
}

#pragma weak MPI_File_write_at = PMPI_File_write_at
int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int
                       count, MPI_Datatype datatype, MPI_Status *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_write_at");
    return ucmpi_file_access(fh, UCMPI_IO_WRITE, UCMPI_IO_AT, offset, (void
        *)buf, count, datatype, status, NULL);
}

#pragma weak MPI_File_write_at_c = PMPI_File_write_at_c
int PMPI_File_write_at_c(MPI_File fh, MPI_Offset offset, const void *buf,
                         MPI_Count count, MPI_Datatype datatype, MPI_Status
                         *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_write_at_c");
    return ucmpi_file_access(fh, UCMPI_IO_WRITE, UCMPI_IO_AT, offset, (void
        *)buf, count, datatype, status, NULL);
}

#pragma weak MPI_File_write_all = PMPI_File_write_all
int PMPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype
                        datatype, MPI_Status *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_write_all");
    return ucmpi_file_access(fh, UCMPI_IO_WRITE, UCMPI_IO_COLL, 0, (void *)buf,
        count, datatype, status, NULL);
}

#pragma weak MPI_File_write_all_c = PMPI_File_write_all_c
int PMPI_File_write_all_c(MPI_File fh, const void *buf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Status *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_write_all_c");
    return ucmpi_file_access(fh, UCMPI_IO_WRITE, UCMPI_IO_COLL, 0, (void *)buf,
        count, datatype, status, NULL);
}

#pragma weak MPI_File_write_at_all = PMPI_File_write_at_all
int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int
                           count, MPI_Datatype datatype, MPI_Status *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_write_at_all");
    return ucmpi_file_access(fh, UCMPI_IO_WRITE, UCMPI_IO_AT | UCMPI_IO_COLL,
        offset, (void *)buf, count, datatype, status, NULL);
}

#pragma weak MPI_File_write_at_all_c = PMPI_File_write_at_all_c
int PMPI_File_write_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf,
                             MPI_Count count, MPI_Datatype datatype, MPI_Status
                             *status)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_write_at_all_c");
    return ucmpi_file_access(fh, UCMPI_IO_WRITE, UCMPI_IO_AT | UCMPI_IO_COLL,
        offset, (void *)buf, count, datatype, status, NULL);
}
