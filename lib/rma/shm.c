/* Node-shared memory: Win_allocate puts each rank's memory in a POSIX segment
 * (UCMPI_RMA_SHM_HDR, then data) for node peers to map; else they use UCX. */
#include "rma/rma.h"
#include "core/config.h"

#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define NAME_LEN 48

/* UCMPI_RMA_DIRECT: may this rank use (and offer) the direct path? */
static bool direct_enabled(void)
{
    static int on = -1;
    if (on < 0)
        on = ucmpi_config_long("RMA_DIRECT") != 0;
    return on;
}

int ucmpi_rma_shm_create(size_t size, void **seg, size_t *len, char *name,
                         size_t name_len)
{
    static unsigned seq;
    size_t total = UCMPI_RMA_SHM_HDR + size;

    *seg = NULL;
    name[0] = '\0';
    if (!direct_enabled())
        return MPI_ERR_OTHER;
    snprintf(name, name_len, "/ucmpi-w%d-%u", (int)getpid(), seq++);
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) {
        name[0] = '\0';
        return MPI_ERR_NO_MEM;
    }
    void *p = MAP_FAILED;
    if (ftruncate(fd, (off_t)total) == 0)
        p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        shm_unlink(name);
        name[0] = '\0';
        return MPI_ERR_NO_MEM;
    }
    *seg = p;
    *len = total;
    return MPI_SUCCESS;
}

void ucmpi_rma_shm_destroy(void *seg, size_t len, const char *name)
{
    if (name != NULL && name[0] != '\0')
        shm_unlink(name);
    if (seg != NULL)
        munmap(seg, len);
}

static bool same_node(int world)
{
    return ucmpi_global.node_of == NULL ||
           ucmpi_global.node_of[world] ==
               ucmpi_global.node_of[ucmpi_global.world_rank];
}

/* Map peer i's segment; on any failure it stays on UCX. */
static void map_peer(ucmpi_win_t *win, int i, const char *name)
{
    ucmpi_rma_peer_t *p = &win->peers[i];
    size_t len = UCMPI_RMA_SHM_HDR + (size_t)p->size;
    int fd = shm_open(name, O_RDWR, 0600);
    if (fd < 0)
        return;
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return;
    p->map = m;
    p->map_len = len;
    p->acc_lock = &((ucmpi_rma_shm_hdr_t *)m)->acc_lock;
    p->local = (char *)m + UCMPI_RMA_SHM_HDR;
}

int ucmpi_rma_shm_connect(ucmpi_win_t *win, const char *name)
{
    char mine[NAME_LEN] = {0};
    char *all = malloc((size_t)NAME_LEN * win->size);
    int rc = MPI_SUCCESS;

    if (name != NULL)
        snprintf(mine, sizeof(mine), "%s", name);
    /* everyone takes part even without memory for the names */
    rc = ucmpi_rma_allgather(win->comm, mine, all ? all : mine,
                             all ? NAME_LEN : 0);
    for (int i = 0; all != NULL && rc == MPI_SUCCESS && i < win->size; i++)
        if (i != win->rank && direct_enabled() &&
            all[(size_t)NAME_LEN * i] != '\0' &&
            same_node(win->peers[i].world))
            map_peer(win, i, all + (size_t)NAME_LEN * i);
    free(all);
    /* all mapped what they could: the name can go */
    int rc2 = ucmpi_rma_barrier(win->comm);
    if (name != NULL && name[0] != '\0')
        shm_unlink(name);
    return rc != MPI_SUCCESS ? rc : rc2;
}

/* A node peer's Win_create memory with its accumulate lock, if ucp_rkey_ptr
 * maps it (xpmem, shm transport memory); else the peer stays on UCP. */
static void map_created(ucmpi_win_t *win, ucmpi_rma_peer_t *p)
{
    if (!direct_enabled() || !same_node(p->world) || p->map)
        return;
    char *mem = ucmpi_rma_rkey_ptr(p->rkey, p->base);
    char *ctrl = ucmpi_rma_rkey_ptr(p->ctrl_rkey, p->ctrl_addr);
    if (mem == NULL || ctrl == NULL)
        return;
    p->local = mem;
    p->acc_lock = (uint32_t *)(ctrl + offsetof(ucmpi_rma_ctrl_t, acc_lock));
}

/* Lock words are UCX-allocated (win.c), so node peers can map them and
 * lock with CPU atomics instead of slow software atomics through UCX. */
void ucmpi_rma_ctrl_setup(ucmpi_win_t *win)
{
    /* only when every member is on this node: a NIC's atomics from
     * another node would not be atomic against these CPU ones */
    for (int i = 0; i < win->size; i++)
        if (!same_node(win->peers[i].world))
            return;
    for (int i = 0; i < win->size; i++) {
        ucmpi_rma_peer_t *p = &win->peers[i];
        if (i == win->rank)
            p->ctrl_local = (uint64_t *)win->ctrl;
        else
            p->ctrl_local = ucmpi_rma_rkey_ptr(p->ctrl_rkey, p->ctrl_addr);
    }
}

void ucmpi_rma_direct_setup(ucmpi_win_t *win)
{
    if (win->flavor == MPI_WIN_FLAVOR_DYNAMIC)
        return;
    for (int i = 0; i < win->size; i++) {
        ucmpi_rma_peer_t *p = &win->peers[i];
        if (i == win->rank && p->size > 0) {
            p->local = win->base;
            p->acc_lock = win->acc_lock;
        } else if (win->flavor == MPI_WIN_FLAVOR_CREATE && p->size > 0) {
            map_created(win, p);
        } else if (win->flavor == MPI_WIN_FLAVOR_SHARED && p->size > 0 &&
                   win->shm_offsets != NULL && direct_enabled()) {
            p->local = (char *)win->shm + win->shm_offsets[i];
            p->acc_lock = win->acc_lock;
        }
    }
}

void ucmpi_rma_shm_disconnect(ucmpi_win_t *win)
{
    for (int i = 0; win->peers != NULL && i < win->size; i++) {
        ucmpi_rma_peer_t *p = &win->peers[i];
        if (p->map != NULL)
            munmap(p->map, p->map_len);
        p->map = NULL;
        p->local = NULL;
        p->ctrl_local = NULL;
    }
}
