/* MPI-IO internals: the file object (pread/pwrite, one fd per process). */
#ifndef UCMPI_IO_H
#define UCMPI_IO_H

#include "p2p/request.h"
#include "datatype/datatype.h"

#include <pthread.h>

#define UCMPI_MAGIC_FILE 0x46494c45

struct ucmpi_file_s {
    ucmpi_win_head_t head;    /* magic, refcount, errhandler (lib/core/error.c) */
    int fd;
    int amode;
    int atomic;
    MPI_Comm comm;            /* private duplicate of the user's comm */
    char *filename;
    MPI_Info info;            /* hints given (never NULL once open) */
    /* the view (file_view.c) */
    MPI_Offset disp;          /* bytes */
    MPI_Datatype etype, filetype;
    char datarep[MPI_MAX_DATAREP_STRING];
    ucmpi_dt_iov_t *runs;     /* filetype's data runs, offsets from disp */
    MPI_Offset *run_start;    /* data bytes before run i */
    size_t nruns;
    MPI_Offset ft_size, ft_extent;  /* data bytes / extent of a filetype */
    int dense;                /* filetype tiles without holes */
    int ext32;                /* datarep "external32" (big-endian data) */
    MPI_Offset fp;            /* individual pointer, in etypes */
    pthread_mutex_t fp_lock;  /* serialises its users between threads */
    /* shared file pointer (file_shared.c): MPI_WIN_NULL until first use */
    MPI_Win shfp_win;
    MPI_Offset *shfp_mem;
    /* open files, in open order (closed at MPI_Finalize if still open) */
    struct ucmpi_file_s *next, *prev;
    int listed;
    /* split collective in progress (file_split.c) */
    int split_active;
    int split_rc;
    MPI_Status split_st;
};
typedef struct ucmpi_file_s ucmpi_file_t;

/* The handler for open failures and new files (MPI_FILE_NULL's). */
extern ucmpi_errhandler_t *ucmpi_file_null_errhandler;

static inline bool ucmpi_file_valid(MPI_File fh)
{
    return fh != MPI_FILE_NULL && fh->head.magic == UCMPI_MAGIC_FILE;
}

/* Checks initialization and the handle (MPI_ERR_FILE on MPI_FILE_NULL). */
int ucmpi_file_check(MPI_File fh);
/* ucmpi_file_check, then MPI_ERR_ARG "<name> is NULL" if out is NULL. */
int ucmpi_file_check_out(MPI_File fh, const void *out, const char *name);
#define ucmpi_err_file(fh, code, fn, ...) \
    ucmpi_error(UCMPI_OBJ_FILE, (fh), (code), (fn), __VA_ARGS__)

/* Adds the hints of info to the file's (MPI_File_set_info/set_view). */
int ucmpi_file_merge_info(ucmpi_file_t *f, MPI_Info info);

/* The MPI error class for a failed system call's errno. */
int ucmpi_io_errno_class(int err);

/* ---- views (file_view.c) ---- */
/* Installs the default view (disp 0, MPI_BYTE, MPI_BYTE, "native"). */
int ucmpi_file_view_default(ucmpi_file_t *f);
void ucmpi_file_view_free(ucmpi_file_t *f);
/* Absolute byte offset of view data byte `pos` (pos counts data bytes
 * from the start of the view), and how many bytes follow contiguously. */
MPI_Offset ucmpi_file_view_map(const ucmpi_file_t *f, MPI_Offset pos,
                               MPI_Offset *contig);

/* ---- the data path (file_rw.c) ---- */
enum { UCMPI_IO_READ, UCMPI_IO_WRITE };
/* Moves count elements of dt between buf and the view from `offset`
 * etypes on; fills st; *done gets the etypes moved (for the pointers). */
int ucmpi_file_xfer(ucmpi_file_t *f, int dir, MPI_Offset offset, void *buf,
                    MPI_Count count, MPI_Datatype dt, MPI_Status *st,
                    MPI_Offset *done);
/* How a data access call moves, positions and synchronises. */
enum {
    UCMPI_IO_AT = 1,          /* explicit offset */
    UCMPI_IO_COLL = 2,        /* collective (_all, _ordered) */
    UCMPI_IO_SHARED = 4,      /* shared file pointer */
    UCMPI_IO_ORDERED = 8,     /* shared pointer, in rank order */
    UCMPI_IO_WR = 16          /* a write (else a read) */
};
/* Every read/write entry point: checks, positions, moves the data and
 * fills *st, or (req != NULL) a completed request. */
int ucmpi_file_access(MPI_File fh, int how, MPI_Offset offset,
                      const void *buf, MPI_Count count, MPI_Datatype dt,
                      MPI_Status *st, MPI_Request *req);

/* ---- shared file pointer (file_shared.c) ---- */
/* Collective parts of open/close/set_view. */
int ucmpi_file_shared_init(ucmpi_file_t *f, MPI_Offset start);
void ucmpi_file_shared_fini(ucmpi_file_t *f);
int ucmpi_file_shared_reset(ucmpi_file_t *f);
/* Takes n etypes at the shared pointer: *start is where they begin.  The
 * ordered form is collective and hands out places in rank order. */
int ucmpi_file_shared_claim(ucmpi_file_t *f, MPI_Offset n,
                            MPI_Offset *start);
int ucmpi_file_ordered_claim(ucmpi_file_t *f, MPI_Offset n,
                             MPI_Offset *start);
/* Position (in etypes) just past the file's last byte in the view. */
MPI_Offset ucmpi_file_view_eof(const ucmpi_file_t *f, MPI_Offset size);

/* dt's external32 size is its native size (then only byte order differs). */
bool ucmpi_io_ext32_same(MPI_Datatype dt);

/* Checks the arguments of a data access call. */
int ucmpi_file_check_access(ucmpi_file_t *f, int dir, const void *buf,
                            MPI_Count count, MPI_Datatype dt);
/* Fills a status for n bytes moved. */
void ucmpi_file_status(MPI_Status *st, MPI_Offset bytes);

#endif /* UCMPI_IO_H */
