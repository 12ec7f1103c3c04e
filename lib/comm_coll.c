/*
 * Small blocking collectives for communicator management (context-id
 * agreement, split, intercommunicator set-up), built directly on the
 * internal point-to-point so they do not depend on lib/coll/.
 *
 * A channel (ucmpi_cc_t) is a set of participants 0..size-1 reached as
 * comm ranks map[i] on one sub-context and tag: the whole comm, or just a
 * group's members (MPI_Comm_create_group).  Trees are binomial, rooted at
 * participant 0 unless said otherwise.
 */
#include "ucmpi.h"
#include "comm_internal.h"

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

static int wait_free(ucmpi_request_t *req, MPI_Status *st)
{
    int rc = ucmpi_request_wait(req);
    if (st != NULL)
        *st = req->status;
    ucmpi_request_free(req);
    return rc;
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

int ucmpi_cc_bcast(const ucmpi_cc_t *cc, void *buf, size_t bytes, int root)
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
    return rc != MPI_SUCCESS ? rc : ucmpi_cc_bcast(cc, buf, bytes, 0);
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

int ucmpi_cc_allreduce_band(const ucmpi_cc_t *cc, uint64_t *mask, int words)
{
    return allreduce(cc, mask, words * sizeof(uint64_t), band);
}

int ucmpi_cc_allreduce_sum(const ucmpi_cc_t *cc, int *v, int n)
{
    return allreduce(cc, v, n * sizeof(int), isum);
}

/* Binomial gather to 0 (a subtree holds a contiguous block of
 * participants), then broadcast of the whole array. */
int ucmpi_cc_allgather(const ucmpi_cc_t *cc, const void *in, void *out,
                       size_t bytes)
{
    int n = cc->size, me = cc->rank, rc = MPI_SUCCESS;
    char *o = out;

    memcpy(o + (size_t)me * bytes, in, bytes);
    for (int mask = 1; mask < n; mask <<= 1) {
        if (me & mask) {
            int cnt = me + mask < n ? mask : n - me;
            rc = send_bytes(cc, o + (size_t)me * bytes, cnt * bytes,
                            me - mask);
            break;
        }
        if (me + mask < n) {
            int from = me + mask;
            int cnt = from + mask < n ? mask : n - from;
            rc = recv_bytes(cc, o + (size_t)from * bytes, cnt * bytes, from);
            if (rc != MPI_SUCCESS)
                break;
        }
    }
    return rc != MPI_SUCCESS ? rc : ucmpi_cc_bcast(cc, out, n * bytes, 0);
}

/* Leaders' exchange: send sbuf to and receive rbuf from `to` on comm's
 * sub-context with tag (both posted before waiting: no deadlock). */
int ucmpi_cc_sendrecv(ucmpi_comm_t *comm, int sub, int tag, const void *sbuf,
                      size_t sbytes, void *rbuf, size_t rbytes, int to)
{
    ucmpi_request_t *sreq, *rreq;
    int rc1 = ucmpi_irecv(rbuf, (MPI_Count)rbytes, MPI_BYTE, to, tag, comm,
                          sub, &rreq);
    int rc2 = ucmpi_isend(sbuf, (MPI_Count)sbytes, MPI_BYTE, to, tag, comm,
                          sub, UCMPI_SEND_STANDARD, &sreq);
    int rc3 = wait_free(sreq, NULL);
    int rc4 = wait_free(rreq, NULL);
    if (rc1 != MPI_SUCCESS)
        return rc1;
    if (rc2 != MPI_SUCCESS)
        return rc2;
    return rc3 != MPI_SUCCESS ? rc3 : rc4;
}
