/* MPI_Barrier / Ibarrier / Barrier_init: nobody leaves before the last
 * rank entered (rank `late` sleeps before entering; the others check the
 * time they left against its entry time, shared through a bcast). */
#include "coll_common.h"
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    for (int form = 0; form < 3; form++) {
        MPI_Request req = MPI_REQUEST_NULL;
        if (form == 2)
            MT_CHECK_RC(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        for (int late = 0; late < size; late += (size > 4 ? 3 : 1)) {
            double entered = 0, left;
            if (rank == late) {
                usleep(50000);
                entered = MPI_Wtime();
            }
            if (form == 0) {
                MT_CHECK_RC(MPI_Barrier(MPI_COMM_WORLD));
            } else {
                if (form == 1)
                    MT_CHECK_RC(MPI_Ibarrier(MPI_COMM_WORLD, &req));
                else
                    MT_CHECK_RC(MPI_Start(&req));
                MT_CHECK_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
            }
            left = MPI_Wtime();
            MT_CHECK_RC(MPI_Bcast(&entered, 1, MPI_DOUBLE, late, MPI_COMM_WORLD));
            MT_CHECK(left >= entered, "form %d: left at %f before rank %d "
                     "entered at %f", form, left, late, entered);
        }
        if (form == 2)
            MT_CHECK_RC(MPI_Request_free(&req));
    }
    return mt_finish();
}
