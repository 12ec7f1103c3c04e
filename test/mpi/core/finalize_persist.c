/* Persistent requests the program never frees (inactive, or started and
 * waited) release what they hold at MPI_Finalize: a collective's schedule,
 * and a communicator and a datatype the program freed that only such
 * requests keep alive (MPICH comm/inactive_reqs).  The leak shows under
 * ASan (LeakSanitizer) and valgrind --leak-check; a plain run checks that
 * the objects still work while held and are torn down once, cleanly. */
#include "../mpitest.h"

#include <string.h>

static int comm_deleted, type_deleted;

static int comm_del(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm; (void)keyval; (void)val; (void)extra;
    comm_deleted++;
    return MPI_SUCCESS;
}

static int type_del(MPI_Datatype t, int keyval, void *val, void *extra)
{
    (void)t; (void)keyval; (void)val; (void)extra;
    type_deleted++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int rank, size, ckey, tkey, in[4] = {1, 2, 3, 4}, out[4], pair[2];
    MPI_Comm comm;
    MPI_Datatype two;
    MPI_Request never, waited, bar, bcast, send, recv;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK_RC(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_del,
                                       &ckey, NULL));
    MT_CHECK_RC(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_del,
                                       &tkey, NULL));
    MT_CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MT_CHECK_RC(MPI_Comm_set_attr(comm, ckey, NULL));

    /* on the user comm: never started; started and waited; a barrier */
    MT_CHECK_RC(MPI_Allreduce_init(in, out, 4, MPI_INT, MPI_SUM, comm,
                                   MPI_INFO_NULL, &never));
    MT_CHECK_RC(MPI_Allreduce_init(in, out, 4, MPI_INT, MPI_SUM, comm,
                                   MPI_INFO_NULL, &waited));
    MT_CHECK_RC(MPI_Start(&waited));
    MT_CHECK_RC(MPI_Wait(&waited, MPI_STATUS_IGNORE));
    for (int i = 0; i < 4; i++)
        MT_CHECK(out[i] == (i + 1) * size, "out[%d]=%d", i, out[i]);
    MT_CHECK_RC(MPI_Barrier_init(comm, MPI_INFO_NULL, &bar));
    MT_CHECK_RC(MPI_Start(&bar));
    MT_CHECK_RC(MPI_Wait(&bar, MPI_STATUS_IGNORE));
    MT_CHECK_RC(MPI_Comm_free(&comm));
    /* MPI_Comm_free runs the delete callbacks; the object lives on */
    MT_CHECK(comm_deleted == 1, "comm delete callbacks ran %d times",
             comm_deleted);

    /* on the world: a bcast started and waited, never freed */
    MT_CHECK_RC(MPI_Bcast_init(out, 4, MPI_INT, 0, MPI_COMM_WORLD,
                               MPI_INFO_NULL, &bcast));
    MT_CHECK_RC(MPI_Start(&bcast));
    MT_CHECK_RC(MPI_Wait(&bcast, MPI_STATUS_IGNORE));

    /* point-to-point with a derived type the program freed */
    MT_CHECK_RC(MPI_Type_contiguous(2, MPI_INT, &two));
    MT_CHECK_RC(MPI_Type_commit(&two));
    MT_CHECK_RC(MPI_Type_set_attr(two, tkey, NULL));
    MT_CHECK_RC(MPI_Send_init(in, 1, two, rank, 7, MPI_COMM_WORLD, &send));
    MT_CHECK_RC(MPI_Recv_init(pair, 1, two, rank, 7, MPI_COMM_WORLD, &recv));
    MT_CHECK_RC(MPI_Start(&recv));
    MT_CHECK_RC(MPI_Start(&send));
    MT_CHECK_RC(MPI_Wait(&send, MPI_STATUS_IGNORE));
    MT_CHECK_RC(MPI_Wait(&recv, MPI_STATUS_IGNORE));
    MT_CHECK(pair[0] == 1 && pair[1] == 2, "received %d %d", pair[0],
             pair[1]);
    MT_CHECK_RC(MPI_Type_free(&two));
    MT_CHECK(type_deleted == 1, "type delete callbacks ran %d times",
             type_deleted);

    int errors = mt_errors;
    MPI_Finalize();
    if (comm_deleted != 1 || type_deleted != 1 || errors) {
        fprintf(stderr, "[rank %d] after MPI_Finalize: comm destroyed %d "
                "time(s), type %d (want 1 each); %d check(s) failed\n",
                rank, comm_deleted, type_deleted, errors);
        return 1;
    }
    return 0;
}
