/* Tree reduce: children's subtrees are the rank ranges after ours, so rooted
 * at member 0 combining them in ascending order keeps rank order. */
#include "coll/reduce/reduce.h"

#define MAX_CHILDREN 256

int ucmpi_reduce_tree(ucmpi_sched_t *s, const void *mine, void *rbuf,
                      MPI_Count count, MPI_Datatype dt, MPI_Op op, int root,
                      const ucmpi_coll_grp_t *g, int k)
{
    int n = g->size, commute = op->commute;
    int troot = commute ? root : 0;    /* root of the tree */
    int v = ucmpi_coll_vrank(g->rank, troot, n);
    int children[MAX_CHILDREN];
    int parent = ucmpi_coll_knomial_parent(v, n, k);
    int nc = ucmpi_coll_knomial_children(v, n, k, children, MAX_CHILDREN);
    const void *acc = mine;             /* our partial result so far */
    void *cbuf[MAX_CHILDREN];
    int rc = MPI_SUCCESS;

    if (nc > 0) {
        for (int i = 0; i < nc && rc == MPI_SUCCESS; i++) {
            cbuf[i] = ucmpi_coll_tmpbuf(s, count, dt);
            if (cbuf[i] == NULL)
                return MPI_ERR_NO_MEM;
            rc = ucmpi_sched_recv_exact(s, cbuf[i], count, dt,
                ucmpi_coll_grp_peer(g, ucmpi_coll_rank_of(children[i], troot, n)));
        }
        if (commute) {
            /* combine into a writable accumulator: rbuf at the root */
            void *a = g->rank == root ? rbuf : ucmpi_coll_tmpbuf(s, count, dt);
            if (a == NULL)
                return MPI_ERR_NO_MEM;
            if (rc == MPI_SUCCESS && a != mine)
                rc = ucmpi_sched_copy(s, mine, count, dt, a, count, dt);
            if (rc == MPI_SUCCESS)
                rc = ucmpi_sched_fence(s);
            for (int i = 0; i < nc && rc == MPI_SUCCESS; i++)
                rc = ucmpi_sched_reduce(s, cbuf[i], a, count, dt, op);
            acc = a;
        } else {
            /* acc op child: the result lands in the child's buffer */
            if (rc == MPI_SUCCESS)
                rc = ucmpi_sched_fence(s);
            for (int i = 0; i < nc && rc == MPI_SUCCESS; i++) {
                rc = ucmpi_sched_reduce(s, acc, cbuf[i], count, dt, op);
                acc = cbuf[i];
            }
        }
    }
    if (rc == MPI_SUCCESS && parent >= 0)
        rc = ucmpi_sched_send(s, acc, count, dt,
            ucmpi_coll_grp_peer(g, ucmpi_coll_rank_of(parent, troot, n)));
    if (rc == MPI_SUCCESS && v == 0 && troot != root) {
        rc = ucmpi_sched_send(s, acc, count, dt, ucmpi_coll_grp_peer(g, root));
    } else if (rc == MPI_SUCCESS && g->rank == root && acc != rbuf) {
        rc = ucmpi_sched_copy(s, acc, count, dt, rbuf, count, dt);
    }
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    if (rc == MPI_SUCCESS && g->rank == root && troot != root) {
        rc = ucmpi_sched_recv_exact(s, rbuf, count, dt, ucmpi_coll_grp_peer(g, troot));
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    return rc;
}
