/* Communicator core: MPI_COMM_WORLD and MPI_COMM_SELF, reference counting and
 * the rank/size queries (other communicators: lib/comm/comm_*.c). */
#include "comm/comm.h"
#include "core/hooks.h"

#include <stdlib.h>
#include <string.h>

UCMPI_PREDEFINED(struct ucmpi_comm_s, ucmpi_comm_world, UCMPI_PAD_COMM) = {
    .obj = {.magic = UCMPI_MAGIC_COMM, .refcount = 1, .predefined = 1,
            .ctx = 0, .name = "MPI_COMM_WORLD"}};
UCMPI_PREDEFINED(struct ucmpi_comm_s, ucmpi_comm_self, UCMPI_PAD_COMM) = {
    .obj = {.magic = UCMPI_MAGIC_COMM, .refcount = 1, .predefined = 1,
            .ctx = 1, .name = "MPI_COMM_SELF"}};

static void setup_predefined(ucmpi_comm_t *c, ucmpi_group_t *g)
{
    c->magic = UCMPI_MAGIC_COMM;
    c->refcount = 1;
    c->group = c->remote_group = g;
    ucmpi_group_retain(g);    /* one reference as group, one as remote */
    c->rank = g->my_rank;
    c->size = c->remote_size = g->size;
    c->errhandler = &ucmpi_errors_are_fatal;
    c->coll_seq = 0;
}

int ucmpi_comm_init_predefined(void)
{
    ucmpi_group_t *w = ucmpi_group_create_range(0, ucmpi_global.world_size, 1);
    ucmpi_group_t *s = ucmpi_group_create_range(ucmpi_global.world_rank, 1, 1);

    if (w == NULL || s == NULL)
        return -1;
    w->predefined = s->predefined = 0;
    setup_predefined(&ucmpi_comm_world, w);
    setup_predefined(&ucmpi_comm_self, s);
    return 0;
}

/* MPI_Finalize after the last fence: nothing uses them any more. */
static void finalize_predefined(void *unused)
{
    ucmpi_comm_destroy(&ucmpi_comm_self);
    ucmpi_comm_destroy(&ucmpi_comm_world);
}

__attribute__((constructor)) static void comm_hooks(void)
{
    ucmpi_hook_add(UCMPI_HOOK_FINALIZE_DETACH, UCMPI_HOOK_ORDER_COMM,
                   finalize_predefined);
}

/* Atomics only under MPI_THREAD_MULTIPLE: a locked instruction waits for the
 * send just posted to leave the store buffer (a third of a sender's cycles). */
void ucmpi_comm_retain(ucmpi_comm_t *c)
{
    if (ucmpi_global.thread_level == MPI_THREAD_MULTIPLE)
        __atomic_add_fetch(&c->refcount, 1, __ATOMIC_RELAXED);
    else
        c->refcount++;
}

void ucmpi_comm_release(ucmpi_comm_t *c)
{
    int left = ucmpi_global.thread_level == MPI_THREAD_MULTIPLE
                   ? __atomic_sub_fetch(&c->refcount, 1, __ATOMIC_ACQ_REL)
                   : --c->refcount;
    if (left == 0 && !c->predefined)
        ucmpi_comm_destroy(c);
}

int ucmpi_check_comm(MPI_Comm comm, const char *fn)
{
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (comm == MPI_COMM_NULL)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_COMM, fn,
                           "communicator is MPI_COMM_NULL");
    if (comm->magic != UCMPI_MAGIC_COMM)
        return ucmpi_error(UCMPI_OBJ_NONE, NULL, MPI_ERR_COMM, fn,
                           "invalid communicator %p (freed or not a "
                           "communicator)", (void *)comm);
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_rank = PMPI_Comm_rank
int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    int rc = ucmpi_check_comm(comm, "MPI_Comm_rank");
    if (rc != MPI_SUCCESS)
        return rc;
    if (rank == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, "MPI_Comm_rank",
                              "rank is NULL");
    *rank = comm->rank;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_size = PMPI_Comm_size
int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    int rc = ucmpi_check_comm(comm, "MPI_Comm_size");
    if (rc != MPI_SUCCESS)
        return rc;
    if (size == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, "MPI_Comm_size",
                              "size is NULL");
    *size = comm->size;
    return MPI_SUCCESS;
}
