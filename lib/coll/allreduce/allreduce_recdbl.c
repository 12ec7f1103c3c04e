/* Recursive doubling allreduce.  Non-power-of-two sizes fold the first
 * 2*rem ranks in pairs (even into odd) so that pof2 members remain, each
 * covering a contiguous rank range; in step `mask` partners exchange their
 * whole partial results and combine them with the lower range on the left,
 * so non-commutative ops keep rank order.  The result alternates between
 * rbuf and one scratch buffer instead of being copied back each step. */
#include "coll/allreduce/allreduce.h"

int ucmpi_allreduce_recdbl(ucmpi_sched_t *s, const void *mine, void *rbuf,
                           MPI_Count count, MPI_Datatype dt, MPI_Op op,
                           const ucmpi_coll_grp_t *g)
{
    int n = g->size, me = g->rank;
    int pof2 = ucmpi_coll_pof2_floor(n), rem = n - pof2;
    int newrank = ucmpi_coll_rd_newrank(me, rem);
    void *tmp = ucmpi_coll_tmpbuf(s, count, dt);
    void *cur = rbuf, *other = tmp;
    int rc = MPI_SUCCESS;

    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    if (mine != rbuf)
        rc = ucmpi_sched_copy(s, mine, count, dt, rbuf, count, dt);
    if (rc == MPI_SUCCESS && me < 2 * rem) {
        if (me % 2 == 0) {
            rc = ucmpi_sched_send(s, rbuf, count, dt, ucmpi_coll_grp_peer(g, me + 1));
        } else {
            rc = ucmpi_sched_recv_exact(s, tmp, count, dt, ucmpi_coll_grp_peer(g, me - 1));
            if (rc == MPI_SUCCESS)
                rc = ucmpi_sched_fence(s);
            if (rc == MPI_SUCCESS)
                rc = ucmpi_sched_reduce(s, tmp, rbuf, count, dt, op);
        }
    }
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    for (int mask = 1; newrank >= 0 && mask < pof2 && rc == MPI_SUCCESS;
         mask <<= 1) {
        int pnew = newrank ^ mask;
        int peer = ucmpi_coll_grp_peer(g, ucmpi_coll_rd_oldrank(pnew, rem));
        rc = ucmpi_sched_send(s, cur, count, dt, peer);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_recv_exact(s, other, count, dt, peer);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
        if (rc != MPI_SUCCESS)
            break;
        if (pnew < newrank) {
            rc = ucmpi_sched_reduce(s, other, cur, count, dt, op);
        } else {
            void *t = cur;
            rc = ucmpi_sched_reduce(s, cur, other, count, dt, op);
            cur = other;
            other = t;
        }
    }
    if (rc == MPI_SUCCESS && cur != rbuf)
        rc = ucmpi_sched_copy(s, cur, count, dt, rbuf, count, dt);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    if (rc == MPI_SUCCESS && me < 2 * rem) {
        if (me % 2)
            rc = ucmpi_sched_send(s, rbuf, count, dt, ucmpi_coll_grp_peer(g, me - 1));
        else
            rc = ucmpi_sched_recv_exact(s, rbuf, count, dt, ucmpi_coll_grp_peer(g, me + 1));
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    return rc;
}
