/* Barrier, bcast, reduce and allreduce over the shared segment: a buffer
 * write and a flag store per writer, loads per reader, no messages. */
#include "coll/shm/shm.h"
#include "coll/coll_util.h"

#include <stdlib.h>

/* The record of a rank that only posts on entry (checked by ranks of
 * another call only). */
static int record(ucmpi_coll_shm_t *sh, uint64_t k, size_t nbytes)
{
    int rc = ucmpi_coll_shm_wait_room(sh, k, 0);

    if (rc == MPI_SUCCESS)
        ucmpi_coll_shm_set_size(sh, k, nbytes);
    return rc;
}

int ucmpi_coll_shm_sizes(ucmpi_comm_t *comm, size_t nbytes)
{
    int rc;
    ucmpi_coll_shm_t *sh;
    uint64_t k;

    if ((rc = ucmpi_coll_shm_enter(comm, &sh, &k)) != MPI_SUCCESS ||
        (rc = record(sh, k, nbytes)) != MPI_SUCCESS)
        return rc;
    ucmpi_coll_shm_post(sh, k);
    if ((rc = ucmpi_coll_shm_wait(sh, -1, k)) != MPI_SUCCESS)
        return rc;
    return ucmpi_coll_shm_check_sizes(sh, k, nbytes);
}

/* The root writes and posts; the others post on entry and copy once it did;
 * differing bytes give MPI_ERR_TRUNCATE after taking the root's numbers. */
int ucmpi_coll_shm_bcast(ucmpi_comm_t *comm, void *buf, MPI_Count count,
                         MPI_Datatype dt, int root, int lost)
{
    size_t nbytes = (size_t)(count * dt->size);
    size_t slot = ucmpi_coll_shm_slot_size(comm->size);
    uint64_t k, theirs;
    ucmpi_coll_shm_t *sh;
    int rc;

    if (nbytes > slot)
        return ucmpi_coll_shm_bcast_large(comm, buf, count, dt, root, lost);
    if ((rc = ucmpi_coll_shm_enter(comm, &sh, &k)) != MPI_SUCCESS)
        return rc;
    if (comm->rank == root) {
        rc = ucmpi_coll_shm_contribute(
            sh, k, root, buf, count, dt,
            lost ? UCMPI_COLL_SHM_SIZE_LOST : nbytes, 1);
        /* a zero root waits for every record and fails like the others */
        if (rc != MPI_SUCCESS || nbytes > 0 || lost ||
            (rc = ucmpi_coll_shm_wait(sh, -1, k)) != MPI_SUCCESS)
            return rc;
        return ucmpi_coll_shm_check_sizes(sh, k, 0);
    }
    if ((rc = record(sh, k, nbytes)) != MPI_SUCCESS)
        return rc;
    ucmpi_coll_shm_post(sh, k);
    if ((rc = ucmpi_coll_shm_wait(sh, root, k)) != MPI_SUCCESS)
        return rc;
    if (!ucmpi_coll_shm_root_size_ok(sh, root, k, nbytes) &&
        (rc = ucmpi_coll_shm_check_root_size(sh, root, k, nbytes,
                                             &theirs)) != MPI_SUCCESS) {
        int drc = theirs != UCMPI_COLL_SHM_SIZE_LOST && theirs > slot
                      ? ucmpi_coll_shm_bcast_drain(comm, root, theirs)
                      : MPI_SUCCESS;
        return drc != MPI_SUCCESS ? drc : rc;
    }
    ucmpi_coll_shm_unpack(buf, count, dt,
                          ucmpi_coll_shm_data(sh, root, k, nbytes));
    return MPI_SUCCESS;
}

/* Every rank's operand of k from byte off; mine at own when given. */
static void contributions(ucmpi_coll_shm_t *sh, uint64_t k, size_t nbytes,
                          int n, int me, const char *own, size_t off,
                          const char **x)
{
    for (int i = 0; i < n; i++)
        x[i] = ucmpi_coll_shm_data(sh, i, k, nbytes) + off;
    if (own != NULL)
        x[me] = own;
}

#define MAX_STACK_RANKS 64

static int reduce_into(ucmpi_coll_shm_t *sh, uint64_t k, size_t nbytes,
                       ucmpi_comm_t *comm, const char *own, size_t off,
                       void *rbuf,
                       MPI_Count count, MPI_Datatype dt, MPI_Op op)
{
    const char *stack[MAX_STACK_RANKS];
    const char **x = comm->size <= MAX_STACK_RANKS
                         ? stack
                         : malloc(sizeof(char *) * (size_t)comm->size);
    int rc;

    if (x == NULL)
        return ucmpi_coll_err(comm, MPI_ERR_NO_MEM, "out of memory");
    contributions(sh, k, nbytes, comm->size, comm->rank, own, off, x);
    rc = ucmpi_coll_shm_reduce_all(x, rbuf, count, dt, op, comm->size);
    if (x != stack)
        free(x);
    return rc == MPI_SUCCESS ? rc
                             : ucmpi_coll_err(comm, rc, "reduction failed");
}

/* The others write and post; the root posts on entry, waits for all and
 * reduces straight into rbuf. */
