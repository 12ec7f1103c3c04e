/* MPI_Pack family: the native format is the bare stream (no header). */
#include "dt.h"
#include "core/call.h"
#include "comm/comm.h"
#include "core/check.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Checks shared by the native forms (errors go to comm's handler). */
static int check_pack(const char *fn, MPI_Comm comm, MPI_Count count,
                      MPI_Datatype dt, const void *pos)
{
    int rc = ucmpi_check_initialized(fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_comm(comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = ucmpi_check_count(comm, count, fn);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_dt(comm, dt, fn);
    if (rc == MPI_SUCCESS && pos == NULL)
        rc = ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "position is NULL");
    return rc;
}

/* MPI_Pack (to_packed) and MPI_Unpack: count elements of dt in buf go
 * to or come from `packed` (size bytes) at *position. */
static int pack(const char *name, int to_packed, void *buf, MPI_Count count,
                MPI_Datatype dt, void *packed, MPI_Count size,
                MPI_Count *position, MPI_Comm comm)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    int rc = check_pack(fn, comm, count, dt, position);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Count need = count * dt->size;
    if (*position < 0 || *position > size || need > size - *position)
        return ucmpi_err_comm(comm, MPI_ERR_TRUNCATE, fn, to_packed
                              ? "%lld bytes do not fit at position %lld of "
                                "a %lld-byte buffer"
                              : "%lld bytes wanted at position %lld of a "
                                "%lld-byte buffer", need, *position, size);
    char *at = (char *)packed + *position;
    *position += to_packed
                     ? (MPI_Count)ucmpi_dt_pack(dt, buf, count, at)
                     : (MPI_Count)ucmpi_dt_unpack(dt, buf, count, at,
                                                  (size_t)need);
    return MPI_SUCCESS;
}

#pragma weak MPI_Pack = PMPI_Pack
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype,
              void *outbuf, int outsize, int *position, MPI_Comm comm)
{
    MPI_Count pos = position ? *position : 0;
    int rc = pack("MPI_Pack", 1, (void *)inbuf, incount, datatype, outbuf,
                  outsize, position ? &pos : NULL, comm);
    if (rc == MPI_SUCCESS)
        *position = (int)pos;
    return rc;
}

#pragma weak MPI_Pack_c = PMPI_Pack_c
int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
                void *outbuf, MPI_Count outsize, MPI_Count *position,
                MPI_Comm comm)
{
    return pack("MPI_Pack_c", 1, (void *)inbuf, incount, datatype, outbuf,
                outsize, position, comm);
}

#pragma weak MPI_Unpack = PMPI_Unpack
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf,
                int outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    MPI_Count pos = position ? *position : 0;
    int rc = pack("MPI_Unpack", 0, outbuf, outcount, datatype, (void *)inbuf,
                  insize, position ? &pos : NULL, comm);
    if (rc == MPI_SUCCESS)
        *position = (int)pos;
    return rc;
}

#pragma weak MPI_Unpack_c = PMPI_Unpack_c
int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position,
                  void *outbuf, MPI_Count outcount, MPI_Datatype datatype,
                  MPI_Comm comm)
{
    return pack("MPI_Unpack_c", 0, outbuf, outcount, datatype, (void *)inbuf,
                insize, position, comm);
}

#pragma weak MPI_Pack_size = PMPI_Pack_size
int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm,
                   int *size)
{
    static const char fn[] = "MPI_Pack_size";
    int rc = check_pack(fn, comm, incount, datatype, size);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Count n = incount * datatype->size;
    if (n > INT_MAX)
        return ucmpi_err_comm(comm, MPI_ERR_VALUE_TOO_LARGE, fn,
                              "packed size %lld does not fit an int "
                              "(use MPI_Pack_size_c)", n);
    *size = (int)n;
    return MPI_SUCCESS;
}

#pragma weak MPI_Pack_size_c = PMPI_Pack_size_c
int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm,
                     MPI_Count *size)
{
    int rc = check_pack("MPI_Pack_size_c", comm, incount, datatype, size);
    if (rc == MPI_SUCCESS)
        *size = incount * datatype->size;
    return rc;
}

/* ---- external32 ---- */

static int check_ext(const char *datarep, MPI_Count count,
                     MPI_Datatype dt, const void *pos)
{
    const char *fn = ucmpi_call_name();
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (datarep == NULL || strcmp(datarep, "external32") != 0)
        return ucmpi_dt_err(MPI_ERR_UNSUPPORTED_DATAREP, fn,
                            "data representation \"%s\" is not "
                            "\"external32\"", datarep ? datarep : "(null)");
    if (count < 0)
        return ucmpi_dt_err(MPI_ERR_COUNT, fn, "count %lld is negative",
                            count);
    rc = ucmpi_dt_check_arg(dt, 1, fn, "datatype");
    if (rc == MPI_SUCCESS && pos == NULL)
        rc = ucmpi_dt_err(MPI_ERR_ARG, fn, "position/size pointer is NULL");
    return rc;
}

