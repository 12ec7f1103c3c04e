/* Open (collective: rank 0 creates, the others then open, all agree, so all get
 * the file or all an error), close and delete. */
#include "io.h"
#include "core/call.h"
#include "comm/comm_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
    ACCESS_BITS = MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR,
    ALL_BITS = ACCESS_BITS | MPI_MODE_CREATE | MPI_MODE_EXCL |
               MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_UNIQUE_OPEN |
               MPI_MODE_APPEND | MPI_MODE_SEQUENTIAL
};

/* NULL when amode is valid, else why not (MPI-4.1 14.2.1). */
static const char *amode_error(int amode)
{
    int access = amode & ACCESS_BITS;
    if (amode & ~ALL_BITS)
        return "unknown bits set";
    if (access != MPI_MODE_RDONLY && access != MPI_MODE_WRONLY &&
        access != MPI_MODE_RDWR)
        return "not exactly one of MPI_MODE_RDONLY, MPI_MODE_WRONLY, "
               "MPI_MODE_RDWR";
    if (access == MPI_MODE_RDONLY &&
        (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
        return "MPI_MODE_RDONLY with MPI_MODE_CREATE or MPI_MODE_EXCL";
    if (access == MPI_MODE_RDWR && (amode & MPI_MODE_SEQUENTIAL))
        return "MPI_MODE_RDWR with MPI_MODE_SEQUENTIAL";
    return NULL;
}

/* ROMIO-style "ufs:" / "nfs:" prefixes name the file system: skip them. */
static const char *strip_prefix(const char *name)
{
    if (strncmp(name, "ufs:", 4) == 0 || strncmp(name, "nfs:", 4) == 0)
        return name + 4;
    return name;
}

static int open_flags(int amode, int creator)
{
    int fl = amode & MPI_MODE_RDONLY ? O_RDONLY
             : amode & MPI_MODE_WRONLY ? O_WRONLY : O_RDWR;
    if (creator && (amode & MPI_MODE_CREATE))
        fl |= O_CREAT;
    if (creator && (amode & MPI_MODE_EXCL))
        fl |= O_EXCL;
    return fl | O_CLOEXEC;
}

/* Largest error class over comm (0: all succeeded). */
static int agree(MPI_Comm comm, int cls)
{
    int all = cls;
    if (PMPI_Allreduce(&cls, &all, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS)
        return MPI_ERR_INTERN;
    return all;
}

/* Opens on this rank: 0 or the error class, with *err the errno. */
static int open_local(ucmpi_file_t *f, const char *path, int creator,
                      int *err)
{
    f->fd = open(path, open_flags(f->amode, creator), 0666);
    *err = errno;
    if (f->fd < 0)
        return ucmpi_io_errno_class(*err);
    struct stat sb;
    if (fstat(f->fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        close(f->fd);
        f->fd = -1;
        *err = EISDIR;
        return MPI_ERR_BAD_FILE;
    }
    return 0;
}

/* Files still open at MPI_Finalize are closed, in open order, by an
 * MPI_COMM_SELF attribute's delete callback (before the library goes). */
static ucmpi_file_t *open_head, *open_tail;
static int finalize_hooked;

static int close_open_files(MPI_Comm comm, int keyval, void *val,
                            void *extra)
{
    (void)comm, (void)keyval, (void)val, (void)extra;
    while (open_head != NULL) {
        MPI_File fh = open_head;
        PMPI_File_close(&fh);
    }
    finalize_hooked = 0;
    return MPI_SUCCESS;
}

static void list_add(ucmpi_file_t *f)
{
    f->prev = open_tail;
    f->next = NULL;
    if (open_tail != NULL)
        open_tail->next = f;
    else
        open_head = f;
    open_tail = f;
    f->listed = 1;
    if (!finalize_hooked) {
        int kv;
        if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, close_open_files,
                                    &kv, NULL) == MPI_SUCCESS) {
            finalize_hooked = PMPI_Comm_set_attr(MPI_COMM_SELF, kv, NULL) ==
                              MPI_SUCCESS;
            PMPI_Comm_free_keyval(&kv);
        }
    }
}

static void list_remove(ucmpi_file_t *f)
{
    if (!f->listed)
        return;
    if (f->prev != NULL)
        f->prev->next = f->next;
    else
        open_head = f->next;
    if (f->next != NULL)
        f->next->prev = f->prev;
    else
        open_tail = f->prev;
    f->listed = 0;
}

static void file_free(ucmpi_file_t *f)
{
    list_remove(f);
    ucmpi_file_shared_fini(f);
    if (f->fd >= 0)
        close(f->fd);
    ucmpi_file_view_free(f);
    if (f->comm != MPI_COMM_NULL)
        PMPI_Comm_free(&f->comm);
    if (f->info != MPI_INFO_NULL)
        ucmpi_info_destroy(f->info);
    ucmpi_errhandler_release(f->head.errhandler);
    f->head.magic = UCMPI_MAGIC_FREED;
    pthread_mutex_destroy(&f->fp_lock);
    free(f->filename);
    free(f);
}

static ucmpi_file_t *file_new(const char *name, int amode, MPI_Info info)
{
    ucmpi_file_t *f = calloc(1, sizeof(*f));
    if (f == NULL)
        return NULL;
    pthread_mutex_init(&f->fp_lock, NULL);
    f->fd = -1;
    f->amode = amode;
    f->comm = MPI_COMM_NULL;
    f->shfp_win = MPI_WIN_NULL;
    f->head.errhandler = ucmpi_file_null_errhandler;
    ucmpi_errhandler_retain(f->head.errhandler);
    f->filename = strdup(name);
    f->info = ucmpi_info_filter(info, NULL);
    if (f->filename == NULL || f->info == NULL ||
        ucmpi_file_view_default(f) != MPI_SUCCESS) {
        file_free(f);
        return NULL;
    }
    return f;
}

/* Rank 0 creates/opens first, then the rest: *err is this rank's errno. */
static int open_all(ucmpi_file_t *f, int cls, int *err)
{
    int rank;
    const char *path = strip_prefix(f->filename);
    PMPI_Comm_rank(f->comm, &rank);
    if (rank == 0 && cls == 0)
        cls = open_local(f, path, 1, err);
    int all = agree(f->comm, cls);   /* also orders rank 0 first */
    if (all != 0)
        return all;
    if (rank != 0)
        cls = open_local(f, path, 0, err);
    return agree(f->comm, cls);
}

#pragma weak MPI_File_open = PMPI_File_open
int PMPI_File_open(MPI_Comm comm, const char *filename, int amode,
                   MPI_Info info, MPI_File *fh)
{
    const char *fn = "MPI_File_open";
    int rc = ucmpi_check_comm(comm, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (comm->is_inter)
        return ucmpi_err_file(MPI_FILE_NULL, MPI_ERR_COMM, fn,
                              "comm is an intercommunicator");
    if (fh == NULL)
        return ucmpi_err_file(MPI_FILE_NULL, MPI_ERR_ARG, fn, "fh is NULL");
    *fh = MPI_FILE_NULL;
    /* local argument errors still join the agreement, so no rank hangs */
    int cls = 0, err = 0;
    const char *why = amode_error(amode);
    if (filename == NULL || filename[0] == '\0')
        cls = MPI_ERR_BAD_FILE, why = "filename is NULL or empty";
    else if (why != NULL)
        cls = MPI_ERR_AMODE;
    else if (info != MPI_INFO_NULL && !ucmpi_info_valid(info))
        cls = MPI_ERR_INFO, why = "info is not a valid info object";
    ucmpi_file_t *f = file_new(filename ? filename : "", amode,
                               cls == MPI_ERR_INFO ? MPI_INFO_NULL : info);
    if (f == NULL)
        return ucmpi_err_file(MPI_FILE_NULL, MPI_ERR_NO_MEM, fn,
                              "out of memory");
    rc = PMPI_Comm_dup(comm, &f->comm);
    if (rc != MPI_SUCCESS) {
        f->comm = MPI_COMM_NULL;
        file_free(f);
        return ucmpi_err_file(MPI_FILE_NULL, rc, fn, "MPI_Comm_dup failed");
    }
    int all = open_all(f, cls, &err);
    if (all != 0) {
        file_free(f);
        if (cls != 0 && why != NULL)
            return ucmpi_err_file(MPI_FILE_NULL, cls, fn, "amode %#x: %s",
                                  amode, why);
        if (err != 0 && cls != 0)
            return ucmpi_err_file(MPI_FILE_NULL, cls, fn, "\"%s\": %s",
                                  filename, strerror(err));
        return ucmpi_err_file(MPI_FILE_NULL, all, fn,
                              "\"%s\": another process failed to open it",
                              filename);
    }
    if (amode & MPI_MODE_APPEND) {   /* both pointers start at the end */
        struct stat sb;
        if (fstat(f->fd, &sb) == 0)
            f->fp = sb.st_size;
    }
    if (agree(f->comm, ucmpi_file_shared_init(f, f->fp)) != 0) {
        file_free(f);
        return ucmpi_err_file(MPI_FILE_NULL, MPI_ERR_INTERN, fn,
                              "\"%s\": no window for the shared file "
                              "pointer", filename);
    }
    f->head.magic = UCMPI_MAGIC_FILE;
    f->head.refcount = 1;
    list_add(f);
    *fh = f;
    return MPI_SUCCESS;
}

#pragma weak MPI_File_close = PMPI_File_close
int PMPI_File_close(MPI_File *fh)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_close");
    if (fh == NULL)
        return ucmpi_err_file(MPI_FILE_NULL, MPI_ERR_ARG, fn, "fh is NULL");
    int rc = ucmpi_file_check(*fh);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_file_t *f = *fh;
    int rank, cls = 0, err = 0;
    PMPI_Comm_rank(f->comm, &rank);
    ucmpi_file_shared_fini(f);
    if (close(f->fd) != 0)
        err = errno, cls = MPI_ERR_IO;
    f->fd = -1;
    if (f->amode & MPI_MODE_DELETE_ON_CLOSE) {
        /* every process has closed it before rank 0 removes it */
        PMPI_Barrier(f->comm);
        int uerr = 0;
        if (rank == 0 && unlink(strip_prefix(f->filename)) != 0 &&
            errno != ENOENT)
            uerr = errno;
        /* and it is gone when close returns anywhere */
        PMPI_Bcast(&uerr, 1, MPI_INT, 0, f->comm);
        if (uerr != 0 && cls == 0)
            err = uerr, cls = ucmpi_io_errno_class(uerr);
    }
    char name[256];
    snprintf(name, sizeof(name), "%s", f->filename);
    if (cls != 0)   /* reported on the file's handler before it goes */
        rc = ucmpi_err_file(f, cls, fn, "\"%s\": %s", name, strerror(err));
    file_free(f);
    *fh = MPI_FILE_NULL;
    return rc;
}

#pragma weak MPI_File_delete = PMPI_File_delete
int PMPI_File_delete(const char *filename, MPI_Info info)
{
    const char *fn = "MPI_File_delete";
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (filename == NULL)
        return ucmpi_err_file(MPI_FILE_NULL, MPI_ERR_BAD_FILE, fn,
                              "filename is NULL");
    if (info != MPI_INFO_NULL && !ucmpi_info_valid(info))
        return ucmpi_err_file(MPI_FILE_NULL, MPI_ERR_INFO, fn,
                              "info is not a valid info object");
    if (unlink(strip_prefix(filename)) != 0)
        return ucmpi_err_file(MPI_FILE_NULL, ucmpi_io_errno_class(errno), fn,
                              "\"%s\": %s", filename, strerror(errno));
    return MPI_SUCCESS;
}

#pragma weak MPI_File_get_amode = PMPI_File_get_amode
int PMPI_File_get_amode(MPI_File fh, int *amode)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_get_amode");
    int rc = ucmpi_file_check_out(fh, amode, "amode");
    if (rc == MPI_SUCCESS)
        *amode = fh->amode;
    return rc;
}

#pragma weak MPI_File_get_group = PMPI_File_get_group
int PMPI_File_get_group(MPI_File fh, MPI_Group *group)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_get_group");
    int rc = ucmpi_file_check_out(fh, group, "group");
    if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_group(fh->comm, group);
    return rc;
}

