/*
 * Nonblocking data access (MPI-4.1 14.4.3-5): the I/O is done when the
 * call is made and a completed request is returned, which the standard
 * allows; collective forms add no synchronisation (they must not block).
 */
#include "io.h"
#include "core/call.h"

static int iaccess(MPI_File fh, int dir, int how, MPI_Offset offset,
                   void *buf, MPI_Count count, MPI_Datatype dt,
                   MPI_Status *st, MPI_Request *req)
{
    const char *fn = ucmpi_call_name();
    (void)st;
    if (req == NULL) {
        int rc = ucmpi_file_check(fh);
        return rc != MPI_SUCCESS ? rc
                                 : ucmpi_err_file(fh, MPI_ERR_ARG, fn,
                                                  "request is NULL");
    }
    return ucmpi_file_access(fh, dir, how, offset, buf, count, dt, NULL, req);
}

#pragma weak MPI_File_iread = PMPI_File_iread
int PMPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                    MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iread");
    return iaccess(fh, UCMPI_IO_READ, 0, 0, buf, count, datatype,
        NULL, request);
}

#pragma weak MPI_File_iread_c = PMPI_File_iread_c
int PMPI_File_iread_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype
                      datatype, MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iread_c");
    return iaccess(fh, UCMPI_IO_READ, 0, 0, buf, count, datatype,
        NULL, request);
}

#pragma weak MPI_File_iread_at = PMPI_File_iread_at
int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                       MPI_Datatype datatype, MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iread_at");
    return iaccess(fh, UCMPI_IO_READ, UCMPI_IO_AT, offset, buf,
        count, datatype, NULL, request);
}

#pragma weak MPI_File_iread_at_c = PMPI_File_iread_at_c
int PMPI_File_iread_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count
                         count, MPI_Datatype datatype, MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iread_at_c");
    return iaccess(fh, UCMPI_IO_READ, UCMPI_IO_AT, offset, buf,
        count, datatype, NULL, request);
}

#pragma weak MPI_File_iread_all = PMPI_File_iread_all
int PMPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype
                        datatype, MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iread_all");
    return iaccess(fh, UCMPI_IO_READ, UCMPI_IO_COLL, 0, buf, count,
        datatype, NULL, request);
}

#pragma weak MPI_File_iread_all_c = PMPI_File_iread_all_c
int PMPI_File_iread_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype
                          datatype, MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iread_all_c");
    return iaccess(fh, UCMPI_IO_READ, UCMPI_IO_COLL, 0, buf, count,
        datatype, NULL, request);
}

#pragma weak MPI_File_iread_at_all = PMPI_File_iread_at_all
int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int
                           count, MPI_Datatype datatype, MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iread_at_all");
    return iaccess(fh, UCMPI_IO_READ, UCMPI_IO_AT | UCMPI_IO_COLL,
        offset, buf, count, datatype, NULL, request);
}

#pragma weak MPI_File_iread_at_all_c = PMPI_File_iread_at_all_c
int PMPI_File_iread_at_all_c(MPI_File fh, MPI_Offset offset, void *buf,
                             MPI_Count count, MPI_Datatype datatype,
                             MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iread_at_all_c");
    return iaccess(fh, UCMPI_IO_READ, UCMPI_IO_AT | UCMPI_IO_COLL,
        offset, buf, count, datatype, NULL, request);
}

#pragma weak MPI_File_iwrite = PMPI_File_iwrite
int PMPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype
                     datatype, MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iwrite");
    return iaccess(fh, UCMPI_IO_WRITE, 0, 0, (void *)buf, count,
        datatype, NULL, request);
}

#pragma weak MPI_File_iwrite_c = PMPI_File_iwrite_c
int PMPI_File_iwrite_c(MPI_File fh, const void *buf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iwrite_c");
    return iaccess(fh, UCMPI_IO_WRITE, 0, 0, (void *)buf, count,
        datatype, NULL, request);
}

