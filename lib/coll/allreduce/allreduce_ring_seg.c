/* Segmented ring allreduce (commutative ops), for large vectors: the ring
 * reduce-scatter of allreduce_ring.c with every block cut into segments
 * of ALLREDUCE_SEGMENT bytes, software-pipelined: a round posts the
 * receive of segment t, reduces segment t-1 (received in the previous
 * round) and sends segment t, so the reduction of one segment overlaps
 * the transfer of the next and the data reduced is still in cache.
 * Then a ring allgather of whole blocks.
 *
 * No vector-sized temporary: out of place, segments are received straight
 * into rbuf and reduced with `mine` there (commutative: any operand order
 * is allowed, and each block is reduced once, so all members get the same
 * bits); in place, two segment buffers alternate. */
#include "coll/allreduce/allreduce.h"
#include "core/config.h"

/* Segment t = k * nseg + j: segment j of the block received in step k. */
typedef struct {
    const ucmpi_coll_grp_t *g;
    MPI_Count count, segc;    /* elements per segment */
    int nseg;                 /* segments of the largest block */
    MPI_Datatype dt;
} ring_t;

/* Segment j of block b: offset and length in elements (0: none). */
static MPI_Count seg(const ring_t *p, int b, int j, MPI_Count *off)
{
    MPI_Count boff, bcnt, c;

    ucmpi_coll_block(p->count, p->g->size, b, &boff, &bcnt);
    *off = boff + j * p->segc;
    c = bcnt - j * p->segc;
    return c < 0 ? 0 : c < p->segc ? c : p->segc;
}

/* Block received in reduce-scatter step k (sent one step later). */
static int rblock(const ring_t *p, int k)
{
    int n = p->g->size;
    return ((p->g->rank - k - 1) % n + n) % n;
}

/* Reduces segment t, received in an earlier round, into rbuf. */
static int reduce_seg(ucmpi_sched_t *s, const ring_t *p, int t,
                      const void *mine, void *rbuf, void *const tmp[2],
                      MPI_Op op)
{
    MPI_Count off, c = seg(p, rblock(p, t / p->nseg), t % p->nseg, &off);
    void *dst = ucmpi_coll_at(rbuf, off, p->dt);

    if (c == 0)
        return MPI_SUCCESS;
    if (mine == rbuf)         /* in place: received into tmp */
        return ucmpi_sched_reduce(s, tmp[t % 2], dst, c, p->dt, op);
    return ucmpi_sched_reduce(s, ucmpi_coll_at(mine, off, p->dt), dst, c,
                              p->dt, op);
}

static int reduce_scatter(ucmpi_sched_t *s, const ring_t *p,
                          const void *mine, void *rbuf, void *const tmp[2],
                          MPI_Op op)
{
    const ucmpi_coll_grp_t *g = p->g;
    int n = g->size, r = g->rank, rc = MPI_SUCCESS;
    int right = ucmpi_coll_grp_peer(g, ucmpi_coll_ring_right(r, n));
    int left = ucmpi_coll_grp_peer(g, ucmpi_coll_ring_left(r, n));
    int nrounds = (n - 1) * p->nseg;

    for (int t = 0; t < nrounds && rc == MPI_SUCCESS; t++) {
        int k = t / p->nseg, j = t % p->nseg;
        MPI_Count soff, roff;
        MPI_Count rc_ = seg(p, rblock(p, k), j, &roff);
        MPI_Count sc = seg(p, rblock(p, k - 1), j, &soff);
        const void *src = k == 0 ? mine : rbuf;

        /* empty segments move too (a block shorter by one element, or
         * count < n): a rank whose count differs from its neighbour's
         * then still matches every message, and exact receives see it */
        rc = ucmpi_sched_recv_exact(s, mine == rbuf ? tmp[t % 2]
                                    : ucmpi_coll_at(rbuf, roff, p->dt),
                                    rc_, p->dt, left);
        if (rc == MPI_SUCCESS && t > 0)
            rc = reduce_seg(s, p, t - 1, mine, rbuf, tmp, op);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_send(s, ucmpi_coll_at(src, soff, p->dt), sc,
                                  p->dt, right);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    /* the last segment: before the allgather sends its block */
    return rc == MPI_SUCCESS ? reduce_seg(s, p, nrounds - 1, mine, rbuf, tmp,
                                          op)
                             : rc;
}

static int allgather(ucmpi_sched_t *s, const ring_t *p, void *rbuf)
{
    const ucmpi_coll_grp_t *g = p->g;
    int n = g->size, r = g->rank, rc = MPI_SUCCESS;
    int right = ucmpi_coll_grp_peer(g, ucmpi_coll_ring_right(r, n));
    int left = ucmpi_coll_grp_peer(g, ucmpi_coll_ring_left(r, n));
    MPI_Count soff, scnt, roff, rcnt;

    for (int k = 0; k < n - 1 && rc == MPI_SUCCESS; k++) {
        ucmpi_coll_block(p->count, n, (r + 1 - k + n) % n, &soff, &scnt);
        ucmpi_coll_block(p->count, n, (r - k + n) % n, &roff, &rcnt);
        rc = ucmpi_sched_recv_exact(s, ucmpi_coll_at(rbuf, roff, p->dt),
                                    rcnt, p->dt, left);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_send(s, ucmpi_coll_at(rbuf, soff, p->dt), scnt,
                                  p->dt, right);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    return rc;
}

int ucmpi_allreduce_ring_seg(ucmpi_sched_t *s, const void *mine, void *rbuf,
                             MPI_Count count, MPI_Datatype dt, MPI_Op op,
                             const ucmpi_coll_grp_t *g)
{
    long segb = ucmpi_config_long("ALLREDUCE_SEGMENT");
    MPI_Count bmax = (count + g->size - 1) / g->size;
    ring_t p = {g, count, 1, 1, dt};
    void *tmp[2] = {NULL, NULL};
    int rc;

    p.segc = ucmpi_coll_ring_segs(bmax, dt->extent, segb, &p.nseg);
    ucmpi_sched_shape(s, (unsigned)p.nseg);   /* the message count */
    if (mine == rbuf) {
        tmp[0] = ucmpi_coll_tmpbuf(s, p.segc, dt);
        tmp[1] = ucmpi_coll_tmpbuf(s, p.segc, dt);
        if (tmp[0] == NULL || tmp[1] == NULL)
            return MPI_ERR_NO_MEM;
    }
    rc = reduce_scatter(s, &p, mine, rbuf, tmp, op);
    return rc == MPI_SUCCESS ? allgather(s, &p, rbuf) : rc;
}
