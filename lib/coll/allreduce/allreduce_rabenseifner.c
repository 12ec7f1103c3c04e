/* Rabenseifner allreduce (commutative, long): recursive-halving reduce-scatter
 * then recursive-doubling allgather: ~2x the data instead of log2(n)x. */
#include "coll/allreduce/allreduce.h"

/* total elements of blocks [a, b) */
static MPI_Count span(MPI_Count count, int pof2, int a, int b, MPI_Count *off)
{
    MPI_Count o1, c1, o2, c2;

    if (a >= b) {
        ucmpi_coll_block(count, pof2, a < pof2 ? a : pof2 - 1, off, &c1);
        return 0;
    }
    ucmpi_coll_block(count, pof2, a, &o1, &c1);
    ucmpi_coll_block(count, pof2, b - 1, &o2, &c2);
    *off = o1;
    return o2 + c2 - o1;
}

int ucmpi_allreduce_rabenseifner(ucmpi_sched_t *s, const void *mine,
                                 void *rbuf, MPI_Count count,
                                 MPI_Datatype dt, MPI_Op op,
                                 const ucmpi_coll_grp_t *g)
{
    int n = g->size, me = g->rank;
    int pof2 = ucmpi_coll_pof2_floor(n), rem = n - pof2;
    int newrank = ucmpi_coll_rd_newrank(me, rem);
    void *tmp = ucmpi_coll_tmpbuf(s, count, dt);
    int send_idx = 0, recv_idx = 0, last_idx = pof2, mask;
    MPI_Count soff, roff, scnt, rcnt;
    int rc;

    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    rc = ucmpi_allreduce_fold(s, g, rem, mine, rbuf, tmp, count, dt, op);
    if (newrank >= 0) {
        /* reduce-scatter by recursive halving */
        for (mask = 1; mask < pof2 && rc == MPI_SUCCESS;) {
            int pnew = newrank ^ mask;
            int peer = ucmpi_coll_grp_peer(g, ucmpi_coll_rd_oldrank(pnew, rem));
            if (newrank < pnew) {
                send_idx = recv_idx + pof2 / (mask * 2);
                scnt = span(count, pof2, send_idx, last_idx, &soff);
                rcnt = span(count, pof2, recv_idx, send_idx, &roff);
            } else {
                recv_idx = send_idx + pof2 / (mask * 2);
                scnt = span(count, pof2, send_idx, recv_idx, &soff);
                rcnt = span(count, pof2, recv_idx, last_idx, &roff);
            }
            rc = ucmpi_allreduce_xchg(s, ucmpi_coll_at(rbuf, soff, dt), scnt,
                                      ucmpi_coll_at(tmp, roff, dt), rcnt, dt,
                                      peer, peer);
            if (rc == MPI_SUCCESS)
                rc = ucmpi_sched_reduce(s, ucmpi_coll_at(tmp, roff, dt),
                                        ucmpi_coll_at(rbuf, roff, dt), rcnt,
                                        dt, op);
            send_idx = recv_idx;
            mask <<= 1;
            if (mask < pof2)
                last_idx = recv_idx + pof2 / mask;
        }
        /* allgather by recursive doubling */
        for (mask >>= 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1) {
            int pnew = newrank ^ mask;
            int peer = ucmpi_coll_grp_peer(g, ucmpi_coll_rd_oldrank(pnew, rem));
            if (newrank < pnew) {
                if (mask != pof2 / 2)
                    last_idx = last_idx + pof2 / (mask * 2);
                recv_idx = send_idx + pof2 / (mask * 2);
                scnt = span(count, pof2, send_idx, recv_idx, &soff);
                rcnt = span(count, pof2, recv_idx, last_idx, &roff);
            } else {
                recv_idx = send_idx - pof2 / (mask * 2);
                scnt = span(count, pof2, send_idx, last_idx, &soff);
                rcnt = span(count, pof2, recv_idx, send_idx, &roff);
            }
            rc = ucmpi_allreduce_xchg(s, ucmpi_coll_at(rbuf, soff, dt), scnt,
                                      ucmpi_coll_at(rbuf, roff, dt), rcnt, dt,
                                      peer, peer);
            if (newrank > pnew)
                send_idx = recv_idx;
        }
    }
    return rc == MPI_SUCCESS ? ucmpi_allreduce_unfold(s, g, rem, rbuf, count,
                                                      rbuf, count, dt)
                             : rc;
}