#pragma weak MPI_File_get_info = PMPI_File_get_info
int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_get_info");
    int rc = ucmpi_file_check_out(fh, info_used, "info_used");
    if (rc != MPI_SUCCESS)
        return rc;
    *info_used = ucmpi_info_filter(fh->info, NULL);
    if (*info_used == NULL) {
        *info_used = MPI_INFO_NULL;
        return ucmpi_err_file(fh, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    return MPI_SUCCESS;
}

/* Hints are kept (and reported by get_info) but change nothing here. */
int ucmpi_file_merge_info(ucmpi_file_t *f, MPI_Info info)
{
    if (info == MPI_INFO_NULL)
        return MPI_SUCCESS;
    if (!ucmpi_info_valid(info))
        return ucmpi_err_file(f, MPI_ERR_INFO, ucmpi_call_name(),
                              "info is not a valid info object");
    int n = 0;
    PMPI_Info_get_nkeys(info, &n);
    for (int i = 0; i < n; i++) {
        char key[MPI_MAX_INFO_KEY + 1];
        PMPI_Info_get_nthkey(info, i, key);
        PMPI_Info_set(f->info, key, ucmpi_info_lookup(info, key));
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_File_set_info = PMPI_File_set_info
int PMPI_File_set_info(MPI_File fh, MPI_Info info)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_set_info");
    int rc = ucmpi_file_check(fh);
    return rc != MPI_SUCCESS ? rc : ucmpi_file_merge_info(fh, info);
}
