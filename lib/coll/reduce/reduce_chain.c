/* Pipelined chain reduce for long vectors: each link carries the vector once
 * and folds overlap transfers (docs/architecture.md, the chain reduce). */
#include "coll/reduce/reduce.h"

typedef struct {
    ucmpi_sched_t *s;
    const void *mine;
    MPI_Datatype dt;
    MPI_Op op;
    MPI_Count count, seg;       /* elements: whole vector, one segment */
} chain_t;

static MPI_Count seg_len(const chain_t *c, MPI_Count j)
{
    MPI_Count lo = j * c->seg;

    return c->count - lo < c->seg ? c->count - lo : c->seg;
}

/* The head: a segment per round; as root of a non-commutative chain (fin >=
 * 0) it takes final j-(n-1) in round j, else rendezvous deadlocks (docs). */
static int chain_head(chain_t *c, MPI_Count nseg, int dn, void *out, int fin,
                      int n)
{
    MPI_Count rounds = nseg + (fin >= 0 ? n - 1 : 0);
    int rc = MPI_SUCCESS;

    for (MPI_Count j = 0; j < rounds && rc == MPI_SUCCESS; j++) {
        if (j < nseg)
            rc = ucmpi_sched_send(c->s,
                                  ucmpi_coll_at(c->mine, j * c->seg, c->dt),
                                  seg_len(c, j), c->dt, dn);
        if (rc == MPI_SUCCESS && fin >= 0 && j >= n - 1 &&
            j - (n - 1) < nseg)
            rc = ucmpi_sched_recv_exact(c->s,
                                        ucmpi_coll_at(out,
                                                      (j - (n - 1)) * c->seg,
                                                      c->dt),
                                        seg_len(c, j - (n - 1)), c->dt, fin);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(c->s);
    }
    return rc;
}

/* A member below the head: round j receives partial j from up, folds segment
 * j-1 and sends it to dn and fwd; a root r up takes final j-1-r (docs). */
static int chain_member(chain_t *c, MPI_Count nseg, int up, int dn, int fwd,
                        void *out, int direct, int fin, int r)
{
    void *tmp[2] = {NULL, NULL};
    MPI_Count rounds = nseg + 1 + (fin >= 0 ? r : 0);
    int rc = MPI_SUCCESS;

    if (!direct)
        for (int i = 0; i < 2; i++)
            if ((tmp[i] = ucmpi_coll_tmpbuf(c->s, c->seg, c->dt)) == NULL)
                return MPI_ERR_NO_MEM;
    for (MPI_Count j = 0; j < rounds && rc == MPI_SUCCESS; j++) {
        if (j < nseg) {
            void *b = direct ? ucmpi_coll_at(out, j * c->seg, c->dt)
                             : tmp[j % 2];
            rc = ucmpi_sched_recv_exact(c->s, b, seg_len(c, j), c->dt, up);
        }
        if (rc == MPI_SUCCESS && j >= 1 && j <= nseg) {
            MPI_Count p = j - 1, m = seg_len(c, p);
            void *b = direct ? ucmpi_coll_at(out, p * c->seg, c->dt)
                             : tmp[p % 2];
            rc = ucmpi_sched_reduce(c->s,
                                    ucmpi_coll_at(c->mine, p * c->seg, c->dt),
                                    b, m, c->dt, c->op);
            if (rc == MPI_SUCCESS && dn >= 0)
                rc = ucmpi_sched_send(c->s, b, m, c->dt, dn);
            if (rc == MPI_SUCCESS && fwd >= 0)
                rc = ucmpi_sched_send(c->s, b, m, c->dt, fwd);
            if (rc == MPI_SUCCESS && dn < 0 && fwd < 0 && !direct)
                rc = ucmpi_sched_copy(c->s, b, m, c->dt,
                                      ucmpi_coll_at(out, p * c->seg, c->dt),
                                      m, c->dt);
        }
        if (rc == MPI_SUCCESS && fin >= 0 && j >= 1 + r &&
            j - 1 - r < nseg)
            rc = ucmpi_sched_recv_exact(c->s,
                                  ucmpi_coll_at(out, (j - 1 - r) * c->seg,
                                                c->dt),
                                  seg_len(c, j - 1 - r), c->dt, fin);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(c->s);
    }
    return rc;
}

int ucmpi_reduce_chain(ucmpi_sched_t *s, const void *mine, void *rbuf,
                       MPI_Count count, MPI_Datatype dt, MPI_Op op, int root,
                       const ucmpi_coll_grp_t *g, size_t seg_bytes)
{
    int n = g->size, commute = op->commute;
    int end = commute ? root : 0;          /* where the chain ends */
    int v = ucmpi_coll_vrank(g->rank, end, n);
    size_t ext = dt->extent > 0 ? (size_t)dt->extent : 1;
    chain_t c = {s, mine, dt, op, count, 0};
    int up = v + 1 < n ? ucmpi_coll_grp_peer(g,
                                             ucmpi_coll_rank_of(v + 1, end, n))
                       : -1;
    int dn = v > 0 ? ucmpi_coll_grp_peer(g, ucmpi_coll_rank_of(v - 1, end, n))
                   : -1;
    int me_root = g->rank == root;

    c.seg = (MPI_Count)(seg_bytes / ext);
    c.seg = c.seg < 1 ? 1 : c.seg > count ? count : c.seg;
    MPI_Count nseg = (count + c.seg - 1) / c.seg;
    if (v == n - 1)                        /* the head; maybe the root */
        return chain_head(&c, nseg, dn, rbuf,
                          me_root && end != root ? ucmpi_coll_grp_peer(g, end)
                                                 : -1, n);
    if (v == 0)                            /* the end: root, or member 0 */
        return chain_member(&c, nseg, up, -1,
                            me_root ? -1 : ucmpi_coll_grp_peer(g, root),
                            rbuf, me_root && mine != rbuf, -1, 0);
    /* in the middle; a root here (non-commutative) gets the finals from
     * member 0, after its own operand (maybe rbuf: in place) went in */
    return chain_member(&c, nseg, up, dn, -1, rbuf, 0,
                        me_root ? ucmpi_coll_grp_peer(g, end) : -1, v);
}
