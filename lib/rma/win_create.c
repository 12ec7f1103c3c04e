/* MPI_Win_create, MPI_Win_allocate, MPI_Win_create_dynamic, MPI_Win_free and
 * dynamic attach/detach. */
#include "rma/rma.h"
#include "core/call.h"
#include "core/attr.h"

#include <stdlib.h>
#include <string.h>


static int win_create(void *base, MPI_Aint size, MPI_Aint disp_unit,
                      MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    const char *fn = ucmpi_call_name();
    int rc = ucmpi_rma_check_create(comm, size, disp_unit, info, win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (base == NULL && size > 0)
        return ucmpi_err_comm(comm, MPI_ERR_BASE, fn,
                              "base is NULL for a window of %ld bytes",
                              (long)size);
    return ucmpi_rma_win_setup(comm, base, size, disp_unit,
                               MPI_WIN_FLAVOR_CREATE, info, fn, win);
}

#pragma weak MPI_Win_create = PMPI_Win_create
int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                    MPI_Comm comm, MPI_Win *win)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Win_create");
    return win_create(base, size, disp_unit, info, comm, win);
}

#pragma weak MPI_Win_create_c = PMPI_Win_create_c
int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit,
                      MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Win_create_c");
    return win_create(base, size, disp_unit, info, comm, win);
}

static int win_allocate(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                        MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    const char *fn = ucmpi_call_name();
    void *base = NULL, *seg = NULL;
    size_t seg_len = 0;
    char name[64] = "";
    int rc = ucmpi_rma_check_create(comm, size, disp_unit, info, win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (baseptr == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "baseptr is NULL");
    /* node peers map a shared segment (direct path); else plain memory */
    if (size > 0 &&
        ucmpi_rma_shm_create((size_t)size, &seg, &seg_len, name,
                             sizeof(name)) == MPI_SUCCESS)
        base = (char *)seg + UCMPI_RMA_SHM_HDR;
    else if (size > 0 && posix_memalign(&base, 64, (size_t)size) != 0)
        return ucmpi_err_comm(comm, MPI_ERR_NO_MEM, fn,
                              "cannot allocate %ld bytes", (long)size);
    rc = ucmpi_rma_win_setup(comm, base, size, disp_unit,
                             MPI_WIN_FLAVOR_ALLOCATE, info, fn, win);
    if (rc != MPI_SUCCESS) {
        if (seg != NULL)
            ucmpi_rma_shm_destroy(seg, seg_len, name);
        else
            free(base);
        return rc;
    }
    if (seg != NULL) {
        (*win)->shm = seg;
        (*win)->shm_len = seg_len;
        (*win)->acc_lock = &((ucmpi_rma_shm_hdr_t *)seg)->acc_lock;
        ucmpi_rma_direct_setup(*win);
    } else {
        (*win)->free_base = 1;
    }
    rc = ucmpi_rma_shm_connect(*win, name);
    if (rc != MPI_SUCCESS) {
        ucmpi_rma_win_destroy(*win);
        *win = MPI_WIN_NULL;
        return ucmpi_err_comm(comm, rc, fn, "connecting node peers failed");
    }
    *(void **)baseptr = base;
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_allocate = PMPI_Win_allocate
int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
                      MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Win_allocate");
    return win_allocate(size, disp_unit, info, comm, baseptr, win);
}

#pragma weak MPI_Win_allocate_c = PMPI_Win_allocate_c
int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                        MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Win_allocate_c");
    return win_allocate(size, disp_unit, info, comm, baseptr, win);
}

#pragma weak MPI_Win_create_dynamic = PMPI_Win_create_dynamic
int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    static const char fn[] = "MPI_Win_create_dynamic";
    int rc = ucmpi_rma_check_create(comm, 0, 1, info, win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    return ucmpi_rma_win_setup(comm, MPI_BOTTOM, 0, 1,
                               MPI_WIN_FLAVOR_DYNAMIC, info, fn, win);
}

#pragma weak MPI_Win_free = PMPI_Win_free
int PMPI_Win_free(MPI_Win *winp)
{
    static const char fn[] = "MPI_Win_free";
    if (winp == NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_ARG, fn,
                           "win argument is NULL");
    MPI_Win win = *winp;
    int rc = ucmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (win->nlocks > 0 || win->access == UCMPI_EPOCH_LOCK_ALL ||
        win->access == UCMPI_EPOCH_PSCW || win->exposure == UCMPI_EPOCH_PSCW)
        return ucmpi_err_win(win, MPI_ERR_RMA_SYNC, fn,
                             "an access or exposure epoch is still open");
    rc = ucmpi_rma_complete(win, -1, 1);
    /* nobody may touch my memory after this */
    int rc2 = ucmpi_rma_barrier(win->comm);
    ucmpi_attr_delete_all(UCMPI_ATTR_WIN, win, &win->attrs);
    ucmpi_rma_win_destroy(win);
    *winp = MPI_WIN_NULL;
    if (rc == MPI_SUCCESS)
        rc = rc2;
    if (rc != MPI_SUCCESS)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, rc, fn,
                           "completing pending operations failed");
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_attach = PMPI_Win_attach
int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    static const char fn[] = "MPI_Win_attach";
    int rc = ucmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return ucmpi_err_win(win, MPI_ERR_RMA_FLAVOR, fn,
                             "window was not created dynamic");
    if (size < 0 || (base == NULL && size > 0))
        return ucmpi_err_win(win, size < 0 ? MPI_ERR_SIZE : MPI_ERR_BASE, fn,
                             "bad region (base %p, size %ld)", base,
                             (long)size);
    uint64_t b = (uint64_t)(uintptr_t)base, s = (uint64_t)size;
    for (ucmpi_rma_region_t *r = win->regions; r != NULL; r = r->next)
        if (b < r->base + r->size && r->base < b + s)
            return ucmpi_err_win(win, MPI_ERR_RMA_ATTACH, fn,
                                 "region %p+%ld overlaps an attached one",
                                 base, (long)size);
    ucmpi_rma_region_t *r = calloc(1, sizeof(*r));
    if (r == NULL)
        return ucmpi_err_win(win, MPI_ERR_NO_MEM, fn, "out of memory");
    r->base = b;
    r->size = s;
    r->next = win->regions;
    win->regions = r;
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_detach = PMPI_Win_detach
int PMPI_Win_detach(MPI_Win win, const void *base)
{
    static const char fn[] = "MPI_Win_detach";
    int rc = ucmpi_rma_check_win(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return ucmpi_err_win(win, MPI_ERR_RMA_FLAVOR, fn,
                             "window was not created dynamic");
    for (ucmpi_rma_region_t **p = &win->regions; *p != NULL; p = &(*p)->next)
        if ((*p)->base == (uint64_t)(uintptr_t)base) {
            ucmpi_rma_region_t *r = *p;
            *p = r->next;
            ucmpi_rma_mem_unmap(r->mem);
            free(r);
            return MPI_SUCCESS;
        }
    return ucmpi_err_win(win, MPI_ERR_RMA_ATTACH, fn,
                         "%p is not the base of an attached region", base);
}
