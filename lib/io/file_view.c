/* File views: the filetype is flattened once into data runs, so a position maps
 * to an offset by a division and a binary search; "native" only. */
#include "io.h"
#include "core/call.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ucmpi_file_view_free(ucmpi_file_t *f)
{
    free(f->runs);
    free(f->run_start);
    f->runs = NULL;
    f->run_start = NULL;
    if (f->etype != NULL)
        ucmpi_dt_release(f->etype);
    if (f->filetype != NULL)
        ucmpi_dt_release(f->filetype);
    f->etype = f->filetype = NULL;
}

/* Flattens filetype into f (which keeps references to both types). */
static int view_install(ucmpi_file_t *f, MPI_Offset disp, MPI_Datatype etype,
                        MPI_Datatype filetype, const char *datarep)
{
    ucmpi_dt_iov_t *runs;
    size_t n;
    int rc = ucmpi_dt_iov(filetype, NULL, 1, &runs, &n);
    if (rc != MPI_SUCCESS)
        return MPI_ERR_NO_MEM;
    MPI_Offset *start = malloc((n ? n : 1) * sizeof(*start));
    if (start == NULL) {
        free(runs);
        return MPI_ERR_NO_MEM;
    }
    MPI_Offset acc = 0;
    for (size_t i = 0; i < n; i++) {
        start[i] = acc;
        acc += (MPI_Offset)runs[i].len;
    }
    ucmpi_dt_retain(etype);
    ucmpi_dt_retain(filetype);
    ucmpi_file_view_free(f);
    f->runs = runs;
    f->run_start = start;
    f->nruns = n;
    f->disp = disp;
    f->etype = etype;
    f->filetype = filetype;
    f->ft_size = filetype->size;
    f->ft_extent = filetype->extent;
    f->dense = n == 1 && (MPI_Offset)runs[0].len == f->ft_extent;
    f->ext32 = strcmp(datarep, "external32") == 0;
    snprintf(f->datarep, sizeof(f->datarep), "%s", datarep);
    return MPI_SUCCESS;
}

int ucmpi_file_view_default(ucmpi_file_t *f)
{
    return view_install(f, 0, MPI_BYTE, MPI_BYTE, "native");
}

MPI_Offset ucmpi_file_view_map(const ucmpi_file_t *f, MPI_Offset pos,
                               MPI_Offset *contig)
{
    if (f->dense) {
        *contig = INT64_MAX - pos;
        return f->disp + f->runs[0].off + pos;
    }
    if (f->ft_size == 0) {   /* an empty view: nothing to access */
        *contig = 0;
        return f->disp;
    }
    MPI_Offset k = pos / f->ft_size, r = pos % f->ft_size;
    size_t lo = 0, hi = f->nruns - 1;   /* last run starting <= r */
    while (lo < hi) {
        size_t mid = (lo + hi + 1) / 2;
        if (f->run_start[mid] <= r)
            lo = mid;
        else
            hi = mid - 1;
    }
    MPI_Offset in = r - f->run_start[lo];
    *contig = (MPI_Offset)f->runs[lo].len - in;
    return f->disp + k * f->ft_extent + f->runs[lo].off + in;
}

bool ucmpi_io_ext32_same(MPI_Datatype dt)
{
    MPI_Count sz;
    return PMPI_Pack_external_size_c("external32", 1, dt, &sz) ==
               MPI_SUCCESS && sz == dt->size;
}

/* Displacements must be nonnegative, nondecreasing and, for writing, not
 * overlap (MPI-4.1 14.3): MPI_ERR_IO, as ROMIO reports them. */
static int runs_ordered(MPI_Datatype dt, int writable, const char **why)
{
    ucmpi_dt_iov_t *runs;
    size_t n;
    if (ucmpi_dt_iov(dt, NULL, 1, &runs, &n) != MPI_SUCCESS)
        return *why = "out of memory", MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    for (size_t i = 0; i < n && rc == MPI_SUCCESS; i++) {
        MPI_Aint end = i > 0 ? runs[i - 1].off + (MPI_Aint)runs[i - 1].len : 0;
        if (runs[i].off < 0)
            rc = MPI_ERR_IO, *why = "etype or filetype has negative "
                                    "displacements";
        else if (i > 0 && runs[i].off < runs[i - 1].off)
            rc = MPI_ERR_IO, *why = "etype or filetype displacements "
                                    "decrease";
        else if (i > 0 && writable && runs[i].off < end)
            rc = MPI_ERR_IO, *why = "etype or filetype overlaps itself in a "
                                    "file opened for writing";
    }
    free(runs);
    return rc;
}

