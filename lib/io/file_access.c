/* Data access: collective forms are independent I/O plus a barrier; nonblocking
 * forms do the I/O at once and return a completed request (no barrier). */
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

/* No ops: cancelling a completed request does nothing, as for a send. */
static int done_request(const MPI_Status *st, MPI_Request *req)
{
    ucmpi_request_t *r = ucmpi_request_alloc(UCMPI_REQ_GREQ, NULL);
    if (r == NULL)
        return MPI_ERR_NO_MEM;
    r->status = *st;
    r->status.MPI_ERROR = MPI_SUCCESS;
    ucmpi_request_set_complete(r);
    *req = r;
    return MPI_SUCCESS;
}

int ucmpi_file_access(MPI_File fh, int how, MPI_Offset offset,
                      const void *cbuf, MPI_Count count, MPI_Datatype dt,
                      MPI_Status *st, MPI_Request *req)
{
    const char *fn = ucmpi_call_name();
    int dir = how & UCMPI_IO_WR ? UCMPI_IO_WRITE : UCMPI_IO_READ;
    void *buf = (void *)cbuf;   /* written to only by reads */
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
    if ((how & UCMPI_IO_COLL) && req == NULL)
        PMPI_Barrier(fh->comm);
    if (req != NULL) {
        *req = MPI_REQUEST_NULL;
        if (rc == MPI_SUCCESS && done_request(&local, req))
            rc = ucmpi_err_file(fh, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    return rc;
}

static int blocking(const char *name, int how, MPI_File fh, MPI_Offset offset,
                    const void *buf, MPI_Count count, MPI_Datatype dt,
                    MPI_Status *st)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    return ucmpi_file_access(fh, how, offset, buf, count, dt, st, NULL);
}

static int nonblocking(const char *name, int how, MPI_File fh,
                       MPI_Offset offset, const void *buf, MPI_Count count,
                       MPI_Datatype dt, MPI_Request *req)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    if (req == NULL) {
        int rc = ucmpi_file_check(fh);
        return rc != MPI_SUCCESS ? rc
                                 : ucmpi_err_file(fh, MPI_ERR_ARG, fn,
                                                  "request is NULL");
    }
    return ucmpi_file_access(fh, how, offset, buf, count, dt, NULL, req);
}

#pragma weak MPI_File_read = PMPI_File_read
int PMPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                   MPI_Status *status)
{
    return blocking("MPI_File_read", 0, fh, 0, buf, count, datatype, status);
}

#pragma weak MPI_File_read_c = PMPI_File_read_c
int PMPI_File_read_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype
                     datatype, MPI_Status *status)
{
    return blocking("MPI_File_read_c", 0, fh, 0, buf, count, datatype, status);
}

#pragma weak MPI_File_read_at = PMPI_File_read_at
int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                      MPI_Datatype datatype, MPI_Status *status)
{
    return blocking("MPI_File_read_at", UCMPI_IO_AT, fh, offset, buf, count,
                    datatype, status);
}

#pragma weak MPI_File_read_at_c = PMPI_File_read_at_c
int PMPI_File_read_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count
                        count, MPI_Datatype datatype, MPI_Status *status)
{
    return blocking("MPI_File_read_at_c", UCMPI_IO_AT, fh, offset, buf, count,
                    datatype, status);
}

#pragma weak MPI_File_read_all = PMPI_File_read_all
int PMPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype
                       datatype, MPI_Status *status)
{
    return blocking("MPI_File_read_all", UCMPI_IO_COLL, fh, 0, buf, count,
                    datatype, status);
}

#pragma weak MPI_File_read_all_c = PMPI_File_read_all_c
int PMPI_File_read_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype
                         datatype, MPI_Status *status)
{
    return blocking("MPI_File_read_all_c", UCMPI_IO_COLL, fh, 0, buf, count,
                    datatype, status);
}

#pragma weak MPI_File_read_at_all = PMPI_File_read_at_all
int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
                          MPI_Datatype datatype, MPI_Status *status)
{
    return blocking("MPI_File_read_at_all", UCMPI_IO_AT | UCMPI_IO_COLL, fh,
                    offset, buf, count, datatype, status);
}

