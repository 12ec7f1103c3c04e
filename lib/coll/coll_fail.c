/* The error paths of coll_util.h that need the shm path and the request
 * layer (the unit tests link their own: test/unit/coll_mock.c). */
#include "coll/coll_util.h"
#include "coll/shm/shm.h"

int ucmpi_coll_skip(ucmpi_comm_t *comm, int rc, int shm_kind, size_t nbytes,
                    int local_too)
{
    ucmpi_coll_shm_t *sh;
    uint64_t k;

    if (shm_kind >= 0 && ucmpi_coll_shm_wanted(comm, shm_kind, nbytes)) {
        /* the others wait for my flag at k (and its buffer stays unread) */
        int e = ucmpi_coll_shm_enter(comm, &sh, &k);

        if (e == MPI_SUCCESS)
            ucmpi_coll_shm_post(sh, k);
        if (e != UCMPI_SHM_FALLBACK)
            return rc;
    }
    ucmpi_sched_note_local(comm, comm->coll_seq);
    (void)ucmpi_comm_next_coll_tag(comm);
    if (local_too && comm->is_inter && comm->local_comm != NULL)
        (void)ucmpi_comm_next_coll_tag(comm->local_comm);
    return rc;
}

void ucmpi_coll_release(ucmpi_sched_t *s, int build_rc)
{
    ucmpi_request_t *r;
    MPI_Request req;

    ucmpi_sched_note_local(ucmpi_sched_comm(s), ucmpi_sched_seq(s));
    if (build_rc != MPI_SUCCESS ||
        ucmpi_sched_start(s, 0, &r) != MPI_SUCCESS) {
        ucmpi_sched_free(s);
        return;
    }
    req = r;
    (void)PMPI_Request_free(&req);   /* completes with progress */
}