int ucmpi_coll_shm_reduce(ucmpi_comm_t *comm, const void *sbuf, void *rbuf,
                          MPI_Count count, MPI_Datatype dt, MPI_Op op,
                          int root)
{
    int rc;
    ucmpi_coll_shm_t *sh;
    const char *own;
    size_t nbytes = (size_t)(count * dt->size);
    uint64_t k;

    /* large: the reduction split among the ranks (shm_reduce.c) */
    if (ucmpi_coll_shm_split_wanted(UCMPI_SHM_REDUCE, comm->size, nbytes) &&
        (rc = ucmpi_coll_shm_split(comm, sbuf, rbuf, count, dt, op,
                                   root)) != UCMPI_SHM_FALLBACK)
        return rc;
    if (nbytes > ucmpi_coll_shm_slot_size(comm->size))
        return UCMPI_SHM_FALLBACK;    /* (count, dt) alone: on every rank */
    if ((rc = ucmpi_coll_shm_enter(comm, &sh, &k)) != MPI_SUCCESS)
        return rc;
    if (comm->rank != root)
        return ucmpi_coll_shm_contribute(sh, k, comm->rank, sbuf, count, dt,
                                         nbytes, 0);
    if ((rc = record(sh, k, nbytes)) != MPI_SUCCESS)
        return rc;
    ucmpi_coll_shm_post(sh, k);
    if ((rc = ucmpi_coll_shm_wait(sh, -1, k)) != MPI_SUCCESS ||
        (rc = ucmpi_coll_shm_check_sizes(sh, k, nbytes)) !=
            MPI_SUCCESS)
        return rc;
    if (sbuf != MPI_IN_PLACE) {
        own = (const char *)sbuf + dt->true_lb;
    } else if (root == comm->size - 1) {
        own = (const char *)rbuf + dt->true_lb;  /* reduced into in place */
    } else {
        /* rbuf is overwritten first: my operand into my (free) buffer */
        ucmpi_coll_shm_pack(ucmpi_coll_shm_data(sh, root, k, nbytes), rbuf,
                            count, dt);
        own = NULL;
    }
    return reduce_into(sh, k, nbytes, comm, own, 0, rbuf, count, dt, op);
}

static int reduce_scatter_run(ucmpi_comm_t *comm, const void *sbuf,
                              void *rbuf, MPI_Count total, MPI_Count displ,
                              MPI_Count mine, MPI_Datatype dt, MPI_Op op,
                              uint64_t sig);

/* Everyone writes and posts, waits and reduces all buffers in rank order
 * (the same result on every rank). */
int ucmpi_coll_shm_allreduce(ucmpi_comm_t *comm, const void *sbuf,
                             void *rbuf, MPI_Count count, MPI_Datatype dt,
                             MPI_Op op)
{
    MPI_Count per = (MPI_Count)(ucmpi_coll_shm_slot_size(comm->size) /
                                (dt->size > 0 ? (size_t)dt->size : 1));
    int rc = MPI_SUCCESS;

    /* large: the reduction split among the ranks (shm_reduce.c) */
    if (ucmpi_coll_shm_split_wanted(UCMPI_SHM_ALLREDUCE, comm->size,
                                    (size_t)(count * dt->size)) &&
        (rc = ucmpi_coll_shm_split(comm, sbuf, rbuf, count, dt, op,
                                   -1)) != UCMPI_SHM_FALLBACK)
        return rc;
    rc = MPI_SUCCESS;
    if (per == 0)                    /* dt alone: same answer everywhere */
        return UCMPI_SHM_FALLBACK;
    /* a reduce_scatter of one block per chunk; the first checks counts */
    for (MPI_Count i = 0; i < count && rc == MPI_SUCCESS; i += per) {
        MPI_Count m = count - i < per ? count - i : per;
        MPI_Aint d = (MPI_Aint)i * dt->extent;
        rc = reduce_scatter_run(
            comm, sbuf == MPI_IN_PLACE ? sbuf : (const char *)sbuf + d,
            (char *)rbuf + d, m, 0, m, dt, op,
            i == 0 ? (uint64_t)(count * dt->size) : 0);
        if (rc == UCMPI_SHM_FALLBACK && i > 0)
            rc = ucmpi_coll_err(comm, MPI_ERR_OTHER, "the shared-memory "
                                "segment went away during a collective");
    }
    return rc;
}

int ucmpi_coll_shm_reduce_scatter(ucmpi_comm_t *comm, const void *sbuf,
                                  void *rbuf, MPI_Count total,
                                  MPI_Count displ, MPI_Count mine,
                                  MPI_Datatype dt, MPI_Op op)
{
    return reduce_scatter_run(comm, sbuf, rbuf, total, displ, mine, dt, op,
                              (uint64_t)(total * dt->size));
}

/* Every rank posts all its data, then reduces its block in rank order;
 * sig (0: no check): my size record. */
static int reduce_scatter_run(ucmpi_comm_t *comm, const void *sbuf,
                              void *rbuf, MPI_Count total, MPI_Count displ,
                              MPI_Count mine, MPI_Datatype dt, MPI_Op op,
                              uint64_t sig)
{
    int rc;
    ucmpi_coll_shm_t *sh;
    uint64_t k;

    if ((rc = ucmpi_coll_shm_enter(comm, &sh, &k)) != MPI_SUCCESS)
        return rc;
    rc = ucmpi_coll_shm_contribute(sh, k, comm->rank,
                                   sbuf == MPI_IN_PLACE ? rbuf : sbuf, total,
                                   dt, sig, 0);
    if (rc != MPI_SUCCESS ||
        (rc = ucmpi_coll_shm_wait(sh, -1, k)) != MPI_SUCCESS ||
        (sig != 0 &&
         (rc = ucmpi_coll_shm_check_sizes(sh, k, sig)) !=
             MPI_SUCCESS) ||
        mine == 0)
        return rc;
    /* my operand from sbuf: the segment copy is for the others */
    return reduce_into(sh, k, (size_t)(total * dt->size), comm,
                       sbuf == MPI_IN_PLACE
                           ? NULL
                           : (const char *)sbuf + dt->true_lb +
                                 (size_t)(displ * dt->size),
                       (size_t)(displ * dt->size), rbuf, mine, dt, op);
}
