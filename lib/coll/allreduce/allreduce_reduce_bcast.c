/* Binomial reduce to member 0 (rank order holds), then bcast: 2 log2(n)
 * rounds but the fewest messages, for tiny vectors. */
#include "coll/allreduce/allreduce.h"
#include "coll/bcast/bcast.h"
#include "coll/reduce/reduce.h"

int ucmpi_allreduce_reduce_bcast(ucmpi_sched_t *s, const void *mine,
                                 void *rbuf, MPI_Count count,
                                 MPI_Datatype dt, MPI_Op op,
                                 const ucmpi_coll_grp_t *g)
{
    int rc = ucmpi_reduce_tree(s, mine, rbuf, count, dt, op, 0, g, 2);

    if (rc == MPI_SUCCESS)
        rc = ucmpi_bcast_tree(s, rbuf, count, dt, 0, g, 2);
    return rc;
}
