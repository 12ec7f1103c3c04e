/* Recursive-halving reduce-scatter (commutative): partners swap the half
* the other keeps, each sending about the vector once; folded: theirs last. */
#include "coll/reduce_scatter/reduce_scatter.h"
#include "coll/allreduce/allreduce.h"

int ucmpi_rs_recursive_halving(ucmpi_sched_t *s, const void *in, void *rbuf,
                               const MPI_Count *counts, MPI_Datatype dt,
                               MPI_Op op, const ucmpi_coll_grp_t *g)
{
    int n = g->size, me = g->rank;
    int pof2 = ucmpi_coll_pof2_floor(n), rem = n - pof2;
    int newrank = ucmpi_coll_rd_newrank(me, rem), ev = me & ~1;
    MPI_Count *displs = ucmpi_sched_alloc(s, (n + 1) * sizeof(MPI_Count));
    MPI_Count *ncnt = ucmpi_sched_alloc(s, pof2 * sizeof(MPI_Count));
    MPI_Count *ndsp = ucmpi_sched_alloc(s, pof2 * sizeof(MPI_Count));
    MPI_Count total;
    void *res, *tmp;
    int rc;

    if (displs == NULL || ncnt == NULL || ndsp == NULL)
        return MPI_ERR_NO_MEM;
    total = ucmpi_rs_displs(counts, n, displs);
    res = ucmpi_coll_tmpbuf(s, total, dt);
    tmp = ucmpi_coll_tmpbuf(s, total, dt);
    if (res == NULL || tmp == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < pof2; i++) {    /* blocks of the new ranks */
        int first = ucmpi_coll_rd_first(i, rem);
        int last = ucmpi_coll_rd_oldrank(i, rem);
        ndsp[i] = displs[first];
        ncnt[i] = displs[last] + counts[last] - displs[first];
    }
    rc = ucmpi_allreduce_fold(s, g, rem, in, res, tmp, total, dt, op);
    if (newrank >= 0) {
        int send_idx = 0, recv_idx = 0, last_idx = pof2;
        for (int mask = pof2 >> 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1) {
            int pnew = newrank ^ mask;
            int peer = ucmpi_coll_grp_peer(g, ucmpi_coll_rd_oldrank(pnew, rem));
            int sa, sb, ra, rb;
            if (newrank < pnew) {
                send_idx = recv_idx + mask;
                sa = send_idx; sb = last_idx; ra = recv_idx; rb = send_idx;
            } else {
                recv_idx = send_idx + mask;
                sa = send_idx; sb = recv_idx; ra = recv_idx; rb = last_idx;
            }
            MPI_Count scnt = ndsp[sb - 1] + ncnt[sb - 1] - ndsp[sa];
            MPI_Count rcnt = ndsp[rb - 1] + ncnt[rb - 1] - ndsp[ra];
            rc = ucmpi_allreduce_xchg(s, ucmpi_coll_at(res, ndsp[sa], dt), scnt,
                                      ucmpi_coll_at(tmp, ndsp[ra], dt), rcnt,
                                      dt, peer, peer);
            if (rc == MPI_SUCCESS)
                rc = ucmpi_sched_reduce(s, ucmpi_coll_at(tmp, ndsp[ra], dt),
                                        ucmpi_coll_at(res, ndsp[ra], dt),
                                        rcnt, dt, op);
            send_idx = recv_idx;
            last_idx = recv_idx + mask;
        }
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_copy(s, ucmpi_coll_at(res, displs[me], dt),
                                  counts[me], dt, rbuf, counts[me], dt);
    }
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    /* (ev: the even member of a folded pair, the one that gets a share) */
    return rc == MPI_SUCCESS
               ? ucmpi_allreduce_unfold(s, g, rem,
                                        ucmpi_coll_at(res, displs[ev], dt),
                                        counts[ev], rbuf, counts[me], dt)
               : rc;
}
