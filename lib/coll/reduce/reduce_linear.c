/* Linear reduce for small comms: the root receives all at once, combines in
 * rank order (one round, n-1 scratch buffers). */
#include "coll/reduce/reduce.h"

#include <stdlib.h>

int ucmpi_reduce_ordered(ucmpi_sched_t *s, const void *const *x, int n,
                         void *acc, void *out, MPI_Count count,
                         MPI_Datatype dt, MPI_Op op)
{
    int rc = ucmpi_sched_copy(s, x[n - 1], count, dt, acc, count, dt);

    for (int i = n - 2; i >= 0 && rc == MPI_SUCCESS; i--)
        rc = ucmpi_sched_reduce(s, x[i], acc, count, dt, op);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_copy(s, acc, count, dt, out, count, dt);
    return rc;
}

int ucmpi_reduce_linear(ucmpi_sched_t *s, const void *mine, void *rbuf,
                        MPI_Count count, MPI_Datatype dt, MPI_Op op,
                        int root, const ucmpi_coll_grp_t *g)
{
    int n = g->size, rc = MPI_SUCCESS;
    const void **x;
    void *acc;

    if (g->rank != root) {
        rc = ucmpi_sched_send(s, mine, count, dt, ucmpi_coll_grp_peer(g, root));
        return rc == MPI_SUCCESS ? ucmpi_sched_fence(s) : rc;
    }
    x = ucmpi_sched_alloc(s, n * sizeof(*x));
    acc = ucmpi_coll_tmpbuf(s, count, dt);
    if (x == NULL || acc == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        if (i == root) {
            x[i] = mine;
            continue;
        }
        void *b = ucmpi_coll_tmpbuf(s, count, dt);
        if (b == NULL)
            return MPI_ERR_NO_MEM;
        x[i] = b;
        rc = ucmpi_sched_recv_exact(s, b, count, dt, ucmpi_coll_grp_peer(g, i));
    }
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_reduce_ordered(s, x, n, acc, rbuf, count, dt, op);
    return rc == MPI_SUCCESS ? ucmpi_sched_fence(s) : rc;
}
