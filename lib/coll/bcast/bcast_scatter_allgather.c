/* Van de Geijn bcast (large): binomial scatter of n blocks, then a ring
 * allgather: ~2x the message per link instead of log2(n)x. */
#include "coll/bcast/bcast.h"

#define MAX_CHILDREN 64

/* byte range of the blocks of virtual ranks [first, end) */
static void range(size_t nbytes, int n, int first, int end, size_t *off,
                  size_t *len)
{
    MPI_Count o1, c1, o2, c2;

    ucmpi_coll_block((MPI_Count)nbytes, n, first, &o1, &c1);
    ucmpi_coll_block((MPI_Count)nbytes, n, end - 1, &o2, &c2);
    *off = (size_t)o1;
    *len = (size_t)(o2 + c2 - o1);
}

int ucmpi_bcast_scatter_allgather(ucmpi_sched_t *s, void *buf,
                                  MPI_Count count, MPI_Datatype dt, int root,
                                  const ucmpi_coll_grp_t *g)
{
    int n = g->size, v = ucmpi_coll_vrank(g->rank, root, n);
    int children[MAX_CHILDREN];
    int parent = ucmpi_coll_knomial_parent(v, n, 2);
    int nc = ucmpi_coll_knomial_children(v, n, 2, children, MAX_CHILDREN);
    int right = ucmpi_coll_grp_peer(g, ucmpi_coll_rank_of((v + 1) % n, root, n));
    int left = ucmpi_coll_grp_peer(g, ucmpi_coll_rank_of((v - 1 + n) % n, root, n));
    size_t nbytes, off, len;
    char *b = ucmpi_coll_bytes_in(s, buf, count, dt, v == 0, &nbytes);
    int rc = MPI_SUCCESS;

    if (b == NULL)
        return MPI_ERR_NO_MEM;
    if (parent >= 0) {
        range(nbytes, n, v, ucmpi_coll_knomial_subtree_end(v, n, 2), &off,
              &len);
        rc = ucmpi_sched_recv_exact(s, b + off, (MPI_Count)len, MPI_BYTE,
            ucmpi_coll_grp_peer(g, ucmpi_coll_rank_of(parent, root, n)));
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    for (int i = nc - 1; i >= 0 && rc == MPI_SUCCESS; i--) {
        int c = children[i];
        range(nbytes, n, c, ucmpi_coll_knomial_subtree_end(c, n, 2), &off,
              &len);
        rc = ucmpi_sched_send(s, b + off, (MPI_Count)len, MPI_BYTE,
            ucmpi_coll_grp_peer(g, ucmpi_coll_rank_of(c, root, n)));
    }
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    /* ring: in step i send block v-i, receive block v-i-1 */
    for (int i = 0; i < n - 1 && rc == MPI_SUCCESS; i++) {
        int sb = (v - i + n) % n, rb = (v - i - 1 + 2 * n) % n;
        range(nbytes, n, sb, sb + 1, &off, &len);
        rc = ucmpi_sched_send(s, b + off, (MPI_Count)len, MPI_BYTE, right);
        range(nbytes, n, rb, rb + 1, &off, &len);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_recv_exact(s, b + off, (MPI_Count)len, MPI_BYTE,
                                        left);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    if (rc == MPI_SUCCESS && v != 0)
        rc = ucmpi_coll_bytes_out(s, b, buf, count, dt);
    return rc;
}