#pragma weak MPI_File_read_at_all_c = PMPI_File_read_at_all_c
int PMPI_File_read_at_all_c(MPI_File fh, MPI_Offset offset, void *buf,
                            MPI_Count count, MPI_Datatype datatype, MPI_Status
                            *status)
{
    return blocking("MPI_File_read_at_all_c", UCMPI_IO_AT | UCMPI_IO_COLL, fh,
                    offset, buf, count, datatype, status);
}

#pragma weak MPI_File_write = PMPI_File_write
int PMPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype
                    datatype, MPI_Status *status)
{
    return blocking("MPI_File_write", UCMPI_IO_WR, fh, 0, buf, count, datatype,
                    status);
}

#pragma weak MPI_File_write_c = PMPI_File_write_c
int PMPI_File_write_c(MPI_File fh, const void *buf, MPI_Count count,
                      MPI_Datatype datatype, MPI_Status *status)
{
    return blocking("MPI_File_write_c", UCMPI_IO_WR, fh, 0, buf, count,
                    datatype, status);
}

#pragma weak MPI_File_write_at = PMPI_File_write_at
int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int
                       count, MPI_Datatype datatype, MPI_Status *status)
{
    return blocking("MPI_File_write_at", UCMPI_IO_WR | UCMPI_IO_AT, fh, offset,
                    buf, count, datatype, status);
}

#pragma weak MPI_File_write_at_c = PMPI_File_write_at_c
int PMPI_File_write_at_c(MPI_File fh, MPI_Offset offset, const void *buf,
                         MPI_Count count, MPI_Datatype datatype, MPI_Status
                         *status)
{
    return blocking("MPI_File_write_at_c", UCMPI_IO_WR | UCMPI_IO_AT, fh,
                    offset, buf, count, datatype, status);
}

#pragma weak MPI_File_write_all = PMPI_File_write_all
int PMPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype
                        datatype, MPI_Status *status)
{
    return blocking("MPI_File_write_all", UCMPI_IO_WR | UCMPI_IO_COLL, fh, 0,
                    buf, count, datatype, status);
}

#pragma weak MPI_File_write_all_c = PMPI_File_write_all_c
int PMPI_File_write_all_c(MPI_File fh, const void *buf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Status *status)
{
    return blocking("MPI_File_write_all_c", UCMPI_IO_WR | UCMPI_IO_COLL, fh, 0,
                    buf, count, datatype, status);
}

#pragma weak MPI_File_write_at_all = PMPI_File_write_at_all
int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int
                           count, MPI_Datatype datatype, MPI_Status *status)
{
    return blocking("MPI_File_write_at_all",
                    UCMPI_IO_WR | UCMPI_IO_AT | UCMPI_IO_COLL, fh, offset, buf,
                    count, datatype, status);
}

#pragma weak MPI_File_write_at_all_c = PMPI_File_write_at_all_c
int PMPI_File_write_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf,
                             MPI_Count count, MPI_Datatype datatype, MPI_Status
                             *status)
{
    return blocking("MPI_File_write_at_all_c",
                    UCMPI_IO_WR | UCMPI_IO_AT | UCMPI_IO_COLL, fh, offset, buf,
                    count, datatype, status);
}

#pragma weak MPI_File_read_shared = PMPI_File_read_shared
int PMPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype
                          datatype, MPI_Status *status)
{
    return blocking("MPI_File_read_shared", UCMPI_IO_SHARED, fh, 0, buf, count,
                    datatype, status);
}

#pragma weak MPI_File_read_shared_c = PMPI_File_read_shared_c
int PMPI_File_read_shared_c(MPI_File fh, void *buf, MPI_Count count,
                            MPI_Datatype datatype, MPI_Status *status)
{
    return blocking("MPI_File_read_shared_c", UCMPI_IO_SHARED, fh, 0, buf,
                    count, datatype, status);
}

#pragma weak MPI_File_read_ordered = PMPI_File_read_ordered
int PMPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype
                           datatype, MPI_Status *status)
{
    return blocking("MPI_File_read_ordered", UCMPI_IO_COLL | UCMPI_IO_ORDERED,
                    fh, 0, buf, count, datatype, status);
}

#pragma weak MPI_File_read_ordered_c = PMPI_File_read_ordered_c
int PMPI_File_read_ordered_c(MPI_File fh, void *buf, MPI_Count count,
                             MPI_Datatype datatype, MPI_Status *status)
{
    return blocking("MPI_File_read_ordered_c",
                    UCMPI_IO_COLL | UCMPI_IO_ORDERED, fh, 0, buf, count,
                    datatype, status);
}