/* MPI_Pack_external (to_ext) and MPI_Unpack_external, int and _c forms:
 * the native stream goes through a bounce buffer and external32.c. */
static int pack_ext(const char *name, int to_ext, const char *datarep,
                    void *buf, MPI_Count count, MPI_Datatype datatype,
                    void *ext, MPI_Count size, MPI_Count *position)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open(name);
    int rc = check_ext(datarep, count, datatype, position);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Count need = count * ucmpi_dt_impl(datatype)->ext32_total;
    if (*position < 0 || *position > size || need > size - *position)
        return ucmpi_dt_err(MPI_ERR_TRUNCATE, fn, to_ext
                            ? "%lld bytes do not fit at position %lld of a "
                              "%lld-byte buffer"
                            : "%lld bytes wanted at position %lld of a "
                              "%lld-byte buffer", need, *position, size);
    size_t native = (size_t)(count * datatype->size);
    char *tmp = malloc(native + 1), *at = (char *)ext + *position;
    if (tmp == NULL)
        return ucmpi_dt_err(MPI_ERR_NO_MEM, fn, "out of memory");
    if (to_ext) {
        ucmpi_dt_pack(datatype, buf, count, tmp);
        ucmpi_dt_ext32_convert(datatype, count, tmp, at, 1);
    } else {
        ucmpi_dt_ext32_convert(datatype, count, at, tmp, 0);
        ucmpi_dt_unpack(datatype, buf, count, tmp, native);
    }
    free(tmp);
    *position += need;
    return MPI_SUCCESS;
}

#pragma weak MPI_Pack_external_size = PMPI_Pack_external_size
int PMPI_Pack_external_size(const char datarep[], int incount,
                            MPI_Datatype datatype, MPI_Aint *size)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Pack_external_size");
    int rc = check_ext(datarep, incount, datatype, size);
    if (rc == MPI_SUCCESS)
        *size = (MPI_Aint)(incount * ucmpi_dt_impl(datatype)->ext32_total);
    return rc;
}

#pragma weak MPI_Pack_external_size_c = PMPI_Pack_external_size_c
int PMPI_Pack_external_size_c(const char datarep[], MPI_Count incount,
                              MPI_Datatype datatype, MPI_Count *size)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Pack_external_size_c");
    int rc = check_ext(datarep, incount, datatype, size);
    if (rc == MPI_SUCCESS)
        *size = incount * ucmpi_dt_impl(datatype)->ext32_total;
    return rc;
}

#pragma weak MPI_Pack_external = PMPI_Pack_external
int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount,
                       MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
                       MPI_Aint *position)
{
    MPI_Count pos = position ? *position : 0;
    int rc = pack_ext("MPI_Pack_external", 1, datarep, (void *)inbuf, incount,
                      datatype, outbuf, outsize, position ? &pos : NULL);
    if (rc == MPI_SUCCESS)
        *position = (MPI_Aint)pos;
    return rc;
}

#pragma weak MPI_Pack_external_c = PMPI_Pack_external_c
int PMPI_Pack_external_c(const char datarep[], const void *inbuf,
                         MPI_Count incount, MPI_Datatype datatype,
                         void *outbuf, MPI_Count outsize,
                         MPI_Count *position)
{
    return pack_ext("MPI_Pack_external_c", 1, datarep, (void *)inbuf, incount,
                    datatype, outbuf, outsize, position);
}

#pragma weak MPI_Unpack_external = PMPI_Unpack_external
int PMPI_Unpack_external(const char datarep[], const void *inbuf,
                         MPI_Aint insize, MPI_Aint *position, void *outbuf,
                         int outcount, MPI_Datatype datatype)
{
    MPI_Count pos = position ? *position : 0;
    int rc = pack_ext("MPI_Unpack_external", 0, datarep, outbuf, outcount,
                      datatype, (void *)inbuf, insize, position ? &pos : NULL);
    if (rc == MPI_SUCCESS)
        *position = (MPI_Aint)pos;
    return rc;
}

#pragma weak MPI_Unpack_external_c = PMPI_Unpack_external_c
int PMPI_Unpack_external_c(const char datarep[], const void *inbuf,
                           MPI_Count insize, MPI_Count *position,
                           void *outbuf, MPI_Count outcount,
                           MPI_Datatype datatype)
{
    return pack_ext("MPI_Unpack_external_c", 0, datarep, outbuf, outcount,
                    datatype, (void *)inbuf, insize, position);
}