#pragma weak MPI_File_iwrite_at = PMPI_File_iwrite_at
int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int
                        count, MPI_Datatype datatype, MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iwrite_at");
    return iaccess(fh, UCMPI_IO_WRITE, UCMPI_IO_AT, offset, (void
        *)buf, count, datatype, NULL, request);
}

#pragma weak MPI_File_iwrite_at_c = PMPI_File_iwrite_at_c
int PMPI_File_iwrite_at_c(MPI_File fh, MPI_Offset offset, const void *buf,
                          MPI_Count count, MPI_Datatype datatype, MPI_Request
                          *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iwrite_at_c");
    return iaccess(fh, UCMPI_IO_WRITE, UCMPI_IO_AT, offset, (void
        *)buf, count, datatype, NULL, request);
}

#pragma weak MPI_File_iwrite_all = PMPI_File_iwrite_all
int PMPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype
                         datatype, MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iwrite_all");
    return iaccess(fh, UCMPI_IO_WRITE, UCMPI_IO_COLL, 0, (void *)buf,
        count, datatype, NULL, request);
}

#pragma weak MPI_File_iwrite_all_c = PMPI_File_iwrite_all_c
int PMPI_File_iwrite_all_c(MPI_File fh, const void *buf, MPI_Count count,
                           MPI_Datatype datatype, MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iwrite_all_c");
    return iaccess(fh, UCMPI_IO_WRITE, UCMPI_IO_COLL, 0, (void *)buf,
        count, datatype, NULL, request);
}

#pragma weak MPI_File_iwrite_at_all = PMPI_File_iwrite_at_all
int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf,
                            int count, MPI_Datatype datatype, MPI_Request
                            *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iwrite_at_all");
    return iaccess(fh, UCMPI_IO_WRITE, UCMPI_IO_AT | UCMPI_IO_COLL,
        offset, (void *)buf, count, datatype, NULL, request);
}

#pragma weak MPI_File_iwrite_at_all_c = PMPI_File_iwrite_at_all_c
int PMPI_File_iwrite_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf,
                              MPI_Count count, MPI_Datatype datatype,
                              MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iwrite_at_all_c");
    return iaccess(fh, UCMPI_IO_WRITE, UCMPI_IO_AT | UCMPI_IO_COLL,
        offset, (void *)buf, count, datatype, NULL, request);
}
#pragma weak MPI_File_iread_shared = PMPI_File_iread_shared
int PMPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype
                           datatype, MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iread_shared");
    return iaccess(fh, UCMPI_IO_READ, UCMPI_IO_SHARED, 0, buf, count,
        datatype, NULL, request);
}

#pragma weak MPI_File_iread_shared_c = PMPI_File_iread_shared_c
int PMPI_File_iread_shared_c(MPI_File fh, void *buf, MPI_Count count,
                             MPI_Datatype datatype, MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iread_shared_c");
    return iaccess(fh, UCMPI_IO_READ, UCMPI_IO_SHARED, 0, buf, count,
        datatype, NULL, request);
}

#pragma weak MPI_File_iwrite_shared = PMPI_File_iwrite_shared
int PMPI_File_iwrite_shared(MPI_File fh, const void *buf, int count,
                            MPI_Datatype datatype, MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iwrite_shared");
    return iaccess(fh, UCMPI_IO_WRITE, UCMPI_IO_SHARED, 0, (void
        *)buf, count, datatype, NULL, request);
}

#pragma weak MPI_File_iwrite_shared_c = PMPI_File_iwrite_shared_c
int PMPI_File_iwrite_shared_c(MPI_File fh, const void *buf, MPI_Count count,
                              MPI_Datatype datatype, MPI_Request *request)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_iwrite_shared_c");
    return iaccess(fh, UCMPI_IO_WRITE, UCMPI_IO_SHARED, 0, (void
        *)buf, count, datatype, NULL, request);
}