#pragma weak MPI_File_write_shared = PMPI_File_write_shared
int PMPI_File_write_shared(MPI_File fh, const void *buf, int count,
                           MPI_Datatype datatype, MPI_Status *status)
{
    return blocking("MPI_File_write_shared", UCMPI_IO_WR | UCMPI_IO_SHARED, fh,
                    0, buf, count, datatype, status);
}

#pragma weak MPI_File_write_shared_c = PMPI_File_write_shared_c
int PMPI_File_write_shared_c(MPI_File fh, const void *buf, MPI_Count count,
                             MPI_Datatype datatype, MPI_Status *status)
{
    return blocking("MPI_File_write_shared_c", UCMPI_IO_WR | UCMPI_IO_SHARED,
                    fh, 0, buf, count, datatype, status);
}

#pragma weak MPI_File_write_ordered = PMPI_File_write_ordered
int PMPI_File_write_ordered(MPI_File fh, const void *buf, int count,
                            MPI_Datatype datatype, MPI_Status *status)
{
    return blocking("MPI_File_write_ordered",
                    UCMPI_IO_WR | UCMPI_IO_COLL | UCMPI_IO_ORDERED, fh, 0, buf,
                    count, datatype, status);
}

#pragma weak MPI_File_write_ordered_c = PMPI_File_write_ordered_c
int PMPI_File_write_ordered_c(MPI_File fh, const void *buf, MPI_Count count,
                              MPI_Datatype datatype, MPI_Status *status)
{
    return blocking("MPI_File_write_ordered_c",
                    UCMPI_IO_WR | UCMPI_IO_COLL | UCMPI_IO_ORDERED, fh, 0, buf,
                    count, datatype, status);
}

#pragma weak MPI_File_iread = PMPI_File_iread
int PMPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                    MPI_Request *request)
{
    return nonblocking("MPI_File_iread", 0, fh, 0, buf, count, datatype,
                       request);
}

#pragma weak MPI_File_iread_c = PMPI_File_iread_c
int PMPI_File_iread_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype
                      datatype, MPI_Request *request)
{
    return nonblocking("MPI_File_iread_c", 0, fh, 0, buf, count, datatype,
                       request);
}

#pragma weak MPI_File_iread_at = PMPI_File_iread_at
int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                       MPI_Datatype datatype, MPI_Request *request)
{
    return nonblocking("MPI_File_iread_at", UCMPI_IO_AT, fh, offset, buf,
                       count, datatype, request);
}

#pragma weak MPI_File_iread_at_c = PMPI_File_iread_at_c
int PMPI_File_iread_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count
                         count, MPI_Datatype datatype, MPI_Request *request)
{
    return nonblocking("MPI_File_iread_at_c", UCMPI_IO_AT, fh, offset, buf,
                       count, datatype, request);
}

#pragma weak MPI_File_iread_all = PMPI_File_iread_all
int PMPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype
                        datatype, MPI_Request *request)
{
    return nonblocking("MPI_File_iread_all", UCMPI_IO_COLL, fh, 0, buf, count,
                       datatype, request);
}

#pragma weak MPI_File_iread_all_c = PMPI_File_iread_all_c
int PMPI_File_iread_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype
                          datatype, MPI_Request *request)
{
    return nonblocking("MPI_File_iread_all_c", UCMPI_IO_COLL, fh, 0, buf,
                       count, datatype, request);
}

#pragma weak MPI_File_iread_at_all = PMPI_File_iread_at_all
int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int
                           count, MPI_Datatype datatype, MPI_Request *request)
{
    return nonblocking("MPI_File_iread_at_all", UCMPI_IO_AT | UCMPI_IO_COLL,
                       fh, offset, buf, count, datatype, request);
}

#pragma weak MPI_File_iread_at_all_c = PMPI_File_iread_at_all_c
int PMPI_File_iread_at_all_c(MPI_File fh, MPI_Offset offset, void *buf,
                             MPI_Count count, MPI_Datatype datatype,
                             MPI_Request *request)
{
    return nonblocking("MPI_File_iread_at_all_c", UCMPI_IO_AT | UCMPI_IO_COLL,
                       fh, offset, buf, count, datatype, request);
}

#pragma weak MPI_File_iwrite = PMPI_File_iwrite
int PMPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype
                     datatype, MPI_Request *request)
{
    return nonblocking("MPI_File_iwrite", UCMPI_IO_WR, fh, 0, buf, count,
                       datatype, request);
}

