/* Small blocking collectives for comm management and windows, on internal p2p
 * so neither needs lib/coll/; channels: docs/architecture.md "comm: channels". */
#include "p2p/pt2pt.h"
#include "comm/comm_internal.h"

#include <stdlib.h>
#include <string.h>

void ucmpi_cc_init(ucmpi_cc_t *cc, ucmpi_comm_t *comm)
{
    cc->comm = comm;
    cc->sub = UCMPI_CTX_COLL;
    cc->tag = ucmpi_comm_next_coll_tag(comm);
    cc->size = comm->size;
    cc->rank = comm->rank;
    cc->map = NULL;
}

static int peer(const ucmpi_cc_t *cc, int i)
{
    return cc->map ? cc->map[i] : i;
}

/* Waits for and frees req; rc if it is an error, else the wait's code. */
static int wait_keep_first(ucmpi_request_t *req, int rc)
{
    int st = ucmpi_request_wait(req);
    ucmpi_request_free(req);
    return rc != MPI_SUCCESS ? rc : st;
}

static int send_bytes(const ucmpi_cc_t *cc, const void *buf, size_t n,
                      int to)
{
    return ucmpi_send(buf, (MPI_Count)n, MPI_BYTE, peer(cc, to), cc->tag,
                      cc->comm, cc->sub);
}

static int recv_bytes(const ucmpi_cc_t *cc, void *buf, size_t n, int from)
{
    return ucmpi_recv(buf, (MPI_Count)n, MPI_BYTE, peer(cc, from), cc->tag,
                      cc->comm, cc->sub, MPI_STATUS_IGNORE);
}

