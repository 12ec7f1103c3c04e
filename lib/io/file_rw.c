/* Every read and write: holed memory types via a packed buffer, the view cut in
 * contiguous file runs moved by pread/pwrite; atomic mode takes fcntl locks. */
#include "io.h"
#include "core/call.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ucmpi_file_status(MPI_Status *st, MPI_Offset bytes)
{
    if (st == MPI_STATUS_IGNORE)
        return;
    st->MPI_SOURCE = MPI_ANY_SOURCE;
    st->MPI_TAG = MPI_ANY_TAG;
    st->ucmpi_cancelled = 0;
    st->ucmpi_count = bytes;
}

int ucmpi_file_check_access(ucmpi_file_t *f, int dir, const void *buf,
                            MPI_Count count, MPI_Datatype dt)
{
    const char *fn = ucmpi_call_name();
    const char *why;
    (void)buf;   /* NULL is MPI_BOTTOM: absolute addresses in dt */
    if (dir == UCMPI_IO_READ && (f->amode & MPI_MODE_WRONLY))
        return ucmpi_err_file(f, MPI_ERR_ACCESS, fn,
                              "\"%s\" was opened MPI_MODE_WRONLY",
                              f->filename);
    if (dir == UCMPI_IO_WRITE && (f->amode & MPI_MODE_RDONLY))
        return ucmpi_err_file(f, MPI_ERR_READ_ONLY, fn,
                              "\"%s\" was opened MPI_MODE_RDONLY",
                              f->filename);
    if (count < 0)
        return ucmpi_err_file(f, MPI_ERR_COUNT, fn, "count %lld is negative",
                              count);
    if (ucmpi_dt_check(dt, 1, &why) != MPI_SUCCESS)
        return ucmpi_err_file(f, MPI_ERR_TYPE, fn, "datatype: %s", why);
    if (f->ext32 && !ucmpi_io_ext32_same(dt))
        return ucmpi_err_file(f, MPI_ERR_UNSUPPORTED_DATAREP, fn,
                              "datatype's external32 size differs from its "
                              "native size");
    if ((count * dt->size) % f->etype->size != 0)
        return ucmpi_err_file(f, MPI_ERR_TYPE, fn,
                              "%lld bytes of data are not a whole number of "
                              "etypes (%lld bytes each)",
                              count * dt->size, (long long)f->etype->size);
    return MPI_SUCCESS;
}

/* Moves len bytes at file offset off; returns bytes moved (short only at
 * the end of the file for reads) or -1 with errno. */
static ssize_t move(int fd, int dir, char *mem, size_t len, off_t off)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = dir == UCMPI_IO_READ
                        ? pread(fd, mem + done, len - done, off + done)
                        : pwrite(fd, mem + done, len - done, off + done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)   /* end of file (reads); a write of 0 cannot progress */
            break;
        done += (size_t)n;
    }
    return (ssize_t)done;
}

