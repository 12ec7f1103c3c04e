/* Recursive doubling allreduce: the lower range on the left keeps rank order;
 * the result alternates between rbuf and scratch, no copy back each step. */
#include "coll/allreduce/allreduce.h"

int ucmpi_allreduce_fold(ucmpi_sched_t *s, const ucmpi_coll_grp_t *g,
                         int rem, const void *in, void *buf, void *tmp,
                         MPI_Count count, MPI_Datatype dt, MPI_Op op)
{
    int me = g->rank, rc = MPI_SUCCESS;

    if (in != buf)
        rc = ucmpi_sched_copy(s, in, count, dt, buf, count, dt);
    if (rc != MPI_SUCCESS)
        return rc;
    if (me < 2 * rem && me % 2 == 0) {
        rc = ucmpi_sched_send(s, buf, count, dt, ucmpi_coll_grp_peer(g, me + 1));
    } else if (me < 2 * rem) {
        rc = ucmpi_sched_recv_exact(s, tmp, count, dt, ucmpi_coll_grp_peer(g, me - 1));
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_reduce(s, tmp, buf, count, dt, op);
    }
    return rc == MPI_SUCCESS ? ucmpi_sched_fence(s) : rc;
}

int ucmpi_allreduce_unfold(ucmpi_sched_t *s, const ucmpi_coll_grp_t *g,
                           int rem, const void *sbuf, MPI_Count scount,
                           void *rbuf, MPI_Count rcount, MPI_Datatype dt)
{
    int me = g->rank, rc;

    if (me >= 2 * rem)
        return MPI_SUCCESS;
    if (me % 2)
        rc = ucmpi_sched_send(s, sbuf, scount, dt, ucmpi_coll_grp_peer(g, me - 1));
    else
        rc = ucmpi_sched_recv_exact(s, rbuf, rcount, dt, ucmpi_coll_grp_peer(g, me + 1));
    return rc == MPI_SUCCESS ? ucmpi_sched_fence(s) : rc;
}

int ucmpi_allreduce_xchg(ucmpi_sched_t *s, const void *sbuf, MPI_Count scount,
                         void *rbuf, MPI_Count rcount, MPI_Datatype dt,
                         int to, int from)
{
    int rc = ucmpi_sched_send(s, sbuf, scount, dt, to);

    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_recv_exact(s, rbuf, rcount, dt, from);
    return rc == MPI_SUCCESS ? ucmpi_sched_fence(s) : rc;
}

int ucmpi_allreduce_recdbl(ucmpi_sched_t *s, const void *mine, void *rbuf,
                           MPI_Count count, MPI_Datatype dt, MPI_Op op,
                           const ucmpi_coll_grp_t *g)
{
    int n = g->size, me = g->rank;
    int pof2 = ucmpi_coll_pof2_floor(n), rem = n - pof2;
    int newrank = ucmpi_coll_rd_newrank(me, rem);
    void *tmp = ucmpi_coll_tmpbuf(s, count, dt);
    void *cur = rbuf, *other = tmp;
    int rc;

    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    rc = ucmpi_allreduce_fold(s, g, rem, mine, rbuf, tmp, count, dt, op);
    for (int mask = 1; newrank >= 0 && mask < pof2 && rc == MPI_SUCCESS;
         mask <<= 1) {
        int pnew = newrank ^ mask;
        int peer = ucmpi_coll_grp_peer(g, ucmpi_coll_rd_oldrank(pnew, rem));
        if ((rc = ucmpi_allreduce_xchg(s, cur, count, other, count, dt, peer,
                                       peer)) != MPI_SUCCESS)
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
    return rc == MPI_SUCCESS ? ucmpi_allreduce_unfold(s, g, rem, rbuf, count,
                                                      rbuf, count, dt)
                             : rc;
}