static int bcast(const ucmpi_cc_t *cc, void *buf, size_t bytes, int root)
{
    int n = cc->size, vr = (cc->rank - root + n) % n, mask = 1, rc;

    while (mask < n) {
        if (vr & mask) {
            rc = recv_bytes(cc, buf, bytes, (vr - mask + root) % n);
            if (rc != MPI_SUCCESS)
                return rc;
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < n) {
            rc = send_bytes(cc, buf, bytes, (vr + mask + root) % n);
            if (rc != MPI_SUCCESS)
                return rc;
        }
    return MPI_SUCCESS;
}

/* Reduce to participant 0 with a combining function, then broadcast. */
static int allreduce(const ucmpi_cc_t *cc, void *buf, size_t bytes,
                     void (*combine)(void *acc, const void *in, size_t bytes))
{
    int rc = MPI_SUCCESS;
    void *tmp = malloc(bytes ? bytes : 1);
    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    for (int mask = 1; mask < cc->size; mask <<= 1) {
        if (cc->rank & mask) {
            rc = send_bytes(cc, buf, bytes, cc->rank - mask);
            break;
        }
        if (cc->rank + mask < cc->size) {
            rc = recv_bytes(cc, tmp, bytes, cc->rank + mask);
            if (rc != MPI_SUCCESS)
                break;
            combine(buf, tmp, bytes);
        }
    }
    free(tmp);
    return rc != MPI_SUCCESS ? rc : bcast(cc, buf, bytes, 0);
}

static void band(void *acc, const void *in, size_t bytes)
{
    uint64_t *a = acc;
    const uint64_t *b = in;
    for (size_t i = 0; i < bytes / sizeof(uint64_t); i++)
        a[i] &= b[i];
}

static void isum(void *acc, const void *in, size_t bytes)
{
    int *a = acc;
    const int *b = in;
    for (size_t i = 0; i < bytes / sizeof(int); i++)
        a[i] += b[i];
}

/* Send sbuf to and receive rbuf from `to` on comm's sub-context with tag
 * (both posted before waiting: no deadlock). */
static int sendrecv(ucmpi_comm_t *comm, int sub, int tag, const void *sbuf,
                    size_t sbytes, void *rbuf, size_t rbytes, int to)
{
    ucmpi_request_t *sreq, *rreq;
    int rc1 = ucmpi_irecv(rbuf, (MPI_Count)rbytes, MPI_BYTE, to, tag, comm,
                          sub, &rreq);
    int rc2 = ucmpi_isend(sbuf, (MPI_Count)sbytes, MPI_BYTE, to, tag, comm,
                          sub, UCMPI_SEND_STANDARD, &sreq);
    int rc = wait_keep_first(sreq, rc1 != MPI_SUCCESS ? rc1 : rc2);
    return wait_keep_first(rreq, rc);
}

/* Exchange with participant `with`: both posted before waiting. */
static int swap_bytes(const ucmpi_cc_t *cc, const void *sbuf, void *rbuf,
                      size_t n, int with)
{
    return sendrecv(cc->comm, cc->sub, cc->tag, sbuf, n, rbuf, n,
                    peer(cc, with));
}

/* Takes from `from` the AND of its mask and the blocks of participants
 * [lo, lo + cnt) and of their folded partners [lo + pof2, ...). */
static void merge(char *buf, const char *from, size_t mb, size_t bytes,
                  int lo, int cnt, int pof2, int n)
{
    band(buf, from, mb);
    if (bytes == 0)
        return;
    memcpy(buf + mb + (size_t)lo * bytes, from + mb + (size_t)lo * bytes,
           (size_t)cnt * bytes);
    int hi = lo + pof2 + cnt < n ? lo + pof2 + cnt : n;
    if (lo + pof2 < hi)
        memcpy(buf + mb + (size_t)(lo + pof2) * bytes,
               from + mb + (size_t)(lo + pof2) * bytes,
               (size_t)(hi - lo - pof2) * bytes);
}

/* Allgather and AND of `words` mask words in one recursive-doubling pass: log2 n
 * rounds, not 4 log2 n messages (each a context switch when oversubscribed). */
int ucmpi_cc_allgather_band(const ucmpi_cc_t *cc, const void *in, void *out,
                            size_t bytes, uint64_t *mask, int words)
{
    int n = cc->size, me = cc->rank, pof2 = 1, rc = MPI_SUCCESS;
    size_t mb = (size_t)words * sizeof(uint64_t), total = mb + n * bytes;
    /* zeroed: blocks not gathered yet travel too (valgrind, TCP) */
    char *buf = calloc(1, 2 * total + 1), *tmp = buf + total;

    if (buf == NULL)
        return MPI_ERR_NO_MEM;
    while (pof2 * 2 <= n)
        pof2 *= 2;
    if (mb > 0)
        memcpy(buf, mask, mb);
    if (bytes > 0)
        memcpy(buf + mb + (size_t)me * bytes, in, bytes);
    if (me >= pof2) {                       /* folded in, served last */
        rc = send_bytes(cc, buf, total, me - pof2);
        if (rc == MPI_SUCCESS)
            rc = recv_bytes(cc, buf, total, me - pof2);
    } else {
        if (me + pof2 < n) {
            rc = recv_bytes(cc, tmp, total, me + pof2);
            if (rc == MPI_SUCCESS)
                merge(buf, tmp, mb, bytes, me + pof2, 1, pof2, n);
        }
        for (int k = 1; k < pof2 && rc == MPI_SUCCESS; k <<= 1) {
            int with = me ^ k;
            rc = swap_bytes(cc, buf, tmp, total, with);
            if (rc == MPI_SUCCESS)
                merge(buf, tmp, mb, bytes, with & ~(k - 1), k, pof2, n);
        }
        if (rc == MPI_SUCCESS && me + pof2 < n)
            rc = send_bytes(cc, buf, total, me + pof2);
    }
    if (rc == MPI_SUCCESS && mb > 0)
        memcpy(mask, buf, mb);
    if (rc == MPI_SUCCESS && bytes > 0)
        memcpy(out, buf + mb, n * bytes);
    free(buf);
    return rc;
}

/* Dissemination barrier: after a failed round (dead partner) it keeps sending
 * the later rounds without receiving, so live ranks waiting on us don't hang. */
int ucmpi_cc_barrier(const ucmpi_cc_t *cc)
{
    int n = cc->size, me = cc->rank, rc = MPI_SUCCESS;
    char s = 0, r;

    for (int d = 1; d < n; d <<= 1) {
        ucmpi_request_t *rq = NULL, *sq = NULL;
        int rc1 = MPI_SUCCESS;
        if (rc == MPI_SUCCESS)
            rc1 = ucmpi_irecv(&r, 1, MPI_BYTE, peer(cc, (me - d + n) % n),
                              cc->tag, cc->comm, cc->sub, &rq);
        int rc2 = ucmpi_isend(&s, 1, MPI_BYTE, peer(cc, (me + d) % n),
                              cc->tag, cc->comm, cc->sub, UCMPI_SEND_STANDARD,
                              &sq);
        if (rq != NULL)
            rc1 = wait_keep_first(rq, rc1);
        if (sq != NULL)
            rc2 = wait_keep_first(sq, rc2);
        if (rc == MPI_SUCCESS)
            rc = rc1 != MPI_SUCCESS ? rc1 : rc2;
    }
    return rc;
}

/* All blocks posted at once: a failed peer costs only its own block (fine at
 * window-creation rates). */
int ucmpi_cc_allgather_direct(const ucmpi_cc_t *cc, const void *mine,
                              void *all, size_t len)
{
    int n = cc->size, me = cc->rank, rc = MPI_SUCCESS;
    ucmpi_request_t **reqs = malloc(2 * n * sizeof(*reqs));

    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    memcpy((char *)all + len * me, mine, len);
    for (int i = 0; i < n; i++) {
        reqs[2 * i] = reqs[2 * i + 1] = NULL;
        if (i == me)
            continue;
        int r1 = ucmpi_irecv((char *)all + len * i, (MPI_Count)len, MPI_BYTE,
                             peer(cc, i), cc->tag, cc->comm, cc->sub,
                             &reqs[2 * i]);
        int r2 = ucmpi_isend(mine, (MPI_Count)len, MPI_BYTE, peer(cc, i),
                             cc->tag, cc->comm, cc->sub, UCMPI_SEND_STANDARD,
                             &reqs[2 * i + 1]);
        if (rc == MPI_SUCCESS)
            rc = r1 != MPI_SUCCESS ? r1 : r2;
    }
    for (int i = 0; i < 2 * n; i++)
        if (reqs[i] != NULL)
            rc = wait_keep_first(reqs[i], rc);
    free(reqs);
    return rc;
}

int ucmpi_cc_allreduce_band(const ucmpi_cc_t *cc, uint64_t *mask, int words)
{
    return ucmpi_cc_allgather_band(cc, NULL, NULL, 0, mask, words);
}

int ucmpi_cc_allreduce_sum(const ucmpi_cc_t *cc, int *v, int n)
{
    return allreduce(cc, v, n * sizeof(int), isum);
}

int ucmpi_cc_allgather(const ucmpi_cc_t *cc, const void *in, void *out,
                       size_t bytes)
{
    return ucmpi_cc_allgather_band(cc, in, out, bytes, NULL, 0);
}

int ucmpi_cc_swap_bcast(const ucmpi_cc_t *cc, const ucmpi_cc_link_t *l,
                        const void *sbuf, size_t sbytes, void *rbuf,
                        size_t rbytes)
{
    int rc = cc->rank != l->leader ? MPI_SUCCESS
             : sendrecv(l->comm, l->sub, l->tag, sbuf, sbytes, rbuf, rbytes,
                        l->to);
    return rc != MPI_SUCCESS ? rc : bcast(cc, rbuf, rbytes, l->leader);
}