/* Whole-file lock in atomic mode: conflicting accesses are serialised. */
static void atomic_lock(ucmpi_file_t *f, int dir, int on)
{
    struct flock fl = {
        .l_type = on ? (dir == UCMPI_IO_READ ? F_RDLCK : F_WRLCK) : F_UNLCK,
        .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    while (fcntl(f->fd, F_SETLKW, &fl) != 0 && errno == EINTR)
        ;
}

/* Data sieving for reads through holed views: one pread of up to
 * SIEVE_SPAN bytes over many small runs instead of a system call each. */
enum { SIEVE_SPAN = 4 << 20, SIEVE_RUN = 64 << 10 };

/* How many stream bytes from pos (at most len) fall into one sieve span:
 * first and end bound it in the file; 0 when sieving does not pay. */
static MPI_Offset sieve_plan(const ucmpi_file_t *f, MPI_Offset pos,
                             MPI_Offset len, MPI_Offset *first,
                             MPI_Offset *end)
{
    MPI_Offset p = pos, c;
    int runs = 0;
    *first = *end = ucmpi_file_view_map(f, pos, &c);
    while (p < pos + len) {
        MPI_Offset o = ucmpi_file_view_map(f, p, &c);
        MPI_Offset n = c < pos + len - p ? c : pos + len - p;
        if (n <= 0 || n >= SIEVE_RUN || o < *first ||
            o + n - *first > SIEVE_SPAN)
            break;
        if (o + n > *end)
            *end = o + n;
        p += n;
        runs++;
    }
    return runs >= 2 ? p - pos : 0;
}

/* Reads `want` stream bytes from pos through one span; returns the bytes
 * copied (short at the end of the file) or -1 with errno. */
static ssize_t sieve_read(const ucmpi_file_t *f, char *mem, MPI_Offset pos,
                          MPI_Offset want, MPI_Offset first, MPI_Offset end)
{
    char *span = malloc((size_t)(end - first));
    if (span == NULL)
        return errno = ENOMEM, -1;
    ssize_t got = move(f->fd, UCMPI_IO_READ, span, (size_t)(end - first),
                       (off_t)first);
    MPI_Offset done = 0;
    while (got >= 0 && done < want) {
        MPI_Offset c, o = ucmpi_file_view_map(f, pos + done, &c);
        MPI_Offset n = c < want - done ? c : want - done;
        MPI_Offset avail = got - (o - first);
        if (avail <= 0)
            break;
        MPI_Offset k = n < avail ? n : avail;
        memcpy(mem + done, span + (o - first), (size_t)k);
        done += k;
        if (avail < n)
            break;
    }
    free(span);
    return got < 0 ? -1 : (ssize_t)done;
}

/* Moves bytes [pos, pos+len) of the view's stream; *moved gets the count
 * (shorter than len only at the end of the file). */
static int view_move(ucmpi_file_t *f, int dir, char *mem, MPI_Offset pos,
                     MPI_Offset len, MPI_Offset *moved, int *err)
{
    MPI_Offset done = 0, first, end, want, contig, off;
    int cls = MPI_SUCCESS;
    while (done < len) {
        ssize_t got;
        size_t n;
        if (dir == UCMPI_IO_READ && !f->dense &&
            (want = sieve_plan(f, pos + done, len - done, &first, &end))) {
            n = (size_t)want;
            got = sieve_read(f, mem + done, pos + done, want, first, end);
        } else {
            off = ucmpi_file_view_map(f, pos + done, &contig);
            n = (size_t)(contig < len - done ? contig : len - done);
            if (n == 0) {   /* the view holds no data (empty filetype) */
                *err = EINVAL;
                cls = dir == UCMPI_IO_READ ? MPI_SUCCESS : MPI_ERR_IO;
                break;
            }
            got = move(f->fd, dir, mem + done, n, (off_t)off);
        }
        if (got < 0) {
            *err = errno;
            cls = ucmpi_io_errno_class(errno);
            break;
        }
        done += got;
        if ((size_t)got < n) {   /* end of file; a short write is a full disk */
            if (dir == UCMPI_IO_WRITE) {
                *err = ENOSPC;
                cls = MPI_ERR_NO_SPACE;
            }
            break;
        }
    }
    *moved = done;
    return cls;
}

int ucmpi_file_xfer(ucmpi_file_t *f, int dir, MPI_Offset offset, void *buf,
                    MPI_Count count, MPI_Datatype dt, MPI_Status *st,
                    MPI_Offset *done)
{
    const char *fn = ucmpi_call_name();
    MPI_Offset len = (MPI_Offset)(count * dt->size), moved = 0;
    char *mem = (char *)buf + dt->true_lb, *bounce = NULL;
    int err = 0, cls;

    *done = 0;
    if (len == 0) {
        ucmpi_file_status(st, 0);
        return MPI_SUCCESS;
    }
    if (!dt->contig || f->ext32) {
        mem = bounce = malloc((size_t)len);
        if (bounce == NULL)
            return ucmpi_err_file(f, MPI_ERR_NO_MEM, fn,
                                  "no memory to pack %lld bytes", len);
        MPI_Count at = 0;
        if (dir == UCMPI_IO_WRITE && f->ext32)
            PMPI_Pack_external_c("external32", buf, count, dt, bounce, len,
                                 &at);
        else if (dir == UCMPI_IO_WRITE)
            ucmpi_dt_pack(dt, buf, count, bounce);
    }
    if (f->atomic)
        atomic_lock(f, dir, 1);
    cls = view_move(f, dir, mem, offset * f->etype->size, len, &moved, &err);
    if (f->atomic)
        atomic_lock(f, dir, 0);
    if (bounce != NULL && dir == UCMPI_IO_READ && f->ext32) {
        MPI_Count at = 0;   /* whole elements only */
        PMPI_Unpack_external_c("external32", bounce, moved, &at, buf,
                               moved / dt->size, dt);
    } else if (bounce != NULL && dir == UCMPI_IO_READ) {
        ucmpi_dt_unpack(dt, buf, count, bounce, (size_t)moved);
    }
    free(bounce);
    ucmpi_file_status(st, moved);
    *done = moved / f->etype->size;
    if (cls != MPI_SUCCESS)
        return ucmpi_err_file(f, cls, fn, "%s \"%s\": %s",
                              dir == UCMPI_IO_READ ? "reading" : "writing",
                              f->filename, strerror(err));
    return MPI_SUCCESS;
}
