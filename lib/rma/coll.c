/*
 * The few collectives windows need (creation exchange, fence, free), on
 * the collective context of the window's private communicator, so RMA
 * does not depend on lib/coll/.
 */
#include "rma/rma.h"

#include <stdlib.h>
#include <string.h>

static int wait_free(ucmpi_request_t *req, int rc)
{
    int st = ucmpi_request_wait(req);
    ucmpi_request_free(req);
    return rc != MPI_SUCCESS ? rc : st;
}

/* Dissemination barrier: ceil(log2 n) rounds of one send and one recv. */
int ucmpi_rma_barrier(ucmpi_comm_t *comm)
{
    int n = comm->size, me = comm->rank, rc = MPI_SUCCESS;
    int tag = ucmpi_comm_next_coll_tag(comm);
    char s = 0, r;

    /* after a failed round (dead partner) keep sending the later rounds
     * without receiving: live ranks waiting on us must not hang */
    for (int d = 1; d < n; d <<= 1) {
        ucmpi_request_t *rq = NULL, *sq = NULL;
        int rc1 = MPI_SUCCESS;
        if (rc == MPI_SUCCESS)
            rc1 = ucmpi_irecv(&r, 1, MPI_BYTE, (me - d + n) % n, tag, comm,
                              UCMPI_CTX_COLL, &rq);
        int rc2 = ucmpi_isend(&s, 1, MPI_BYTE, (me + d) % n, tag, comm,
                              UCMPI_CTX_COLL, UCMPI_SEND_STANDARD, &sq);
        if (rq != NULL)
            rc1 = wait_free(rq, rc1);
        if (sq != NULL)
            rc2 = wait_free(sq, rc2);
        if (rc == MPI_SUCCESS)
            rc = rc1 != MPI_SUCCESS ? rc1 : rc2;
    }
    return rc;
}

/* Everyone sends its block to everyone: fine at window-creation rates. */
int ucmpi_rma_allgather(ucmpi_comm_t *comm, const void *mine, void *all,
                        size_t len)
{
    int n = comm->size, me = comm->rank, rc = MPI_SUCCESS;
    int tag = ucmpi_comm_next_coll_tag(comm);
    ucmpi_request_t **reqs = malloc(2 * n * sizeof(*reqs));

    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    memcpy((char *)all + len * me, mine, len);
    for (int i = 0; i < n; i++) {
        reqs[2 * i] = reqs[2 * i + 1] = NULL;
        if (i == me)
            continue;
        int r1 = ucmpi_irecv((char *)all + len * i, (MPI_Count)len, MPI_BYTE,
                             i, tag, comm, UCMPI_CTX_COLL, &reqs[2 * i]);
        int r2 = ucmpi_isend(mine, (MPI_Count)len, MPI_BYTE, i, tag, comm,
                             UCMPI_CTX_COLL, UCMPI_SEND_STANDARD,
                             &reqs[2 * i + 1]);
        if (rc == MPI_SUCCESS)
            rc = r1 != MPI_SUCCESS ? r1 : r2;
    }
    for (int i = 0; i < 2 * n; i++)
        if (reqs[i] != NULL)
            rc = wait_free(reqs[i], rc);
    free(reqs);
    return rc;
}
