/* Segmented ring reduce-scatter (commutative, long vectors): rs_ring.c
 * pipelined in segments (docs/architecture.md, segmented rings). */
#include "coll/reduce_scatter/reduce_scatter.h"
#include "core/config.h"

typedef struct {
    const ucmpi_coll_grp_t *g;
    const MPI_Count *counts, *displs;
    MPI_Count segc;           /* elements per segment */
    int nseg;                 /* segments of the largest block */
    int whole;                /* allreduce's: see ucmpi_rs_ring_seg_rounds */
    MPI_Datatype dt;
    MPI_Op op;
    const void *in;           /* the input vector (rbuf when in place) */
    void *rbuf;
    void *part[2];            /* out of place: partials of steps < n-2 */
    void *tmp[2];             /* in place: segment receive buffers */
} rs_t;

static int inplace(const rs_t *p)
{
    return p->in == p->rbuf;
}

/* Block received in step k (sent in step k+1). */
static int rblock(const rs_t *p, int k)
{
    int n = p->g->size;
    return ((p->g->rank - k - 2 + p->whole) % n + 2 * n) % n;
}

/* Where the partial of the block received in step k lives (element 0 of
 * that block). */
static char *partial(const rs_t *p, int k)
{
    int n = p->g->size;

    if (inplace(p) || p->whole)
        return ucmpi_coll_at(p->rbuf, p->displs[rblock(p, k)], p->dt);
    if (k == n - 2)
        return p->rbuf;
    return p->part[k % 2];
}

/* Segment j of block b: element offset within the block, length. */
static MPI_Count seg(const rs_t *p, int b, int j, MPI_Count *off)
{
    MPI_Count c = p->counts[b] - j * p->segc;

    *off = j * p->segc;
    return c < 0 ? 0 : c < p->segc ? c : p->segc;
}

static int reduce_seg(ucmpi_sched_t *s, const rs_t *p, int t)
{
    int k = t / p->nseg, b = rblock(p, k);
    MPI_Count off, c = seg(p, b, t % p->nseg, &off);
    char *dst = ucmpi_coll_at(partial(p, k), off, p->dt);

    if (c == 0)
        return MPI_SUCCESS;
    if (inplace(p))
        return ucmpi_sched_reduce(s, p->tmp[t % 2], dst, c, p->dt, p->op);
    return ucmpi_sched_reduce(s, ucmpi_coll_at(p->in, p->displs[b] + off,
                                               p->dt),
                              dst, c, p->dt, p->op);
}

static int rounds(ucmpi_sched_t *s, const rs_t *p)
{
    const ucmpi_coll_grp_t *g = p->g;
    int n = g->size, r = g->rank, rc = MPI_SUCCESS;
    int right = ucmpi_coll_grp_peer(g, ucmpi_coll_ring_right(r, n));
    int left = ucmpi_coll_grp_peer(g, ucmpi_coll_ring_left(r, n));
    int nrounds = (n - 1) * p->nseg;

    for (int t = 0; t < nrounds && rc == MPI_SUCCESS; t++) {
        int k = t / p->nseg, j = t % p->nseg, sb = rblock(p, k - 1);
        MPI_Count roff, soff;
        MPI_Count rcnt = seg(p, rblock(p, k), j, &roff);
        MPI_Count scnt = seg(p, sb, j, &soff);
        const char *src = k == 0 ? ucmpi_coll_at(p->in, p->displs[sb], p->dt)
                                 : partial(p, k - 1);

        if (rcnt > 0 || p->whole)
            rc = ucmpi_sched_recv_exact(s, inplace(p) ? p->tmp[t % 2]
                                        : ucmpi_coll_at(partial(p, k), roff, p->dt),
                                        rcnt, p->dt, left);
        if (rc == MPI_SUCCESS && t > 0)
            rc = reduce_seg(s, p, t - 1);
        if (rc == MPI_SUCCESS && (scnt > 0 || p->whole))
            rc = ucmpi_sched_send(s, ucmpi_coll_at(src, soff, p->dt), scnt,
                                  p->dt, right);
        if (rc == MPI_SUCCESS)
            rc = ucmpi_sched_fence(s);
    }
    return rc == MPI_SUCCESS ? reduce_seg(s, p, nrounds - 1) : rc;
}

int ucmpi_rs_ring_seg_rounds(ucmpi_sched_t *s, const void *in, void *rbuf,
                             const MPI_Count *counts, const MPI_Count *displs,
                             MPI_Datatype dt, MPI_Op op,
                             const ucmpi_coll_grp_t *g, int whole)
{
    long segb = ucmpi_config_long("ALLREDUCE_SEGMENT");
    MPI_Count maxc = 0;
    rs_t p = {g, counts, displs, 1, 1, whole, dt, op, in, rbuf, {0}, {0}};

    for (int i = 0; i < g->size; i++)
        maxc = counts[i] > maxc ? counts[i] : maxc;
    p.segc = ucmpi_coll_ring_segs(maxc, dt->extent, segb, &p.nseg);
    ucmpi_sched_shape(s, (unsigned)p.nseg);   /* the message count */
    for (int i = 0; i < 2; i++) {
        if (inplace(&p) &&
            (p.tmp[i] = ucmpi_coll_tmpbuf(s, p.segc, dt)) == NULL)
            return MPI_ERR_NO_MEM;
        if (!inplace(&p) && !whole && i < g->size - 2 &&
            (p.part[i] = ucmpi_coll_tmpbuf(s, maxc, dt)) == NULL)
            return MPI_ERR_NO_MEM;
    }
    return rounds(s, &p);
}

int ucmpi_rs_ring_seg(ucmpi_sched_t *s, const void *in, void *rbuf,
                      const MPI_Count *counts, MPI_Datatype dt, MPI_Op op,
                      const ucmpi_coll_grp_t *g)
{
    int n = g->size, r = g->rank, rc;
    MPI_Count *displs = ucmpi_sched_alloc(s, (n + 1) * sizeof(MPI_Count));

    if (displs == NULL)
        return MPI_ERR_NO_MEM;
    ucmpi_rs_displs(counts, n, displs);
    rc = ucmpi_rs_ring_seg_rounds(s, in, rbuf, counts, displs, dt, op, g, 0);
    if (rc == MPI_SUCCESS && in == rbuf && r > 0)   /* block r to the front */
        rc = ucmpi_sched_copy(s, ucmpi_coll_at(rbuf, displs[r], dt),
                              counts[r], dt, rbuf, counts[r], dt);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_sched_fence(s);
    return rc;
}