/* MPI_SUCCESS or the class, with *why, for the arguments of set_view. */
static int view_args(ucmpi_file_t *f, MPI_Offset disp, MPI_Datatype etype,
                     MPI_Datatype filetype, const char *datarep,
                     const char **why)
{
    if (disp < 0 && disp != MPI_DISPLACEMENT_CURRENT)
        return *why = "disp is negative", MPI_ERR_ARG;
    if (disp == MPI_DISPLACEMENT_CURRENT &&
        !(f->amode & MPI_MODE_SEQUENTIAL))
        return *why = "MPI_DISPLACEMENT_CURRENT needs MPI_MODE_SEQUENTIAL",
               MPI_ERR_ARG;
    if (ucmpi_dt_check(etype, 1, why) != MPI_SUCCESS ||
        ucmpi_dt_check(filetype, 1, why) != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    if (etype->size == 0)
        return *why = "etype has no data", MPI_ERR_TYPE;
    if (filetype->size % etype->size != 0)
        return *why = "filetype is not made of etypes", MPI_ERR_TYPE;
    int writable = !(f->amode & MPI_MODE_RDONLY);
    int rc = runs_ordered(etype, writable, why);
    if (rc == MPI_SUCCESS)
        rc = runs_ordered(filetype, writable, why);
    if (rc != MPI_SUCCESS)
        return rc;
    if (datarep == NULL)
        return *why = "datarep is NULL", MPI_ERR_ARG;
    if (strcmp(datarep, "external32") == 0 &&
        !(ucmpi_io_ext32_same(etype) && ucmpi_io_ext32_same(filetype)))
        return *why = "\"external32\" is supported for types whose "
                      "external32 size is their native size only",
               MPI_ERR_UNSUPPORTED_DATAREP;
    if (strcmp(datarep, "native") != 0 && strcmp(datarep, "internal") != 0 &&
        strcmp(datarep, "external32") != 0)
        return *why = "only the \"native\" and \"external32\" data "
                      "representations are supported",
               MPI_ERR_UNSUPPORTED_DATAREP;
    return MPI_SUCCESS;
}

#pragma weak MPI_File_set_view = PMPI_File_set_view
int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                       MPI_Datatype filetype, const char *datarep,
                       MPI_Info info)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_set_view");
    int rc = ucmpi_file_check(fh);
    if (rc != MPI_SUCCESS)
        return rc;
    const char *why = NULL;
    rc = view_args(fh, disp, etype, filetype, datarep, &why);
    /* collective: all processes fail together, none waits for another */
    int all = rc;
    PMPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, fh->comm);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_file(fh, rc, fn, "%s", why);
    if (all != MPI_SUCCESS)
        return ucmpi_err_file(fh, all, fn,
                              "another process passed invalid arguments");
    if (disp == MPI_DISPLACEMENT_CURRENT) {   /* the shared pointer */
        MPI_Offset cur, contig;
        rc = PMPI_File_get_position_shared(fh, &cur);
        if (rc != MPI_SUCCESS)
            return rc;
        disp = ucmpi_file_view_map(fh, cur * fh->etype->size, &contig);
    }
    rc = ucmpi_file_merge_info(fh, info);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = view_install(fh, disp, etype, filetype, datarep);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_file(fh, rc, fn, "out of memory");
    fh->fp = 0;
    return ucmpi_file_shared_reset(fh);
}

/* Derived types are handed out as new handles the user frees. */
static MPI_Datatype type_out(MPI_Datatype t)
{
    MPI_Datatype d = t;
    if (!t->predefined && PMPI_Type_dup(t, &d) == MPI_SUCCESS)
        PMPI_Type_commit(&d);
    return d;
}

#pragma weak MPI_File_get_view = PMPI_File_get_view
int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
                       MPI_Datatype *filetype, char *datarep)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_get_view");
    int rc = ucmpi_file_check(fh);
    if (rc != MPI_SUCCESS)
        return rc;
    if (disp == NULL || etype == NULL || filetype == NULL || datarep == NULL)
        return ucmpi_err_file(fh, MPI_ERR_ARG, fn,
                              "disp, etype, filetype or datarep is NULL");
    *disp = fh->disp;
    *etype = type_out(fh->etype);
    *filetype = type_out(fh->filetype);
    strcpy(datarep, fh->datarep);
    return MPI_SUCCESS;
}

#pragma weak MPI_File_get_byte_offset = PMPI_File_get_byte_offset
int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset,
                              MPI_Offset *disp)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_get_byte_offset");
    int rc = ucmpi_file_check_out(fh, disp, "disp");
    if (rc != MPI_SUCCESS)
        return rc;
    if (offset < 0)
        return ucmpi_err_file(fh, MPI_ERR_ARG, fn,
                              "offset %lld is negative", offset);
    MPI_Offset contig;
    *disp = ucmpi_file_view_map(fh, offset * fh->etype->size, &contig);
    return MPI_SUCCESS;
}

static int type_extent(MPI_File fh, MPI_Datatype dt, MPI_Count *extent)
{
    const char *fn = ucmpi_call_name();
    int rc = ucmpi_file_check(fh);
    if (rc != MPI_SUCCESS)
        return rc;
    const char *why;
    if (ucmpi_dt_check(dt, 0, &why) != MPI_SUCCESS)
        return ucmpi_err_file(fh, MPI_ERR_TYPE, fn, "datatype: %s", why);
    if (extent == NULL)
        return ucmpi_err_file(fh, MPI_ERR_ARG, fn, "extent is NULL");
    *extent = dt->extent;   /* native: the file holds memory's layout */
    return MPI_SUCCESS;
}

#pragma weak MPI_File_get_type_extent = PMPI_File_get_type_extent
int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype,
                              MPI_Aint *extent)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_get_type_extent");
    MPI_Count e;
    int rc = type_extent(fh, datatype, extent ? &e : NULL);
    if (rc == MPI_SUCCESS)
        *extent = (MPI_Aint)e;
    return rc;
}

#pragma weak MPI_File_get_type_extent_c = PMPI_File_get_type_extent_c
int PMPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype,
                                MPI_Count *extent)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_get_type_extent_c");
    return type_extent(fh, datatype, extent);
}
