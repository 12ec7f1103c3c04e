/* Scattered and pairwise alltoall(v,w): step k pairs r with r+k and r-k, so a
 * fence between batches cannot deadlock, even under rendezvous. */
#include "coll/alltoall/alltoall.h"
#include "core/config.h"

/* Peers exchanged per round by "scattered" (tunable ALLTOALL_WINDOW). */
static int alltoall_window(void)
{
    long w = ucmpi_config_long("ALLTOALL_WINDOW");

    return w < 1 ? 1 : (int)w;
}

/* MPI_IN_PLACE: the data to send is what the receive buffer holds, so
 * copy it aside (packed) before anything lands. */
static ucmpi_xblk_t *inplace_sblk(ucmpi_sched_t *s, const ucmpi_xblk_t *r,
                                  int n, int self)
{
    ucmpi_xblk_t *b = ucmpi_sched_alloc(s, sizeof(*b) * (size_t)n);
    size_t total = 0;
    char *tmp;

    if (b == NULL)
        return NULL;
    for (int i = 0; i < n; i++)
        total += i == self ? 0 : ucmpi_xblk_bytes(&r[i]);
    tmp = ucmpi_sched_alloc(s, total ? total : 1);
    if (tmp == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        size_t len = i == self ? 0 : ucmpi_xblk_bytes(&r[i]);

        b[i] = (ucmpi_xblk_t){tmp, (MPI_Count)len, MPI_BYTE};
        if (len && ucmpi_sched_copy(s, r[i].buf, r[i].count, r[i].dt, tmp,
                                    len, MPI_BYTE) != MPI_SUCCESS)
            return NULL;
        tmp += len;
    }
    return b;
}

/* Copies the own block into the receive buffer (intracomm, not in place). */
static int own_copy(ucmpi_sched_t *s, const ucmpi_coll_args_t *a,
                    const ucmpi_xblk_t *sb, const ucmpi_xblk_t *rb)
{
    int r = a->rank;

    if (a->comm->is_inter || a->sbuf == MPI_IN_PLACE ||
        !ucmpi_xblk_bytes(&rb[r]))
        return MPI_SUCCESS;
    return ucmpi_sched_copy(s, sb[r].buf, sb[r].count, sb[r].dt, rb[r].buf,
                            rb[r].count, rb[r].dt);
}

static int exchange(ucmpi_sched_t *s, const ucmpi_coll_args_t *a, int window)
{
    ucmpi_comm_t *c = a->comm;
    int n = c->remote_size, r = a->rank, inter = c->is_inter, rc = 0;
    const ucmpi_xblk_t *rb = a->rblk ? a->rblk
                                     : ucmpi_xblk_uniform(s, n, a->rbuf,
                                                          a->rcount, a->rdt);
    const ucmpi_xblk_t *sb = a->sblk;
    int copied = 0;

    if (rb == NULL)
        return MPI_ERR_NO_MEM;
    if (a->sbuf == MPI_IN_PLACE) {
        sb = inplace_sblk(s, rb, n, r);
        if (sb == NULL || ucmpi_sched_fence(s) != MPI_SUCCESS)
            return MPI_ERR_NO_MEM;
    } else if (sb == NULL) {
        sb = ucmpi_xblk_uniform(s, n, a->sbuf, a->scount, a->sdt);
        if (sb == NULL)
            return MPI_ERR_NO_MEM;
    }
    if (inter)
        window = n;   /* peers' step numbers do not line up: one round */
    for (int k = inter ? 0 : 1, inbatch = 0; k < n && rc == 0; k++) {
        int to = (r + k) % n, from = ((r - k) % n + n) % n;

        if (ucmpi_xblk_bytes(&sb[to]))
            rc = ucmpi_sched_send(s, sb[to].buf, sb[to].count, sb[to].dt, to);
        if (rc == 0 && ucmpi_xblk_bytes(&rb[from]))
            rc = ucmpi_sched_recv_exact(s, rb[from].buf, rb[from].count,
                                        rb[from].dt, from);
        /* own block: copied once the first batch is posted, so the
         * copy overlaps the peers' transfers (as in allgather_ring.c) */
        if (rc == 0 && !copied && (inbatch + 1 == window || k == n - 1)) {
            rc = own_copy(s, a, sb, rb);
            copied = 1;
        }
        if (rc == 0 && ++inbatch == window && k < n - 1) {
            rc = ucmpi_sched_fence(s);
            inbatch = 0;
        }
    }
    if (rc == 0 && !copied)
        rc = own_copy(s, a, sb, rb);
    return rc;
}

int ucmpi_alltoall_scattered(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return exchange(s, a, alltoall_window());
}

int ucmpi_alltoall_pairwise(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    return exchange(s, a, 1);
}
