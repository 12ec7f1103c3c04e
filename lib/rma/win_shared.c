/* Shared-memory windows: node ranks map one POSIX segment (64-byte aligned
 * slices in rank order), also UCP-registered so RMA calls work as elsewhere. */
#include "rma/rma.h"
#include "core/call.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define ALIGN 64
#define NAME_LEN 64

static int map_segment(MPI_Comm comm, size_t total, void **seg)
{
    static unsigned seq;
    char name[NAME_LEN] = {0}, *names = NULL;
    int fd = -1, rc = MPI_SUCCESS;

    *seg = NULL;
    if (total == 0)
        return MPI_SUCCESS;
    if (comm->rank == 0) {
        snprintf(name, sizeof(name), "/ucmpi-%d-%u", (int)getpid(), seq++);
        fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
        if (fd < 0 || ftruncate(fd, (off_t)total) != 0)
            rc = MPI_ERR_NO_MEM;
    }
    names = malloc((size_t)NAME_LEN * comm->size);
    if (names == NULL)
        rc = MPI_ERR_NO_MEM;
    /* everyone takes part in the exchange, even after a local failure */
    int rc2 = names ? ucmpi_rma_allgather(comm, name, names, NAME_LEN)
                    : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = rc2;
    if (rc == MPI_SUCCESS && names[0] == '\0')
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS && comm->rank != 0) {
        fd = shm_open(names, O_RDWR, 0600);
        if (fd < 0)
            rc = MPI_ERR_NO_MEM;
    }
    if (rc == MPI_SUCCESS) {
        *seg = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (*seg == MAP_FAILED) {
            *seg = NULL;
            rc = MPI_ERR_NO_MEM;
        }
    }
    if (fd >= 0)
        close(fd);
    rc2 = ucmpi_rma_barrier(comm);   /* all mapped: the name can go */
    if (comm->rank == 0 && name[0] != '\0')
        shm_unlink(name);
    free(names);
    if (rc == MPI_SUCCESS)
        rc = rc2;
    if (rc != MPI_SUCCESS && *seg != NULL) {
        munmap(*seg, total);
        *seg = NULL;
    }
    return rc;
}

static int allocate_shared(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                           MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    const char *fn = ucmpi_call_name();
    int rc = ucmpi_rma_check_create(comm, size, disp_unit, info, win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (baseptr == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "baseptr is NULL");
    int mynode = ucmpi_global.node_of ? ucmpi_global.node_of[
                     ucmpi_global.world_rank] : 0;
    for (int i = 0; i < comm->size; i++) {
        int w = ucmpi_comm_peer_world(comm, i);
        if (ucmpi_global.node_of != NULL && ucmpi_global.node_of[w] != mynode)
            return ucmpi_err_comm(comm, MPI_ERR_RMA_SHARED, fn,
                                  "rank %d of the communicator is on another "
                                  "node", i);
    }
    int64_t mine = size, *sizes = malloc(sizeof(int64_t) * comm->size);
    MPI_Aint *offs = malloc(sizeof(MPI_Aint) * comm->size);
    if (sizes == NULL || offs == NULL) {
        free(sizes);
        free(offs);
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    rc = ucmpi_rma_allgather(comm, &mine, sizes, sizeof(mine));
    size_t total = UCMPI_RMA_SHM_HDR;   /* the accumulate lock */
    for (int i = 0; i < comm->size; i++) {
        offs[i] = (MPI_Aint)total;
        total += ((size_t)sizes[i] + ALIGN - 1) / ALIGN * ALIGN;
    }
    free(sizes);
    void *seg = NULL;
    if (rc == MPI_SUCCESS)
        rc = map_segment(comm, total, &seg);
    if (rc != MPI_SUCCESS) {
        free(offs);
        return ucmpi_err_comm(comm, rc, fn,
                              "cannot create the shared segment");
    }
    void *base = size > 0 ? (char *)seg + offs[comm->rank] : NULL;
    rc = ucmpi_rma_win_setup(comm, base, size, disp_unit,
                             MPI_WIN_FLAVOR_SHARED, info, fn, win);
    if (rc != MPI_SUCCESS) {
        if (seg != NULL)
            munmap(seg, total);
        free(offs);
        return rc;
    }
    (*win)->shm = seg;
    (*win)->shm_len = total;
    (*win)->shm_offsets = offs;
    if (seg != NULL)
        (*win)->acc_lock = &((ucmpi_rma_shm_hdr_t *)seg)->acc_lock;
    ucmpi_rma_direct_setup(*win);
    *(void **)baseptr = base;
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_allocate_shared = PMPI_Win_allocate_shared
int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info,
                             MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Win_allocate_shared");
    return allocate_shared(size, disp_unit, info, comm, baseptr, win);
}

#pragma weak MPI_Win_allocate_shared_c = PMPI_Win_allocate_shared_c
int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit,
                               MPI_Info info, MPI_Comm comm, void *baseptr,
                               MPI_Win *win)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Win_allocate_shared_c");
    return allocate_shared(size, disp_unit, info, comm, baseptr, win);
}

/* Both query forms: the disp_unit comes back as an MPI_Aint. */
static int shared_query(MPI_Win win, int rank, MPI_Aint *size,
                        MPI_Aint *disp_unit, void *baseptr, const char *fn)
{
    int rc = ucmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (size == NULL || disp_unit == NULL || baseptr == NULL)
        return ucmpi_err_win(win, MPI_ERR_ARG, fn, "NULL output argument");
    if (rank != MPI_PROC_NULL && (rank < 0 || rank >= win->size))
        return ucmpi_err_win(win, MPI_ERR_RANK, fn, "rank %d outside [0, %d)",
                             rank, win->size);
    if (win->flavor != MPI_WIN_FLAVOR_SHARED) {
        /* MPI 4.1: other flavors answer "no shared memory" */
        int r = rank == MPI_PROC_NULL ? win->rank : rank;
        *size = 0;
        *disp_unit = win->peers[r].disp_unit;
        *(void **)baseptr = NULL;
        return MPI_SUCCESS;
    }
    if (rank == MPI_PROC_NULL) {
        rank = 0;
        for (int i = win->size - 1; i >= 0; i--)
            if (win->peers[i].size > 0)
                rank = i;
    }
    *size = (MPI_Aint)win->peers[rank].size;
    *disp_unit = win->peers[rank].disp_unit;
    *(void **)baseptr = win->peers[rank].size > 0
                            ? (char *)win->shm + win->shm_offsets[rank]
                            : NULL;
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_shared_query = PMPI_Win_shared_query
int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size,
                          int *disp_unit, void *baseptr)
{
    static const char fn[] = "MPI_Win_shared_query";
    MPI_Aint du = 0;
    int rc = shared_query(win, rank, size, disp_unit ? &du : NULL, baseptr,
                          fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (du > INT_MAX)
        return ucmpi_err_win(win, MPI_ERR_VALUE_TOO_LARGE, fn,
                             "disp_unit %ld does not fit an int: use "
                             "MPI_Win_shared_query_c", (long)du);
    *disp_unit = (int)du;
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_shared_query_c = PMPI_Win_shared_query_c
int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size,
                            MPI_Aint *disp_unit, void *baseptr)
{
    return shared_query(win, rank, size, disp_unit, baseptr,
                        "MPI_Win_shared_query_c");
}