#pragma weak MPI_File_iwrite_c = PMPI_File_iwrite_c
int PMPI_File_iwrite_c(MPI_File fh, const void *buf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Request *request)
{
    return nonblocking("MPI_File_iwrite_c", UCMPI_IO_WR, fh, 0, buf, count,
                       datatype, request);
}

#pragma weak MPI_File_iwrite_at = PMPI_File_iwrite_at
int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int
                        count, MPI_Datatype datatype, MPI_Request *request)
{
    return nonblocking("MPI_File_iwrite_at", UCMPI_IO_WR | UCMPI_IO_AT, fh,
                       offset, buf, count, datatype, request);
}

#pragma weak MPI_File_iwrite_at_c = PMPI_File_iwrite_at_c
int PMPI_File_iwrite_at_c(MPI_File fh, MPI_Offset offset, const void *buf,
                          MPI_Count count, MPI_Datatype datatype, MPI_Request
                          *request)
{
    return nonblocking("MPI_File_iwrite_at_c", UCMPI_IO_WR | UCMPI_IO_AT, fh,
                       offset, buf, count, datatype, request);
}

#pragma weak MPI_File_iwrite_all = PMPI_File_iwrite_all
int PMPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype
                         datatype, MPI_Request *request)
{
    return nonblocking("MPI_File_iwrite_all", UCMPI_IO_WR | UCMPI_IO_COLL, fh,
                       0, buf, count, datatype, request);
}

#pragma weak MPI_File_iwrite_all_c = PMPI_File_iwrite_all_c
int PMPI_File_iwrite_all_c(MPI_File fh, const void *buf, MPI_Count count,
                           MPI_Datatype datatype, MPI_Request *request)
{
    return nonblocking("MPI_File_iwrite_all_c", UCMPI_IO_WR | UCMPI_IO_COLL,
                       fh, 0, buf, count, datatype, request);
}

#pragma weak MPI_File_iwrite_at_all = PMPI_File_iwrite_at_all
int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf,
                            int count, MPI_Datatype datatype, MPI_Request
                            *request)
{
    return nonblocking("MPI_File_iwrite_at_all",
                       UCMPI_IO_WR | UCMPI_IO_AT | UCMPI_IO_COLL, fh, offset,
                       buf, count, datatype, request);
}

#pragma weak MPI_File_iwrite_at_all_c = PMPI_File_iwrite_at_all_c
int PMPI_File_iwrite_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf,
                              MPI_Count count, MPI_Datatype datatype,
                              MPI_Request *request)
{
    return nonblocking("MPI_File_iwrite_at_all_c",
                       UCMPI_IO_WR | UCMPI_IO_AT | UCMPI_IO_COLL, fh, offset,
                       buf, count, datatype, request);
}

#pragma weak MPI_File_iread_shared = PMPI_File_iread_shared
int PMPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype
                           datatype, MPI_Request *request)
{
    return nonblocking("MPI_File_iread_shared", UCMPI_IO_SHARED, fh, 0, buf,
                       count, datatype, request);
}

#pragma weak MPI_File_iread_shared_c = PMPI_File_iread_shared_c
int PMPI_File_iread_shared_c(MPI_File fh, void *buf, MPI_Count count,
                             MPI_Datatype datatype, MPI_Request *request)
{
    return nonblocking("MPI_File_iread_shared_c", UCMPI_IO_SHARED, fh, 0, buf,
                       count, datatype, request);
}

#pragma weak MPI_File_iwrite_shared = PMPI_File_iwrite_shared
int PMPI_File_iwrite_shared(MPI_File fh, const void *buf, int count,
                            MPI_Datatype datatype, MPI_Request *request)
{
    return nonblocking("MPI_File_iwrite_shared", UCMPI_IO_WR | UCMPI_IO_SHARED,
                       fh, 0, buf, count, datatype, request);
}

#pragma weak MPI_File_iwrite_shared_c = PMPI_File_iwrite_shared_c
int PMPI_File_iwrite_shared_c(MPI_File fh, const void *buf, MPI_Count count,
                              MPI_Datatype datatype, MPI_Request *request)
{
    return nonblocking("MPI_File_iwrite_shared_c",
                       UCMPI_IO_WR | UCMPI_IO_SHARED, fh, 0, buf, count,
                       datatype, request);
}
