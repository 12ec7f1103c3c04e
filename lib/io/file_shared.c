/* Shared file pointer: an MPI_Offset in a window on rank 0, advanced by
 * Fetch_and_op in a lock_all epoch (no one else joins); ordered: + allgather */
#include "io.h"
#include "core/call.h"

#include <stdlib.h>

/* Replaces (MPI_REPLACE) or advances (MPI_SUM) the pointer; *old: before. */
static int update(ucmpi_file_t *f, MPI_Offset val, MPI_Op op,
                  MPI_Offset *old)
{
    long long v = val, o = 0;
    /* inside the window's lock_all epoch: threads may do this at once */
    int rc = PMPI_Fetch_and_op(&v, &o, MPI_LONG_LONG, 0, 0, op, f->shfp_win);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Win_flush(0, f->shfp_win);
    *old = o;
    return rc == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_INTERN;
}

/* Rank 0 sets the pointer to val; the barrier: set before anyone uses it. */
static int set_pointer(ucmpi_file_t *f, MPI_Offset val)
{
    int rank, rc = MPI_SUCCESS;
    MPI_Offset old;
    PMPI_Comm_rank(f->comm, &rank);
    if (rank == 0)
        rc = update(f, val, MPI_REPLACE, &old);
    PMPI_Barrier(f->comm);
    return rc;
}

int ucmpi_file_shared_init(ucmpi_file_t *f, MPI_Offset start)
{
    int rank, rc;
    PMPI_Comm_rank(f->comm, &rank);
    rc = PMPI_Win_allocate(rank == 0 ? (MPI_Aint)sizeof(long long) : 0,
                           sizeof(long long), MPI_INFO_NULL, f->comm,
                           &f->shfp_mem, &f->shfp_win);
    if (rc != MPI_SUCCESS) {
        f->shfp_win = MPI_WIN_NULL;
        return MPI_ERR_INTERN;
    }
    /* one epoch for the file's life */
    PMPI_Win_lock_all(MPI_MODE_NOCHECK, f->shfp_win);
    return set_pointer(f, start);
}

void ucmpi_file_shared_fini(ucmpi_file_t *f)
{
    if (f->shfp_win != MPI_WIN_NULL) {
        PMPI_Win_unlock_all(f->shfp_win);
        PMPI_Win_free(&f->shfp_win);
    }
    f->shfp_win = MPI_WIN_NULL;
}

int ucmpi_file_shared_reset(ucmpi_file_t *f)
{
    PMPI_Barrier(f->comm);   /* earlier accesses first, as in seek_shared */
    return set_pointer(f, 0);
}

int ucmpi_file_shared_claim(ucmpi_file_t *f, MPI_Offset n, MPI_Offset *start)
{
    return update(f, n, MPI_SUM, start);
}

int ucmpi_file_ordered_claim(ucmpi_file_t *f, MPI_Offset n,
                             MPI_Offset *start)
{
    int rank, size, rc;
    PMPI_Comm_rank(f->comm, &rank);
    PMPI_Comm_size(f->comm, &size);
    long long mine = n, *all = malloc(sizeof(*all) * (size_t)size);
    if (all == NULL)   /* the others would hang: no way out but abort */
        ucmpi_abort(1, "MPI_File_*_ordered: out of memory");
    rc = PMPI_Allgather(&mine, 1, MPI_LONG_LONG, all, 1, MPI_LONG_LONG,
                        f->comm);
    long long before = 0, total = 0, base = 0;
    for (int i = 0; i < size; i++) {
        if (i < rank)
            before += all[i];
        total += all[i];
    }
    free(all);
    if (rc != MPI_SUCCESS)
        return MPI_ERR_INTERN;
    if (rank == 0) {
        MPI_Offset old;
        rc = update(f, total, MPI_SUM, &old);
        base = old;
    }
    int rc2 = PMPI_Bcast(&base, 1, MPI_LONG_LONG, 0, f->comm);
    *start = base + before;
    return rc == MPI_SUCCESS && rc2 == MPI_SUCCESS ? MPI_SUCCESS
                                                   : MPI_ERR_INTERN;
}

#pragma weak MPI_File_seek_shared = PMPI_File_seek_shared
int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_seek_shared");
    int rc = ucmpi_file_check(fh), rank;
    if (rc != MPI_SUCCESS)
        return rc;
    PMPI_Comm_rank(fh->comm, &rank);
    /* shared-pointer accesses made before the call come first */
    PMPI_Barrier(fh->comm);
    /* rank 0 decides; everyone learns the outcome */
    long long res[2] = {MPI_SUCCESS, 0};
    if (rank == 0) {
        MPI_Offset cur = 0, base = 0, old;
        if (whence == MPI_SEEK_CUR)
            res[0] = update(fh, 0, MPI_SUM, &cur), base = cur;
        else if (whence == MPI_SEEK_END) {
            MPI_Offset size;
            res[0] = PMPI_File_get_size(fh, &size);
            base = ucmpi_file_view_eof(fh, size);
        } else if (whence != MPI_SEEK_SET)
            res[0] = MPI_ERR_ARG, res[1] = -1;
        if (res[0] == MPI_SUCCESS && base + offset < 0)
            res[0] = MPI_ERR_ARG, res[1] = base + offset;
        if (res[0] == MPI_SUCCESS)
            res[0] = update(fh, base + offset, MPI_REPLACE, &old);
    }
    PMPI_Bcast(res, 2, MPI_LONG_LONG, 0, fh->comm);
    if (res[0] == MPI_ERR_ARG && res[1] == -1)
        return ucmpi_err_file(fh, MPI_ERR_ARG, fn, "whence %d is not "
                              "MPI_SEEK_SET, _CUR or _END", whence);
    if (res[0] == MPI_ERR_ARG)
        return ucmpi_err_file(fh, MPI_ERR_ARG, fn,
                              "the new position %lld is negative", res[1]);
    if (res[0] != MPI_SUCCESS)
        return ucmpi_err_file(fh, (int)res[0], fn,
                              "updating the shared file pointer failed");
    return MPI_SUCCESS;
}

#pragma weak MPI_File_get_position_shared = PMPI_File_get_position_shared
int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_File_get_position_shared");
    int rc = ucmpi_file_check_out(fh, offset, "offset");
    if (rc != MPI_SUCCESS)
        return rc;
    if (update(fh, 0, MPI_SUM, offset) != MPI_SUCCESS)
        return ucmpi_err_file(fh, MPI_ERR_INTERN, fn,
                              "reading the shared file pointer failed");
    return MPI_SUCCESS;
}
