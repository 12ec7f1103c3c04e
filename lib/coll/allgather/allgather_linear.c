/* Linear allgather(v): all to all in one round; the intercommunicator form
 * and a baseline. */
#include "coll/allgather/allgather.h"

int ucmpi_allgather_linear(ucmpi_sched_t *s, const ucmpi_coll_args_t *a)
{
    ucmpi_comm_t *c = a->comm;
    int n = c->remote_size, inter = c->is_inter, rc = MPI_SUCCESS;
    const ucmpi_xblk_t *b = a->rblk ? a->rblk
                                    : ucmpi_xblk_uniform(s, n, a->rbuf,
                                                         a->rcount, a->rdt);
    const void *sbuf = a->sbuf;
    MPI_Count scount = a->scount;
    MPI_Datatype sdt = a->sdt;

    if (b == NULL)
        return MPI_ERR_NO_MEM;
    if (!inter && sbuf == MPI_IN_PLACE) {
        sbuf = b[a->rank].buf;   /* own block is already in place */
        scount = b[a->rank].count;
        sdt = b[a->rank].dt;
    } else if (!inter) {
        rc = ucmpi_allgather_own(s, a, &b[a->rank]);
    }
    /* shifted order so that not everyone hits rank 0 first */
    for (int k = inter ? 0 : 1; k < n && rc == MPI_SUCCESS; k++) {
        int to = (a->rank + k) % n, from = (a->rank - k % n + n) % n;

        if (scount * sdt->size != 0)
            rc = ucmpi_sched_send(s, sbuf, scount, sdt, to);
        if (rc == MPI_SUCCESS && ucmpi_xblk_bytes(&b[from]))
            rc = ucmpi_sched_recv_exact(s, b[from].buf, b[from].count,
                                        b[from].dt, from);
    }
    return rc;
}
