/* Pipelined chain bcast (large): round j receives segment j while forwarding
 * j-1, so every link is busy: one message plus n-2 segments' time. */
#include "coll/bcast/bcast.h"

int ucmpi_bcast_chain(ucmpi_sched_t *s, void *buf, MPI_Count count,
                      MPI_Datatype dt, int root, const ucmpi_coll_grp_t *g,
                      size_t seg)
{
    int n = g->size, v = ucmpi_coll_vrank(g->rank, root, n);
    size_t nbytes;
    char *b = ucmpi_coll_bytes_in(s, buf, count, dt, v == 0, &nbytes);
    int prev = v > 0 ? ucmpi_coll_grp_peer(g, ucmpi_coll_rank_of(v - 1, root, n)) : -1;
    int next = v < n - 1 ? ucmpi_coll_grp_peer(g, ucmpi_coll_rank_of(v + 1, root, n)) : -1;
    size_t nseg = seg ? (nbytes + seg - 1) / seg : 1;
    int rc = MPI_SUCCESS;

    if (b == NULL)
        return MPI_ERR_NO_MEM;
    for (size_t j = 0; j <= nseg && rc == MPI_SUCCESS; j++) {
        if (prev >= 0 && j < nseg) {
            size_t len = j == nseg - 1 ? nbytes - j * seg : seg;
            rc = ucmpi_sched_recv_exact(s, b + j * seg, (MPI_Count)len,
                                        MPI_BYTE, prev);
        }
        if (next >= 0 && j > 0 && rc == MPI_SUCCESS) {
            size_t len = j == nseg ? nbytes - (j - 1) * seg : seg;
            rc = ucmpi_sched_send(s, b + (j - 1) * seg, (MPI_Count)len,
                                  MPI_BYTE, next);
        }
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    if (rc == MPI_SUCCESS && v != 0)
        rc = ucmpi_coll_bytes_out(s, b, buf, count, dt);
    return rc;
}
